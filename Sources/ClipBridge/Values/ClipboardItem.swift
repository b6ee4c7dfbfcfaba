// SPDX-License-Identifier: Apache-2.0
// ClipBridge — one item of a raw copy

import FoundationEssentials
import UniformTypes
import X11Selection

/// One item of a raw copy: ordered representations, richest first, each from bytes, a file or a lazy provider.
///
/// This is what `clipbridge copy` builds from its arguments; apps usually copy `Transferable` values instead.
///
/// ```swift
/// var item = ClipboardItem()
/// item.append(.html, source: .data(Data("<b>hi</b>".utf8)))
/// item.appendText("hi")
/// try await clipboard.copy([item])
/// ```
public struct ClipboardItem: Sendable {
    /// Where a representation's bytes come from.
    public enum Source: Sendable {
        /// Bytes in memory.
        case data(Data)
        /// A file streamed from disk through INCR when requested; never loaded whole.
        case file(URL)
        /// Bytes produced on the first request (and kept for the rest of the copy).
        case provider(@Sendable () async throws -> Data)
    }

    /// One representation.
    public struct Representation: Sendable {
        /// The content type of the bytes.
        public var contentType: UTType
        /// A single X target to offer the bytes under; nil offers every target the table maps the type to
        /// (the whole text family for text).
        public var target: SelectionTarget?
        /// Where the bytes come from. Text (`.utf8PlainText`, `.plainText`) must be UTF-8.
        public var source: Source

        /// Creates a representation.
        public init(_ contentType: UTType, target: SelectionTarget? = nil, source: Source) {
            self.contentType = contentType
            self.target = target
            self.source = source
        }
    }

    /// The representations, in preference order.
    public var representations: [Representation]

    /// An item with these representations.
    public init(_ representations: [Representation] = []) {
        self.representations = representations
    }

    /// Appends a representation (after the existing ones: order is preference).
    public mutating func append(_ contentType: UTType, target: SelectionTarget? = nil, source: Source) {
        representations.append(Representation(contentType, target: target, source: source))
    }

    /// Appends text under the whole text family.
    public mutating func appendText(_ text: String) {
        append(.utf8PlainText, source: .data(Data(text.utf8)))
    }

    /// An item holding one text.
    public static func text(_ text: String) -> ClipboardItem {
        var item = ClipboardItem()
        item.appendText(text)
        return item
    }
}
