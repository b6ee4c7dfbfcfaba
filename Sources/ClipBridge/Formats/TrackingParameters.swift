// SPDX-License-Identifier: Apache-2.0
// ClipBridge — tracking parameters in copied URLs

/// Removes tracking parameters from the query of every `http(s)` URL in a text: what the daemon's
/// `strip-tracking` rule does to copied links.
///
/// The standard names are the global rules of ClearURLs and of Firefox's query stripping that never carry
/// meaning for the page itself (`utm_*`, `fbclid`, `gclid`, `msclkid`, …); a user adds site-specific ones
/// (`si`, `ref`). Only the query is touched: scheme, host, path and fragment stay byte for byte, and so does
/// every text around the URLs. One pass over the text, linear in its length.
struct TrackingParameters: Sendable {
    /// Parameter names removed wherever they appear (lowercase).
    var names: Set<String>
    /// Parameter name prefixes removed (`utm_` covers `utm_source`, `utm_medium`, …).
    var prefixes: [String]

    /// The standard names and prefixes.
    static let standard = TrackingParameters(
        names: [
            "fbclid", "gclid", "gclsrc", "dclid", "gbraid", "wbraid", "msclkid", "mc_cid", "mc_eid", "igshid",
            "yclid", "twclid", "ttclid", "li_fat_id", "_hsenc", "_hsmi", "__hssc", "__hstc", "__hsfp", "hsctatracking",
            "mkt_tok", "oly_anon_id", "oly_enc_id", "vero_id", "vero_conv", "_openstat", "srsltid", "s_cid",
            "wickedid", "rb_clickid", "ncid", "spm",
        ],
        prefixes: ["utm_", "pk_", "mtm_", "piwik_", "matomo_"])

    /// These and `extra` names too.
    func adding(_ extra: [String]) -> TrackingParameters {
        TrackingParameters(names: names.union(extra.map { $0.lowercased() }), prefixes: prefixes)
    }

    /// What stripping changed.
    struct Result: Equatable {
        /// The text with the parameters removed.
        var text: String
        /// The names removed, in order of appearance, once each.
        var removed: [String]
    }

    /// Whether `name` (as written in the query) is a tracking parameter.
    func isTracking(_ name: Substring) -> Bool {
        let lower = name.lowercased()
        return names.contains(lower) || prefixes.contains { lower.hasPrefix($0) }
    }

    /// Strips every `http://` and `https://` URL in `text`. In `html`, `&amp;` separates parameters too (an
    /// `href` written as HTML requires it). Nil when nothing was removed.
    func strip(_ text: String, html: Bool = false) -> Result? {
        var output = ""
        var removed: [String] = []
        var rest = text[...]
        while let start = Self.nextURLStart(in: rest) {
            output += rest[..<start]
            let url = Self.urlExtent(from: start, in: rest)
            output += stripQuery(of: rest[url], html: html, removed: &removed)
            rest = rest[url.upperBound...]
        }
        guard !removed.isEmpty else { return nil }
        output += rest
        return Result(text: output, removed: removed)
    }

    /// The start of the next `http://` or `https://` (any case) that does not continue a word.
    private static func nextURLStart(in text: Substring) -> Substring.Index? {
        var index = text.startIndex
        while let h = text[index...].firstIndex(where: { $0 == "h" || $0 == "H" }) {
            let tail = text[h...].prefix(8).lowercased()
            let continuesWord = h > text.startIndex && text[text.index(before: h)].isLetter
            if !continuesWord, tail.hasPrefix("http://") || tail.hasPrefix("https://") { return h }
            index = text.index(after: h)
        }
        return nil
    }

    /// The URL from `start`: up to whitespace, a quote or an angle bracket, without trailing punctuation
    /// that ends the sentence around it (`.`, `,`, `)` with no `(` in the URL, …), as linkifiers read it.
    private static func urlExtent(from start: Substring.Index, in text: Substring) -> Range<Substring.Index> {
        var end = text[start...].firstIndex { $0.isWhitespace || "\"'<>`".contains($0) } ?? text.endIndex
        while end > start {
            let last = text[text.index(before: end)]
            let url = text[start..<end]
            if ".,;:!?".contains(last) || (last == ")" && !url.contains("(")) || (last == "]" && !url.contains("[")) {
                end = text.index(before: end)
            } else {
                break
            }
        }
        return start..<end
    }

    /// The URL with its tracking parameters removed; `removed` collects their names.
    private func stripQuery(of url: Substring, html: Bool, removed: inout [String]) -> String {
        guard let questionMark = url.firstIndex(of: "?") else { return String(url) }
        let fragmentStart = url[questionMark...].firstIndex(of: "#") ?? url.endIndex
        let query = url[url.index(after: questionMark)..<fragmentStart]
        // Each parameter with the separator written before it ("" for the first, "&" or "&amp;").
        var kept: [(separator: Substring, parameter: Substring)] = []
        var dropped = false
        for (position, piece) in query.split(separator: "&", omittingEmptySubsequences: false).enumerated() {
            var separator: Substring = position == 0 ? "" : "&"
            var parameter = piece
            if html, position > 0, parameter.hasPrefix("amp;") {
                separator = "&amp;"
                parameter = parameter.dropFirst(4)
            }
            let name = parameter.prefix { $0 != "=" }
            if !name.isEmpty, isTracking(name) {
                dropped = true
                if !removed.contains(String(name)) { removed.append(String(name)) }
            } else {
                kept.append((separator, parameter))
            }
        }
        guard dropped else { return String(url) }
        var result = String(url[..<questionMark])
        if !kept.isEmpty {
            result += "?"
            for (index, item) in kept.enumerated() {
                // The first kept parameter takes no separator; the others keep the one they were written with.
                result += (index == 0 ? "" : (item.separator.isEmpty ? "&" : item.separator)) + item.parameter
            }
        }
        return result + url[fragmentStart...]
    }
}
