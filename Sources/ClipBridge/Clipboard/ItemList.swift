// SPDX-License-Identifier: Apache-2.0
// ClipBridge — the private target that carries several items

import FoundationEssentials
import UniformTypes
import X11Selection

/// The content of `application/x-clipbridge-items`: every item of a multi-item copy with all its (visible)
/// representations, so another ClipBridge app pastes `[a, b]` exactly. X11 has one selection value per
/// target, so the list travels as one JSON document; files travel by path when the sender allows access to
/// the original, else inline.
struct ItemList: Codable, Sendable {
    struct Entry: Codable, Sendable {
        /// The content type's identifier.
        var type: String
        /// The content type's primary X target, for receivers that do not know the identifier.
        var target: String
        /// The canonical bytes, when inline.
        var data: Data?
        /// The file's path, when shared by location.
        var path: String?
        /// The sender's suggested file name.
        var fileName: String?
    }

    /// Format version; readers ignore lists of another major version.
    var version = 1
    var items: [[Entry]]

    /// Exports every visible representation of every item (run when a requestor asks for the target).
    static func encode(_ items: [PreparedItem]) async throws -> Data {
        var list = ItemList(items: [])
        for item in items {
            var entries: [Entry] = []
            for representation in item.representations where !representation.isHidden {
                let type = representation.contentType
                var entry = Entry(
                    type: type.identifier,
                    target: (representation.target ?? TargetMapping.targets(for: type)[0]).rawValue,
                    fileName: representation.suggestedFileName)
                switch representation.payload {
                case .eager(let data): entry.data = data
                case .lazy(let produce): entry.data = try await produce()
                case .file(let url, let allowsOriginal):
                    if allowsOriginal { entry.path = url.path } else { entry.data = try Data(contentsOf: url) }
                }
                entries.append(entry)
            }
            list.items.append(entries)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(list)
    }

    /// Decodes a list; nil when the bytes are not a list this version understands.
    static func decode(_ data: Data) -> ItemList? {
        guard let list = try? JSONDecoder().decode(ItemList.self, from: data), list.version == 1 else { return nil }
        return list
    }
}

extension ItemList.Entry {
    /// The content type: the identifier when this process knows it, else what the target means.
    var contentType: UTType {
        UTType(type) ?? TargetMapping.contentType(for: SelectionTarget(rawValue: target))
    }
}
