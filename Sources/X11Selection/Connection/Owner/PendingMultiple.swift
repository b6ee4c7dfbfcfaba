/// A MULTIPLE request being served: the pairs, the pending-notify counter, and where to answer.
struct PendingMultiple {
    var request: MultipleRequest
    let claimID: UInt64
    let requestor: X11Window
    let property: X11Atom
    let selection: X11Atom
    let time: X11Timestamp
}

/// Where the answer to one conversion goes: a SelectionNotify of its own, or a pair of a MULTIPLE.
enum ReplyRoute {
    case direct(X11Event.SelectionRequest, property: X11Atom)
    case multiple(id: UInt64, index: Int, requestor: X11Window, property: X11Atom)

    var requestor: X11Window {
        switch self {
        case .direct(let request, _): return request.requestor
        case .multiple(_, _, let requestor, _): return requestor
        }
    }

    var property: X11Atom {
        switch self {
        case .direct(_, let property): return property
        case .multiple(_, _, _, let property): return property
        }
    }
}

/// The caller of a MULTIPLE read (requestor side) waiting for every target: its wait is completed once.
///
/// Invariant that makes `@unchecked Sendable` sound — the lock is the loop token (`LoopToken.assertHeld`
/// checks): created and used only by the thread in the loop's role
/// — the loop thread, or a caller on loan (`X11EventLoop.lend`) — in `startWholeMultiple` and the
/// completions of the MULTIPLE's reads; the compiler cannot see that those completions' `isolated
/// X11Connection` is the same actor.
final class MultipleWait: @unchecked Sendable {
    private let wait: LoanedWait<X11Connection.MultipleOutcome>
    private var remaining: Int
    private var results: [SelectionTarget: Result<SelectionData, SelectionError>] = [:]

    init(_ wait: LoanedWait<X11Connection.MultipleOutcome>, remaining: Int) {
        self.wait = wait
        self.remaining = remaining
    }

    /// One target ended; the caller is resumed when it was the last.
    func add(_ target: SelectionTarget, _ result: Result<SelectionData, SelectionError>) {
        LoopToken.assertHeld("MultipleWait.add")
        results[target] = result
        remaining -= 1
        if remaining == 0 { finish(.success(.results(results))) }
    }

    /// Resumes the caller (only the first call counts).
    func finish(_ outcome: Result<X11Connection.MultipleOutcome, any Error>) {
        wait.complete(outcome)
    }
}
