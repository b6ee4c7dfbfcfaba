// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypes

/// A small, strict XML scanner for shared-mime-info packages.
///
/// Why not FoundationXML's `XMLParser`: on swift-corelibs-foundation it crashes on the attribute
/// defaults of freedesktop.org.xml's internal DTD (a NULL value reaches `strlen`; Swift 6.3.1, Debian
/// 12), reports some malformed documents as parsed, and takes about 0.7 s for the 2.4 MB system package
/// — a stall on the first clipboard lookup that misses the built-in table. This scanner reads the same
/// file in a few milliseconds.
///
/// It handles what XML 1.0 documents of this kind contain: elements and attributes (either quote),
/// self-closing tags, comments, processing instructions, `<!DOCTYPE …>` with an internal subset
/// (skipped: the DTD only serves validation), CDATA sections, and the predefined and numeric character
/// references. It checks that tags nest and close; it does not validate.
struct PackageXMLScanner {
    /// What the scanner reports, in document order.
    enum Event {
        /// A start tag (`selfClosing` tags are followed by their `.end`).
        case start(name: String, attributes: [String: String])
        /// An end tag.
        case end(name: String)
        /// Character data inside an element, not yet decoded (see ``text(_:)``).
        case text(Range<Int>)
    }

    /// A well-formedness error.
    struct Failure: Error {
        /// 1-based line of the error.
        var line: Int
        /// What is wrong.
        var reason: String
    }

    private let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Decodes a `.text` range: character references resolved, CDATA kept verbatim.
    func text(_ range: Range<Int>) throws -> String {
        try decode(range, at: range.lowerBound, cdata: true)
    }

    /// Scans the document, calling `handle` for each event.
    func scan(_ handle: (Event) throws -> Void) throws {
        var index = 0
        var stack: [String] = []
        var sawRoot = false
        var textStart = 0
        let count = bytes.count
        while index < count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            if !stack.isEmpty && textStart < index { try handle(.text(textStart..<index)) }
            if hasPrefix("<!--", at: index) {
                index = try position(after: "-->", from: index + 4, what: "comment")
            } else if hasPrefix("<![CDATA[", at: index) {
                let end = try position(after: "]]>", from: index + 9, what: "CDATA section")
                guard !stack.isEmpty else { throw failure(at: index, "CDATA outside the root element") }
                try handle(.text(index..<end))
                index = end
            } else if hasPrefix("<?", at: index) {
                index = try position(after: "?>", from: index + 2, what: "processing instruction")
                textStart = index
                continue
            } else if hasPrefix("<!", at: index) {
                index = try skipDeclaration(from: index)
            } else if hasPrefix("</", at: index) {
                var cursor = index + 2
                let name = readName(&cursor)
                skipSpaces(&cursor)
                guard cursor < count, bytes[cursor] == UInt8(ascii: ">") else {
                    throw failure(at: index, "malformed end tag </\(name)")
                }
                guard let open = stack.popLast() else {
                    throw failure(at: index, "end tag </\(name)> without a start tag")
                }
                guard open == name else {
                    throw failure(at: index, "end tag </\(name)> does not match <\(open)>")
                }
                try handle(.end(name: name))
                index = cursor + 1
            } else {
                var cursor = index + 1
                let name = readName(&cursor)
                guard !name.isEmpty else { throw failure(at: index, "'<' not followed by a tag name") }
                guard stack.isEmpty ? !sawRoot : true else {
                    throw failure(at: index, "content after the root element")
                }
                var attributes: [String: String] = [:]
                var selfClosing = false
                while true {
                    skipSpaces(&cursor)
                    guard cursor < count else { throw failure(at: index, "unterminated start tag <\(name)") }
                    if bytes[cursor] == UInt8(ascii: ">") {
                        cursor += 1
                        break
                    }
                    if hasPrefix("/>", at: cursor) {
                        cursor += 2
                        selfClosing = true
                        break
                    }
                    let attributeName = readName(&cursor)
                    skipSpaces(&cursor)
                    guard !attributeName.isEmpty, cursor < count, bytes[cursor] == UInt8(ascii: "=") else {
                        throw failure(at: cursor, "malformed attribute in <\(name)>")
                    }
                    cursor += 1
                    skipSpaces(&cursor)
                    guard cursor < count, bytes[cursor] == UInt8(ascii: "\"") || bytes[cursor] == UInt8(ascii: "'")
                    else { throw failure(at: cursor, "attribute \(attributeName) of <\(name)> is not quoted") }
                    let quote = bytes[cursor]
                    guard let close = bytes[(cursor + 1)...].firstIndex(of: quote) else {
                        throw failure(at: cursor, "unterminated attribute value")
                    }
                    // Not as CDATA: a value that merely starts with "<![CDATA[" (`b="<![CDATA["`) trapped on
                    // the section's range in `decode` (a regression input of Fuzz/fuzz-shared-mime-info).
                    attributes[attributeName] = try decode((cursor + 1)..<close, at: cursor, cdata: false)
                    cursor = close + 1
                }
                sawRoot = true
                try handle(.start(name: name, attributes: attributes))
                if selfClosing {
                    try handle(.end(name: name))
                } else {
                    stack.append(name)
                }
                index = cursor
            }
            textStart = index
        }
        if let open = stack.last { throw failure(at: count, "<\(open)> is not closed at the end of the document") }
        guard sawRoot else { throw failure(at: count, "no root element") }
    }

    // MARK: - Pieces

    private func hasPrefix(_ literal: StaticString, at index: Int) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard index + length <= bytes.count else { return false }
        return literal.withUTF8Buffer { buffer in
            buffer.indices.allSatisfy { bytes[index + $0] == buffer[$0] }
        }
    }

    /// The index just past the next `literal` at or after `start`.
    private func position(after literal: StaticString, from start: Int, what: String) throws -> Int {
        var index = start
        while index < bytes.count {
            if hasPrefix(literal, at: index) { return index + literal.utf8CodeUnitCount }
            index += 1
        }
        throw failure(at: start, "unterminated \(what)")
    }

    /// Skips `<!DOCTYPE …>` (or another `<!` declaration), including a `[…]` internal subset with its
    /// quoted strings and comments.
    private func skipDeclaration(from start: Int) throws -> Int {
        var index = start + 2
        var depth = 0
        while index < bytes.count {
            if hasPrefix("<!--", at: index) {
                index = try position(after: "-->", from: index + 4, what: "comment")
                continue
            }
            switch bytes[index] {
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                guard let close = bytes[(index + 1)...].firstIndex(of: bytes[index]) else {
                    throw failure(at: index, "unterminated string in a declaration")
                }
                index = close
            case UInt8(ascii: ">") where depth <= 0:
                return index + 1
            default:
                break
            }
            index += 1
        }
        throw failure(at: start, "unterminated <! declaration")
    }

    private func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private func skipSpaces(_ cursor: inout Int) {
        while cursor < bytes.count, isSpace(bytes[cursor]) { cursor += 1 }
    }

    private func readName(_ cursor: inout Int) -> String {
        let start = cursor
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=") {
                break
            }
            cursor += 1
        }
        return String(decoding: bytes[start..<cursor], as: UTF8.self)
    }

    /// Character data with references resolved; with `cdata`, a CDATA section (`<![CDATA[…]]>`, the whole
    /// section as `scan` reports it) is taken verbatim. Attribute values have no CDATA sections.
    private func decode(_ range: Range<Int>, at position: Int, cdata: Bool) throws -> String {
        if cdata, hasPrefix("<![CDATA[", at: range.lowerBound) {
            return String(decoding: bytes[(range.lowerBound + 9)..<(range.upperBound - 3)], as: UTF8.self)
        }
        guard bytes[range].contains(UInt8(ascii: "&")) else { return String(decoding: bytes[range], as: UTF8.self) }
        var output: [UInt8] = []
        output.reserveCapacity(range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "&") else {
                output.append(byte)
                index += 1
                continue
            }
            guard let semicolon = bytes[index..<range.upperBound].firstIndex(of: UInt8(ascii: ";")) else {
                throw failure(at: position, "'&' without a reference")
            }
            let reference = String(decoding: bytes[(index + 1)..<semicolon], as: UTF8.self)
            let scalar: Unicode.Scalar?
            switch reference {
            case "lt": scalar = "<"
            case "gt": scalar = ">"
            case "amp": scalar = "&"
            case "quot": scalar = "\""
            case "apos": scalar = "'"
            default:
                if reference.hasPrefix("#x") || reference.hasPrefix("#X") {
                    scalar = UInt32(reference.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if reference.hasPrefix("#") {
                    scalar = UInt32(reference.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
                } else {
                    scalar = nil
                }
            }
            guard let scalar else { throw failure(at: position, "unknown reference &\(reference);") }
            output.append(contentsOf: Array(String(Character(scalar)).utf8))
            index = semicolon + 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    private func failure(at index: Int, _ reason: String) -> Failure {
        let line = bytes[..<min(index, bytes.count)].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        return Failure(line: line, reason: reason)
    }
}
