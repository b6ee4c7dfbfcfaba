// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypes

import Synchronization

extension TypeRegistry {
    /// The identifier domain of types that come from shared-mime-info. Apple has no identifiers for
    /// them; ours are readable (`org.freedesktop.mime.application.vnd.oasis.opendocument.text`) and
    /// stable across processes that read the same database.
    static let sharedMIMEInfoDomain = "org.freedesktop.mime."

    /// Adds the types of shared-mime-info entries the table does not already know, and returns the
    /// identifier every entry resolves to (new or already known), in entry order, without duplicates.
    ///
    /// A MIME type (or one of its aliases) that a declared type already carries is not redeclared: the
    /// built-in table and declarations win, and the first database read wins over later ones, like
    /// `$XDG_DATA_HOME` over `$XDG_DATA_DIRS` in the specification.
    ///
    /// Parents: each `<sub-class-of>` resolved through the table or the entries themselves, plus the
    /// implicit parent of the media type when the explicit ones do not already imply it (see below).
    @discardableResult
    func install(sharedMIMEInfo entries: [SharedMIMEInfoDatabase.Entry]) -> [String] {
        state.withLock { state in
            var newIdentifiers: [String: String] = [:]  // MIME key (type or alias) → new identifier
            var newRecords: [TypeRecord] = []
            var result: [String] = []
            var newIdentifierSet: Set<String> = []
            var parentsByIdentifier: [String: [String]] = [:]

            func known(_ mime: String) -> String? {
                guard let key = MIMEType.key(mime) else { return nil }
                if let id = Self.identifiersLocked(forTagKey: key, tagClass: .mimeType, in: &state).first { return id }
                return newIdentifiers[key]
            }

            for entry in entries {
                var existing = known(entry.mimeType)
                for alias in entry.aliases where existing == nil { existing = known(alias) }
                if let existing {
                    result.append(existing)
                    continue
                }
                var identifier = Self.sharedMIMEInfoDomain + Self.identifierPart(entry.mimeType)
                var suffix = 2
                while state.records[identifier.lowercased()] != nil || newIdentifierSet.contains(identifier) {
                    identifier = Self.sharedMIMEInfoDomain + Self.identifierPart(entry.mimeType) + "-\(suffix)"
                    suffix += 1
                }
                newIdentifierSet.insert(identifier)
                parentsByIdentifier[identifier] = entry.parents
                for mime in [entry.mimeType] + entry.aliases {
                    if let key = MIMEType.key(mime) { newIdentifiers[key] = identifier }
                }
                newRecords.append(
                    TypeRecord(
                        identifier: identifier,
                        conformsTo: [],
                        filenameExtensions: entry.filenameExtensions,
                        mimeTypes: [entry.mimeType] + entry.aliases,
                        description: entry.comment,
                        origin: .sharedMIMEInfo
                    )
                )
                result.append(identifier)
            }

            // Parents are resolved once every entry has an identifier, so order in the files is irrelevant.
            for index in newRecords.indices {
                var parents: [String] = []
                for parent in parentsByIdentifier[newRecords[index].identifier] ?? [] {
                    if let id = known(parent), id != newRecords[index].identifier, !parents.contains(id) {
                        parents.append(id)
                    }
                }
                newRecords[index].conformsTo = parents
                Self.insert(newRecords[index], into: &state)
            }
            // Implicit parents, once the explicit ones are in place: the specification makes every text/*
            // type a subclass of text/plain and every other stream a subclass of application/octet-stream
            // (inode/* excepted); we also make image/, audio/, video/ and font/ types conform to the
            // matching abstract Apple type, so asking for .image accepts image/x-xcf.
            for record in newRecords {
                let key = record.identifier.lowercased()
                let mediaType = record.mimeTypes.first.flatMap { MIMEType($0) }?.type
                let implied: String
                switch mediaType {
                case "text": implied = "public.plain-text"
                case "image": implied = "public.image"
                case "audio": implied = "public.audio"
                case "video": implied = "public.movie"
                case "font": implied = "public.font"
                case "inode": implied = "public.item"
                default: implied = "public.data"
                }
                let ancestors = Self.ancestors(of: key, in: &state)
                var updated = record
                if ancestors[implied] == nil {
                    updated.conformsTo.append(implied)
                }
                if updated.conformsTo != record.conformsTo { Self.insert(updated, into: &state) }
            }

            var seen: Set<String> = []
            return result.filter { seen.insert($0.lowercased()).inserted }
        }
    }

    /// Declared identifiers for a canonical MIME key, built-in aliases included; call with the lock held.
    static func identifiersLocked(forTagKey key: String, tagClass: UTTagClass, in state: inout State) -> [String] {
        var ids = state.carriers(ofTagKey: key, tagClass: tagClass).compactMap { state.records[$0]?.identifier }
        if tagClass == .mimeType, let alias = TagAliases.mimeTypes[key],
            let record = state.records[alias.lowercased()]
        {
            ids.append(record.identifier)
        }
        return ids
    }

    /// A MIME type as identifier characters: lower-cased, `/` → `.`, anything outside `[a-z0-9.-]` → `-`.
    static func identifierPart(_ mimeType: String) -> String {
        String(
            mimeType.lowercased().map { character -> Character in
                if character == "/" { return "." }
                let allowed = character.isLetter || character.isNumber || character == "." || character == "-"
                if character.isASCII && allowed {
                    return character
                }
                return "-"
            }
        )
    }
}
