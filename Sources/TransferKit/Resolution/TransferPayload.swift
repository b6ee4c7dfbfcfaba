// SPDX-License-Identifier: Apache-2.0

/// What travels between an exporter and an importer: bytes in memory, or a file on disk.
///
/// ``TransferExporter/export()`` returns a payload and ``TransferImporter/import(_:)`` consumes one, so
/// the two can be chained in-process, and a transport (such as ClipBridge's X11 selections) can move
/// either form. Data and file representations interoperate: a file-backed importer handed `.data` gets
/// the bytes in a temporary file, and a data importer handed `.file` gets the file's contents.
public enum TransferPayload: Sendable {
    /// Bytes held in memory (``DataRepresentation``, ``CodableRepresentation``).
    case data(Data)
    /// A file on disk (``FileRepresentation``). On import, `allowAccessingOriginalFile` says whether an
    /// importer that asks to open files in place may receive this very file rather than a copy.
    case file(SentTransferredFile)

    /// The payload's bytes, reading the file when the payload is a file.
    ///
    /// - Throws: The file system's error when the file cannot be read.
    public func loadData() throws -> Data {
        switch self {
        case .data(let data): data
        case .file(let file): try Data(contentsOf: file.file)
        }
    }
}
