@testable import SelectionCore

/// Owners, times and handover requests as the tests name them: plain numbers, where X11 has windows and server
/// timestamps — the core never looks inside them.
enum TestTerms: BackendTerms {
    typealias Owner = Int
    typealias Time = Int
    typealias Handover = TestHandover
}

/// A handover request (X11's SAVE_TARGETS) in the tests.
struct TestHandover: HandoverRequest {
    var id: UInt64
    var requestor: Int
    var targets: [SelectionTarget]?
}

/// What a change means, the way the tests describe one: nobody (the owner went away), ours, or another client's.
func meaning(owner: Int?, ours: Bool) -> OwnerChangeMeaning {
    ours ? .ours : owner == nil ? .ownerGone : .newOwner
}
