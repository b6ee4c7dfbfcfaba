// SPDX-License-Identifier: Apache-2.0

// Apple's Transferable extension API (iOS 18.2 / macOS 15.2), built on the resolution layer. These calls
// happen inside the process that owns the value, so they see every representation regardless of
// visibility (audience `.ownProcess`), except where a visibility is passed explicitly.

extension Transferable {
    // MARK: Content types

    /// The content types this value can be exported as, most preferred first, leaving out
    /// representations whose `exportingCondition` is false for this value and those not visible to
    /// `visibility`'s audience.
    public func exportedContentTypes(_ visibility: TransferRepresentationVisibility = .all) -> [UTType] {
        resolvedExporters(visibility: visibility).map(\.contentType)
    }

    /// The content types values of this type can be built from, in declaration order.
    public func importedContentTypes() -> [UTType] {
        Self.importedContentTypes()
    }

    /// The content types values of this type can be exported as, most preferred first, for
    /// `visibility`'s audience, without duplicates. No value is involved, so export conditions are not
    /// evaluated.
    public static func exportedContentTypes(visibility: TransferRepresentationVisibility = .all) -> [UTType] {
        var seen = Set<UTType>()
        return RepresentationResolver.typeLevelExports(
            of: Self.self, context: ResolutionContext(audience: visibility, visiting: [])
        ).map(\.contentType).filter { seen.insert($0).inserted }
    }

    /// The content types values of this type can be built from, in declaration order (proxied types at
    /// the proxy's position), without duplicates.
    public static func importedContentTypes() -> [UTType] {
        var seen = Set<UTType>()
        return resolvedImporters().map(\.contentType).filter { seen.insert($0).inserted }
    }

    /// The file name suggested by the first exportable representation that has one, or nil.
    public var suggestedFilename: String? {
        resolvedExporters(visibility: .ownProcess).lazy.compactMap(\.suggestedFileName).first
    }

    // MARK: Export

    /// The value's bytes in the given content type.
    ///
    /// Uses the first representation exporting exactly `contentType`, else the first whose type
    /// conforms to it, else — with a nil content type — the first exportable representation. A
    /// file-backed representation's file is read into memory.
    ///
    /// - Throws: ``TransferError`` — ``TransferError/Code/noCompatibleRepresentation`` naming the types
    ///   that are available, or ``TransferError/Code/exportFailed`` wrapping the representation's error.
    public func exported(as contentType: UTType?) async throws -> Data {
        try await exporter(for: contentType).exportData()
    }

    /// Writes the value as a file into `destinationDirectory` and returns the file's URL; the caller
    /// owns the file.
    ///
    /// The file is named after the representation's suggested file name, else the exported file's own
    /// name, else the item type's name, with the content type's preferred extension; an existing file is
    /// never overwritten (`Name 2.ext` is used instead).
    ///
    /// - Throws: ``TransferError`` as ``exported(as:)``; a file that cannot be written or copied is
    ///   ``TransferError/Code/exportFailed``.
    public func export(to destinationDirectory: URL, contentType: UTType?) async throws -> URL {
        let exporter = try exporter(for: contentType)
        let payload = try await exporter.export()
        let fallback: String
        if case .file(let sent) = payload {
            fallback = sent.file.lastPathComponent
        } else {
            fallback = TemporaryFiles.fileName(String(describing: Self.self), for: exporter.contentType)
        }
        let name = TemporaryFiles.safeFileName(exporter.suggestedFileName, fallback: fallback)
        let destination = TemporaryFiles.uniqueURL(in: destinationDirectory, name: name)
        do {
            switch payload {
            case .data(let data): try data.write(to: destination, options: .withoutOverwriting)
            case .file(let sent): try FileManager.default.copyItem(at: sent.file, to: destination)
            }
        } catch {
            throw TransferError(
                .exportFailed, "cannot write \(Self.self) as \(exporter.contentType.identifier) to \(destination.path)",
                contentType: exporter.contentType, underlying: error
            )
        }
        return destination
    }

    /// Exports the value to a temporary file, calls `fileHandler` with its URL, and deletes the file when
    /// the handler returns or throws.
    ///
    /// `isolation` is a TransferKit addition (defaulted, so Apple's call shape is unchanged): it keeps the
    /// handler on the caller's actor, so the handler may capture actor-isolated state.
    ///
    /// - Throws: ``TransferError`` as ``export(to:contentType:)``, or what the handler throws.
    public func withExportedFile<Result>(
        contentType: UTType?,
        isolation: isolated (any Actor)? = #isolation,
        fileHandler: (URL) async throws -> Result
    ) async throws -> Result {
        let directory: URL
        do {
            directory = try TemporaryFiles.makeDirectory()
        } catch {
            throw TransferError(
                .exportFailed, "cannot create a temporary directory to export \(Self.self)",
                contentType: contentType, underlying: error
            )
        }
        defer { TemporaryFiles.remove(directory) }
        let file = try await export(to: directory, contentType: contentType)
        return try await fileHandler(file)
    }

    private func exporter(for contentType: UTType?) throws -> TransferExporter {
        guard let exporter = resolvedExporter(for: contentType, visibility: .ownProcess) else {
            throw TransferError.noRepresentation(
                Self.self, "export", contentType, available: exportedContentTypes(.ownProcess)
            )
        }
        return exporter
    }

    // MARK: Import

    /// Builds a value from bytes.
    ///
    /// With a content type, the best representation accepting it is used (see
    /// ``resolvedImporter(forOfferedTypes:)``). With nil, every import-capable representation is tried in
    /// declaration order until one succeeds.
    ///
    /// - Throws: ``TransferError`` — ``TransferError/Code/noCompatibleRepresentation`` naming the importable
    ///   types, or ``TransferError/Code/importFailed`` / ``TransferError/Code/decodingFailed`` wrapping
    ///   the representation's error.
    public init(importing data: Data, contentType: UTType?) async throws {
        self = try await Self.importValue(.data(data), contentType: contentType)
    }

    /// Builds a value from a file.
    ///
    /// With a nil content type, the type is inferred from the file name's extension; if that gives no
    /// type or no representation accepts it, every import-capable representation is tried in declaration
    /// order. The caller's file is copied for representations that do not ask to open files in place.
    ///
    /// - Throws: ``TransferError`` as ``init(importing:contentType:)-(Data,_)``.
    public init(importing file: URL, contentType: UTType?) async throws {
        let payload = TransferPayload.file(SentTransferredFile(file, allowAccessingOriginalFile: true))
        if contentType == nil, !file.pathExtension.isEmpty,
            let inferred = UTType(filenameExtension: file.pathExtension),
            Self.resolvedImporter(forOfferedTypes: [inferred]) != nil
        {
            self = try await Self.importValue(payload, contentType: inferred)
        } else {
            self = try await Self.importValue(payload, contentType: contentType)
        }
    }

    private static func importValue(_ payload: TransferPayload, contentType: UTType?) async throws -> Self {
        if let contentType {
            guard let importer = resolvedImporter(forOfferedTypes: [contentType]) else {
                throw TransferError.noRepresentation(
                    Self.self, "import", contentType, available: importedContentTypes()
                )
            }
            return try await importer.import(payload)
        }
        let importers = resolvedImporters()
        guard !importers.isEmpty else {
            throw TransferError.noRepresentation(Self.self, "import", nil, available: [])
        }
        var failures: [any Error] = []
        for importer in importers {
            do {
                return try await importer.import(payload)
            } catch let error as CancellationError {
                throw error
            } catch {
                failures.append(error)
            }
        }
        let tried = importers.map(\.contentType.identifier).joined(separator: ", ")
        throw TransferError(
            .importFailed, "no representation of \(Self.self) could import the content (tried \(tried))",
            availableContentTypes: importers.map(\.contentType), underlying: failures.first
        )
    }
}
