import Foundation
import Testing

/// How test helpers end.
@Suite(.enabled(if: SSHServer.available || sshRequired, "no sshd here: \(SSHServer.failure ?? "")"))
struct HelperProcessTests {
  struct Planned: Error {}

  /// A test that throws still ends its helpers: the owner objects stop them as they go (no
  /// `defer` needed).
  @Test func helpersEndWhenTheTestThrows() throws {
    var agentPid: Int32 = 0
    var sshdPid: Int32 = 0
    #expect(throws: Planned.self) {
      let agent = try HelperProcess("/usr/bin/ssh-agent", ["-D", "-a", tempPath("agent-throws") + ".sock"])
      let own = try OwnedSSHServer()
      try withExtendedLifetime((agent, own)) {
        agentPid = agent.pid
        sshdPid = own.server.pid
        #expect(isRunning(agentPid) && isRunning(sshdPid))
        throw Planned()
      }
    }
    #expect(agentPid > 0 && !isRunning(agentPid))
    #expect(sshdPid > 0 && !isRunning(sshdPid))
  }

  /// When the process that owns them dies without cleaning up (a crash), the harness ends them.
  @Test func helpersEndWhenTheirOwnerDies() throws {
    let owner = try Helper.spawn("/bin/sleep", ["60"])
    defer { owner.end() }
    let agent = try HelperProcess("/usr/bin/ssh-agent", ["-D", "-a", tempPath("agent-orphan") + ".sock"], owner: owner.pid)
    let own = try OwnedSSHServer(owner: owner.pid)
    defer {
      agent.stop()
      own.stop()
    }
    #expect(isRunning(agent.pid) && isRunning(own.server.pid))
    kill(owner.pid, SIGKILL)
    owner.wait()
    for _ in 0..<100 where isRunning(agent.pid) || isRunning(own.server.pid) { usleep(50_000) }
    #expect(!isRunning(agent.pid))
    #expect(!isRunning(own.server.pid))
  }
}
