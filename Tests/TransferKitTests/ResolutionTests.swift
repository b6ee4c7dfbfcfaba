// The resolution layer: ordered exporters, ranked importers.
import Foundation
import Testing
import TransferKit

/// Direct image importers (generic first, then PNG) and a proxied text importer.
struct Snapshot: Hashable, Transferable {
    var source: String
    var bytes: Data

    static var transferRepresentation: some TransferRepresentation {
        DataRepresentation(importedContentType: .image) { Snapshot(source: "image", bytes: $0) }
        DataRepresentation(importedContentType: .png) { Snapshot(source: "png", bytes: $0) }
        ProxyRepresentation(importing: { (text: String) in Snapshot(source: "text", bytes: Data(text.utf8)) })
        DataRepresentation(exportedContentType: .png) { $0.bytes }
        DataRepresentation(exportedContentType: .tiff) { $0.bytes }
            .visibility(.ownProcess)
    }
}

struct Profile2: Codable, Hashable, Transferable {
    var name: String

    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(contentType: .testCard)
        ProxyRepresentation(exporting: \.name)
        DataRepresentation(exportedContentType: .plainText) { Data("duplicate \($0.name)".utf8) }
    }
}

@Suite("Resolution")
struct ResolutionTests {
    @Test func exportersFollowDeclarationOrderWithProxiesInPlace() async throws {
        let exporters = Profile2(name: "Ann").resolvedExporters()
        #expect(ids(exporters.map(\.contentType)) == ids([.testCard, .utf8PlainText, .plainText]))
        #expect(exporters.map(\.isProxied) == [false, true, true])
        #expect(exporters.map(\.isFileBacked) == [false, false, false])
        // `.plainText` is exported twice (by the proxy, then directly); the first one wins.
        #expect(try await exporters[2].exportData() == Data("Ann".utf8))
    }

    @Test func exportersCarryTheirValueAndVisibility() async throws {
        let snapshot = Snapshot(source: "s", bytes: Data([1, 2, 3]))
        #expect(ids(snapshot.resolvedExporters().map(\.contentType)) == ids([.png]))
        let all = snapshot.resolvedExporters(visibility: .ownProcess)
        #expect(ids(all.map(\.contentType)) == ids([.png, .tiff]))
        #expect(all.map(\.visibility) == [.all, .ownProcess])
        guard case .data(let bytes) = try await all[1].export() else {
            Issue.record("expected bytes")
            return
        }
        #expect(bytes == Data([1, 2, 3]))
    }

    @Test func existentialValuesResolveToo() async throws {
        let values: [any Transferable] = ["text", Data([1]), URL(string: "https://swift.org")!]
        let firstTypes = values.map { $0.resolvedExporters().first?.contentType }
        #expect(firstTypes == [.utf8PlainText, .data, .url])
        #expect(try await values[1].exported(as: .data) == Data([1]))
    }

    @Test func resolvedExporterPrefersExactTypesThenConformance() throws {
        let snapshot = Snapshot(source: "s", bytes: Data())
        #expect(snapshot.resolvedExporter(for: .png)?.contentType == .png)
        #expect(snapshot.resolvedExporter(for: .image)?.contentType == .png)
        #expect(snapshot.resolvedExporter(for: .tiff) == nil, "hidden from the default audience")
        #expect(snapshot.resolvedExporter(for: .tiff, visibility: .ownProcess)?.contentType == .tiff)
        #expect(snapshot.resolvedExporter(for: nil)?.contentType == .png)
        #expect(snapshot.resolvedExporter(for: .pdf) == nil)
    }

    @Test func anExactlyDeclaredTypeBeatsOneAcceptingByConformance() async throws {
        let importer = try #require(Snapshot.resolvedImporter(forOfferedTypes: [.png]))
        #expect(importer.contentType == .png && importer.offeredType == .png && !importer.isProxied)
        #expect(try await importer.import(.data(Data([9]))).source == "png")
    }

    @Test func askingForImageAcceptsEverySubtype() async throws {
        let importer = try #require(Snapshot.resolvedImporter(forOfferedTypes: [.jpeg]))
        #expect(importer.contentType == .image && importer.offeredType == .jpeg)
        #expect(try await importer.import(.data(Data([7]))).source == "image")
    }

    @Test func directRepresentationsBeatProxiesWhateverTheOfferOrder() throws {
        let importer = try #require(Snapshot.resolvedImporter(forOfferedTypes: [.utf8PlainText, .gif]))
        #expect(importer.offeredType == .gif && importer.contentType == .image)
    }

    @Test func proxiesAreUsedWhenNothingDirectFits() async throws {
        let importer = try #require(Snapshot.resolvedImporter(forOfferedTypes: [.pdf, .utf8PlainText]))
        #expect(importer.isProxied && importer.offeredType == .utf8PlainText)
        #expect(try await importer.import(.data(Data("hi".utf8))).source == "text")
    }

    @Test func theOffersOrderDecidesAmongDirectRepresentations() throws {
        // The offerer lists its richest type first; JPEG before PNG means JPEG (through `.image`).
        let importer = try #require(Snapshot.resolvedImporter(forOfferedTypes: [.jpeg, .png]))
        #expect(importer.offeredType == .jpeg)
    }

    @Test func rankedImportersListEveryCandidateOnce() {
        let ranked = Snapshot.resolvedImporters(forOfferedTypes: [.utf8PlainText, .png])
        #expect(ids(ranked.map(\.contentType)) == ids([.png, .image, .utf8PlainText, .plainText]))
        #expect(ids(ranked.map(\.offeredType)) == ids([.png, .png, .utf8PlainText, .utf8PlainText]))
        #expect(ranked.map(\.isProxied) == [false, false, true, true])
    }

    @Test func noImporterForUnrelatedOffers() {
        #expect(Snapshot.resolvedImporter(forOfferedTypes: [.pdf, .mp3]) == nil)
        #expect(Snapshot.resolvedImporter(forOfferedTypes: []) == nil)
        #expect(Profile2.resolvedImporter(forOfferedTypes: [.plainText]) == nil, "export-only proxy")
    }

    @Test func unboundImportersListDeclarationOrder() {
        let importers = Snapshot.resolvedImporters()
        let declared: [UTType] = [.image, .png, .utf8PlainText, .plainText, .utf16PlainText, .utf16ExternalPlainText]
        #expect(ids(importers.map(\.contentType)) == ids(declared))
        #expect(importers.allSatisfy { $0.offeredType == $0.contentType })
        #expect(ids(Snapshot.importedContentTypes()) == ids(importers.map(\.contentType)))
        #expect(Snapshot(source: "", bytes: Data()).importedContentTypes() == Snapshot.importedContentTypes())
    }
}
