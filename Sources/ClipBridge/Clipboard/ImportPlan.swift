// SPDX-License-Identifier: Apache-2.0
// ClipBridge — what a paste of a Transferable type reads from an offer, decided once

import TransferKit
import UniformTypes
import X11Selection

/// What a paste of `T` reads from an offer, decided once from the offered targets and nothing else (no X
/// traffic): ``Clipboard/paste(_:validator:)`` carries it out, ``Clipboard/canPaste(_:)`` and a clipboard's
/// availability ask ``isImportable``, and a drop destination makes it when a drag enters (its types are known
/// then, XDND §"XdndEnter") and reuses it for every position and for the drop.
///
/// The steps, in the order they are tried (the first that gives values wins; a refused target or a failed
/// import moves on to the next):
/// 1. a ClipBridge owner's whole item list (``readsItemList``);
/// 2. each importer of `T` bound to the offered target it reads, best first (``direct``: by conformance, then
///    through proxies — TransferKit's ranking);
/// 3. the cheapest converter chain from an offered target to a type `T` imports (``conversion``);
/// 4. the local files of a file manager's copy, when `T` imports files (``fileList``).
struct ImportPlan<T: Transferable>: Sendable {
    /// An importer and the offered target it reads.
    struct Read: Sendable {
        var importer: TransferImporter<T>
        var target: SelectionTarget
    }

    /// A conversion: the offered target read, the chain applied, and the importer of the result.
    struct Conversion: Sendable {
        var importer: TransferImporter<T>
        var source: SelectionTarget
        var chain: ConversionChain
    }

    /// The offer's content targets, in the owner's order (what an error lists).
    let offered: [SelectionTarget]
    /// The owner offers ClipBridge's item list: its items are read first.
    let readsItemList: Bool
    /// Importers and the targets they read, best first.
    let direct: [Read]
    /// The cheapest conversion, partial converters included (tried after every direct read).
    let conversion: Conversion?
    /// The file list of a file manager's copy (`text/uri-list`, gnome-copied-files), when `T` imports files.
    let fileList: SelectionTarget?
    /// Whether `T` imports something offered directly or through non-partial conversions: whether a paste
    /// button is enabled, or a drag accepted.
    let isImportable: Bool

    /// The plan for an offer.
    /// - Parameters:
    ///   - offered: The owner's content targets in its order (meta targets, the password hint and the item list
    ///     already removed: `TargetMapping.contentTargets(in:)`).
    ///   - all: The raw target list (it tells whether an item list is offered).
    init(_ type: T.Type, offered: [SelectionTarget], all: [SelectionTarget], converters: ConverterRegistry) {
        // Resolving importers first also registers the custom types T declares with `exportedAs:`, so their
        // identifier-named targets are recognised below.
        let importers = T.resolvedImporters()
        let importTypes = importers.map(\.contentType)
        let offeredTypes = Self.resolvedTypes(of: offered, importTypes: importTypes)
        self.offered = offered
        readsItemList = all.contains(TargetMapping.itemsTarget)
        direct = T.resolvedImporters(forOfferedTypes: offeredTypes).compactMap { importer in
            offeredTypes.firstIndex(of: importer.offeredType).map { Read(importer: importer, target: offered[$0]) }
        }
        var best: Conversion?
        for importer in importers {
            guard let chain = converters.cheapestChain(from: offeredTypes, to: importer.contentType),
                !chain.steps.isEmpty, let index = offeredTypes.firstIndex(of: chain.source),
                let bound = T.resolvedImporter(forOfferedTypes: [chain.destination])
            else { continue }
            if let current = best, current.chain.cost <= chain.cost { continue }
            best = Conversion(importer: bound, source: offered[index], chain: chain)
        }
        conversion = best
        fileList = importers.contains(where: \.isFileBacked)
            ? offered.first { $0 == TargetMapping.uriList || $0 == TargetMapping.gnomeCopiedFiles } : nil
        isImportable = !direct.isEmpty
            || importTypes.contains { converters.cheapestChain(from: offeredTypes, to: $0, includePartial: false) != nil }
    }

    /// The content type of each offered target as `T` should see it: the table's type, or — when one of `T`'s
    /// import types is offered under this very target but the table does not know it (a custom type declared
    /// only in the sending app) — that import type.
    static func resolvedTypes(of targets: [SelectionTarget], importTypes: [UTType]) -> [UTType] {
        targets.map { target in
            let mapped = TargetMapping.contentType(for: target)
            if importTypes.contains(where: { mapped.conforms(to: $0) }) { return mapped }
            return importTypes.first { TargetMapping.targets(for: $0).contains(target) } ?? mapped
        }
    }
}
