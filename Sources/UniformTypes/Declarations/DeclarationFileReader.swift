// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypes

import FoundationEssentials

/// Parses an Info.plist-format declaration file (XML/binary property list or JSON) into declarations,
/// keeping the key path of each so later conflicts can be reported against the right entry.
struct DeclarationFileReader {
    /// A declaration and where it came from.
    struct Located {
        var declaration: UTTypeDeclaration
        /// For example `UTExportedTypeDeclarations[1]`.
        var keyPath: String
    }

    let file: URL

    func read() throws -> [Located] {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw UTTypeDeclarationError(.unreadableFile, file: file, reason: "cannot read the file", underlying: error)
        }
        let root = try parse(data)
        guard let dictionary = root as? [String: Any] else {
            throw UTTypeDeclarationError(
                .invalidValue,
                file: file,
                key: "(root)",
                reason: "expected a dictionary at the root, found \(Self.typeName(root))"
            )
        }
        let kinds = UTTypeDeclaration.Kind.allCases.filter { dictionary[$0.propertyListKey] != nil }
        guard !kinds.isEmpty else {
            throw UTTypeDeclarationError(
                .missingKey,
                file: file,
                key: "UTExportedTypeDeclarations",
                reason: "the file has neither UTExportedTypeDeclarations nor UTImportedTypeDeclarations"
            )
        }
        var result: [Located] = []
        for kind in kinds {
            let key = kind.propertyListKey
            guard let entries = dictionary[key] as? [Any] else {
                throw invalid(key, "expected an array of dictionaries, found \(Self.typeName(dictionary[key]!))")
            }
            for (index, entry) in entries.enumerated() {
                let path = "\(key)[\(index)]"
                guard let entry = entry as? [String: Any] else {
                    throw invalid(path, "expected a dictionary, found \(Self.typeName(entry))")
                }
                result.append(Located(declaration: try declaration(entry, kind: kind, path: path), keyPath: path))
            }
        }
        return result
    }

    // MARK: - Formats

    /// JSON if the first significant byte opens an object, otherwise a property list (XML or binary;
    /// the decoder detects which). Both are decoded into the same `Any` tree (`[String: Any]`, `[Any]`,
    /// `String`, `Int`, `Double`, `Bool`, `Data`, `Date`, ``PropertyListValue/Null``) through the
    /// Codable decoders of FoundationEssentials, so UniformTypes does not pull in all of Foundation
    /// (and its ICU data) just to read an Info.plist.
    private func parse(_ data: Data) throws -> Any {
        let firstByte = data.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        if firstByte == UInt8(ascii: "{") || firstByte == UInt8(ascii: "[") {
            do {
                let decoder = JSONDecoder()
                decoder.userInfo[PropertyListValue.Budget.key] = PropertyListValue.Budget()
                return try decoder.decode(PropertyListValue.self, from: data).tree
            } catch {
                throw UTTypeDeclarationError(
                    .malformedFile,
                    file: file,
                    reason: "not valid JSON (\(Self.detail(error)))"
                )
            }
        }
        do {
            // Bounded: a binary property list can reference its own containers (see PropertyListValue.Budget).
            let decoder = PropertyListDecoder()
            decoder.userInfo[PropertyListValue.Budget.key] = PropertyListValue.Budget()
            return try decoder.decode(PropertyListValue.self, from: data).tree
        } catch {
            throw UTTypeDeclarationError(
                .malformedFile,
                file: file,
                reason: "not a valid property list or JSON document (\(Self.detail(error)))"
            )
        }
    }

    // MARK: - Entries

    private func declaration(_ entry: [String: Any], kind: UTTypeDeclaration.Kind, path: String) throws
        -> UTTypeDeclaration
    {
        guard let rawIdentifier = entry["UTTypeIdentifier"] else {
            throw UTTypeDeclarationError(
                .missingKey,
                file: file,
                key: "\(path).UTTypeIdentifier",
                reason: "missing required string"
            )
        }
        guard let identifier = rawIdentifier as? String else {
            throw invalid("\(path).UTTypeIdentifier", "expected a string, found \(Self.typeName(rawIdentifier))")
        }
        try DeclarationValidation.checkIdentifier(identifier, file: file, key: "\(path).UTTypeIdentifier")

        var parents: [UTType] = []
        if let raw = entry["UTTypeConformsTo"] {
            for (index, parent) in try strings(raw, path: "\(path).UTTypeConformsTo").enumerated() {
                guard let type = UTType(identifier: parent, allowUndeclared: true) else {
                    throw invalid("\(path).UTTypeConformsTo[\(index)]", "\"\(parent)\" is not a valid type identifier")
                }
                parents.append(type)
            }
        }

        var tags: [UTTagClass: [String]] = [:]
        if let raw = entry["UTTypeTagSpecification"] {
            guard let specification = raw as? [String: Any] else {
                throw invalid("\(path).UTTypeTagSpecification", "expected a dictionary, found \(Self.typeName(raw))")
            }
            for (tagClassName, value) in specification.sorted(by: { $0.key < $1.key }) {
                let tagPath = "\(path).UTTypeTagSpecification.\(tagClassName)"
                let values = try strings(value, path: tagPath)
                let tagClass = UTTagClass(rawValue: tagClassName)
                for (index, tag) in values.enumerated() {
                    try DeclarationValidation.checkTag(tag, tagClass: tagClass, file: file, key: "\(tagPath)[\(index)]")
                }
                tags[tagClass] = values
            }
        }

        var description: String?
        if let raw = entry["UTTypeDescription"] {
            guard let text = raw as? String else {
                throw invalid("\(path).UTTypeDescription", "expected a string, found \(Self.typeName(raw))")
            }
            description = text
        }

        var referenceURL: URL?
        if let raw = entry["UTTypeReferenceURL"] {
            guard let text = raw as? String, let url = URL(string: text), url.scheme != nil else {
                throw invalid(
                    "\(path).UTTypeReferenceURL",
                    "expected an absolute URL string, found \(Self.describe(raw))"
                )
            }
            referenceURL = url
        }

        var version: Int?
        if let raw = entry["UTTypeVersion"] {
            if let text = raw as? String, let number = Int(text.trimmingWhitespace()) {
                version = number
            } else if !(raw is String), let number = raw as? Int {
                version = number
            } else {
                throw invalid("\(path).UTTypeVersion", "expected an integer, found \(Self.describe(raw))")
            }
        }

        return UTTypeDeclaration(
            identifier: identifier,
            kind: kind,
            conformsTo: parents,
            tags: tags,
            description: description,
            referenceURL: referenceURL,
            version: version
        )
    }

    /// A string or an array of strings (Info.plist allows both for conformances and tags).
    private func strings(_ raw: Any, path: String) throws -> [String] {
        if let single = raw as? String { return [single] }
        guard let array = raw as? [Any] else {
            throw invalid(path, "expected a string or an array of strings, found \(Self.typeName(raw))")
        }
        return try array.enumerated().map { index, element in
            guard let text = element as? String else {
                throw invalid("\(path)[\(index)]", "expected a string, found \(Self.typeName(element))")
            }
            return text
        }
    }

    private func invalid(_ key: String, _ reason: String) -> UTTypeDeclarationError {
        UTTypeDeclarationError(.invalidValue, file: file, key: key, reason: reason)
    }

    // MARK: - Messages

    private static func typeName(_ value: Any) -> String {
        switch value {
        case is String: "a string"
        case is [Any]: "an array"
        case is [String: Any]: "a dictionary"
        case is Data: "data"
        case is Date: "a date"
        case is Int, is Double: "a number"
        case is Bool: "a boolean"
        case is PropertyListValue.Null: "null"
        default: "\(type(of: value))"
        }
    }

    private static func describe(_ value: Any) -> String {
        if let text = value as? String { return "\"\(text)\"" }
        return typeName(value)
    }

    /// The decoder's own words: the debug description of a `DecodingError` (with the coding path
    /// where it stopped), or the error itself.
    private static func detail(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        let context: DecodingError.Context
        switch decoding {
        case .dataCorrupted(let c), .keyNotFound(_, let c), .typeMismatch(_, let c), .valueNotFound(_, let c):
            context = c
        @unknown default:
            return "\(decoding)"
        }
        var text = context.debugDescription
        if let underlying = context.underlyingError { text += ": \(underlying)" }
        return text
    }
}

/// Checks shared by files and ``UTType/register(_:)``.
enum DeclarationValidation {
    static func checkIdentifier(_ identifier: String, file: URL?, key: String) throws {
        guard UTType.isValidIdentifier(identifier) else {
            throw UTTypeDeclarationError(
                .invalidValue,
                file: file,
                key: key,
                reason: "\"\(identifier)\" is not a valid type identifier (use reverse-DNS: letters, digits, '-', '.')"
            )
        }
        guard !identifier.lowercased().hasPrefix("dyn.") else {
            throw UTTypeDeclarationError(
                .invalidValue,
                file: file,
                key: key,
                reason: "\"\(identifier)\" is in the reserved dyn. domain of dynamic types"
            )
        }
    }

    static func checkTag(_ tag: String, tagClass: UTTagClass, file: URL?, key: String) throws {
        switch tagClass {
        case .mimeType:
            guard MIMEType(tag) != nil else {
                throw UTTypeDeclarationError(
                    .invalidValue,
                    file: file,
                    key: key,
                    reason: "\"\(tag)\" is not a MIME type"
                )
            }
        case .filenameExtension:
            guard !tag.isEmpty, !tag.hasPrefix("."), !tag.contains("/") else {
                throw UTTypeDeclarationError(
                    .invalidValue,
                    file: file,
                    key: key,
                    reason: "\"\(tag)\" is not a filename extension (no leading period, no '/')"
                )
            }
        default:
            break
        }
    }
}
