/// A search as FTS5 reads it: every word of what a person typed, each quoted (so `-`, `:`, `*` or quotes in it
/// are text, never query syntax) and matched as a word prefix, all of them required.
enum SearchQuery {
    /// The FTS5 expression for `text`, or nil when it has no word.
    static func expression(_ text: String) -> String? {
        // Control characters (a NUL among them) separate words as white space does; words without a letter or
        // digit are no tokens to the index (`-`, `*`): they would match nothing.
        let words = text.split(whereSeparator: { $0.isWhitespace || $0.unicodeScalars.contains { $0.properties.generalCategory == .control } })
            .filter { $0.contains(where: { $0.isLetter || $0.isNumber }) }
        guard !words.isEmpty else { return nil }
        return words.map(quoted).joined(separator: " AND ")
    }

    /// `word` as an FTS5 string, a prefix query: its quotes doubled scalar by scalar (a quote followed by a
    /// combining mark is one `Character` to Swift, which a character-level replace would not see).
    private static func quoted(_ word: Substring) -> String {
        var result = String.UnicodeScalarView()
        result.append("\"")
        for scalar in word.unicodeScalars {
            if scalar == "\"" { result.append("\"") }
            result.append(scalar)
        }
        return String(result) + "\"*"
    }
}
