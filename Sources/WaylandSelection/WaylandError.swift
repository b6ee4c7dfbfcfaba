/// Why a Wayland clipboard operation failed, in words that name what to do.
public struct WaylandError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The kinds of failure.
    public enum Code: Sendable, Hashable {
        /// libwayland-client is not installed.
        case libraryUnavailable
        /// The compositor cannot be reached (no socket at the name, or it refused).
        case noCompositor
        /// The compositor offers no data-control protocol (GNOME's Mutter has none), or no seat.
        case protocolUnavailable
        /// The compositor closed the connection, or a protocol error ended it.
        case connectionLost
        /// A wait reached its deadline: the compositor or the owner did not answer.
        case timedOut
        /// The selection is empty, or its owner does not offer the type asked.
        case typeUnavailable
        /// The owner's data could not be read.
        case transferFailed
    }

    /// The kind of failure.
    public var code: Code
    /// What went wrong.
    public var message: String

    /// An error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
