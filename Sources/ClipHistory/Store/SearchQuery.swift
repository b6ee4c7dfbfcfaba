/// A search as FTS5 reads it: every word of what a person typed, each quoted (so `-`, `:`, `*` or quotes in it
/// are text, never query syntax) and matched as a word prefix, all of them required.
enum SearchQuery {
    /// The FTS5 expression for `text`, or nil when it has no word.
    static func expression(_ text: String) -> String? {
        let words = self.words(text)
        guard !words.isEmpty else { return nil }
        return words.map(quoted).joined(separator: " AND ")
    }

    /// What a person typed, split into words.
    private static func words(_ text: String) -> [Substring] {
        // Control characters (a NUL among them) separate words as white space does; words without a letter or
        // digit are no tokens to the index (`-`, `*`): they would match nothing.
        text.split(whereSeparator: { $0.isWhitespace || $0.unicodeScalars.contains { $0.properties.generalCategory == .control } })
            .filter { $0.contains(where: { $0.isLetter || $0.isNumber }) }
    }

    /// The same search over text in memory, for an encrypted history (whose text is not in the index): each word
    /// is split into tokens as FTS5's `unicode61` tokenizer splits (runs of letters and digits, lowercased)
    /// and must appear as consecutive tokens of the text, its last token as a prefix. Unlike the index, accents are
    /// not folded: `cafe` does not find "café".
    struct Matcher {
        private let phrases: [[String]]

        /// The matcher of `text`, or nil when it has no word.
        init?(_ text: String) {
            phrases = SearchQuery.words(text).map { SearchQuery.tokens(String($0)) }.filter { !$0.isEmpty }
            guard !phrases.isEmpty else { return nil }
        }

        /// Whether `text` holds every word.
        func matches(_ text: String) -> Bool {
            let tokens = SearchQuery.tokens(text)
            return phrases.allSatisfy { phrase in
                guard tokens.count >= phrase.count else { return false }
                return (0...(tokens.count - phrase.count)).contains { start in
                    phrase.indices.allSatisfy { index in
                        index == phrase.count - 1
                            ? tokens[start + index].hasPrefix(phrase[index]) : tokens[start + index] == phrase[index]
                    }
                }
            }
        }
    }

    /// `text`'s tokens: the lowercased runs of letters and digits (and the marks on them).
    static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var current = String.UnicodeScalarView()
        var ascii = true
        func finish() {
            guard !current.isEmpty else { return }
            tokens.append(ascii ? String(current) : String(current).lowercased())
            current = String.UnicodeScalarView()
            ascii = true
        }
        for scalar in text.unicodeScalars {
            let value = scalar.value
            // ASCII by hand (most text, and Unicode's general category is a table lookup per scalar).
            if value < 0x80 {
                let lower = value | 0x20
                if value >= 0x30 && value <= 0x39 {
                    current.append(scalar)
                } else if lower >= 0x61 && lower <= 0x7A {
                    current.append(Unicode.Scalar(UInt8(lower)))
                } else {
                    finish()
                }
                continue
            }
            // unicode61's token characters are the categories L*, N* and Co (https://sqlite.org/fts5.html, 4.3.1);
            // marks are kept in the token here, where the index removes them with the diacritics.
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber,
                .letterNumber, .otherNumber, .privateUse, .nonspacingMark, .spacingMark, .enclosingMark:
                current.append(scalar)
                ascii = false
            default:
                finish()
            }
        }
        finish()
        return tokens
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
