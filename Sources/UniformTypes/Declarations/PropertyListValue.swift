// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypes

import FoundationEssentials

/// Any property-list or JSON value, decoded through `Decodable` so that `PropertyListDecoder` and
/// `JSONDecoder` (both in FoundationEssentials) can read a declaration file of unknown shape — the job
/// `PropertyListSerialization` / `JSONSerialization` do in full Foundation.
enum PropertyListValue: Decodable {
    /// JSON `null` (property lists have none).
    struct Null: Hashable {}

    case null
    case bool(Bool)
    case integer(Int)
    case real(Double)
    case string(String)
    case data(Data)
    case date(Date)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])

    /// The most values, and the deepest nesting, one decode takes when its decoder carries a ``Budget`` (the
    /// declaration reader's do): declaration files hold tens of values, a whole Info.plist some hundreds, four
    /// or five levels deep.
    static let maximumValues = 1 << 14
    static let maximumDepth = 64

    /// The values left to decode and the depth reached, shared by one decode through the decoder's `userInfo`.
    /// Why: a binary property list may reference one object many times, or its own containers (a cycle), and
    /// PropertyListDecoder expands references into a tree — 556 bytes recursed until memory or the stack ran
    /// out (a regression input of Fuzz/fuzz-declarations); shared references could stand for billions of values.
    final class Budget: @unchecked Sendable {
        static let key = CodingUserInfoKey(rawValue: "UniformTypes.PropertyListValue.Budget")!
        private var remaining = PropertyListValue.maximumValues
        private var depth = 0

        init() {}

        func enter(_ decoder: any Decoder) throws {
            remaining -= 1
            depth += 1
            guard remaining >= 0, depth <= PropertyListValue.maximumDepth else {
                throw DecodingError.dataCorrupted(DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "more than \(PropertyListValue.maximumValues) values, or nested more than "
                        + "\(PropertyListValue.maximumDepth) levels deep (a property list that references itself?)"))
            }
        }

        func leave() { depth -= 1 }
    }

    init(from decoder: any Decoder) throws {
        let budget = decoder.userInfo[Budget.key] as? Budget
        try budget?.enter(decoder)
        defer { budget?.leave() }
        // Containers first: a single-value container cannot tell an array from a dictionary.
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            var dictionary: [String: PropertyListValue] = [:]
            for key in keyed.allKeys {
                dictionary[key.stringValue] = try keyed.decode(PropertyListValue.self, forKey: key)
            }
            self = .dictionary(dictionary)
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var array: [PropertyListValue] = []
            if let count = unkeyed.count { array.reserveCapacity(count) }
            while !unkeyed.isAtEnd {
                array.append(try unkeyed.decode(PropertyListValue.self))
            }
            self = .array(array)
            return
        }
        let single = try decoder.singleValueContainer()
        // The order matters: JSON decodes `1` as Int or Double but never as Bool; a property list's
        // <true/> only as Bool; <string> must stay a string even where Data or Date could parse it.
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? single.decode(Double.self) {
            self = .real(value)
        } else if let value = try? single.decode(String.self) {
            self = .string(value)
        } else if let value = try? single.decode(Data.self) {
            self = .data(value)
        } else if let value = try? single.decode(Date.self) {
            self = .date(value)
        } else {
            throw DecodingError.dataCorruptedError(in: single, debugDescription: "unsupported value")
        }
    }

    /// The value as the untyped tree the declaration reader walks (`[String: Any]`, `[Any]`, …).
    var tree: Any {
        switch self {
        case .null: Null()
        case .bool(let value): value
        case .integer(let value): value
        case .real(let value): value
        case .string(let value): value
        case .data(let value): value
        case .date(let value): value
        case .array(let values): values.map(\.tree)
        case .dictionary(let values): values.mapValues(\.tree) as [String: Any]
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
