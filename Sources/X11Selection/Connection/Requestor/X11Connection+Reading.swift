import Logging
import FoundationEssentials

/// The requestor's public API: the owner of a selection, its TARGETS, whole reads. The reads run on their
/// caller's executor and wait on loan (`X11Connection+Loans.swift`); the loop's side of each is the
/// `Requestor`'s (`Requestor+Reading.swift`, `Requestor+ReadDriver.swift`).
extension X11Connection {
    // MARK: Public requestor API

    /// The window that owns `selection`, or nil when nobody does.
    ///
    /// - Throws: `.connectionLost` / `.shutDown` when the connection is closed.
    public func owner(of selection: SelectionName) throws -> X11Window? {
        let display = try requireDisplay()
        return display.selectionOwner(try atom(for: selection.rawValue))
    }

    /// The owner's TARGETS list, as it sent it (meta targets included).
    ///
    /// - Throws: `.noOwner`, `.targetUnavailable` (owner refused TARGETS), `.invalidReply` (not a list of
    ///   atoms), `.timedOut`, `.connectionLost`, `.shutDown`.
    ///
    /// Runs on the caller's executor (see `read(_:target:timeout:)`).
    public nonisolated(nonsending) func targets(of selection: SelectionName, timeout: Duration? = nil) async throws
        -> [SelectionTarget]
    {
        try await targets(of: selection, at: nil, timeout: timeout)
    }

    /// ``targets(of:timeout:)`` with the conversion stamped with `time` (a drop's; nil: the latest server time).
    nonisolated(nonsending) func targets(of selection: SelectionName, at time: X11Timestamp?, timeout: Duration?)
        async throws -> [SelectionTarget]
    {
        try await readWhole(selection, target: .targets, timeout: timeout, time: time) { connection, data in
            try connection.targetList(from: data)
        }
    }

    /// Reads `selection` converted to `target`, whole (INCR transfers are reassembled).
    ///
    /// - Throws: `.noOwner`; `.targetUnavailable` with the owner's TARGETS in `availableTargets`;
    ///   `.timedOut` (no reply within `timeout`, default `Configuration.readTimeout`, or an INCR transfer
    ///   idle longer than `incrementalIdleTimeout`); `.invalidReply`; `.connectionLost`; `.shutDown`;
    ///   `CancellationError` when the task is cancelled.
    ///
    /// Runs on the caller's executor (`nonisolated(nonsending)`). A caller elsewhere, while the connection's
    /// loop sleeps, does the X work on its own thread for up to `Configuration.inlineWaitLimit` (a *loan*:
    /// no thread is woken, as in a single-threaded Xlib client); if the loop is busy, or the reply takes
    /// longer, the loop finishes the read and resumes the caller once (two thread wake-ups). A caller on the
    /// connection's executor (inside `withIsolation`) sends the request itself and is resumed by the loop in
    /// its own turn, with no wake-up at all.
    public nonisolated(nonsending) func read(
        _ selection: SelectionName, target: SelectionTarget, timeout: Duration? = nil)
        async throws -> SelectionData
    {
        try await readWhole(selection, target: target, timeout: timeout) { _, data in data }
    }

    /// ``read(_:target:timeout:)`` with the conversion request stamped with `time` rather than the latest
    /// server time (nil: the latest, as there): a drop target converts `XdndSelection` with the time of the
    /// XdndDrop (XDND), so the data is the drag's even if the source took the selection again since.
    public nonisolated(nonsending) func read(
        _ selection: SelectionName, target: SelectionTarget, at time: X11Timestamp?, timeout: Duration? = nil)
        async throws -> SelectionData
    {
        try await readWhole(selection, target: target, timeout: timeout, time: time) { _, data in data }
    }

    /// Reads `selection` as `target` whole, then runs `transform` on the loop with the result.
    ///
    /// The caller's task waits in its own context (its executor: `nonisolated(nonsending)`). Off the loop it
    /// first tries a loan (`awaitOnLoan`): no thread wake-up at all when the reply comes within
    /// `Configuration.inlineWaitLimit`. Otherwise the loop resumes it once, when the read ends: two thread
    /// wake-ups (in, and back). A caller on the loop starts the read inline, and the loop enqueues its
    /// continuation on itself while awake.
    nonisolated(nonsending) func readWhole<T: Sendable>(
        _ selection: SelectionName, target: SelectionTarget, timeout: Duration?, time: X11Timestamp? = nil,
        transform: @escaping @Sendable (isolated X11Connection, SelectionData) throws -> T
    ) async throws -> T {
        let cancellation = ReadCancellation()
        let wait = LoanedWait<T>()
        do {
            return try await awaitOnLoan(wait) { connection in
                connection.requestor.startWholeRead(
                    selection, target: target, timeout: timeout, time: time, cancellation: cancellation,
                    transform: transform, wait: wait, on: connection)
            } onCancel: {
                cancellation.cancel()
                return { $0.requestor.cancelWholeReads(cancellation, on: $0) }
            }
        } catch let error as SelectionError where error.code == .targetUnavailable {
            throw await explain(error, selection: selection, target: target)
        }
    }

    // MARK: Helpers for the public API

    func targetList(from data: SelectionData) throws(SelectionError) -> [SelectionTarget] {
        let list = try Format32.targetAtoms(data.bytes, type: data.type, format: data.format)
        return try names(for: list).compactMap { $0.map(SelectionTarget.init(rawValue:)) }
    }

    func typeName(_ atom: X11Atom) throws(SelectionError) -> SelectionTarget {
        if atom.isNone { return SelectionTarget(rawValue: "None") }
        // Every read ends here: the cached name without the arrays of the general lookup.
        if closedError == nil, let cached = atoms.cachedName(atom) { return SelectionTarget(rawValue: cached) }
        return SelectionTarget(rawValue: try names(for: [atom])[0] ?? "atom#\(atom.rawValue)")
    }

    /// Turns a bare refusal into `.noOwner` or into `.targetUnavailable` carrying the owner's TARGETS.
    func explain(_ error: SelectionError, selection: SelectionName, target: SelectionTarget) async
        -> SelectionError
    {
        guard error.code == .targetUnavailable else { return error }
        guard (try? owner(of: selection)) != nil else {
            return SelectionError(.noOwner, "\(selection): nobody owns the selection")
        }
        guard target != .targets,
            let offered = try? await targets(of: selection, timeout: configuration.readTimeout)
        else { return error }
        let list = offered.filter { !$0.isMetaTarget }.map(\.rawValue).joined(separator: ", ")
        return SelectionError(
            .targetUnavailable, "\(selection):\(target): the owner cannot convert to \(target); it offers: \(list)",
            availableTargets: offered)
    }
}
