// ClipBridge — the clipbridge command-line tool.
// `paste --list-types` and `watch` output of offered types.

import ClipBridge
import FoundationEssentials
import UniformTypes
import X11Selection

/// One offered type as printed by `--list-types --json` and `watch --json`.
struct TypeEntry: Codable, Sendable, Equatable {
    /// The X target name.
    var target: String
    /// The UTType identifier it means.
    var type: String
    /// The preferred MIME type of that UTType, when it has one.
    var mimeType: String?
    /// True when the owner does not offer the target: ClipBridge converts from `convertedFrom`.
    var converted: Bool
    /// The offered target a converted type is produced from.
    var convertedFrom: String?

    init(_ type: ClipboardType) {
        target = type.target.rawValue
        self.type = type.contentType.identifier
        mimeType = type.contentType.preferredMIMEType
        converted = type.isConverted
        convertedFrom = type.sourceTarget?.rawValue
    }
}

/// Printing type lists.
enum TypeListing {
    /// A JSON encoder with stable key order.
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// Prints `types`, richest first: one aligned line per type (target, UTType, conversion note),
    /// or a JSON array.
    static func print(_ types: [ClipboardType], json: Bool) throws {
        if json {
            let data = try encoder().encode(types.map(TypeEntry.init))
            try Output.line(String(decoding: data, as: UTF8.self))
            return
        }
        let width = min(40, types.map(\.target.rawValue.count).max() ?? 0)
        for type in types {
            var line = type.target.rawValue.padding(width) + "  " + type.contentType.identifier
            if type.isConverted {
                line += "  (converted from \(type.sourceTarget?.rawValue ?? "another type"))"
            }
            try Output.line(line)
        }
    }
}
