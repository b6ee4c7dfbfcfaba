// The leaf representations: DataRepresentation, CodableRepresentation, FileRepresentation.
import Foundation
import Testing
import TransferKit

/// Two-way, export-only and import-only data representations, with closures that can fail on demand.
struct Ticket: Hashable, Transferable {
    var code: String

    static var transferRepresentation: some TransferRepresentation {
        DataRepresentation(contentType: .testCard) { ticket in
            if ticket.code == "fail-export" { throw PlannedFailure(tag: "export") }
            return Data("card:\(ticket.code)".utf8)
        } importing: { data in
            let text = String(decoding: data, as: UTF8.self)
            guard text.hasPrefix("card:") else { throw PlannedFailure(tag: "import") }
            return Ticket(code: String(text.dropFirst(5)))
        }
        DataRepresentation(exportedContentType: .html) { ticket in Data("<code>\(ticket.code)</code>".utf8) }
        DataRepresentation(importedContentType: .commaSeparatedText) { data in
            Ticket(code: String(decoding: data, as: UTF8.self).replacingOccurrences(of: ",", with: "-"))
        }
    }
}

struct Measurement: Codable, Hashable, Transferable {
    var value: Double

    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(for: Measurement.self, contentType: .json)
        CodableRepresentation(
            contentType: .binaryPropertyList, encoder: Self.binaryEncoder, decoder: PropertyListDecoder()
        )
    }

    static var binaryEncoder: PropertyListEncoder {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return encoder
    }
}

/// A file-backed item that records what its importing closure saw.
struct Document: Hashable, Transferable {
    var file: URL
    var contents: Data = Data()
    var wasOriginal = false
    var existedDuringImport = false

    static var transferRepresentation: some TransferRepresentation {
        FileRepresentation(contentType: .pdf, shouldAttemptToOpenInPlace: true) { document in
            SentTransferredFile(document.file, allowAccessingOriginalFile: document.wasOriginal)
        } importing: { received in
            Document(
                file: received.file,
                contents: try Data(contentsOf: received.file),
                wasOriginal: received.isOriginalFile,
                existedDuringImport: FileManager.default.fileExists(atPath: received.file.path)
            )
        }
        FileRepresentation(importedContentType: .plainText) { received in
            Document(
                file: received.file,
                contents: try Data(contentsOf: received.file),
                wasOriginal: received.isOriginalFile,
                existedDuringImport: true
            )
        }
        FileRepresentation(exportedContentType: .zip, shouldAllowToOpenInPlace: true) { document in
            SentTransferredFile(document.file)
        }
    }
}

@Suite("Leaf representations")
struct RepresentationTests {
    // MARK: DataRepresentation

    @Test func dataRepresentationExportsAndImportsBothWays() async throws {
        let ticket = Ticket(code: "A1")
        #expect(try await ticket.exported(as: .testCard) == Data("card:A1".utf8))
        #expect(try await Ticket(importing: Data("card:B2".utf8), contentType: .testCard) == Ticket(code: "B2"))
    }

    @Test func exportOnlyAndImportOnlyRepresentationsAreOneWay() async throws {
        #expect(ids(Ticket.exportedContentTypes()) == ids([.testCard, .html]))
        #expect(ids(Ticket.importedContentTypes()) == ids([.testCard, .commaSeparatedText]))
        #expect(try await Ticket(code: "x").exported(as: .html) == Data("<code>x</code>".utf8))
        #expect(try await Ticket(importing: Data("a,b".utf8), contentType: .commaSeparatedText) == Ticket(code: "a-b"))
        let exportError = await #expect(throws: TransferError.self) {
            _ = try await Ticket(code: "x").exported(as: .commaSeparatedText)
        }
        #expect(exportError?.code == .noCompatibleRepresentation)
        let importError = await #expect(throws: TransferError.self) {
            _ = try await Ticket(importing: Data("<p>".utf8), contentType: .html)
        }
        #expect(importError?.code == .noCompatibleRepresentation)
        #expect(ids(importError?.availableContentTypes ?? []) == ids([.testCard, .commaSeparatedText]))
    }

    @Test func closureErrorsAreWrappedWithTheirCause() async throws {
        let exportError = await #expect(throws: TransferError.self) {
            _ = try await Ticket(code: "fail-export").exported(as: .testCard)
        }
        #expect(exportError?.code == .exportFailed)
        #expect(exportError?.underlying as? PlannedFailure == PlannedFailure(tag: "export"))
        #expect(exportError?.contentType == .testCard)

        let importError = await #expect(throws: TransferError.self) {
            _ = try await Ticket(importing: Data("nope".utf8), contentType: .testCard)
        }
        #expect(importError?.code == .importFailed)
        #expect(importError?.underlying as? PlannedFailure == PlannedFailure(tag: "import"))
    }

    @Test func dataRepresentationReadsAFilePayload() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("ticket.card")
        try Data("card:F9".utf8).write(to: file)
        #expect(try await Ticket(importing: file, contentType: .testCard) == Ticket(code: "F9"))
        let importer = try #require(Ticket.resolvedImporter(forOfferedTypes: [.testCard]))
        #expect(try await importer.import(.file(SentTransferredFile(file))) == Ticket(code: "F9"))
    }

    // MARK: CodableRepresentation

    @Test func codableRepresentationUsesJSONByDefault() async throws {
        let data = try await Measurement(value: 1.5).exported(as: .json)
        #expect(try JSONDecoder().decode(Measurement.self, from: data) == Measurement(value: 1.5))
        #expect(try await Measurement(importing: data, contentType: .json) == Measurement(value: 1.5))
    }

    @Test func codableRepresentationUsesTheGivenCoders() async throws {
        let data = try await Measurement(value: 2.25).exported(as: .binaryPropertyList)
        #expect(data.starts(with: Array("bplist00".utf8)))
        #expect(try await Measurement(importing: data, contentType: .binaryPropertyList) == Measurement(value: 2.25))
    }

    @Test func codableErrorsAreEncodingAndDecodingFailures() async throws {
        let decodeError = await #expect(throws: TransferError.self) {
            _ = try await Measurement(importing: Data("{\"value\": \"high\"}".utf8), contentType: .json)
        }
        #expect(decodeError?.code == .decodingFailed)
        #expect(decodeError?.underlying is DecodingError)

        // JSONEncoder refuses non-finite numbers by default.
        let encodeError = await #expect(throws: TransferError.self) {
            _ = try await Measurement(value: .infinity).exported(as: .json)
        }
        #expect(encodeError?.code == .exportFailed)
        #expect(encodeError?.underlying is EncodingError)
    }

    // MARK: FileRepresentation

    @Test func fileExportHandsOverTheFileWithoutCopying() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("report.pdf")
        try Data("%PDF-1.7".utf8).write(to: file)
        let exporter = try #require(Document(file: file).resolvedExporter(for: .pdf))
        #expect(exporter.isFileBacked && !exporter.allowsOpeningInPlace)
        guard case .file(let sent) = try await exporter.export() else {
            Issue.record("expected a file payload")
            return
        }
        #expect(sent.file == file && !sent.allowAccessingOriginalFile)
        #expect(try await Document(file: file).exported(as: .pdf) == Data("%PDF-1.7".utf8))
    }

    @Test func exportOnlyFileRepresentationMayAllowOpeningInPlace() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("bundle.zip")
        try Data([0x50, 0x4B, 3, 4]).write(to: file)
        let exporter = try #require(Document(file: file).resolvedExporter(for: .zip))
        #expect(exporter.allowsOpeningInPlace)
        guard case .file(let sent) = try await exporter.export() else {
            Issue.record("expected a file payload")
            return
        }
        #expect(sent.allowAccessingOriginalFile)
    }

    @Test func receivedFilesAreTemporaryCopiesRemovedAfterTheClosure() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = directory.appendingPathComponent("scan.pdf")
        try Data("%PDF scan".utf8).write(to: original)

        let importer = try #require(Document.resolvedImporter(forOfferedTypes: [.pdf]))
        #expect(importer.isFileBacked && importer.attemptsToOpenInPlace)
        let copy = try await importer.import(.file(SentTransferredFile(original)))
        #expect(!copy.wasOriginal && copy.existedDuringImport)
        #expect(copy.file != original && copy.file.lastPathComponent == "scan.pdf")
        #expect(copy.contents == Data("%PDF scan".utf8))
        #expect(!FileManager.default.fileExists(atPath: copy.file.path), "the copy is removed after the closure")
        #expect(FileManager.default.fileExists(atPath: original.path), "the sender's file is untouched")
    }

    @Test func openInPlaceNeedsBothTheReceiversWishAndTheSendersPermission() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = directory.appendingPathComponent("live.pdf")
        try Data("%PDF live".utf8).write(to: original)

        let pdf = try #require(Document.resolvedImporter(forOfferedTypes: [.pdf]))
        let inPlace = try await pdf.import(.file(SentTransferredFile(original, allowAccessingOriginalFile: true)))
        #expect(inPlace.wasOriginal && inPlace.file == original)
        #expect(FileManager.default.fileExists(atPath: original.path))

        // The plain-text importer does not ask to open in place, so it gets a copy even when allowed.
        let text = try #require(Document.resolvedImporter(forOfferedTypes: [.plainText]))
        #expect(!text.attemptsToOpenInPlace)
        let copied = try await text.import(.file(SentTransferredFile(original, allowAccessingOriginalFile: true)))
        #expect(!copied.wasOriginal && copied.file != original)

        // `init(importing: URL, …)` lets an in-place representation use the caller's own file.
        let viaURL = try await Document(importing: original, contentType: .pdf)
        #expect(viaURL.wasOriginal && viaURL.file == original)
    }

    @Test func bytesGivenToAFileImporterArriveInANamedTemporaryFile() async throws {
        let document = try await Document(importing: Data("%PDF bytes".utf8), contentType: .pdf)
        #expect(document.contents == Data("%PDF bytes".utf8))
        #expect(document.file.pathExtension == "pdf" && document.existedDuringImport)
        #expect(!FileManager.default.fileExists(atPath: document.file.path))
    }
}
