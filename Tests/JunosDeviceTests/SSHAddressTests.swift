import Foundation
import Testing

@testable import JunosDevice

/// `addresses` (digits) with `port`, in this order, as the resolver would give them for a name.
func addresses(_ texts: [String], port: Int) throws -> [SocketAddress] {
  var out: [SocketAddress] = []
  for t in texts { out += try SocketAddress.resolve(t, port: port, family: .any, where_: t) }
  return out
}

/// Each address of a host is tried in turn, as OpenSSH does; the host key is checked under the
/// name. The shared server listens on 127.0.0.1 only, so `[::1]` on its port is refused (or
/// unreachable where the machine has no IPv6).
@Suite(.enabled(if: SSHServer.available || sshRequired, "no sshd here: \(SSHServer.failure ?? "")"))
struct SSHAddressTests {
  let server: SSHServer
  init() throws { server = try SSHServer.required() }

  @Test func aRefusedAddressIsSkippedAndTheKeyIsCheckedUnderTheName() throws {
    var o = testOptions(server)
    o.host = "lab-router"
    o.knownHostsFile = tempPath("kh-name")
    o.hostKeyPolicy = .acceptNew
    let list = try addresses(["::1", "127.0.0.1"], port: server.port)
    let s = try SSHSession(o, addresses: list)
    #expect(s.address == "127.0.0.1")
    #expect(try s.exec(.version).exitStatus == 0)
    let recorded = try String(contentsOfFile: try #require(o.knownHostsFile), encoding: .utf8)
    #expect(recorded.hasPrefix("[lab-router]:\(server.port) ssh-ed25519 "), "\(recorded)")
    o.hostKeyPolicy = .strict
    #expect(try SSHSession(o, addresses: list).address == "127.0.0.1")
    // known_hosts has the key under the address only: the name is unknown.
    o.knownHostsFile = server.knownHosts
    #expect {
      _ = try SSHSession(o, addresses: list)
    } throws: { ($0 as? DeviceError)?.kind == .hostKeyUnknown && "\($0)".contains("lab-router:\(server.port)") }
  }

  @Test func everyAddressTriedIsNamedWhenAllFail() throws {
    var o = testOptions(server)
    o.host = "lab-router"
    let port = try closedPort()
    o.port = port
    let list = try addresses(["::1", "127.0.0.1"], port: port)
    do {
      _ = try SSHSession(o, addresses: list)
      Issue.record("connected to a closed port")
    } catch {
      #expect(error.kind == .connect)
      #expect(error.message.hasPrefix("lab-router:\(port): cannot connect to any of its 2 addresses: [::1] "), "\(error)")
      #expect(error.message.contains(", 127.0.0.1 Connection refused"), "\(error)")
    }
  }

  /// Only connection failures move on: a host key or authentication failure stops at the
  /// address that answered (the server sees one connection).
  @Test func hostKeyAndAuthFailuresStopAtTheFirstAddress() throws {
    let own = try OwnedSSHServer()
    defer { own.stop() }
    let list = try addresses(["127.0.0.1", "127.0.0.1"], port: own.server.port)
    var o = testOptions(own.server)
    o.knownHostsFile = own.server.knownHostsWrong
    #expect { _ = try SSHSession(o, addresses: list) } throws: { ($0 as? DeviceError)?.kind == .hostKeyChanged }
    o.knownHostsFile = own.server.knownHosts
    o.identityFiles = [own.server.otherKey]
    #expect { _ = try SSHSession(o, addresses: list) } throws: { ($0 as? DeviceError)?.kind == .authDenied }
    #expect(own.server.log().components(separatedBy: "Connection from 127.0.0.1").count - 1 == 2, "\(own.server.log())")
  }

  /// Whatever "localhost" resolves to here (127.0.0.1 alone, or ::1 first as on a stock Debian),
  /// it reaches the server on 127.0.0.1.
  @Test func localhostReachesTheServerOnIPv4() throws {
    let resolved = try SocketAddress.resolve("localhost", port: server.port, family: .any, where_: "localhost").map(\.text)
    try #require(resolved.contains("127.0.0.1"), "localhost does not resolve to 127.0.0.1 here: \(resolved)")
    var o = testOptions(server)
    o.host = "localhost"
    o.knownHostsFile = tempPath("kh-localhost")
    o.hostKeyPolicy = .acceptNew
    let s = try SSHSession(o)
    #expect(s.address == "127.0.0.1", "localhost resolves to \(resolved)")
  }

  /// `AddressFamily` from the ssh config (which libssh 0.10 ignores) limits the addresses tried;
  /// the option given in code wins over it.
  @Test func addressFamilyFromTheConfig() throws {
    let file = tempPath("ssh-config-af")
    try """
    Host v4-only
      HostName localhost
      AddressFamily inet
    Host v6-only
      HostName 127.0.0.1
      AddressFamily inet6
    Host *
      Port \(server.port)
      User \(server.user)
      IdentityFile \(server.key)
      UserKnownHostsFile \(tempPath("kh-af"))
    """.write(toFile: file, atomically: true, encoding: .utf8)
    var o = SSHOptions(host: "v4-only")
    o.configFile = file
    o.sshDirectory = server.stateDir + "/empty-ssh-dir"
    o.hostKeyPolicy = .acceptNew
    #expect(try SSHSession(o).address == "127.0.0.1")
    o.host = "v6-only"
    #expect {
      _ = try SSHSession(o)
    } throws: { ($0 as? DeviceError)?.kind == .connect && "\($0)".contains("no IPv6 address (AddressFamily inet6)") }
    o.addressFamily = .any
    #expect(try SSHSession(o).address == "127.0.0.1")
  }
}

/// A server of the test's own on `::1` (where the machine has IPv6 on loopback).
@Suite(
  .enabled(if: SSHServer.available || sshRequired, "no sshd here: \(SSHServer.failure ?? "")"),
  .enabled(if: noIPv6Loopback == nil, "no IPv6 on loopback here (\(noIPv6Loopback ?? "")): the ::1 tests cannot run"))
struct SSHIPv6Tests {
  @Test func ownServerOnIPv6Loopback() throws {
    let own = try OwnedSSHServer(listen: ["::1"])
    defer { own.stop() }
    let server = own.server
    #expect(server.host == "::1")
    var o = testOptions(server)
    let s = try SSHSession(o)  // known_hosts has [::1]:port
    #expect(s.address == "::1")
    #expect(try s.exec(.commitList).exitStatus == 0)
    // IPv4 first, refused: the next address answers.
    o.host = "lab-router"
    o.knownHostsFile = tempPath("kh-v6")
    o.hostKeyPolicy = .acceptNew
    #expect(try SSHSession(o, addresses: try addresses(["127.0.0.1", "::1"], port: server.port)).address == "::1")
    o.host = "::1"
    o.addressFamily = .inet
    #expect {
      _ = try SSHSession(o)
    } throws: { ($0 as? DeviceError)?.kind == .connect && "\($0)".contains("no IPv4 address (AddressFamily inet)") }
  }
}

/// The ssh config lines junoscope reads itself.
@Suite struct SSHConfigLookupTests {
  @Test func firstValueForTheHostWins() throws {
    let dir = tempPath("config-lookup")
    try FileManager.default.createDirectory(atPath: dir + "/conf.d", withIntermediateDirectories: true)
    try "Host r1\n  ConnectTimeout 3\n".write(toFile: dir + "/conf.d/a.conf", atomically: true, encoding: .utf8)
    try """
    # comment
    Include conf.d/*.conf
    Host r* !r9
      AddressFamily=inet6
    Host r9
      AddressFamily "inet"
    Match originalhost r1,r2
      ConnectTimeout 7
    Match exec "true"
      AddressFamily any
    Host *
      AddressFamily any
      ConnectTimeout 20
    """.write(toFile: dir + "/config", atomically: true, encoding: .utf8)
    func lookup(_ host: String) -> SSHConfigLookup { SSHConfigLookup(host: host, file: dir + "/config", sshDirectory: dir, home: dir) }
    #expect(lookup("r1").addressFamily == .inet6)
    #expect(lookup("r1").connectTimeout == 3)
    #expect(lookup("r2").connectTimeout == 7)
    #expect(lookup("r9").addressFamily == .inet)
    #expect(lookup("x").addressFamily == SSHOptions.AddressFamily.any)
    #expect(lookup("x").connectTimeout == 20)
    #expect(SSHConfigLookup(host: "r1", file: dir + "/missing", sshDirectory: dir, home: dir).values.isEmpty)
  }
}
