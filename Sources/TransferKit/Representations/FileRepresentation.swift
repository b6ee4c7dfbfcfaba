// SPDX-License-Identifier: Apache-2.0

/// Transfers an item as a file on disk — for payloads too large to hold in memory or that already live
/// in files.
///
/// ```swift
/// FileRepresentation(contentType: .mpeg4Movie) { video in
///     SentTransferredFile(video.file)
/// } importing: { received in
///     let copy = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString + ".mp4")
///     try FileManager.default.copyItem(at: received.file, to: copy)
///     return Video(file: copy)
/// }
/// ```
///
/// The received file is a temporary copy that is removed after the importing closure returns, unless
/// the representation attempts to open in place and the sender allowed access to the original. When the
/// sender produced bytes rather than a file, the importer receives them in a temporary file named after
/// the offered type's preferred filename extension.
public struct FileRepresentation<Item>: TransferRepresentation where Item: Transferable {
    /// A leaf representation; no body.
    public typealias Body = Never

    let contentType: UTType
    let attemptsToOpenInPlace: Bool
    let allowsOpeningInPlace: Bool
    let exporting: (@Sendable (Item) async throws -> SentTransferredFile)?
    let importing: (@Sendable (ReceivedTransferredFile) async throws -> Item)?

    /// Creates a representation that both exports and imports files.
    ///
    /// - Parameters:
    ///   - contentType: The content type of the file.
    ///   - shouldAttemptToOpenInPlace: Whether to ask for the sender's original file (when it allows it)
    ///     instead of a copy.
    ///   - exporting: Produces the file for an item.
    ///   - importing: Builds an item from a received file.
    public init(
        contentType: UTType,
        shouldAttemptToOpenInPlace: Bool = false,
        exporting: @escaping @Sendable (Item) async throws -> SentTransferredFile,
        importing: @escaping @Sendable (ReceivedTransferredFile) async throws -> Item
    ) {
        self.init(contentType, attemptsToOpenInPlace: shouldAttemptToOpenInPlace, allowsOpeningInPlace: false,
                  exporting: exporting, importing: importing)
    }

    /// Creates an import-only representation.
    ///
    /// - Parameters:
    ///   - importedContentType: The content type accepted (subtypes are accepted too).
    ///   - shouldAttemptToOpenInPlace: Whether to ask for the sender's original file (when it allows it)
    ///     instead of a copy.
    ///   - importing: Builds an item from a received file.
    public init(
        importedContentType: UTType,
        shouldAttemptToOpenInPlace: Bool = false,
        importing: @escaping @Sendable (ReceivedTransferredFile) async throws -> Item
    ) {
        self.init(importedContentType, attemptsToOpenInPlace: shouldAttemptToOpenInPlace, allowsOpeningInPlace: false,
                  exporting: nil, importing: importing)
    }

    /// Creates an export-only representation.
    ///
    /// - Parameters:
    ///   - exportedContentType: The content type of the file produced.
    ///   - shouldAllowToOpenInPlace: Whether receivers may open the original file in place; combined
    ///     (either suffices) with the file's own `allowAccessingOriginalFile`.
    ///   - exporting: Produces the file for an item.
    public init(
        exportedContentType: UTType,
        shouldAllowToOpenInPlace: Bool = false,
        exporting: @escaping @Sendable (Item) async throws -> SentTransferredFile
    ) {
        self.init(exportedContentType, attemptsToOpenInPlace: false, allowsOpeningInPlace: shouldAllowToOpenInPlace,
                  exporting: exporting, importing: nil)
    }

    private init(
        _ contentType: UTType, attemptsToOpenInPlace: Bool, allowsOpeningInPlace: Bool,
        exporting: (@Sendable (Item) async throws -> SentTransferredFile)?,
        importing: (@Sendable (ReceivedTransferredFile) async throws -> Item)?
    ) {
        self.contentType = contentType
        self.attemptsToOpenInPlace = attemptsToOpenInPlace
        self.allowsOpeningInPlace = allowsOpeningInPlace
        self.exporting = exporting
        self.importing = importing
    }
}

extension FileRepresentation: PrimitiveTransferRepresentation {
    func entries() -> [RepresentationEntry<Item>] {
        let contentType = contentType
        let attemptsToOpenInPlace = attemptsToOpenInPlace
        let allowsOpeningInPlace = allowsOpeningInPlace
        var leaf = LeafEntry<Item>(
            contentType: contentType,
            isFileBacked: true,
            allowsOpeningInPlace: allowsOpeningInPlace,
            attemptsToOpenInPlace: attemptsToOpenInPlace
        )
        if let exporting {
            leaf.exporter = { item in
                let sent = try await TransferError.wrap(
                    .exportFailed, "cannot export \(Item.self) as a \(contentType.identifier) file",
                    contentType: contentType
                ) {
                    try await exporting(item)
                }
                return .file(
                    SentTransferredFile(
                        sent.file, allowAccessingOriginalFile: sent.allowAccessingOriginalFile || allowsOpeningInPlace))
            }
        }
        if let importing {
            leaf.importer = { context in
                try await Self.receive(context, openInPlace: attemptsToOpenInPlace) { received in
                    try await TransferError.wrap(
                        .importFailed, "cannot import \(Item.self) from a \(context.offeredType.identifier) file",
                        contentType: context.offeredType
                    ) {
                        try await importing(received)
                    }
                }
            }
        }
        return [RepresentationEntry(leaf)]
    }

    /// Stages the payload as a file for the importing closure and cleans up afterwards.
    private static func receive(
        _ context: ImportContext,
        openInPlace: Bool,
        _ body: (ReceivedTransferredFile) async throws -> Item
    ) async throws -> Item {
        if case .file(let sent) = context.payload, openInPlace, sent.allowAccessingOriginalFile {
            return try await body(ReceivedTransferredFile(file: sent.file, isOriginalFile: true))
        }
        func stagingFailed(_ error: any Error) -> TransferError {
            TransferError(
                .importFailed, "cannot stage the \(context.offeredType.identifier) file for \(Item.self)",
                contentType: context.offeredType, underlying: error
            )
        }
        let directory: URL
        do {
            directory = try TemporaryFiles.makeDirectory()
        } catch {
            throw stagingFailed(error)
        }
        defer { TemporaryFiles.remove(directory) }
        let staged: URL
        do {
            switch context.payload {
            case .file(let sent):
                let name = TemporaryFiles.safeFileName(sent.file.lastPathComponent, fallback: "Transfer")
                staged = directory.appendingPathComponent(name)
                try FileManager.default.copyItem(at: sent.file, to: staged)
            case .data(let data):
                staged = directory.appendingPathComponent(TemporaryFiles.fileName("Transfer", for: context.offeredType))
                try data.write(to: staged)
            }
        } catch {
            throw stagingFailed(error)
        }
        return try await body(ReceivedTransferredFile(file: staged, isOriginalFile: false))
    }
}
