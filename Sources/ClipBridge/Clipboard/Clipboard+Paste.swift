// SPDX-License-Identifier: Apache-2.0
// ClipBridge — pasting Transferable values

import FoundationEssentials
import TransferKit
import UniformTypes
import X11Selection

extension Clipboard {
    /// Pastes values of `type`.
    ///
    /// The first offered type `T` can import wins (the owner lists its richest first), matched by
    /// conformance — asking for `.image` accepts `image/png` — and through proxies (a `String` from
    /// `UTF8_STRING`); when `T` imports none of them, the cheapest converter chain does (an HTML-only owner
    /// pasted as `String`). A ClipBridge owner's whole item list comes back as several values; a URL list
    /// gives one value per URL. Files are received into a private file (mode 0600, in a per-process
    /// directory) that is removed when the importer returns.
    ///
    /// - Parameters:
    ///   - type: The `Transferable` type to paste.
    ///   - validator: Sees the decoded candidates and returns those to keep, like the validator of
    ///     SwiftUI's `pasteDestination(for:action:validator:)`.
    /// - Throws: ``ClipboardError`` `.typeUnavailable` listing what is offered, `.importFailed`;
    ///   `SelectionError` `.noOwner` when nothing is copied, `.timedOut`, `.connectionLost`.
    public func paste<T: Transferable>(
        _ type: T.Type, validator: @Sendable ([T]) async -> [T] = { $0 }
    ) async throws -> [T] {
        let (offered, all) = try await offeredTargets()
        return try await paste(ImportPlan(T.self, offered: offered, all: all, converters: configuration.converters), validator: validator)
    }

    /// True when `T` can import something offered now, directly or through a (non-partial) conversion — the
    /// enabled state of a paste button. No owner, or any failure, gives false.
    public func canPaste<T: Transferable>(_ type: T.Type) async -> Bool {
        guard let (offered, all) = try? await offeredTargets() else { return false }
        let inProcess = await inProcessRepresentations()
        if !inProcess.isEmpty, pasteableInProcess(T.self, inProcess) { return true }
        return ImportPlan(T.self, offered: offered, all: all, converters: configuration.converters).isImportable
    }

    /// Carries out a plan made from the offer (``ImportPlan``): in-process content first, then the plan's steps
    /// in order.
    func paste<T: Transferable>(_ plan: ImportPlan<T>, validator: @Sendable ([T]) async -> [T] = { $0 }) async throws -> [T] {
        if let values = try await pasteInProcess(T.self) { return await validator(values) }
        if plan.readsItemList, let values = try await pasteItemList(T.self), !values.isEmpty {
            return await validator(values)
        }
        var firstError: (any Error)?
        for read in plan.direct {
            do {
                return await validator(try await importValues(read.importer, from: read.target))
            } catch let error as ClipboardError where error.code == .importFailed {
                firstError = firstError ?? error
            } catch let error as SelectionError where error.code == .targetUnavailable {
                // The owner advertised the target but refused it (xclip-style owners, a failing provider):
                // the next importer may still succeed.
                firstError = firstError ?? error
            }
        }
        if let conversion = plan.conversion {
            do {
                let data = try conversion.chain.apply(try await canonicalData(of: conversion.source))
                return await validator(try await importValues(conversion.importer, data: data, offeredAsURLList: false))
            } catch let error as ClipboardError where error.code == .importFailed || error.code == .conversionFailed {
                firstError = firstError ?? error
            }
        }
        if let source = plan.fileList, let values = try await pasteLocalFiles(T.self, from: source), !values.isEmpty {
            return await validator(values)
        }
        if let firstError { throw firstError }
        throw ClipboardError(
            .typeUnavailable, "the clipboard offers nothing \(T.self) can import", availableTypes: types(for: plan.offered))
    }

    // MARK: - Importing

    /// Reads `target` and builds values with `importer`: files are streamed into a private file first.
    private func importValues<T: Transferable>(
        _ importer: TransferImporter<T>, from target: SelectionTarget
    )
        async throws -> [T]
    {
        if importer.isFileBacked, TargetMapping.codec(for: target) == .bytes {
            return [try await importFile(importer, target: target)]
        }
        let data = try await canonicalData(of: target)
        return try await importValues(importer, data: data, offeredAsURLList: target == TargetMapping.uriList)
    }

    /// Builds values from canonical bytes; a URL list gives one value per URL.
    func importValues<T: Transferable>(
        _ importer: TransferImporter<T>, data: Data, offeredAsURLList: Bool
    )
        async throws -> [T]
    {
        do {
            if offeredAsURLList || importer.offeredType.conforms(to: .url) && importer.contentType.conforms(to: .url) {
                let uris = URIList.parse(TextDecoding.autodetected(data))
                if uris.count > 1 {
                    var values: [T] = []
                    for uri in uris { values.append(try await importer.import(.data(Data(uri.utf8)))) }
                    return values
                }
            }
            return [try await importer.import(.data(data))]
        } catch let error as CancellationError {
            throw error
        } catch {
            throw ClipboardError(
                .importFailed, "\(T.self) could not import \(importer.offeredType.identifier)", underlying: error)
        }
    }

    /// Streams `target` into a private 0600 file, imports it, and removes the file.
    private func importFile<T: Transferable>(
        _ importer: TransferImporter<T>, target: SelectionTarget
    ) async throws
        -> T
    {
        let (url, handle) = try ImportDirectory.makeFile(
            parent: configuration.temporaryDirectory, suggestedName: nil, contentType: importer.offeredType)
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            _ = try await connection.read(selection, target: target, at: readTime, timeout: configuration.readTimeout) { chunk in
                try handle.write(contentsOf: chunk)
            }
            try handle.close()
        } catch {
            try? handle.close()
            throw error
        }
        do {
            return try await importer.import(.file(SentTransferredFile(url, allowAccessingOriginalFile: false)))
        } catch let error as CancellationError {
            throw error
        } catch {
            throw ClipboardError(.importFailed, "\(T.self) could not import the received \(target) file", underlying: error)
        }
    }

    // MARK: - Files copied by a file manager

    /// When the owner offers a list of files (a file manager's copy: `text/uri-list`, gnome-copied-files, the
    /// plan's `fileList`) and `T` imports files of their types (`FileRepresentation`), imports each local file.
    /// An importer that asks to open files in place gets the original; any other gets a private 0600 copy that
    /// is removed when it returns.
    private func pasteLocalFiles<T: Transferable>(_ type: T.Type, from source: SelectionTarget) async throws -> [T]? {
        var text = String(decoding: try await canonicalData(of: source), as: UTF8.self)
        if source == TargetMapping.gnomeCopiedFiles, let files = GnomeCopiedFiles(text) {
            text = URIList.format(files.uris)
        }
        let paths = URIList.parse(text).compactMap(URIList.path(ofFileURI:))
        guard !paths.isEmpty else { return nil }
        var values: [T] = []
        for path in paths {
            let url = URL(fileURLWithPath: path)
            guard let fileType = UTType(filenameExtension: url.pathExtension),
                let importer = T.resolvedImporter(forOfferedTypes: [fileType]), importer.isFileBacked,
                FileManager.default.isReadableFile(atPath: path)
            else { continue }
            do {
                if importer.attemptsToOpenInPlace {
                    values.append(
                        try await importer.import(.file(SentTransferredFile(url, allowAccessingOriginalFile: true))))
                } else {
                    values.append(try await importPrivateCopy(importer, of: url))
                }
            } catch let error as CancellationError {
                throw error
            } catch let error as ClipboardError {
                throw error
            } catch {
                throw ClipboardError(.importFailed, "\(T.self) could not import \(path)", underlying: error)
            }
        }
        return values
    }

    /// Copies a local file into a private 0600 file (streamed), imports it, and removes the copy.
    private func importPrivateCopy<T: Transferable>(_ importer: TransferImporter<T>, of url: URL) async throws -> T {
        let (copy, handle) = try ImportDirectory.makeFile(
            parent: configuration.temporaryDirectory, suggestedName: url.lastPathComponent,
            contentType: importer.offeredType)
        defer { try? FileManager.default.removeItem(at: copy) }
        do {
            let input = try DescriptorFile(openingForReading: url.path)
            defer { try? input.close() }
            while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
                try handle.write(contentsOf: chunk)
            }
            try handle.close()
        } catch {
            try? handle.close()
            throw ClipboardError(.importFailed, "cannot copy \(url.path) for import", underlying: error)
        }
        return try await importer.import(.file(SentTransferredFile(copy, allowAccessingOriginalFile: false)))
    }

    // MARK: - Item lists and in-process content

    /// Pastes a ClipBridge owner's item list: every item `T` can import, in order.
    private func pasteItemList<T: Transferable>(_ type: T.Type) async throws -> [T]? {
        guard
            let data = try? await connection.read(
                selection, target: TargetMapping.itemsTarget, at: readTime, timeout: configuration.readTimeout),
            let list = ItemList.decode(data.bytes)
        else { return nil }
        let importTypes = T.resolvedImporters().map(\.contentType)
        var values: [T] = []
        for entries in list.items {
            let offeredTypes = entries.map { entry -> UTType in
                let type = entry.contentType
                if importTypes.contains(where: { type.conforms(to: $0) }) { return type }
                let target = SelectionTarget(rawValue: entry.target)
                return importTypes.first { TargetMapping.targets(for: $0).contains(target) } ?? type
            }
            guard let importer = T.resolvedImporter(forOfferedTypes: offeredTypes),
                let index = offeredTypes.firstIndex(of: importer.offeredType)
            else { return nil }
            let entry = entries[index]
            do {
                if let path = entry.path {
                    values.append(
                        try await importer.import(
                            .file(SentTransferredFile(URL(fileURLWithPath: path), allowAccessingOriginalFile: true))))
                } else if importer.isFileBacked, let bytes = entry.data {
                    values.append(try await importStaged(importer, bytes: bytes, fileName: entry.fileName))
                } else {
                    values += try await importValues(importer, data: entry.data ?? Data(), offeredAsURLList: false)
                }
            } catch let error as ClipboardError {
                throw error
            } catch {
                throw ClipboardError(.importFailed, "\(T.self) could not import an item of the list", underlying: error)
            }
        }
        return values
    }

    /// Writes bytes into a private file named after the sender's (sanitised) suggestion, imports, removes it.
    private func importStaged<T: Transferable>(
        _ importer: TransferImporter<T>, bytes: Data, fileName: String?
    )
        async throws -> T
    {
        let (url, handle) = try ImportDirectory.makeFile(
            parent: configuration.temporaryDirectory, suggestedName: fileName, contentType: importer.offeredType)
        defer { try? FileManager.default.removeItem(at: url) }
        try handle.write(contentsOf: bytes)
        try handle.close()
        return try await importer.import(.file(SentTransferredFile(url, allowAccessingOriginalFile: false)))
    }

    /// When this process owns the selection and holds representations it does not advertise (`.ownProcess`,
    /// `.team`, `.group`), imports from the first of them `T` accepts — before anything offered over X.
    private func pasteInProcess<T: Transferable>(_ type: T.Type) async throws -> [T]? {
        let representations = await inProcessRepresentations()
        guard !representations.isEmpty,
            let importer = T.resolvedImporter(forOfferedTypes: representations.map(\.contentType)),
            let representation = representations.first(where: { $0.contentType == importer.offeredType })
        else { return nil }
        do {
            return [try await importer.import(try await representation.export())]
        } catch let error as CancellationError {
            throw error
        } catch {
            throw ClipboardError(
                .importFailed, "\(T.self) could not import \(importer.offeredType.identifier)", underlying: error)
        }
    }

    private func pasteableInProcess<T: Transferable>(
        _ type: T.Type, _ representations: [InProcessContent.Representation]
    )
        -> Bool
    {
        T.resolvedImporter(forOfferedTypes: representations.map(\.contentType)) != nil
    }
}
