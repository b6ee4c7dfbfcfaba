// clipbridge tests: small helpers over TARGETS lists.

/// The meta targets every owner answers, which say nothing about the content.
let metaTargets: Set<String> = ["TARGETS", "MULTIPLE", "TIMESTAMP", "SAVE_TARGETS", "DELETE", "TARGET_SIZES"]

extension Array where Element == String {
    /// The content targets, in offer order.
    var contentTargets: [String] { filter { !metaTargets.contains($0) } }

    /// True when `first` is offered before `second` (both offered).
    func offers(_ first: String, before second: String) -> Bool {
        guard let a = firstIndex(of: first), let b = firstIndex(of: second) else { return false }
        return a < b
    }
}
