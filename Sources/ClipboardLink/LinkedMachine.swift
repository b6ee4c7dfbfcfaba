/// Another machine's clipboard as a bridge joins it: through a link to a `clipbridge bridge --stdio` there, opened (and
/// opened again after it dropped) by a command such as `ssh`.
public struct LinkedMachine: Sendable, Equatable {
    /// Its name in reports (`ssh:host`).
    public let name: String
    /// Whether this end started the link; at the start, its content wins over the far end's.
    package let role: LinkPolicy.Role
    /// Starts the transport: runs the command, or takes this process's standard streams.
    package let open: @Sendable () async throws -> LinkTransport
    /// How long the far end has to say hello once the transport is open (an ssh login included).
    package let handshakeTimeout: Duration

    package init(
        name: String, role: LinkPolicy.Role, handshakeTimeout: Duration = .seconds(60),
        open: @escaping @Sendable () async throws -> LinkTransport
    ) {
        self.name = name
        self.role = role
        self.handshakeTimeout = handshakeTimeout
        self.open = open
    }

    public static func == (lhs: LinkedMachine, rhs: LinkedMachine) -> Bool { lhs.name == rhs.name }
}
