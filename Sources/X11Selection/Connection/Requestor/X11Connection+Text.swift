import FoundationEssentials

extension X11Connection {
    /// The selection's text as a String, from the best text target the owner offers in
    /// `TextReadOrder` (`UTF8_STRING`, `text/plain;charset=utf-8`, `COMPOUND_TEXT`, `STRING`,
    /// `TEXT`, `text/plain`), the next when one fails. UTF-8 targets are decoded as UTF-8 (invalid sequences become U+FFFD), STRING as ISO-8859-1,
    /// COMPOUND_TEXT (and TEXT replies of that type) with Xlib's converters; `text/plain` as UTF-8 when
    /// valid, else ISO-8859-1. When the owner does not answer TARGETS, UTF8_STRING then STRING are tried.
    ///
    /// - Throws: `.noOwner`; `.targetUnavailable` when no text target is offered; `.invalidReply` when
    ///   COMPOUND_TEXT cannot be converted; `.timedOut`; `.connectionLost`; `.shutDown`.
    ///
    /// Runs on the caller's executor, like `read(_:target:timeout:)`: no thread hop inside `withIsolation`.
    /// Every conversion is stamped with `time` when one is given (a drop's, XDND), else with the latest server
    /// time.
    public nonisolated(nonsending) func readText(
        _ selection: SelectionName, at time: X11Timestamp? = nil, timeout: Duration? = nil
    ) async throws -> String {
        var candidates: [SelectionTarget]
        do {
            let offered = try await targets(of: selection, at: time, timeout: timeout)
            candidates = TextEncodings.readOrder(offered)
            guard !candidates.isEmpty else {
                throw SelectionError(
                    .targetUnavailable, "\(selection): the owner offers no text target",
                    availableTargets: offered)
            }
        } catch let error as SelectionError where error.code == .invalidReply || error.code == .targetUnavailable {
            if !error.availableTargets.isEmpty { throw error }
            candidates = [.utf8String, .string]
        }
        var lastError: SelectionError?
        for target in candidates {
            do {
                // Decoded on the loop (COMPOUND_TEXT needs Xlib), in the same hop as the read.
                return try await readWhole(selection, target: target, timeout: timeout, time: time) { connection, data in
                    try connection.decodeText(data)
                }
            } catch let error as SelectionError
                where error.code == .targetUnavailable || error.code == .invalidReply
            {
                lastError = error
            }
        }
        throw lastError ?? SelectionError(.targetUnavailable, "\(selection): no text target could be read")
    }

    func decodeText(_ data: SelectionData) throws(SelectionError) -> String {
        switch TextEncodings.decoding(target: data.target, type: data.type) {
        case .utf8:
            return String(decoding: data.bytes, as: UTF8.self)
        case .latin1:
            if data.target == .plainText, let utf8 = TextEncodings.fromUTF8(data.bytes) { return utf8 }
            return TextEncodings.fromLatin1(data.bytes)
        case .xlib:
            let display = try requireDisplay()
            let typeAtom = try atom(for: data.type.rawValue)
            guard let text = display.decodeText(data.bytes, type: typeAtom) else {
                throw SelectionError(.invalidReply, "\(data.target): Xlib cannot convert the \(data.type) reply")
            }
            return text
        }
    }
}
