// SPDX-License-Identifier: Apache-2.0
// ClipBridge — what a drop destination of a Transferable type does with a drag, decided when it enters

import TransferKit
import UniformTypes
import X11Selection

/// What a ``DropDestination`` of `T` does with a drag, decided once, when the drag enters: its types are known
/// then (XdndEnter, or the source's XdndTypeList) and do not change until it leaves, so every XdndPosition is
/// answered from this value and the drop carries it out — nothing is matched twice.
///
/// A drag is refused (no plan) unless `T` imports one of its types directly or through non-partial
/// conversions (``ImportPlan/isImportable``), or it offers a direct save the destination takes.
struct DropImportPlan<T: Transferable>: Sendable {
    /// Save the drag into the destination's folder first (the X Direct Save protocol, `XdndDirectSave0`), then
    /// import the saved file; when the save fails, ``imports`` is carried out instead.
    let savesDirectly: Bool
    /// What a paste of the drop's types reads (a drop is read as a paste is).
    let imports: ImportPlan<T>

    /// The plan for a drag offering `types` (in the source's order), or nil when the destination refuses it.
    /// - Parameter directSaves: Whether the destination has a folder for direct saves.
    init?(_ type: T.Type, offering types: [SelectionTarget], directSaves: Bool, converters: ConverterRegistry) {
        imports = ImportPlan(T.self, offered: TargetMapping.contentTargets(in: types), all: types, converters: converters)
        // A direct save hands over a file: taken when T imports a file URL or an image file.
        savesDirectly = directSaves && types.contains(DirectSave.target) && Self.importsSavedFiles
        guard savesDirectly || imports.isImportable else { return nil }
    }

    /// Whether `T` takes a saved file: as its file URL, or as the file itself (an image).
    static var importsSavedFiles: Bool {
        T.resolvedImporter(forOfferedTypes: [.fileURL]) != nil || T.resolvedImporter(forOfferedTypes: [.image]) != nil
    }
}
