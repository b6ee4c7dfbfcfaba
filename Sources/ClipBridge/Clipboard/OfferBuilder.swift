// SPDX-License-Identifier: Apache-2.0
// ClipBridge — prepared items → the ordered targets of one claim

import FoundationEssentials
import UniformTypes
import X11Selection

/// Turns prepared items into the representations of one `SelectionOffer`, richest first:
///
/// 1. several items: `application/x-clipbridge-items` first (the whole list, for ClipBridge peers);
/// 2. the first item's representations in declaration order, each under every target the table maps it
///    to — text as the whole text family, URLs as `text/uri-list`, a file as its content type (streamed)
///    plus, when the sender allows access to the original, `text/uri-list` and gnome-copied-files; text and
///    URL lists are the items' joined lists when every item has one;
/// 3. widening: what the converters make from that content (the text family for JSON/HTML/URLs/colors,
///    gnome-copied-files for file URL lists, x-color for a `#rrggbb` text), only when the conversion
///    succeeds for this very content, so every advertised target is servable;
/// 4. a cut marks gnome-copied-files `cut` and adds `application/x-kde-cutselection` = `1`.
struct OfferBuilder {
    var converters: ConverterRegistry
    var isCut: Bool
    var widens: Bool

    /// Largest file-backed text read into memory to offer the legacy text encodings (STRING, COMPOUND_TEXT).
    static let fileTextLimit = 4 << 20

    typealias Rep = SelectionOffer.Representation

    func build(_ items: [PreparedItem]) async throws -> [Rep] {
        guard let primary = items.first else { throw ClipboardError(.invalidItem, "nothing to copy") }
        var reps: [Rep] = []
        if items.count > 1 {
            reps.append(Self.rep(TargetMapping.itemsTarget, .provider { try await ItemList.encode(items) }))
        }

        // Joined lists for other applications.
        let texts = try await items.asyncMap { try await $0.plainText() }
        let uriLists = try await items.asyncMap { try await $0.uris() }
        let joinedText = texts.allSatisfy { $0 != nil } ? texts.compactMap { $0 }.joined(separator: "\n") : texts[0]
        let joinedURIs = uriLists.allSatisfy { $0 != nil } ? uriLists.compactMap { $0 }.flatMap { $0 } : uriLists[0]

        var offeredTypes: [UTType] = []
        var textDone = false
        var urisDone = false
        for representation in primary.representations where !representation.isHidden {
            let type = representation.contentType
            if let target = representation.target {
                reps += try await pinned(representation, target: target, primary: primary)
                offeredTypes.append(TargetMapping.contentType(for: target))
                continue
            }
            if isTextFamily(type), !representation.isFile {
                guard !textDone, let text = joinedText else { continue }
                reps += Self.textRepresentations(text)
                textDone = true
            } else if type.conforms(to: .url), !representation.isFile {
                guard !urisDone, let uris = joinedURIs, !uris.isEmpty else { continue }
                reps.append(Self.rep(TargetMapping.uriList, .bytes(Data(URIList.format(uris).utf8))))
                urisDone = true
            } else if case .file(let url, let allowsOriginal) = representation.payload {
                reps += try fileRepresentations(type: type, url: url)
                if allowsOriginal, !urisDone, let uris = joinedURIs, !uris.isEmpty {
                    reps.append(Self.rep(TargetMapping.uriList, .bytes(Data(URIList.format(uris).utf8))))
                    reps.append(gnomeRepresentation(uris))
                    urisDone = true
                    offeredTypes.append(.fileURL)
                    offeredTypes.append(TargetMapping.gnomeCopiedFilesType)
                }
            } else {
                for target in TargetMapping.targets(for: type) {
                    reps.append(Self.rep(target, source(of: representation.payload)))
                }
            }
            offeredTypes.append(type)
        }

        if widens {
            reps += try await widening(primary: primary, offeredTypes: offeredTypes, offering: reps)
            reps += try await imageWidening(primary: primary, offeredTypes: offeredTypes)
        }
        if isCut {
            reps = reps.map { rep in
                guard rep.target == TargetMapping.gnomeCopiedFiles, case .bytes(let data) = rep.source,
                    let files = GnomeCopiedFiles(String(decoding: data, as: UTF8.self))
                else { return rep }
                return gnomeRepresentation(files.uris)
            }
            if reps.contains(where: { $0.target == TargetMapping.uriList }) {
                reps.append(Self.rep(TargetMapping.kdeCutSelection, .bytes(Data("1".utf8))))
            }
        }
        // Each target once, at its first (richest) place: a name given explicitly and the family it belongs to
        // both offer it.
        var seen = Set<SelectionTarget>()
        return reps.filter { seen.insert($0.target).inserted }
    }

    // MARK: - Pieces

    /// The text family for a string, in ``TargetMapping/textTargets`` order, with the engine's encodings
    /// (STRING only when the text is Latin-1, COMPOUND_TEXT and TEXT through Xlib).
    static func textRepresentations(_ text: String) -> [Rep] {
        let family = SelectionOffer.textRepresentations(text)
        return TargetMapping.textTargets.compactMap { target in family.first { $0.target == target } }
    }

    /// A representation in the property format the table gives its target (16 for `application/x-color`).
    static func rep(_ target: SelectionTarget, _ source: SelectionOffer.DataSource) -> Rep {
        Rep(target: target, format: TargetMapping.format(for: target), source: source)
    }

    private func isTextFamily(_ type: UTType) -> Bool {
        type == .utf8PlainText || type == .plainText || type == .text
    }

    private func source(of payload: PreparedItem.Payload) -> SelectionOffer.DataSource {
        switch payload {
        case .eager(let data): .bytes(data)
        case .lazy(let produce): .provider(produce)
        case .file(let url, _): .file(url)
        }
    }

    private func gnomeRepresentation(_ uris: [String]) -> Rep {
        Self.rep(TargetMapping.gnomeCopiedFiles, .bytes(Data(GnomeCopiedFiles(isCut: isCut, uris: uris).text.utf8)))
    }

    /// A file's content under its type's targets, streamed from disk. Text files offer the UTF-8 targets
    /// from disk, and the legacy encodings too when the file is small enough to convert.
    private func fileRepresentations(type: UTType, url: URL) throws -> [Rep] {
        guard type.conforms(to: .plainText) || type == .text else {
            return TargetMapping.targets(for: type).map { Self.rep($0, .file(url)) }
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? Int.max
        if size <= Self.fileTextLimit, let text = TextDecoding.utf8(try Data(contentsOf: url)) {
            return Self.textRepresentations(text)
        }
        return [Self.rep(.utf8PlainText, .file(url)), Self.rep(.utf8String, .file(url))]
    }

    /// A representation pinned to one target: bytes as given, except that text targets get their encoding.
    private func pinned(
        _ representation: PreparedItem.Representation, target: SelectionTarget, primary: PreparedItem
    )
        async throws -> [Rep]
    {
        if TargetMapping.textTargets.contains(target), target != .utf8String, target != .utf8PlainText,
            let data = try await primary.canonicalData(of: representation), let text = TextDecoding.utf8(data)
        {
            let encoded = Self.textRepresentations(text).filter { $0.target == target }
            // Named explicitly, `text/plain` (no charset) is offered even for text that is not Latin-1, with its
            // UTF-8 bytes, as xclip does: dropping the one target the user asked for was worse. STRING stays
            // Latin-1 only (ICCCM 2.6.2), so it cannot carry such text at all.
            if encoded.isEmpty, target == .plainText { return [Self.rep(target, .bytes(Data(text.utf8)))] }
            return encoded
        }
        return [Self.rep(target, source(of: representation.payload))]
    }

    /// Targets the converters add, for destinations the content lacks.
    private func widening(primary: PreparedItem, offeredTypes: [UTType], offering built: [Rep]) async throws -> [Rep] {
        let additions = try await Widening(converters: converters).additions(
            offered: offeredTypes, hasText: built.contains { $0.target == .utf8String }
        ) { try await canonicalData(of: $0, in: primary) }
        return additions.flatMap(\.representations)
    }

    /// Image formats the converters make from the item's image, converted when asked for.
    private func imageWidening(primary: PreparedItem, offeredTypes: [UTType]) async throws -> [Rep] {
        // Pinned targets (`copy -t image/jpeg`, a detected file type) count by the type their target means.
        let images = primary.representations.compactMap { representation -> (UTType, PreparedItem.Payload)? in
            let type = representation.target.map(TargetMapping.contentType(for:)) ?? representation.contentType
            return !representation.isHidden && type.conforms(to: .image) ? (type, representation.payload) : nil
        }
        guard !images.isEmpty else { return [] }
        let payloads = Dictionary(images, uniquingKeysWith: { first, _ in first })
        return try await Widening(converters: converters).lazyAdditions(
            offered: offeredTypes,
            header: { type in
                guard let payload = payloads[type] else { return nil }
                return try await Self.leadingBytes(of: payload, count: ContentConverter.headerLength)
            },
            data: { type in
                let limit = Self.imageSourceLimit
                guard let payload = payloads[type], let data = try await Self.leadingBytes(of: payload, count: limit + 1),
                    data.count <= limit
                else { throw ClipboardError(.conversionFailed, "the image to convert is gone or larger than 256 MiB") }
                return data
            })
    }

    /// The largest encoded image converted on request (the decoder's pixel cap bounds what it becomes).
    static let imageSourceLimit = 256 << 20

    /// At most the first `count` bytes of an image payload (a file is read only that far); nil when a file
    /// cannot be opened.
    private static func leadingBytes(of payload: PreparedItem.Payload, count: Int) async throws -> Data? {
        switch payload {
        case .eager(let data): return data.prefix(count)
        case .lazy(let produce): return try await produce().prefix(count)
        case .file(let url, _):
            guard let file = try? DescriptorFile(openingForReading: url.path) else { return nil }
            defer { try? file.close() }
            var data = Data()
            while data.count < count, let chunk = try file.read(upToCount: min(count - data.count, 1 << 20)) {
                data += chunk
            }
            return data
        }
    }

    /// Canonical bytes of an offered type of the primary item (the URL list of shared files included).
    private func canonicalData(of type: UTType, in item: PreparedItem) async throws -> Data? {
        if type == .fileURL || type == TargetMapping.gnomeCopiedFilesType, let uris = try await item.uris() {
            return Data(
                (type == .fileURL ? URIList.format(uris) : GnomeCopiedFiles(isCut: isCut, uris: uris).text).utf8)
        }
        guard let representation = item.representations.first(where: { !$0.isHidden && $0.contentType == type })
        else { return nil }
        // Only text-like content is worth exporting early to widen; images and custom types are not converted.
        guard type.conforms(to: .text) || PreparedItem.isEagerType(type) else { return nil }
        return try await item.canonicalData(of: representation)
    }
}

extension PreparedItem.Representation {
    var isFile: Bool {
        if case .file = payload { return true }
        return false
    }
}

extension PreparedItem {
    /// The item's own plain text (first visible text representation), if it has one in memory.
    func plainText() async throws -> String? {
        for representation in representations where !representation.isHidden && !representation.isFile {
            let type = representation.target.map(TargetMapping.contentType(for:)) ?? representation.contentType
            guard type == .utf8PlainText || type == .plainText || type == .text,
                let data = try await canonicalData(of: representation)
            else { continue }
            return String(decoding: data, as: UTF8.self)
        }
        return nil
    }

    /// The item's URIs: a URL representation's list, or its shared files' URIs.
    func uris() async throws -> [String]? {
        for representation in representations where !representation.isHidden {
            switch representation.payload {
            case .file(let url, let allowsOriginal):
                if allowsOriginal { return [URIList.fileURI(forPath: url.standardizedFileURL.path)] }
            default:
                guard representation.contentType.conforms(to: .url), representation.target == nil,
                    let data = try await canonicalData(of: representation)
                else { continue }
                let uris = URIList.parse(TextDecoding.autodetected(data))
                if !uris.isEmpty { return uris }
            }
        }
        return nil
    }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        result.reserveCapacity(count)
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
