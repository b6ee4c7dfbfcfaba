// SPDX-License-Identifier: Apache-2.0

/// Walks a representation tree into flat, ordered entries and turns entries into exporters and
/// importers. Everything public in `Resolution/` is a thin face over these functions.
enum RepresentationResolver {
    // MARK: Flattening

    /// The entries of any representation, in declaration order.
    ///
    /// Framework representations describe themselves; any other representation is read through its
    /// `body`, recursively, which is how user-defined composite representations work.
    static func entries<R: TransferRepresentation>(of representation: R) -> [RepresentationEntry<R.Item>] {
        if let primitive = representation as? any PrimitiveTransferRepresentation {
            return cast(primitiveEntries(primitive), from: R.self)
        }
        // A non-framework type that declares `Body == Never` has nothing to offer; reading its body
        // would trap.
        if R.Body.self == Never.self { return [] }
        return cast(entries(of: representation.body), from: R.self)
    }

    /// The entries of a transferable type's own representation.
    static func entries<Item: Transferable>(of type: Item.Type) -> [RepresentationEntry<Item>] {
        cast(entries(of: Item.transferRepresentation), from: Item.Representation.self)
    }

    private static func primitiveEntries<P: PrimitiveTransferRepresentation>(_ primitive: P) -> Any {
        primitive.entries()
    }

    /// `body` is declared with `Body: TransferRepresentation` and no same-item constraint (as Apple
    /// declares it), so the compiler cannot prove the item types agree; at run time they always do when
    /// the body was written with the builder, which pins `Item`.
    private static func cast<Item>(_ entries: Any, from representation: Any.Type) -> [RepresentationEntry<Item>] {
        if let typed = entries as? [RepresentationEntry<Item>] { return typed }
        assertionFailure("\(representation) has a body whose Item is not \(Item.self); it is ignored")
        return []
    }

    // MARK: Export

    /// The exporters of `value` visible to the context's audience, in declaration order, proxies
    /// expanded in place.
    static func exporters<Item: Transferable>(for value: Item, context: ResolutionContext) -> [TransferExporter] {
        let context = context.entering(Item.self)
        var result: [TransferExporter] = []
        for entry in entries(of: Item.self) {
            let modifiers = entry.modifiers
            guard modifiers.visibility.isVisible(to: context.audience), modifiers.allowsExport(of: value) else {
                continue
            }
            let outerName = modifiers.fileName.map { $0(value) }
            switch entry.source {
            case .leaf(let leaf):
                guard let export = leaf.exporter else { continue }
                result.append(
                    TransferExporter(
                        contentType: leaf.exportedType?(value) ?? leaf.contentType,
                        visibility: modifiers.visibility,
                        suggestedFileName: outerName ?? nil,
                        isFileBacked: leaf.isFileBacked,
                        allowsOpeningInPlace: leaf.allowsOpeningInPlace,
                        isProxied: false,
                        export: { try await export(value) }
                    ))
            case .proxy(let proxy):
                guard let bind = proxy.bindExporters, !context.isVisiting(proxy.target) else { continue }
                for inner in bind(value, context) {
                    var exporter = inner
                    exporter.visibility = modifiers.visibility.narrowed(by: inner.visibility)
                    if let outerName { exporter.suggestedFileName = outerName }
                    exporter.isProxied = true
                    result.append(exporter)
                }
            }
        }
        return deduplicated(result, by: \.contentType)
    }

    /// The type-level exports (no value, so no conditions), visible to the context's audience.
    static func typeLevelExports<Item: Transferable>(of type: Item.Type, context: ResolutionContext)
        -> [TypeLevelExport]
    {
        let context = context.entering(Item.self)
        var result: [TypeLevelExport] = []
        for entry in entries(of: Item.self) where entry.modifiers.visibility.isVisible(to: context.audience) {
            let visibility = entry.modifiers.visibility
            switch entry.source {
            case .leaf(let leaf):
                guard leaf.exporter != nil else { continue }
                result.append(
                    TypeLevelExport(
                        contentType: leaf.contentType,
                        visibility: visibility,
                        isFileBacked: leaf.isFileBacked,
                        allowsOpeningInPlace: leaf.allowsOpeningInPlace
                    ))
            case .proxy(let proxy):
                guard let exports = proxy.typeLevelExports, !context.isVisiting(proxy.target) else { continue }
                for var export in exports(context) {
                    export.visibility = visibility.narrowed(by: export.visibility)
                    result.append(export)
                }
            }
        }
        return deduplicated(result, by: \.contentType)
    }

    // MARK: Import

    /// Every import-capable row of a type, in declaration order, proxies expanded in place.
    static func importRows<Item: Transferable>(of type: Item.Type, context: ResolutionContext) -> [ImportRow<Item>] {
        let context = context.entering(Item.self)
        var result: [ImportRow<Item>] = []
        for entry in entries(of: Item.self) {
            switch entry.source {
            case .leaf(let leaf):
                guard let run = leaf.importer else { continue }
                result.append(
                    ImportRow(
                        contentType: leaf.contentType,
                        isFileBacked: leaf.isFileBacked,
                        attemptsToOpenInPlace: leaf.attemptsToOpenInPlace,
                        isProxied: false,
                        run: run
                    ))
            case .proxy(let proxy):
                guard let rows = proxy.importers, !context.isVisiting(proxy.target) else { continue }
                result += rows(context)
            }
        }
        return result
    }

    /// Importers for an offer, best first.
    ///
    /// The ranking is: every direct (non-proxy) representation before any proxied one; within that,
    /// the offerer's order of types (the offerer lists its richest type first); for one offered type,
    /// a representation declaring exactly that type before one accepting it by conformance (asking for
    /// `.image` accepts `.png`); then declaration order. Each representation appears once, bound to
    /// the best offered type it accepts.
    static func rankedImporters<Item: Transferable>(
        of type: Item.Type,
        offeredTypes: [UTType]
    ) -> [TransferImporter<Item>] {
        let rows = importRows(of: Item.self, context: ResolutionContext(audience: .ownProcess, visiting: []))
        var taken = Set<Int>()
        var result: [TransferImporter<Item>] = []
        for proxied in [false, true] {
            for offered in offeredTypes {
                let exact = rows.indices.filter { rows[$0].isProxied == proxied && rows[$0].contentType == offered }
                let conforming = rows.indices.filter {
                    rows[$0].isProxied == proxied && rows[$0].contentType != offered
                        && offered.conforms(to: rows[$0].contentType)
                }
                for index in exact + conforming where !taken.contains(index) {
                    taken.insert(index)
                    result.append(TransferImporter(row: rows[index], offeredType: offered))
                }
            }
        }
        return result
    }

    // MARK: Helpers

    private static func deduplicated<Element, Key: Hashable>(_ elements: [Element], by key: (Element) -> Key)
        -> [Element]
    {
        var seen = Set<Key>()
        return elements.filter { seen.insert(key($0)).inserted }
    }
}
