// SPDX-License-Identifier: Apache-2.0
// ClipBridge — HTML to plain text

import FoundationEssentials
import UniformTypes

/// Renders HTML as the plain text a reader would copy from the page.
///
/// A small, forgiving tokenizer rather than an HTML parser: clipboard HTML is a fragment (often with
/// Firefox's `<meta>` prefix or Chromium's `<!--StartFragment-->` comments), and all we need is its text.
/// Rules: the content of `head`, `script`, `style`, `title` and `template` is dropped; block elements and
/// `br` break lines; runs of white space collapse to one space (HTML 5 §15.3.x white-space processing),
/// except inside `pre`; `li` gets a "- " bullet; character references are decoded.
enum HTMLText {
    static func plainText(fromHTML html: String) -> String {
        var output = ""
        var pendingSpace = false
        var hiddenDepth = 0
        var preDepth = 0
        var index = html.startIndex
        // A search for a tag's ">" found none, so there is none further on: a later "<" is text without searching
        // again (each lone "<" searched to the end: quadratic, minutes for 64 KiB of "<"; Fuzz/fuzz-html-text).
        var noTagEndAhead = false

        func newline() {
            while output.hasSuffix(" ") { output.removeLast() }
            if !output.isEmpty, !output.hasSuffix("\n") { output.append("\n") }
            pendingSpace = false
        }
        func paragraphBreak() {
            newline()
            if !output.isEmpty, !output.hasSuffix("\n\n") { output.append("\n") }
        }

        func appendText(_ text: String) {
            for scalarCharacter in text {
                if preDepth > 0 {
                    output.append(scalarCharacter)
                    continue
                }
                if scalarCharacter.isWhitespace && scalarCharacter != "\u{00A0}" {
                    pendingSpace = true
                } else {
                    if pendingSpace, !output.isEmpty, !output.hasSuffix("\n"), !output.hasSuffix("\t") {
                        output.append(" ")
                    }
                    pendingSpace = false
                    output.append(scalarCharacter == "\u{00A0}" ? " " : scalarCharacter)
                }
            }
        }

        while index < html.endIndex {
            let character = html[index]
            if character == "<" {
                // Comments, doctype and processing instructions produce nothing.
                if html[index...].hasPrefix("<!--") {
                    let end = html[index...].firstRange(of: "-->")?.upperBound ?? html.endIndex
                    index = end
                    continue
                }
                guard !noTagEndAhead, let close = html[index...].firstIndex(of: ">") else {
                    noTagEndAhead = true
                    // A lone "<" is text.
                    if hiddenDepth == 0 { appendText("<") }
                    index = html.index(after: index)
                    continue
                }
                let inner = html[html.index(after: index)..<close]
                index = html.index(after: close)
                guard let tag = Tag(inner) else { continue }
                if hiddenElements.contains(tag.name) {
                    if tag.isClosing {
                        hiddenDepth = max(0, hiddenDepth - 1)
                    } else if !tag.isSelfClosing {
                        hiddenDepth += 1
                    }
                    continue
                }
                if hiddenDepth > 0 { continue }
                switch tag.name {
                case "br":
                    while output.hasSuffix(" ") { output.removeLast() }
                    output.append("\n")
                    pendingSpace = false
                case "pre":
                    if tag.isClosing { preDepth = max(0, preDepth - 1) } else { preDepth += 1 }
                    paragraphBreak()
                case "p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "table", "ul", "ol", "dl", "hr":
                    paragraphBreak()
                case "li":
                    newline()
                    if !tag.isClosing { output.append("- ") }
                case "td", "th":
                    if !tag.isClosing, !output.isEmpty, !output.hasSuffix("\n") { output.append("\t") }
                    pendingSpace = false
                case _ where blockElements.contains(tag.name):
                    newline()
                default:
                    break
                }
                continue
            }
            if hiddenDepth > 0 {
                index = html.index(after: index)
                continue
            }
            if character == "&", let (decoded, next) = characterReference(in: html, at: index) {
                appendText(decoded)
                index = next
                continue
            }
            appendText(String(character))
            index = html.index(after: index)
        }

        return output.trimming(where: \.isWhitespace)
    }

    private static let hiddenElements: Set<String> = ["head", "script", "style", "title", "template", "noscript"]
    private static let blockElements: Set<String> = [
        "div", "section", "article", "header", "footer", "nav", "aside", "main", "tr", "dt", "dd", "figure",
        "figcaption", "address", "caption", "thead", "tbody", "tfoot", "form", "fieldset", "details", "summary",
    ]

    /// A start or end tag: its lower-cased name and shape.
    private struct Tag {
        var name: String
        var isClosing: Bool
        var isSelfClosing: Bool

        init?(_ inner: Substring) {
            var text = inner.trimming(where: \.isWhitespace)[...]
            guard let first = text.first, first != "!", first != "?" else { return nil }
            isClosing = first == "/"
            if isClosing { text = text.dropFirst() }
            isSelfClosing = text.hasSuffix("/")
            let name = text.prefix { $0.isLetter || $0.isNumber }
            guard !name.isEmpty else { return nil }
            self.name = name.lowercased()
        }
    }

    private static let namedReferences: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}", "copy": "©",
        "reg": "®", "trade": "™", "hellip": "…", "mdash": "—", "ndash": "–", "lsquo": "‘", "rsquo": "’",
        "ldquo": "“", "rdquo": "”", "bull": "•", "middot": "·", "euro": "€", "pound": "£", "yen": "¥",
        "cent": "¢", "sect": "§", "deg": "°", "times": "×", "divide": "÷", "laquo": "«", "raquo": "»",
    ]

    /// Decodes `&name;`, `&#123;` or `&#x1F;` at `index`; nil when it is not a reference (then `&` is text).
    private static func characterReference(in html: String, at index: String.Index) -> (String, String.Index)? {
        let start = html.index(after: index)
        guard let semicolon = html[start...].prefix(12).firstIndex(of: ";") else { return nil }
        let body = html[start..<semicolon]
        let next = html.index(after: semicolon)
        if body.hasPrefix("#") {
            let digits = body.dropFirst()
            let value: UInt32?
            if digits.first == "x" || digits.first == "X" {
                value = UInt32(digits.dropFirst(), radix: 16)
            } else {
                value = UInt32(digits, radix: 10)
            }
            guard let value, let scalar = Unicode.Scalar(value) else { return nil }
            return (String(Character(scalar)), next)
        }
        guard let decoded = namedReferences[String(body)] else { return nil }
        return (decoded, next)
    }
}
