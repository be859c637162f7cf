import JunosConfig
import Testing

@Suite struct IPPrefixTests {
  @Test func parsesIPv4PrefixesAndHostAddresses() throws {
    let p = try #require(IPPrefix("10.0.0.0/8"))
    #expect(p.family == .inet)
    #expect(p.bytes == [10, 0, 0, 0])
    #expect(p.length == 8)
    #expect(p.width == 32)
    let host = try #require(IPPrefix("10.255.0.11"))
    #expect(host.bytes == [10, 255, 0, 11])
    #expect(host.length == 32)
    #expect(IPPrefix("0.0.0.0/0")?.length == 0)
    #expect(IPPrefix("255.255.255.255/32")?.bytes == [255, 255, 255, 255])
  }

  @Test(arguments: [
    ("::", [UInt16](repeating: 0, count: 8)),
    ("::1", [0, 0, 0, 0, 0, 0, 0, 1]),
    ("1::", [1, 0, 0, 0, 0, 0, 0, 0]),
    ("2001:db8::1", [0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]),
    ("2001:DB8:0:0:1::", [0x2001, 0xdb8, 0, 0, 1, 0, 0, 0]),
    ("1:2:3::6:7:8", [1, 2, 3, 0, 0, 6, 7, 8]),
    ("1:2:3:4:5:6:7::", [1, 2, 3, 4, 5, 6, 7, 0]),
    ("::2:3:4:5:6:7:8", [0, 2, 3, 4, 5, 6, 7, 8]),
    ("1:2:3:4:5:6:7:8", [1, 2, 3, 4, 5, 6, 7, 8]),
    ("fe80::abcd:ef01", [0xfe80, 0, 0, 0, 0, 0, 0xabcd, 0xef01]),
    ("::ffff:192.0.2.1", [0, 0, 0, 0, 0, 0xffff, 0xc000, 0x0201]),
    ("64:ff9b::198.51.100.7", [0x64, 0xff9b, 0, 0, 0, 0, 0xc633, 0x6407]),
    ("1:2:3:4:5:6:10.0.0.1", [1, 2, 3, 4, 5, 6, 0x0a00, 0x0001]),
  ])
  func parsesIPv6WithTheGapAnywhere(text: String, groups: [UInt16]) throws {
    let p = try #require(IPPrefix(text))
    #expect(p.family == .inet6)
    #expect(p.length == 128)
    #expect(p.bytes == groups.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] })
  }

  @Test(arguments: [
    "", "1.2.3", "256.0.0.0", "1.2.3.4.5", "1..2.3", "1.2.3.4/", "/24", "10.0.0.0/33", "10.0.0.0/8/8",
    " 10.0.0.0/8", "10.0.0.0/-1", "10.0.0.0/1000", "::1::", "1::2::3", ":::", ":1", "1:", "1:2:3:4:5:6:7:8:9",
    "1:2:3:4:5:6:7:8::", "::1:2:3:4:5:6:7:8", "1::2:3:4:5:6:7:8", "12345::", "g::", "1.2.3.4::", "::1.2.3",
    "1:2:3:4:5:6:7:1.2.3.4", "2001:db8::/129", "host",
  ])
  func rejectsMalformedInput(text: String) {
    #expect(IPPrefix(text) == nil)
  }

  @Test(arguments: [
    ("10.0.0.0/8", "10.0.0.0/8"),
    ("10.255.0.11", "10.255.0.11/32"),
    ("2001:0DB8:0000:0000:0000:0000:0000:0001", "2001:db8::1/128"),
    ("2001:db8::/32", "2001:db8::/32"),
    ("1:0:0:2:0:0:0:3", "1:0:0:2::3/128"),
    ("1:0:0:2:0:0:3:4", "1::2:0:0:3:4/128"),
    ("1:0:2:3:4:5:6:7", "1:0:2:3:4:5:6:7/128"),
    ("::", "::/128"),
    ("::/0", "::/0"),
    ("::1", "::1/128"),
    ("1::", "1::/128"),
    ("::ffff:192.0.2.1", "::ffff:192.0.2.1/128"),
    ("::ffff:c000:201/96", "::ffff:192.0.2.1/96"),
  ])
  func descriptionIsCanonicalAndRoundTrips(text: String, expected: String) throws {
    let p = try #require(IPPrefix(text))
    #expect(p.description == expected)
    #expect(IPPrefix(p.description) == p)
  }

  @Test func networkClearsHostBits() {
    #expect(IPPrefix("10.254.0.1/31")?.network.description == "10.254.0.0/31")
    #expect(IPPrefix("10.255.0.11/8")?.network.description == "10.0.0.0/8")
    #expect(IPPrefix("192.0.2.77/0")?.network.description == "0.0.0.0/0")
    #expect(IPPrefix("2001:db8:1:2:3:4:5:6/33")?.network.description == "2001:db8::/33")
    #expect(IPPrefix("2001:db8:ffff::/36")?.network.description == "2001:db8:f000::/36")
  }

  @Test func containmentAndOverlap() throws {
    let ten = try #require(IPPrefix("10.0.0.0/8"))
    #expect(ten.contains(try #require(IPPrefix("10.255.0.11/32"))))
    #expect(ten.contains(ten))
    #expect(!ten.contains(try #require(IPPrefix("11.0.0.0/8"))))
    #expect(!ten.contains(try #require(IPPrefix("0.0.0.0/0"))))
    #expect(try #require(IPPrefix("0.0.0.0/0")).contains(ten))
    #expect(try #require(IPPrefix("10.1.0.0/17")).contains(try #require(IPPrefix("10.1.127.0/24"))))
    #expect(!(try #require(IPPrefix("10.1.0.0/17")).contains(try #require(IPPrefix("10.1.128.0/24")))))
    #expect(ten.overlaps(try #require(IPPrefix("0.0.0.0/0"))))
    #expect(!ten.overlaps(try #require(IPPrefix("172.16.0.0/12"))))
    let v6 = try #require(IPPrefix("2001:db8::/32"))
    #expect(v6.contains(try #require(IPPrefix("2001:db8:ffff::/48"))))
    #expect(!v6.contains(try #require(IPPrefix("2001:db9::/48"))))
    // Different families never contain or overlap each other, even for /0.
    #expect(!(try #require(IPPrefix("::/0")).contains(ten)))
    #expect(!(try #require(IPPrefix("0.0.0.0/0")).overlaps(v6)))
  }
}
