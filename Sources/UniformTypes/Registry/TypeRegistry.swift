// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypes

import FoundationEssentials
import Synchronization

/// The process-wide table of type declarations, guarded by a `Mutex` so lookups and registrations may
/// come from any thread (the X11 event loop, Swift concurrency tasks, test cases running in parallel).
///
/// Identifiers and tags are case-insensitive (UTIs are, per Apple's "Uniform Type Identifier
/// Concepts"; MIME types per RFC 2045 §5.1; file systems on the Mac), so every key is lower-cased.
/// Conformance closures are computed on first use and cached until the table changes.
final class TypeRegistry: Sendable {
    /// The registry every `UTType` consults.
    static let shared = TypeRegistry()

    struct State: Sendable {
        /// Lower-cased identifier → record.
        var records: [String: TypeRecord] = [:]
        /// Lower-cased identifier → insertion rank; breaks ties between types sharing a tag.
        var rank: [String: Int] = [:]
        /// Canonical filename-extension key → lower-cased identifiers carrying it, best first; valid only
        /// once `isExtensionIndexBuilt`.
        var extensionIndex: [String: [String]] = [:]
        /// Canonical MIME key → lower-cased identifiers carrying it, best first; valid only once
        /// `isMIMETypeIndexBuilt`.
        var mimeTypeIndex: [String: [String]] = [:]
        /// Whether `extensionIndex` exists. The tag indexes are built on the first lookup of their tag
        /// class, not with the table: many processes (a `clipbridge copy` parent, `--help`) never look a
        /// tag up, a paste looks up MIME types only, and building an index at once from the finished table
        /// is cheaper than keeping it sorted record by record.
        var isExtensionIndexBuilt = false
        /// Whether `mimeTypeIndex` exists.
        var isMIMETypeIndexBuilt = false
        /// Lower-cased identifier → ancestors (lower-cased → spelled identifier), self excluded.
        var closureCache: [String: [String: String]] = [:]
        /// Lower-cased `dyn.` identifier → ancestors; kept apart from `closureCache`, whose keys are record
        /// keys (a record may name a `dyn.` parent, which has no record).
        var dynamicClosureCache: [String: [String: String]] = [:]
        /// Whether the first lookup miss reads the system's shared-mime-info database.
        var loadsSystemSharedMIMEInfo = true

        /// The identifiers carrying a canonical tag key, best first (builds the class's index if needed).
        mutating func carriers(ofTagKey key: String, tagClass: UTTagClass) -> [String] {
            switch tagClass {
            case .filenameExtension:
                buildTagIndexIfNeeded(.filenameExtension)
                return extensionIndex[key] ?? []
            case .mimeType:
                buildTagIndexIfNeeded(.mimeType)
                return mimeTypeIndex[key] ?? []
            default:
                return []
            }
        }

        /// Whether the index of `tagClass` exists (and so must be kept up to date).
        func isTagIndexBuilt(_ tagClass: UTTagClass) -> Bool {
            tagClass == .mimeType ? isMIMETypeIndexBuilt : isExtensionIndexBuilt
        }

        /// Builds the index of `tagClass` from the records, in table order, then puts each list in
        /// preference order (see `TypeRegistry.isBetterCarrier`): the result `insert` keeps up to date.
        mutating func buildTagIndexIfNeeded(_ tagClass: UTTagClass) {
            guard !isTagIndexBuilt(tagClass) else { return }
            if tagClass == .mimeType { isMIMETypeIndexBuilt = true } else { isExtensionIndexBuilt = true }
            var order = [String](repeating: "", count: rank.count)
            for (key, position) in rank { order[position] = key }
            var index: [String: [String]] = [:]
            index.reserveCapacity(records.count)
            for key in order {
                guard let record = records[key] else { continue }
                for tag in record.tags(for: tagClass) {
                    guard let tagKey = TypeRegistry.tagKey(tag, tagClass) else { continue }
                    if index[tagKey]?.contains(key) == true { continue }
                    index[tagKey, default: []].append(key)
                }
            }
            // Most tags have one carrier; only the shared ones need ordering.
            let records = self.records
            let rank = self.rank
            for (tagKey, carriers) in index where carriers.count > 1 {
                index[tagKey] = carriers.sorted {
                    TypeRegistry.isBetterCarrier($0, than: $1, of: tagKey, tagClass, records: records, rank: rank)
                }
            }
            if tagClass == .mimeType { mimeTypeIndex = index } else { extensionIndex = index }
        }

        /// Applies `body` to the index of `tagClass` (which must be built).
        mutating func updateIndex(_ tagClass: UTTagClass, _ body: (inout [String: [String]]) -> Void) {
            if tagClass == .mimeType { body(&mimeTypeIndex) } else { body(&extensionIndex) }
        }
    }

    let state: Mutex<State>
    /// Whether the system's shared-mime-info database has been read; held while reading it.
    let systemSharedMIMEInfoLoaded = Mutex(false)

    init(records: [TypeRecord] = SystemDeclarations.records) {
        var initial = State()
        initial.records.reserveCapacity(records.count)
        initial.rank.reserveCapacity(records.count)
        for record in records {
            Self.insert(record, into: &initial)
        }
        state = Mutex(initial)
    }

    // MARK: - Reading

    /// The record for an identifier (any letter case), reading the system shared-mime-info database
    /// first if the identifier is in its domain and nothing else declares it.
    func record(for identifier: String) -> TypeRecord? {
        if let found = state.withLock({ $0.records[Self.lowercasedKey(identifier)] }) { return found }
        // Only shared-mime-info types live in that domain; other misses (every new `UTType(exportedAs:)`)
        // must not pay for reading the database.
        guard Self.lowercasedKey(identifier).hasPrefix(Self.sharedMIMEInfoDomain), loadSystemSharedMIMEInfoIfNeeded()
        else { return nil }
        return state.withLock { $0.records[Self.lowercasedKey(identifier)] }
    }

    /// The record for an identifier, without touching the shared-mime-info database.
    func existingRecord(for identifier: String) -> TypeRecord? {
        state.withLock { $0.records[Self.lowercasedKey(identifier)] }
    }

    /// All ancestors of a declared identifier (direct and indirect, self excluded), lower-cased key →
    /// spelled identifier. Unknown parents are kept (by identifier) but not expanded.
    func ancestors(of identifier: String) -> [String: String] {
        ancestors(ofKey: Self.lowercasedKey(identifier))
    }

    /// ``ancestors(of:)`` for an identifier already lower-cased (`UTType.key`).
    func ancestors(ofKey key: String) -> [String: String] {
        state.withLock { state in Self.ancestors(of: key, in: &state) }
    }

    /// Ancestors of a `dyn.` type (parents decoded from the identifier), cached like declared types':
    /// `conforms(to:)` runs for every offered type against every converter while a copy builds its offer,
    /// and decoding the identifier each time cost more than the rest of the check.
    func ancestors(ofDynamic identifier: String, key: String? = nil) -> [String: String] {
        let key = key ?? Self.lowercasedKey(identifier)
        if let cached = state.withLock({ $0.dynamicClosureCache[key] }) { return cached }
        guard let dynamic = DynamicTypeIdentifier(identifier: identifier) else { return ancestors(of: identifier) }
        // Computed and stored under one lock, so a registration in between cannot leave a stale entry.
        return state.withLock { state in
            let result = Self.ancestors(ofParents: dynamic.conformsTo, in: &state)
            // Bounded: dynamic types are made from whatever X clients offer, and a long-running process (the
            // daemon, watch) would otherwise grow with every distinct name it was ever shown.
            if state.dynamicClosureCache.count >= Self.dynamicClosureCacheLimit { state.dynamicClosureCache.removeAll() }
            state.dynamicClosureCache[key] = result
            return result
        }
    }

    /// The most dynamic types whose ancestors are cached at once.
    static let dynamicClosureCacheLimit = 1 << 16

    /// Ancestors of a type given by its direct parents (dynamic types have no record).
    func ancestors(ofParents parents: [String]) -> [String: String] {
        state.withLock { state in Self.ancestors(ofParents: parents, in: &state) }
    }

    static func ancestors(ofParents parents: [String], in state: inout State) -> [String: String] {
        var result: [String: String] = [:]
        for parent in parents {
            let key = lowercasedKey(parent)
            result[key] = state.records[key]?.identifier ?? parent
            result.merge(ancestors(of: key, in: &state)) { first, _ in first }
        }
        return result
    }

    /// Identifiers of declared types carrying `tag` (already a canonical key), best first: types whose
    /// preferred tag it is, then the others, each group in table order; then the alias target, if any.
    func identifiers(forTagKey key: String, tagClass: UTTagClass, aliases: [String: String]) -> [String] {
        let found = state.withLock { Self.identifiers(forTagKey: key, tagClass: tagClass, aliases: aliases, in: &$0) }
        if !found.isEmpty { return found }
        guard loadSystemSharedMIMEInfoIfNeeded() else { return [] }
        return state.withLock { Self.identifiers(forTagKey: key, tagClass: tagClass, aliases: aliases, in: &$0) }
    }

    private static func identifiers(
        forTagKey key: String,
        tagClass: UTTagClass,
        aliases: [String: String],
        in state: inout State
    ) -> [String] {
        // Lists in the index are kept in preference order by `insert`, so a lookup is a dictionary hit.
        var result = state.carriers(ofTagKey: key, tagClass: tagClass).compactMap { state.records[$0]?.identifier }
        if let alias = aliases[key], let record = state.records[alias.lowercased()],
            !result.contains(record.identifier)
        {
            result.append(record.identifier)
        }
        return result
    }

    /// `text` lower-cased; `text` itself when it has no upper-case ASCII letter (every built-in identifier,
    /// which saves a new string per record when the table is built at start-up).
    static func lowercasedKey(_ text: String) -> String {
        needsLowercasing(text) ? text.lowercased() : text
    }

    /// Whether `text` has an upper-case ASCII letter or any non-ASCII byte, over its contiguous UTF-8 where it
    /// has one (every native string), without a generic iterator.
    private static func needsLowercasing(_ text: String) -> Bool {
        func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            for byte in bytes where byte >= 0x80 || (byte >= 0x41 && byte <= 0x5A) { return true }
            return false
        }
        if let found = text.utf8.withContiguousStorageIfAvailable(scan) { return found }
        var copy = text
        return copy.withUTF8(scan)
    }

    /// The canonical index key of a tag: MIME types canonicalised, everything else lower-cased.
    static func tagKey(_ tag: String?, _ tagClass: UTTagClass) -> String? {
        guard let tag else { return nil }
        if tagClass == .mimeType { return MIMEType.key(tag) ?? tag.lowercased() }
        return lowercasedKey(tag)
    }

    // MARK: - Writing

    /// Adds or replaces a record and drops the conformance cache.
    func insert(_ record: TypeRecord) {
        state.withLock { state in Self.insert(record, into: &state) }
    }

    static func insert(_ record: TypeRecord, into state: inout State) {
        let key = lowercasedKey(record.identifier)
        let old = state.records[key]
        if old == nil { state.rank[key] = state.rank.count }
        state.records[key] = record
        state.closureCache.removeAll()
        state.dynamicClosureCache.removeAll()
        // An index not built yet has nothing to maintain: it is built from the whole table when needed.
        for tagClass in [UTTagClass.filenameExtension, .mimeType] where state.isTagIndexBuilt(tagClass) {
            if let old {
                for tag in old.tags(for: tagClass) {
                    guard let tagKey = tagKey(tag, tagClass) else { continue }
                    state.updateIndex(tagClass) { $0[tagKey]?.removeAll { $0 == key } }
                }
            }
            for tag in record.tags(for: tagClass) {
                guard let tagKey = tagKey(tag, tagClass) else { continue }
                var carriers = state.carriers(ofTagKey: tagKey, tagClass: tagClass)
                if carriers.contains(key) { continue }
                carriers.append(key)
                let records = state.records
                let rank = state.rank
                carriers.sort { isBetterCarrier($0, than: $1, of: tagKey, tagClass, records: records, rank: rank) }
                state.updateIndex(tagClass) { $0[tagKey] = carriers }
            }
        }
    }

    /// The order of the types sharing a tag, best first: types whose preferred tag it is; then system
    /// types, then the program's declarations, then shared-mime-info (a program's own declaration of a
    /// MIME type beats the desktop database's generic entry); then table order.
    static func isBetterCarrier(
        _ lhs: String, than rhs: String, of tagKey: String, _ tagClass: UTTagClass,
        records: [String: TypeRecord], rank: [String: Int]
    ) -> Bool {
        func isPreferred(_ carrier: String) -> Bool {
            Self.tagKey(records[carrier]?.tags(for: tagClass).first, tagClass) == tagKey
        }
        let lhsPreferred = isPreferred(lhs)
        let rhsPreferred = isPreferred(rhs)
        if lhsPreferred != rhsPreferred { return lhsPreferred }
        let lhsPriority = records[lhs]?.origin.lookupPriority ?? .max
        let rhsPriority = records[rhs]?.origin.lookupPriority ?? .max
        if lhsPriority != rhsPriority { return lhsPriority < rhsPriority }
        return (rank[lhs] ?? .max) < (rank[rhs] ?? .max)
    }

    // MARK: - Conformance closure

    static func ancestors(of key: String, in state: inout State) -> [String: String] {
        if let cached = state.closureCache[key] { return cached }
        var result: [String: String] = [:]
        // Depth-first in declared order, as CoreServices searches supertypes; `visiting` guards against
        // cycles a careless declaration file could create.
        var stack: [String] = state.records[key]?.conformsTo.reversed() ?? []
        var visiting: Set<String> = [key]
        while let parent = stack.popLast() {
            let parentKey = lowercasedKey(parent)
            guard !visiting.contains(parentKey) else { continue }
            visiting.insert(parentKey)
            let parentRecord = state.records[parentKey]
            result[parentKey] = parentRecord?.identifier ?? parent
            stack.append(contentsOf: (parentRecord?.conformsTo ?? []).reversed())
        }
        state.closureCache[key] = result
        return result
    }

    // MARK: - System shared-mime-info

    /// Reads the system shared-mime-info database once, if allowed; `true` if that added anything.
    /// Threads that miss while another one is reading wait for it (the read takes tens of
    /// milliseconds), so no lookup answers "dynamic" for a type the database is about to declare.
    private func loadSystemSharedMIMEInfoIfNeeded() -> Bool {
        guard state.withLock({ $0.loadsSystemSharedMIMEInfo }) else { return false }
        return loadSystemSharedMIMEInfo()
    }

    /// Reads the system shared-mime-info database if it was not read yet (once per process), whether or not
    /// automatic loading is allowed; `true` if that added anything.
    @discardableResult
    func loadSystemSharedMIMEInfo() -> Bool {
        systemSharedMIMEInfoLoaded.withLock { loaded -> Bool in
            guard !loaded else { return false }
            loaded = true
            var added = false
            for directory in SharedMIMEInfoDatabase.systemPackageDirectories() {
                // The system database is best effort: a broken package must not break lookups.
                if let entries = try? SharedMIMEInfoDatabase.parsePackages(in: directory), !entries.isEmpty {
                    added = !install(sharedMIMEInfo: entries).isEmpty || added
                }
            }
            return added
        }
    }
}

extension TypeRegistry {
    /// Inserts a record unless its identifier is already known (another thread may have won the race).
    func insertIfAbsent(_ record: TypeRecord) {
        state.withLock { state in
            guard state.records[Self.lowercasedKey(record.identifier)] == nil else { return }
            Self.insert(record, into: &state)
        }
    }
}
