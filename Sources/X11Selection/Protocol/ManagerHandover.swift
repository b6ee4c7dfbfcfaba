/// The clipboard-manager handover (freedesktop clipboard-manager spec, SAVE_TARGETS), as a pure state
/// machine: finished only when the manager answered *and* every transfer it asked for is served, so a
/// manager that notifies early cannot make us drop an INCR transfer in flight (the spec asks managers
/// not to, but we do not rely on it).
struct ManagerHandover: Sendable, Equatable {
    enum Outcome: Sendable, Equatable {
        case saved
        case refused
        case timedOut
    }

    private(set) var managerAnswered = false
    private(set) var managerAccepted = false
    private(set) var transfersInFlight = 0
    private(set) var transfersServed = 0
    private(set) var outcome: Outcome?

    /// A transfer to the manager's window started.
    mutating func transferStarted() {
        transfersInFlight += 1
    }

    /// A transfer to the manager's window ended (served or failed).
    mutating func transferEnded(served: Bool) -> Outcome? {
        transfersInFlight = max(0, transfersInFlight - 1)
        if served { transfersServed += 1 }
        return evaluate()
    }

    /// The manager's SelectionNotify for SAVE_TARGETS arrived (`accepted`: property not None).
    mutating func managerNotified(accepted: Bool) -> Outcome? {
        managerAnswered = true
        managerAccepted = accepted
        return evaluate()
    }

    /// The deadline passed.
    mutating func deadlinePassed() -> Outcome {
        if let outcome { return outcome }
        outcome = .timedOut
        return .timedOut
    }

    private mutating func evaluate() -> Outcome? {
        if let outcome { return outcome }
        guard managerAnswered, transfersInFlight == 0 else { return nil }
        outcome = managerAccepted ? .saved : .refused
        return outcome
    }
}
