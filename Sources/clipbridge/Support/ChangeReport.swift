// ClipBridge — the clipbridge command-line tool.
// One change `clipbridge watch` reports, as a line or a JSON object.

import ClipBridge
import FoundationEssentials
import X11Selection

/// One reported change, as printed.
struct ChangeReport: Sendable {
    var selection: SelectionName
    var reason: String
    /// The owner as printed: an X window (`0x400001`), `source` on Wayland (its client is not named there); nil
    /// when nothing is owned.
    var owner: String?
    var serverTime: UInt?
    var types: [ClipboardType]
    var isSensitive: Bool
    var time = Date()
    /// The owner had not answered TARGETS when the change was printed: `types` is unknown, and an update
    /// line follows when it answers.
    var typesPending = false
    /// This line carries the types of a change printed before with `typesPending`.
    var isUpdate = false

    init(selection: SelectionName, reason: String, owner: String?, serverTime: UInt?, types: [ClipboardType],
         isSensitive: Bool) {
        self.selection = selection
        self.reason = reason
        self.owner = owner
        self.serverTime = serverTime
        self.types = types
        self.isSensitive = isSensitive
    }

    init(_ change: ClipboardChange) {
        self.init(selection: change.selection, reason: Self.name(of: change.reason), owner: change.owner.map(Self.text),
                  serverTime: change.timestamp.rawValue, types: change.types, isSensitive: change.isSensitive)
    }

    /// A change whose owner has not answered TARGETS yet.
    init(pending change: OwnerChange) {
        self.init(selection: change.selection, reason: Self.name(of: change.reason), owner: change.owner.map(Self.text),
                  serverTime: change.timestamp.rawValue, types: [], isSensitive: false)
        typesPending = change.owner != nil
    }

    /// The reason as printed.
    static func name(of reason: OwnerChange.Reason) -> String {
        switch reason {
        case .newOwner: "new-owner"
        case .ownerWindowDestroyed: "owner-window-destroyed"
        case .ownerClientClosed: "owner-client-closed"
        }
    }

    /// An X window as printed.
    static func text(_ window: X11Window) -> String { "0x" + String(window.rawValue, radix: 16) }

    var ownerText: String { owner ?? "" }

    var timeText: String {
        time.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// The human line.
    var line: String {
        let offered = types.filter { !$0.isConverted }.map(\.target.rawValue)
        return [timeText, selection.rawValue, reason, owner == nil ? "none" : ownerText,
                isUpdate ? "update" : nil, isSensitive ? "sensitive" : nil,
                typesPending ? "(types pending)" : offered.isEmpty ? nil : offered.joined(separator: " ")]
            .compactMap { $0 }.joined(separator: "  ")
    }

    /// The JSON object.
    struct JSON: Codable {
        var selection: String
        var reason: String
        var owner: String?
        var timestamp: String
        var serverTime: UInt?
        /// nil while the owner has not answered TARGETS (an `update` line brings them).
        var types: [TypeEntry]?
        var sensitive: Bool
        var update: Bool

        enum CodingKeys: String, CodingKey {
            case selection, reason, owner, timestamp, serverTime, types, sensitive, update
        }

        /// Writes `owner` and `serverTime` as null rather than leaving them out, so every line has
        /// every key.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(selection, forKey: .selection)
            try container.encode(reason, forKey: .reason)
            try container.encode(owner, forKey: .owner)
            try container.encode(timestamp, forKey: .timestamp)
            try container.encode(serverTime, forKey: .serverTime)
            try container.encode(types, forKey: .types)
            try container.encode(sensitive, forKey: .sensitive)
            try container.encode(update, forKey: .update)
        }
    }

    /// The JSON object as one line. The types are encoded one by one into the line rather than as one array
    /// value: an owner chooses how many it lists, and JSONEncoder's whole-tree encoding of a million entries
    /// took twice as long per entry as of a hundred thousand (30 µs against 15 µs).
    func jsonLine() throws -> String {
        let encoder = TypeListing.encoder()
        var object = json
        guard let types = object.types, !types.isEmpty else {
            return String(decoding: try encoder.encode(object), as: UTF8.self)
        }
        object.types = []
        var line = Array(try encoder.encode(object))
        // `"types":[]` occurs once: the other values are a selection name, a reason, an XID and times.
        let empty = Array(#""types":[]"#.utf8)
        guard let start = line.firstRange(of: empty)?.lowerBound else {
            object.types = types
            return String(decoding: try encoder.encode(object), as: UTF8.self)
        }
        var entries: [UInt8] = []
        entries.reserveCapacity(types.count * 128)
        for (index, entry) in types.enumerated() {
            if index > 0 { entries.append(UInt8(ascii: ",")) }
            entries.append(contentsOf: try encoder.encode(entry))
        }
        line.insert(contentsOf: entries, at: start + empty.count - 1)
        return String(decoding: line, as: UTF8.self)
    }

    var json: JSON {
        JSON(selection: selection.rawValue, reason: reason, owner: owner, timestamp: timeText,
             serverTime: serverTime, types: typesPending ? nil : types.map(TypeEntry.init), sensitive: isSensitive,
             update: isUpdate)
    }
}
