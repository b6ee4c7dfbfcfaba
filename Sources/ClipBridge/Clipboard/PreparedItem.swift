// SPDX-License-Identifier: Apache-2.0
// ClipBridge — one item ready to be offered

import FoundationEssentials
import Logging
import TransferKit
import UniformTypes
import X11Selection

/// One item reduced to what the offer builder needs: its representations in preference order, each with a
/// content type and canonical bytes (now, later, or from a file).
struct PreparedItem: Sendable {
    enum Payload: Sendable {
        /// Canonical bytes known now.
        case eager(Data)
        /// Canonical bytes produced on the first request.
        case lazy(@Sendable () async throws -> Data)
        /// A file on disk; `allowsOriginal` says whether its location may be shared (uri-list, gnome-copied-files).
        case file(URL, allowsOriginal: Bool)
    }

    struct Representation: Sendable {
        var contentType: UTType
        /// A single target to offer it under; nil = every target of the table.
        var target: SelectionTarget?
        var payload: Payload
        /// Visibility narrower than `.all`: served in-process only.
        var isHidden: Bool = false
        var suggestedFileName: String?
        /// How this process's own paste gets it without X (hidden representations).
        var export: (@Sendable () async throws -> TransferPayload)?
    }

    var representations: [Representation]

    /// Content that must be known at copy time: text (for the text family's encodings), URL lists, colors and
    /// file lists (for widening and joining). Apple requires proxies, which produce most of these, to be quick.
    static func isEagerType(_ type: UTType) -> Bool {
        type.conforms(to: .plainText) || type.conforms(to: .url) || type == TargetMapping.colorType
            || type == TargetMapping.gnomeCopiedFilesType
    }

    /// Canonical bytes now, running a lazy export if needed (nil for files).
    func canonicalData(of representation: Representation) async throws -> Data? {
        switch representation.payload {
        case .eager(let data): return data
        case .lazy(let produce): return try await produce()
        case .file: return nil
        }
    }
}

extension PreparedItem {
    /// Prepares a Transferable value: every exporter in declaration order (exportingCondition already applied by
    /// TransferKit), files exported now (only their location is needed), small eager types exported now,
    /// everything else on request.
    init<T: Transferable>(_ value: T, logger: Logger) async throws {
        var representations: [Representation] = []
        for exporter in value.resolvedExporters(visibility: .ownProcess) {
            let type = exporter.contentType
            let hidden = exporter.visibility != .all
            if !hidden, UndeclaredTypeWarnings.shouldWarn(about: type) {
                logger.warning(
                    """
                    \(T.self) exports \(type.identifier), which no declaration describes: other applications \
                    will see the target "\(type.identifier)" but cannot tell what it is. Declare it with \
                    UTType.register(_:) or a UTExportedTypeDeclarations file (conforming to public.data or \
                    public.json, with a MIME type) so other apps can paste it.
                    """)
            }
            let payload: Payload
            do {
                if exporter.isFileBacked {
                    switch try await exporter.export() {
                    case .file(let sent):
                        payload = .file(sent.file, allowsOriginal: sent.allowAccessingOriginalFile)
                    case .data(let data):
                        payload = .eager(data)
                    }
                } else if Self.isEagerType(type) {
                    payload = .eager(try await exporter.exportData())
                } else {
                    payload = .lazy { try await exporter.exportData() }
                }
            } catch {
                throw ClipboardError(.exportFailed, "\(T.self) could not export \(type.identifier)", underlying: error)
            }
            representations.append(
                Representation(
                    contentType: type, target: nil, payload: payload, isHidden: hidden,
                    suggestedFileName: exporter.suggestedFileName, export: { try await exporter.export() }))
        }
        guard !representations.isEmpty else {
            throw ClipboardError(.exportFailed, "\(T.self) has no representation to export for this value")
        }
        self.representations = representations
    }

    /// Prepares a raw item.
    init(_ item: ClipboardItem) throws {
        guard !item.representations.isEmpty else {
            throw ClipboardError(.invalidItem, "a clipboard item needs at least one representation")
        }
        representations = try item.representations.map { representation in
            let payload: Payload
            switch representation.source {
            case .data(let data): payload = .eager(data)
            case .provider(let produce): payload = .lazy(produce)
            case .file(let url):
                guard FileManager.default.isReadableFile(atPath: url.path) else {
                    throw ClipboardError(.invalidItem, "cannot read \(url.path)")
                }
                payload = .file(url, allowsOriginal: false)
            }
            return Representation(
                contentType: representation.contentType, target: representation.target, payload: payload)
        }
    }

    /// A file-manager style item: the files' URL list.
    static func files(_ urls: [URL]) throws -> PreparedItem {
        guard !urls.isEmpty else { throw ClipboardError(.invalidItem, "no files to copy") }
        let uris = try urls.map { url -> String in
            let path = url.standardizedFileURL.path
            guard FileManager.default.fileExists(atPath: path) else {
                throw ClipboardError(.invalidItem, "\(path) does not exist")
            }
            return URIList.fileURI(forPath: path)
        }
        return PreparedItem(representations: [
            Representation(contentType: .fileURL, target: nil, payload: .eager(Data(URIList.format(uris).utf8)))
        ])
    }
}
