// SPDX-License-Identifier: Apache-2.0
// ClipBridgeTests — richest first: the order a copy offers its representations in

import Testing
import UniformTypes

@testable import ClipBridge

@Suite("Offer order")
struct OfferOrderTests {
    @Test func imagesThenRichTextThenURLsThenPlainText() {
        #expect(OfferOrder.richness(of: .png) < OfferOrder.richness(of: .html))
        #expect(OfferOrder.richness(of: .html) < OfferOrder.richness(of: .fileURL))
        #expect(OfferOrder.richness(of: .fileURL) < OfferOrder.richness(of: .utf8PlainText))
        #expect(OfferOrder.richness(of: .json) == OfferOrder.richness(of: .html))
        #expect(OfferOrder.richness(of: UTType(mimeType: "application/x-custom")!) == OfferOrder.richness(of: .rtf))
        #expect(OfferOrder.richness(of: .plainText) == OfferOrder.richness(of: .utf8PlainText))
    }

    @Test func theSortIsStableAndPlainTextGoesLast() {
        let given: [(String, UTType?)] = [
            ("text", .utf8PlainText), ("family", nil), ("html", .html), ("json", .json), ("png", .png),
            ("uris", .fileURL), ("jpeg", .jpeg),
        ]
        let sorted = OfferOrder.richestFirst(given) { $0.1 }.map(\.0)
        #expect(sorted == ["png", "jpeg", "html", "json", "uris", "text", "family"])
    }
}
