import Logging
import FoundationEssentials

/// Several targets in one MULTIPLE request (ICCCM 2.6.2), and the fallback to one read per target. The loop's
/// side, the MULTIPLE read itself, is `Requestor+MultipleReads.swift`.
extension X11Connection {
    /// Reads several targets in one MULTIPLE request (ICCCM 2.6.2). Each target gets its own result;
    /// targets the owner refused map to `.targetUnavailable`. When the owner does not support MULTIPLE
    /// (refuses it or answers something that is not an ATOM_PAIR list), the targets are read one by one.
    ///
    /// Runs on the caller's executor like `read(_:target:timeout:)` (on loan when the loop sleeps, else the
    /// loop assembles every target's data and resumes the caller once).
    ///
    /// - Throws: `.noOwner`, `.timedOut` (no reply to MULTIPLE), `.connectionLost`, `.shutDown`.
    public nonisolated(nonsending) func read(
        _ selection: SelectionName, targets: [SelectionTarget], timeout: Duration? = nil
    ) async throws -> [SelectionTarget: Result<SelectionData, SelectionError>] {
        let requested = Self.uniqueTargets(targets)
        guard !requested.isEmpty else { return [:] }
        switch try await multipleOutcome(selection, targets: requested, timeout: timeout, bounds: nil) {
        case .results(let results):
            return results
        case .unusable(let error):
            return try await readAfterUnusableMultiple(selection, targets: requested, timeout: timeout, error: error)
        }
    }

    /// Reads `targets` in one MULTIPLE request with every reply bounded: one target's data past `perTarget`
    /// bytes, or all of them together past `total`, ends that target with `.tooLarge`, abandoned unread (a
    /// snapshot then reads it alone, streamed to a file). Nil when the owner cannot do MULTIPLE (it refused,
    /// answered something else or not at all): the caller reads the targets one by one, as it sees fit.
    ///
    /// - Throws: `.noOwner`, `.connectionLost`, `.shutDown`; cancellation.
    nonisolated(nonsending) func readMultiple(
        _ selection: SelectionName, targets: [SelectionTarget], timeout: Duration?, perTarget: Int, total: Int
    ) async throws -> [SelectionTarget: Result<SelectionData, SelectionError>]? {
        let requested = Self.uniqueTargets(targets)
        guard !requested.isEmpty else { return [:] }
        switch try await multipleOutcome(selection, targets: requested, timeout: timeout, bounds: (perTarget, total)) {
        case .results(let results):
            return results
        case .unusable(let error):
            try await multipleUnusable(selection, error)
            return nil
        }
    }

    /// The targets without repeats, first places kept (linear: a peer chooses how many it lists).
    private static func uniqueTargets(_ targets: [SelectionTarget]) -> [SelectionTarget] {
        var seen = Set<SelectionTarget>()
        return targets.filter { seen.insert($0).inserted }
    }

    /// Sends one MULTIPLE for `targets` and waits, on loan, until every target ended or MULTIPLE proved
    /// unusable.
    private nonisolated(nonsending) func multipleOutcome(
        _ selection: SelectionName, targets: [SelectionTarget], timeout: Duration?,
        bounds: (perTarget: Int, total: Int)?
    ) async throws -> MultipleOutcome {
        let cancellation = ReadCancellation()
        let wait = LoanedWait<MultipleOutcome>()
        return try await awaitOnLoan(wait) { connection in
            connection.requestor.startWholeMultiple(
                selection, targets: targets, timeout: timeout, bounds: bounds, cancellation: cancellation, wait: wait,
                on: connection)
        } onCancel: {
            cancellation.cancel()
            return { $0.requestor.cancelWholeReads(cancellation, on: $0) }
        }
    }

    /// How a MULTIPLE read ended on the loop.
    enum MultipleOutcome: Sendable {
        case results([SelectionTarget: Result<SelectionData, SelectionError>])
        /// The owner refused MULTIPLE, answered it with something else, or never answered.
        case unusable(SelectionError)
    }

    /// MULTIPLE was unusable: nobody owns the selection, or the targets are read one by one.
    private func readAfterUnusableMultiple(
        _ selection: SelectionName, targets: [SelectionTarget], timeout: Duration?, error: SelectionError
    ) async throws -> [SelectionTarget: Result<SelectionData, SelectionError>] {
        try multipleUnusable(selection, error)
        return try await readOneByOne(selection, targets: targets, timeout: timeout)
    }

    /// MULTIPLE did not work: throws `.noOwner` when the owner left, else counts the fallback.
    private func multipleUnusable(_ selection: SelectionName, _ error: SelectionError) throws {
        if try owner(of: selection) == nil {
            throw SelectionError(.noOwner, "\(selection): nobody owns the selection")
        }
        requestor.multipleFallbacks += 1
        logger.debug("\(selection):MULTIPLE unusable (\(error)); reading the targets one by one")
    }

    private func readOneByOne(_ selection: SelectionName, targets: [SelectionTarget], timeout: Duration?)
        async throws -> [SelectionTarget: Result<SelectionData, SelectionError>]
    {
        var results: [SelectionTarget: Result<SelectionData, SelectionError>] = [:]
        for target in targets {
            do {
                results[target] = .success(try await read(selection, target: target, timeout: timeout))
            } catch let error as SelectionError {
                if error.code == .connectionLost || error.code == .shutDown { throw error }
                results[target] = .failure(error)
            }
        }
        return results
    }

    /// MULTIPLE requests that were unusable and replaced by single reads (read by the MULTIPLE tests).
    var multipleFallbacks: Int { requestor.multipleFallbacks }
    /// MULTIPLE requests sent (diagnostics, for tests).
    var multipleRequests: Int { requestor.multipleRequests }
}
