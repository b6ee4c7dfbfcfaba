import SelectionCore

/// Why a link's stream was refused or ended: the peer broke the protocol, or speaks another version of it.
package enum LinkProtocolError: Error, Sendable, Equatable, ReportedError, CustomStringConvertible {
    /// The peer did not start with the link's preamble: what it wrote instead (the first line, cut short).
    case notALink(wrote: String)
    /// The two ends speak different versions of the protocol.
    case versionMismatch(ours: UInt16, ourSoftware: String, theirs: UInt16, theirSoftware: String)
    /// A frame broke the format or the protocol's rules.
    case malformed(String)

    package var reportedMessage: String {
        switch self {
        case .notALink(let wrote):
            "the far end is not a clipbridge link: it wrote \"\(wrote)\""
        case .versionMismatch(let ours, let ourSoftware, let theirs, let theirSoftware):
            "the far end speaks link protocol version \(theirs) (\(theirSoftware)); this end speaks version \(ours) "
                + "(\(ourSoftware)): install the same clipbridge on both machines"
        case .malformed(let what):
            "the far end broke the link protocol: \(what)"
        }
    }

    package var description: String { reportedMessage }
}
