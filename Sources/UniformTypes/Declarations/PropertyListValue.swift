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

    init(from decoder: any Decoder) throws {
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
