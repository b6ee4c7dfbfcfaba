// SPDX-License-Identifier: Apache-2.0

/// The resolution layer: a transferable type's representations flattened into ordered exporters and
/// ranked importers. This is what a transport (ClipBridge's clipboard, a drag-and-drop host, a file
/// exporter) builds on; the Apple-named extension API (`exported(as:)`, `init(importing:contentType:)`
/// …) is implemented with it too.
extension Transferable {
    /// The ways this value can be exported to `visibility`'s audience, most preferred first.
    ///
    /// - Declaration order is kept; a ``ProxyRepresentation`` contributes the proxy target's exporters
    ///   (recursively, chains included) at its own position.
    /// - Representations whose `exportingCondition` is false for this value are left out. A proxy's
    ///   conversion runs here (Apple requires it to be quick) so the target's own conditions can be
    ///   checked; if it throws, the target's exporters are listed and report the error from `export()`.
    /// - Audience: `.all` keeps only representations visible to every process (what a system-wide
    ///   clipboard may offer); `.ownProcess` keeps everything. See ``TransferRepresentationVisibility``.
    /// - When two representations export the same content type, only the first is listed.
    public func resolvedExporters(visibility: TransferRepresentationVisibility = .all) -> [TransferExporter] {
        RepresentationResolver.exporters(for: self, context: ResolutionContext(audience: visibility, visiting: []))
    }

    /// The exporter that ``exported(as:)`` uses for a content type: the first exporter declaring exactly
    /// that type, else the first whose type conforms to it (asking for `.image` finds `.png`); with a
    /// nil type, the first exporter.
    public func resolvedExporter(
        for contentType: UTType?,
        visibility: TransferRepresentationVisibility = .all
    ) -> TransferExporter? {
        let exporters = resolvedExporters(visibility: visibility)
        guard let contentType else { return exporters.first }
        return exporters.first { $0.contentType == contentType }
            ?? exporters.first { $0.contentType.conforms(to: contentType) }
    }

    /// Every importer of this type in declaration order, proxies expanded in place, each bound to its
    /// own declared content type.
    public static func resolvedImporters() -> [TransferImporter<Self>] {
        let context = ResolutionContext(audience: .ownProcess, visiting: [])
        return RepresentationResolver.importRows(of: Self.self, context: context)
            .map { TransferImporter(row: $0, offeredType: $0.contentType) }
    }

    /// All importers that accept one of the offered types, best first.
    ///
    /// `offeredTypes` is in the offerer's order of preference (richest first). Ranking: direct
    /// representations before proxied ones; then the offerer's order; then, for one offered type, a
    /// representation declaring exactly that type before one accepting it by conformance; then
    /// declaration order. Each representation appears once, bound (``TransferImporter/offeredType``)
    /// to the best offered type it accepts.
    public static func resolvedImporters(forOfferedTypes offeredTypes: [UTType]) -> [TransferImporter<Self>] {
        RepresentationResolver.rankedImporters(of: Self.self, offeredTypes: offeredTypes)
    }

    /// The best importer for an offer (the first of ``resolvedImporters(forOfferedTypes:)``), or nil when
    /// no representation accepts any offered type.
    public static func resolvedImporter(forOfferedTypes offeredTypes: [UTType]) -> TransferImporter<Self>? {
        resolvedImporters(forOfferedTypes: offeredTypes).first
    }
}
