// SPDX-License-Identifier: Apache-2.0
// ClipBridge — richest first: the order of a copy's representations

import UniformTypes

/// The order a copy offers its representations in: richest first, as GTK and Qt owners list their targets and
/// as readers that take the first usable target expect (an image before its file name, HTML before its plain
/// text). Pure: a rank per type, and a stable sort that keeps the given order among equals.
public enum OfferOrder {
    /// How rich a type is: lower is richer. Images 0; every other non-plain-text type (rich text such as HTML
    /// and RTF, structured text such as JSON, documents, application types) 1; URL lists and URLs 2; plain text
    /// 3 (the text family is everybody's fallback, so it comes last).
    public static func richness(of type: UTType) -> Int {
        if type.conforms(to: .image) { return 0 }
        if type == .plainText || type == .utf8PlainText || type == .text || type == .utf16PlainText { return 3 }
        if type.conforms(to: .url) || type == TargetMapping.contentType(for: TargetMapping.uriList) { return 2 }
        return 1
    }

    /// `items` sorted richest first by `type(of:)` (nil: plain text), keeping the given order among equals.
    public static func richestFirst<Item>(_ items: [Item], type: (Item) -> UTType?) -> [Item] {
        items.enumerated()
            .map { (rank: type($0.element).map(richness(of:)) ?? 3, index: $0.offset, item: $0.element) }
            .sorted { ($0.rank, $0.index) < ($1.rank, $1.index) }
            .map(\.item)
    }
}
