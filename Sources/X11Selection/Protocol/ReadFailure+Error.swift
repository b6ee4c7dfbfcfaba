extension ReadStateMachine.Failure {
    /// The error a read that ended this way throws, shared by ``X11Connection`` and
    /// ``BlockingSelectionReader`` so both say the same thing. `context` is "selection:target".
    func selectionError(
        context: String, replyTimeout: Duration, idleTimeout: Duration, byteCount: Int
    ) -> SelectionError {
        switch self {
        case .refused:
            SelectionError(.targetUnavailable, "\(context): the owner refused the conversion")
        case .invalidReply(let why):
            SelectionError(.invalidReply, "\(context): \(why)")
        case .noReply:
            SelectionError(.timedOut, "\(context): no reply from the owner within \(replyTimeout)")
        case .ownerGone:
            SelectionError(.ownerGone, "\(context): the owner went away before it finished answering")
        case .stalled:
            SelectionError(
                .timedOut,
                "\(context): the incremental transfer stalled after \(byteCount) bytes (no chunk for \(idleTimeout))")
        }
    }
}
