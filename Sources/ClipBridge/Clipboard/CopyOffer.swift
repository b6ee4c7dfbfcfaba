// SPDX-License-Identifier: Apache-2.0
// ClipBridge — what a copy offers, built apart from any display server

import FoundationEssentials
import X11Selection

extension SelectionOffer {
    /// The offer `Clipboard.copy(_:options:)` claims for raw items (`[ClipboardItem]`) — every representation
    /// under every target it maps to, richest first, widened by the converters — built without a display, for a
    /// server of another kind to serve (a Wayland compositor's selection, through its data-control protocol).
    /// - Throws: ``ClipboardError`` `.exportFailed` when the items offer nothing.
    public static func copying(
        _ items: [ClipboardItem], options: CopyOptions = .init(), configuration: ClipboardConfiguration = .init()
    ) async throws -> SelectionOffer {
        try await built(for: try items.map(PreparedItem.init), options: options, isCut: false, configuration: configuration)
    }

    /// The offer ``Clipboard/copyFiles(_:cut:options:)`` claims: `text/uri-list`, gnome-copied-files, a cut's
    /// `application/x-kde-cutselection`, and the paths as text — built without a display.
    public static func copyingFiles(
        _ files: [URL], cut: Bool = false, options: CopyOptions = .init(), configuration: ClipboardConfiguration = .init()
    ) async throws -> SelectionOffer {
        try await built(for: [try PreparedItem.files(files)], options: options, isCut: cut, configuration: configuration)
    }

    private static func built(
        for items: [PreparedItem], options: CopyOptions, isCut: Bool, configuration: ClipboardConfiguration
    ) async throws -> SelectionOffer {
        let builder = OfferBuilder(converters: configuration.converters, isCut: isCut, widens: options.widensWithConverters)
        let offer = SelectionOffer(try await builder.build(items), isSensitive: options.isSensitive)
        guard offer.representations.contains(where: { $0.target != SelectionOffer.passwordManagerHint }) else {
            throw ClipboardError(.exportFailed, "the content has no representation to offer")
        }
        return offer
    }
}
