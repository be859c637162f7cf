import JunosConfig
import Testing

/// Juniper's schema patterns read as POSIX extended regular expressions on bytes, as Junos reads
/// them (`regcomp` in the C locale), not as Swift `Regex` reads them.
@Suite struct POSIXRegexTests {
  func matches(_ pattern: String, _ value: String) throws -> Bool {
    let r = try #require(POSIXRegex(pattern))
    return r.matches(Array(value.utf8)[...])
  }

  @Test func patternsOfTheSchema() throws {
    // Names: not `__…`, at most 64 bytes.
    #expect(try matches("^((__.*)|(.{65,}))$", "__P"))
    #expect(try !matches("^((__.*)|(.{65,}))$", "P"))
    #expect(try matches("^((__.*)|(.{65,}))$", String(repeating: "x", count: 65)))
    #expect(try !matches("^((__.*)|(.{65,}))$", String(repeating: "x", count: 64)))
    // Route targets: `[[:alnum:]]`-style classes, bounded repeats, alternatives.
    #expect(try matches("^[0-9.]+L?:[0-9]+$", "65000:100"))
    #expect(try matches("^[0-9.]+L?:[0-9]+$", "192.0.2.1L:7"))
    #expect(try !matches("^[0-9.]+L?:[0-9]+$", "65000:x"))
    #expect(try matches("^[[:alnum:]][[:alnum:]_-]*$", "PE-1_a"))
    #expect(try !matches("^[[:alnum:]][[:alnum:]_-]*$", "-PE"))
    #expect(try matches("^([0-9a-fA-F]){2}(:([0-9a-fA-F]){2}){0,254}$", "0a:1B:ff"))
    // A pattern without anchors matches anywhere (`![/ %]`: no slash, blank or percent).
    #expect(try matches("[/ %]", "a b"))
    #expect(try !matches("[/ %]", "ab"))
  }

  @Test func posixRulesNotSwiftOnes() throws {
    // A backslash in brackets is itself; `[0-f]` is the byte range from '0' to 'f'.
    #expect(try matches("^[a\\.]+$", "a\\."))
    #expect(try matches("^[0-f]$", "Z"))
    // `.` is one byte: a two-byte character counts twice against `.{1,2}`.
    #expect(try matches("^.{2}$", "é"))
    // A `]` outside brackets is an ordinary character (one of Juniper's patterns has a stray one).
    #expect(try matches("^1[0-9]0-9]$", "150-9]"))
  }

  @Test func valuesAreBytesWithTheirLength() throws {
    let r = try #require(POSIXRegex("^a.c$"))
    // The slice's bounds are the value's: the bytes around it are not read.
    #expect(r.matches(Array("xxabcxx".utf8)[2..<5]))
    #expect(!r.matches(Array("abcc".utf8)[...]))
    #expect(!r.matches([][...]))
    #expect(try matches("^$", ""))
  }

  @Test func unreadablePatternsAreRefused() {
    #expect(POSIXRegex("(a") == nil)
    #expect(POSIXRegex("[a") == nil)
  }
}
