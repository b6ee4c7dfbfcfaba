/// The link protocol's version and the bounds its decoder enforces: everything the peer sends is untrusted input,
/// and every size it names is checked against these before anything is allocated for it.
package enum LinkLimits {
    /// The protocol version this build speaks. Both ends send theirs in ``LinkMessage/hello(_:)``; a link whose ends
    /// speak different versions is refused with both named (``LinkProtocolError/versionMismatch(ours:ourSoftware:theirs:theirSoftware:)``).
    package static let version: UInt16 = 1
    /// The bytes each end writes before its first frame: a peer that prints anything else (a shell's "command not
    /// found", a login banner on standard output) is told apart at once.
    package static let preamble: [UInt8] = Array("clipbridge-link\n".utf8)
    /// The length of a frame's header: kind (1 byte), stream (4), payload length (4).
    package static let headerLength = 9
    /// The largest payload of any frame. An announcement of many types is the largest; a peer naming more is cut off.
    package static let maximumPayload = 1 << 20
    /// The largest flavour piece in one `data` frame: small enough that a transfer's frame never holds up another
    /// transfer for long (the writer alternates between them frame by frame).
    package static let maximumDataBytes = 256 << 10
    /// The longest type name (X atom names and MIME types are far shorter in practice).
    package static let maximumNameBytes = 4096
    /// The longest reason in a `fail` frame, and software description in `hello` (longer ones are cut, not refused).
    package static let maximumTextBytes = 4096
    /// The most transfers a peer may have asked for and not ended; a further `fetch` is answered with `fail`.
    package static let maximumOpenFetches = 32
    /// What a requester lets the server send ahead of what it has passed on: the transfer's memory bound on the
    /// receiving side, and enough in flight to fill a fast link.
    package static let fetchWindow: UInt32 = 4 << 20
    /// Credit is given back once this much of the window has been passed on.
    package static let creditStep: UInt32 = 1 << 20
    /// A link that has carried nothing for this long is sent a ping.
    package static let pingInterval: Duration = .seconds(10)
    /// A link from which nothing came for this long is closed as dead (a ping is answered at once).
    package static let silenceLimit: Duration = .seconds(35)
}
