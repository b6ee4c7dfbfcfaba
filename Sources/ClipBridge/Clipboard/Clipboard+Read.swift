// SPDX-License-Identifier: Apache-2.0
// ClipBridge — reading types and bytes (the requestor side): X11's part of a PasteSource

import FoundationEssentials
import UniformTypes
import X11Selection

extension Clipboard: PasteSource {
    /// The owner's content targets in its order: its TARGETS, or the types a drag announced.
    public func contentTargets() async throws -> [SelectionTarget] {
        try await offeredTargets().content
    }

    /// Reads a target whole, as the owner wrote it, at a drop's time when this is a drop's clipboard.
    public func rawData(of target: SelectionTarget) async throws -> SelectionData {
        try await connection.read(selection, target: target, at: readTime, timeout: configuration.readTimeout)
    }

    /// Streams a target as it arrives, INCR chunk by chunk.
    public func stream(_ target: SelectionTarget, into sink: @Sendable (Data) async throws -> Void) async throws -> Int {
        try await connection.read(
            selection, target: target, at: readTime, timeout: configuration.readTimeout, into: sink
        ).byteCount
    }

    /// COMPOUND_TEXT beyond Latin-1: only Xlib decodes it; the engine's text reader does.
    public func textThroughServerConverters() async throws -> Data {
        Data(try await connection.readText(selection, at: readTime, timeout: configuration.readTimeout).utf8)
    }

    // MARK: - Internals

    /// ClipboardTypes for offered targets: the offered ones, then non-partial conversions.
    func types(for targets: [SelectionTarget]) -> [ClipboardType] {
        Self.types(for: targets, converters: configuration.converters)
    }

    /// ClipboardTypes for offered `targets`: the offered ones in their order, then what `converters` make of them.
    package static func types(for targets: [SelectionTarget], converters: ConverterRegistry) -> [ClipboardType] {
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
}
