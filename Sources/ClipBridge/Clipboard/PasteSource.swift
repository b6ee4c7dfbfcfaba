// SPDX-License-Identifier: Apache-2.0
// ClipBridge — what a paste reads from, on any display server

import FoundationEssentials
import Synchronization
import UniformTypes
import X11Selection

/// One selection to paste from, on any display server: X11's ``Clipboard``, or a Wayland compositor's clipboard
/// or primary selection (WaylandBridge's `WaylandClipboard`). A source says what its owner offers and hands over
/// each offered target's bytes; everything a paste decides on top of that — the types listed with their
/// conversions, the ladder's choice, decoding text to UTF-8, converting — is written once, in this protocol's
/// extension (``availableTypes()``, ``bestType(for:)``, ``data(for:)``, ``read(_:into:)``, ``text()``).
public protocol PasteSource: Sendable {
    /// The selection read.
    var selection: SelectionName { get }
    /// The settings: converters, the read deadline.
    var configuration: ClipboardConfiguration { get }
    /// The owner's content targets in its order (meta targets, the password hint and the item list removed).
    /// - Throws: `.noOwner` (X11: `SelectionError`; Wayland: its error) when nothing is copied; a timeout.
    func contentTargets() async throws -> [SelectionTarget]
    /// One offered target, whole, as the owner wrote it (its reply type decides a `TEXT` reply's encoding).
    func rawData(of target: SelectionTarget) async throws -> SelectionData
    /// One offered target, handed to `sink` as it arrives with bounded memory at any size; returns how many bytes.
    func stream(_ target: SelectionTarget, into sink: @Sendable (Data) async throws -> Void) async throws -> Int
    /// The selection's text as UTF-8 through the display server's own converters, for the bytes only they decode
    /// (X11: COMPOUND_TEXT beyond Latin-1, through Xlib).
    /// - Throws: ``ClipboardError`` `.conversionFailed` where the server has none.
    func textThroughServerConverters() async throws -> Data
}

extension PasteSource {
    /// What the owner offers, richest first — the owner's order without the meta targets — each with its content
    /// type, followed by the types the converters can make (``ClipboardType/isConverted``). Unknown targets have
    /// dynamic types; none is dropped.
    /// - Throws: `SelectionError` `.noOwner` when nothing is copied, `.timedOut`, `.connectionLost` (on Wayland, its
    ///   own error).
    public func availableTypes() async throws -> [ClipboardType] {
        Clipboard.types(for: try await contentTargets(), converters: configuration.converters)
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
        PasteLadder.choose(.type(request), offered: try await contentTargets(), converters: configuration.converters)
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

    /// Streams one type into `sink` as it arrives (on X11, INCR chunk by chunk), with bounded memory at any size.
    /// An offered type named exactly (``ClipboardType/isVerbatim``) streams the owner's bytes unchanged; types
    /// that need decoding (legacy text encodings, chosen as text) or conversion are read whole first, then handed
    /// over once.
    public func read(_ type: ClipboardType, into sink: @Sendable (Data) async throws -> Void) async throws -> PasteSummary {
        let codec = TargetMapping.codec(for: type.target)
        if !type.isConverted, type.isVerbatim || codec == .bytes || type.target == .utf8String {
            return PasteSummary(type: type, byteCount: try await stream(type.target, into: sink))
        }
        if !type.isConverted, codec == .utf8Text {
            // Other UTF-8 text (text/plain;charset=utf-8: GTK 4 and Qt offer only that on Wayland) streams too,
            // made canonical a piece at a time.
            let canonical = Mutex((stream: UTF8TextStream(), written: 0))
            _ = try await stream(type.target) { piece in
                let bytes = canonical.withLock { state in
                    let bytes = state.stream.feed(piece)
                    state.written += bytes.count
                    return bytes
                }
                if !bytes.isEmpty { try await sink(bytes) }
            }
            let (rest, written) = canonical.withLock { state in (state.stream.finish(), state.written) }
            if !rest.isEmpty { try await sink(rest) }
            return PasteSummary(type: type, byteCount: written + rest.count)
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
        let offered = try await contentTargets()
        guard let type = PasteLadder.choose(.text, offered: offered, converters: configuration.converters) else {
            throw ClipboardError(
                .typeUnavailable, "the clipboard holds no text",
                availableTypes: Clipboard.types(for: offered, converters: configuration.converters))
        }
        return String(decoding: try await data(for: type), as: UTF8.self)
    }

    /// Reads a target and decodes its wire encoding into canonical bytes (UTF-8 for text).
    func canonicalData(of target: SelectionTarget) async throws -> Data {
        let data = try await rawData(of: target)
        if let decoded = TargetMapping.codec(for: target).decode(data.bytes, propertyType: data.type) {
            return decoded
        }
        return try await textThroughServerConverters()
    }
}
