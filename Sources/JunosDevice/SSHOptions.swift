/// Why talking to a device failed.
public struct DeviceError: Error, Sendable, CustomStringConvertible {
  /// What kind of failure.
  public enum Kind: String, Sendable {
    /// The TCP connection failed (refused, no route, name not resolved).
    case connect
    /// A connect, command or overall deadline passed.
    case timeout
    /// The host's key is not in known_hosts (strict checking).
    case hostKeyUnknown
    /// The host's key differs from the one in known_hosts: always refused.
    case hostKeyChanged
    /// known_hosts could not be read or written.
    case hostKeyError
    /// No authentication method was accepted.
    case authDenied
    /// A bad option, key file or ssh config file.
    case config
    /// A channel could not be opened or a request was refused.
    case channel
    /// The connection broke.
    case io
    /// A command that is not on the read-only allow-list (never sent).
    case notReadOnly
    /// The device answered with an error (`error: …`, a non-zero exit, an `<rpc-error>`).
    case device
    /// The device's answer could not be understood.
    case protocolError
  }

  /// What kind of failure.
  public var kind: Kind
  /// The whole message, for a person.
  public var message: String

  /// Creates an error.
  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  /// `kind: message`.
  public var description: String { "\(kind.rawValue): \(message)" }
}

/// How to reach a device over SSH.
public struct SSHOptions: Sendable {
  /// What to do with a host key that is not in known_hosts yet. A key that differs from the
  /// recorded one is refused whatever this says.
  public enum HostKeyPolicy: Sendable {
    /// Refuse, with the key's fingerprint and how to accept it.
    case strict
    /// Record it in known_hosts and go on (`--accept-new-host-key`).
    case acceptNew
  }

  /// Which addresses of a host name to try (ssh_config's `AddressFamily`).
  public enum AddressFamily: String, Sendable {
    /// IPv6 and IPv4, in the order the resolver gives them.
    case any
    /// IPv4 only (`-4`).
    case inet
    /// IPv6 only (`-6`).
    case inet6
  }

  /// Host name, address or `~/.ssh/config` alias.
  public var host: String
  /// Port; nil: the ssh config's, else 22.
  public var port: Int?
  /// User; nil: the ssh config's, else the local user.
  public var user: String?
  /// Private key files to try, in order (`-i`); empty: the agent, then `~/.ssh/id_*` and the
  /// config's IdentityFile.
  public var identityFiles: [String] = []
  /// known_hosts to check (and, with ``HostKeyPolicy/acceptNew``, to write); nil: the config's
  /// UserKnownHostsFile, else `~/.ssh/known_hosts`. The system-wide file is never consulted.
  public var knownHostsFile: String?
  /// Host key policy.
  public var hostKeyPolicy: HostKeyPolicy = .strict
  /// The ssh config file to read (`-F`); nil: `~/.ssh/config` unless ``ignoreConfig``.
  public var configFile: String?
  /// Read no ssh config file at all.
  public var ignoreConfig = false
  /// The password, from `JUNOSCOPE_PASSWORD` or a prompt — never from the command line.
  public var password: String?
  /// Passphrase for encrypted identity files, if any.
  public var passphrase: String?
  /// Which addresses to try; nil: the ssh config's `AddressFamily`, else ``AddressFamily/any``.
  /// Every address of the host (after the config's `HostName`) is tried in turn until one
  /// accepts the TCP connection, as OpenSSH does.
  public var addressFamily: AddressFamily?
  /// Seconds for the TCP connect (to each address tried), then for the key exchange and
  /// authentication.
  public var connectTimeout: Double = 10
  /// Seconds one command may take.
  public var commandTimeout: Double = 120
  /// Seconds the whole session may last (every command included); nil: no limit.
  public var deadline: Double?
  /// Seconds after which an idle wait sends a keepalive (SSH_MSG_IGNORE).
  public var keepaliveInterval: Double = 15
  /// The ssh-agent socket; nil: `SSH_AUTH_SOCK`.
  public var agentSocket: String?
  /// Directory standing in for `~/.ssh` (default identities and known_hosts); nil: the real one.
  public var sshDirectory: String?

  /// Options for a host, all else default.
  public init(host: String) { self.host = host }
}
