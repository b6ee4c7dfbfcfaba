// ClipBridge — the clipbridge command-line tool's option values.
// The key a typo likely meant: "unknown key 'max-sise' (did you mean 'max-size'?)".

/// The known key a mistyped one likely meant.
enum KeySuggestion {
    /// The key of `keys` within two edits of `key`, the nearest; nil when none is that near.
    static func closest(to key: String, among keys: [String]) -> String? {
        keys.map { ($0, editDistance(key, $0)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }

    /// Levenshtein distance; a key of 64 characters or more is not compared (no key is that long, and a
    /// file's key is the user's to make as long as they like).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty, a.count < 64, b.count < 64 else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
