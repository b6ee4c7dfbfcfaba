// SPDX-License-Identifier: Apache-2.0
// ClipBridge — reading types and bytes (the requestor side)

import FoundationEssentials
import UniformTypes
import X11Selection

extension Clipboard {
    /// What the owner offers, richest first — the owner's TARGETS order without the meta targets — each with
    /// its content type, followed by the types the converters can make (``ClipboardType/isConverted``).
    /// Unknown targets have dynamic types; none is dropped.
    /// - Throws: `SelectionError` `.noOwner` when nothing is copied, `.timedOut`, `.connectionLost`.
    public func availableTypes() async throws -> [ClipboardType] {
        types(for: try await offeredTargets().content)
    }

    /// The distinct content types of ``availableTypes()``, richest first.
    public func contentTypes() async throws -> [UTType] {
        var seen = Set<UTType>()
        return try await availableTypes().map(\.contentType).filter { seen.insert($0).inserted }
    }

    /// The best type for a request, by conformance: the first offered type that conforms to `request` (asking
    /// for `.image` finds the richest image, `.plainText` the best of the text family by meaning), else the
    /// cheapest conversion (partial ones included, since the caller asked for this type explicitly). nil when
    /// nothing fits. The rule is ``PasteLadder``'s, the same `clipbridge paste -t` follows.
    public func bestType(for request: UTType) async throws -> ClipboardType? {
        let offered = try await offeredTargets().content
        return PasteLadder.choose(.type(request), offered: offered, converters: configuration.converters)
    }

    /// Reads one type whole: offered types as the owner wrote them — text in a legacy encoding decoded to UTF-8,
    /// unless the type is ``ClipboardType/isVerbatim`` — converted types read from their source and converted.
    /// - Throws: `SelectionError` (`.targetUnavailable`, `.noOwner`, `.timedOut` …); ``ClipboardError``
    ///   `.conversionFailed`.
    public func data(for type: ClipboardType) async throws -> Data {
        guard let chain = type.conversion, let source = type.sourceTarget else {
            return type.isVerbatim ? try await rawData(of: type.target).bytes : try await canonicalData(of: type.target)
        }
        return try chain.apply(try await canonicalData(of: source))
    }

    /// Streams one type into `sink` as it arrives (INCR chunk by chunk), with bounded memory at any size.
    /// An offered type named exactly (``ClipboardType/isVerbatim``) streams the owner's bytes unchanged; types
    /// that need decoding (legacy text encodings, chosen as text) or conversion are read whole first, then handed
    /// over once.
    public func read(
        _ type: ClipboardType, into sink: @Sendable (Data) async throws -> Void
    ) async throws
        -> PasteSummary
    {
        if !type.isConverted,
            type.isVerbatim || TargetMapping.codec(for: type.target) == .bytes || type.target == .utf8String
        {
            let summary = try await connection.read(
                selection, target: type.target, at: readTime, timeout: configuration.readTimeout, into: sink)
            return PasteSummary(type: type, byteCount: summary.byteCount)
        }
        let data = try await data(for: type)
        if !data.isEmpty { try await sink(data) }
        return PasteSummary(type: type, byteCount: data.count)
    }

    /// Streams one type into an open file descriptor (bounded memory). The descriptor stays open; a
    /// FileHandle's is `fileHandle.fileDescriptor`.
    /// - Throws: ``ClipboardError`` `.writeFailed` when a write fails, besides the errors of
    ///   ``read(_:into:)``.
    public func read(_ type: ClipboardType, to fileDescriptor: Int32) async throws -> PasteSummary {
        let file = DescriptorFile(descriptor: fileDescriptor, path: "descriptor \(fileDescriptor)")
        return try await read(type) { chunk in try file.write(contentsOf: chunk) }
    }

    /// The best text: the offered text target that keeps it best (``TargetMapping/preferredTextTarget(in:)``:
    /// UTF-8 first, whatever the owner's order), else a conversion (HTML → text, URL list → paths,
    /// x-color → `#rrggbb`, JSON/CSV → text) — ``PasteLadder``'s `.text`, what a bare `clipbridge paste` reads.
    /// - Throws: ``ClipboardError`` `.typeUnavailable` (with the available types) when nothing gives text.
    public func text() async throws -> String {
        let offered = try await offeredTargets().content
        guard let type = PasteLadder.choose(.text, offered: offered, converters: configuration.converters) else {
            throw ClipboardError(.typeUnavailable, "the clipboard holds no text", availableTypes: types(for: offered))
        }
        return String(decoding: try await data(for: type), as: UTF8.self)
    }

    // MARK: - Internals

    /// ClipboardTypes for offered targets: the offered ones, then non-partial conversions.
    func types(for targets: [SelectionTarget]) -> [ClipboardType] {
        Self.types(for: targets, converters: configuration.converters)
    }

    static func types(for targets: [SelectionTarget], converters: ConverterRegistry) -> [ClipboardType] {
        let offered = targets.map { ClipboardType(target: $0, contentType: TargetMapping.contentType(for: $0)) }
        let offeredTypes = offered.map(\.contentType)
        let chains = converters.reachableTypes(from: offeredTypes)
        guard !chains.isEmpty else { return offered }
        // The richest target of each type, found in one pass (a peer may list a million targets).
        var richest: [UTType: SelectionTarget] = [:]
        for type in offered where richest[type.contentType] == nil { richest[type.contentType] = type.target }
        let converted = chains.compactMap { chain -> ClipboardType? in
            guard let source = richest[chain.source] else { return nil }
            return ClipboardType(
                target: TargetMapping.targets(for: chain.destination)[0], contentType: chain.destination,
                convertedFrom: source, through: chain)
        }
        return offered + converted
    }

    /// Reads a target whole, as the owner wrote it.
    private func rawData(of target: SelectionTarget) async throws -> SelectionData {
        try await connection.read(selection, target: target, at: readTime, timeout: configuration.readTimeout)
    }

    /// Reads a target and decodes its wire encoding into canonical bytes (UTF-8 for text).
    func canonicalData(of target: SelectionTarget) async throws -> Data {
        let data = try await rawData(of: target)
        if let decoded = TargetMapping.codec(for: target).decode(data.bytes, propertyType: data.type) {
            return decoded
        }
        // COMPOUND_TEXT beyond ASCII: only Xlib decodes it; the engine's text reader does.
        return Data(try await connection.readText(selection, at: readTime, timeout: configuration.readTimeout).utf8)
    }
}
