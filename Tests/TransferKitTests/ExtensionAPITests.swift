// Apple's Transferable extension API: exported(as:), init(importing:contentType:), export(to:),
// withExportedFile, content-type listings.
import Foundation
import Testing
import TransferKit

struct Shape: Codable, Hashable, Transferable {
    var sides: Int

    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(contentType: .testSticker)
        DataRepresentation(contentType: .commaSeparatedText) { Data("sides,\($0.sides)".utf8) } importing: { data in
            let fields = String(decoding: data, as: UTF8.self).split(separator: ",")
            guard fields.count == 2, fields[0] == "sides", let sides = Int(fields[1]) else {
                throw PlannedFailure(tag: "csv")
            }
            return Shape(sides: sides)
        }
        .suggestedFileName("shape.csv")
    }
}

@Suite("Extension API")
struct ExtensionAPITests {
    @Test func exportedAsNilUsesTheFirstRepresentation() async throws {
        let data = try await Shape(sides: 3).exported(as: nil)
        #expect(try JSONDecoder().decode(Shape.self, from: data) == Shape(sides: 3))
    }

    @Test func exportedAsASupertypeFindsAConformingRepresentation() async throws {
        // `.text` is a supertype of comma-separated text.
        #expect(try await Shape(sides: 4).exported(as: .text) == Data("sides,4".utf8))
    }

    @Test func importingWithoutAContentTypeTriesEachRepresentationInOrder() async throws {
        #expect(try await Shape(importing: Data("sides,5".utf8), contentType: nil) == Shape(sides: 5))
        #expect(try await Shape(importing: Data("{\"sides\":6}".utf8), contentType: nil) == Shape(sides: 6))
        let error = await #expect(throws: TransferError.self) {
            _ = try await Shape(importing: Data("garbage".utf8), contentType: nil)
        }
        #expect(error?.code == .importFailed)
        #expect(error?.underlying is TransferError, "the first representation's failure is kept")
        #expect(ids(error?.availableContentTypes ?? []) == ids([.testSticker, .commaSeparatedText]))
    }

    @Test func importingAFileInfersItsTypeFromTheExtension() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("triangle.csv")
        try Data("sides,3".utf8).write(to: csv)
        #expect(try await Shape(importing: csv, contentType: nil) == Shape(sides: 3))
        let unknown = directory.appendingPathComponent("square.unknown-extension")
        try Data("{\"sides\":4}".utf8).write(to: unknown)
        #expect(try await Shape(importing: unknown, contentType: nil) == Shape(sides: 4))
    }

    @Test func importingAMissingFileIsAnImportFailure() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).csv")
        let error = await #expect(throws: TransferError.self) {
            _ = try await Shape(importing: missing, contentType: .commaSeparatedText)
        }
        #expect(error?.code == .importFailed)
        #expect(error?.underlying != nil)
    }

    @Test func withExportedFileRemovesTheFileAfterTheHandler() async throws {
        let shape = Shape(sides: 8)
        let (url, contents) = try await shape.withExportedFile(contentType: .commaSeparatedText) { url in
            (url, try Data(contentsOf: url))
        }
        #expect(url.lastPathComponent == "shape.csv")
        #expect(contents == Data("sides,8".utf8))
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(!FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path))
    }

    @Test func withExportedFileCleansUpWhenTheHandlerThrows() async throws {
        let seen = Locked<URL?>(nil)
        await #expect(throws: PlannedFailure.self) {
            try await Shape(sides: 1).withExportedFile(contentType: .testSticker) { url in
                seen.set(url)
                throw PlannedFailure(tag: "handler")
            }
        }
        let url = try #require(seen.get())
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @MainActor
    @Test func withExportedFileRunsTheHandlerOnTheCallersActor() async throws {
        var visited: [String] = []
        try await Shape(sides: 2).withExportedFile(contentType: nil) { url in
            MainActor.assertIsolated()
            visited.append(url.lastPathComponent)
        }
        #expect(visited.count == 1)
    }

    @Test func exportToADirectoryNamesTheFileAfterTheItemType() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try await Shape(sides: 3).export(to: directory, contentType: .testSticker)
        #expect(url.lastPathComponent == "Shape")
        #expect(try JSONDecoder().decode(Shape.self, from: Data(contentsOf: url)) == Shape(sides: 3))
    }

    @Test func contentTypeListings() {
        #expect(ids(Shape.exportedContentTypes()) == ids([.testSticker, .commaSeparatedText]))
        #expect(ids(Shape(sides: 1).exportedContentTypes()) == ids([.testSticker, .commaSeparatedText]))
        #expect(ids(Shape.importedContentTypes()) == ids([.testSticker, .commaSeparatedText]))
    }
}

/// A tiny lock-protected box for values captured by `@Sendable` test closures.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func get() -> Value { lock.withLock { value } }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
}
