/// The one order in which a reader picks among the text targets an owner offers — `paste`, the library's text
/// read, the engine's `readText`, a drop, the history's summary and the rewriter all ask it.
///
/// By what each target means, not by the owner's order:
/// 1. `UTF8_STRING`, then `text/plain;charset=utf-8` (exact UTF-8: no conversion, no loss);
/// 2. `COMPOUND_TEXT` (every character, through Xlib's converters);
/// 3. `STRING` (ISO-8859-1, ICCCM §2.7.1);
/// 4. `TEXT` (the owner picks the encoding of its reply);
/// 5. `text/plain` with another charset;
/// 6. bare `text/plain` (no charset: Qt writes UTF-8, GTK 3 ASCII escapes and CRLF).
///
/// Steps 1–3 are GTK 3's own fallback chain (`request_text_received_func` in `gtk/gtkclipboard.c`: UTF-8 MIME
/// type, `UTF8_STRING`, `COMPOUND_TEXT`, `STRING`; GTK never asks `TEXT`). `TEXT` comes after `STRING` because
/// its reply type is the owner's choice: xsel lists `TEXT` first and answers it with UTF-8 bytes typed
/// `STRING`. Xfce's clipboard manager, restoring a GTK 3 copy, lists bare `text/plain` first.
public enum TextReadOrder {
    /// A text target's place in the order (smaller is better), by its name alone; nil for any other target.
    public static func rank(of target: SelectionTarget) -> Int? {
        switch target {
        case .utf8String: return 0
        case .compoundText: return 2
        case .string: return 3
        case .text: return 4
        default: break
        }
        guard let charset = plainTextCharset(of: target) else { return nil }
        switch charset {
        case "": return 6
        case "utf-8", "utf8": return 1
        default: return 5
        }
    }

    /// The best text target among `offered`: the first of the best rank; nil when none is a text target.
    /// Linear in the number of targets.
    public static func best(in offered: [SelectionTarget]) -> SelectionTarget? {
        var best: (rank: Int, target: SelectionTarget)?
        for target in offered {
            guard let rank = rank(of: target), rank < (best?.rank ?? .max) else { continue }
            best = (rank, target)
        }
        return best?.target
    }

    /// Every text target among `offered`, best first; equal ranks keep the owner's order. O(n log n).
    public static func ranked(_ offered: [SelectionTarget]) -> [SelectionTarget] {
        offered.enumerated()
            .compactMap { index, target in rank(of: target).map { (rank: $0, index: index, target: target) } }
            .sorted { ($0.rank, $0.index) < ($1.rank, $1.index) }
            .map(\.target)
    }

    /// For a `text/plain` target, its `charset` parameter lowercased and unquoted (RFC 2046 §4.1.2), or ""
    /// when it has none; nil for any other target.
    public static func plainTextCharset(of target: SelectionTarget) -> String? {
        let name = target.rawValue.lowercased()
        let parameters = name.split(separator: ";", omittingEmptySubsequences: false)
        guard let media = parameters.first, media.trimmed(by: \.isWhitespace) == "text/plain" else { return nil }
        return charset(in: parameters.dropFirst())
    }

    /// The `charset` parameter of a `text/…` target lowercased and unquoted, "" when it has none; nil when the
    /// target is not a `text/…` type.
    public static func textCharset(of target: SelectionTarget) -> String? {
        let name = target.rawValue.lowercased()
        let parameters = name.split(separator: ";", omittingEmptySubsequences: false)
        guard let media = parameters.first, media.trimmed(by: \.isWhitespace).hasPrefix("text/") else { return nil }
        return charset(in: parameters.dropFirst())
    }

    private static func charset(in parameters: ArraySlice<Substring>) -> String {
        for parameter in parameters {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmed(by: \.isWhitespace) == "charset" else { continue }
            return String(pair[1].trimmed { $0.isWhitespace || $0 == "\"" })
        }
        return ""
    }
}

extension Substring {
    fileprivate func trimmed(by isTrimmed: (Character) -> Bool) -> Substring {
        let start = firstIndex { !isTrimmed($0) } ?? endIndex
        let end = lastIndex { !isTrimmed($0) }.map(index(after:)) ?? start
        return self[start..<end]
    }
}
