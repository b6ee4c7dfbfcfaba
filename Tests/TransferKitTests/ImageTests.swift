// TransferKit's Image: encoded bytes plus their content type.
import Foundation
import Testing
import TransferKit

@Suite("Image")
struct ImageTests {
    static let samples: [(String, [UInt8], UTType)] = [
        ("png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], .png),
        ("jpeg", [0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 0x4A, 0x46], .jpeg),
        ("gif89a", Array("GIF89a".utf8) + [1, 0, 1, 0], .gif),
        ("gif87a", Array("GIF87a".utf8) + [1, 0, 1, 0], .gif),
        ("tiff-le", [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], .tiff),
        ("tiff-be", [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8], .tiff),
        ("webp", Array("RIFF".utf8) + [36, 0, 0, 0] + Array("WEBPVP8 ".utf8), .webP),
        ("bmp", Array("BM".utf8) + [UInt8](repeating: 0, count: 12), .bmp),
        ("ico", [0, 0, 1, 0, 1, 0, 16, 16], .ico),
        ("heic", [0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0], .heic),
        ("heif", [0, 0, 0, 24] + Array("ftypmif1".utf8) + [0, 0, 0, 0], .heif),
        ("svg", Array("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), .svg),
    ]

    @Test(arguments: samples)
    func formatsAreRecognisedFromTheirSignature(name: String, bytes: [UInt8], type: UTType) async throws {
        let image = try Image(data: Data(bytes))
        #expect(image.contentType == type, "\(name)")
        // Exported as its own type only, and imported back.
        #expect(ids(image.exportedContentTypes()) == ids([type]))
        #expect(try await image.exported(as: type) == Data(bytes))
        #expect(try await Image(importing: Data(bytes), contentType: type) == image)
    }

    @Test func everyKnownFormatIsListedForImportAndExport() {
        #expect(Image.importedContentTypes().contains(.jpeg))
        let imported = Image.importedContentTypes()
        #expect(ids(Array(imported.prefix(Image.knownContentTypes.count))) == ids(Image.knownContentTypes))
        #expect(Image.importedContentTypes().last == .image)
        #expect(ids(Image.exportedContentTypes()) == ids(Image.knownContentTypes + [.image]))
    }

    @Test func theBytesWinOverAMisleadingLabel() async throws {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let image = try await Image(importing: png, contentType: .jpeg)
        #expect(image.contentType == .png)
    }

    @Test func unrecognisableBytesLabelledAsAKnownFormatAreRejected() async throws {
        let error = await #expect(throws: TransferError.self) {
            _ = try await Image(importing: Data("not an image".utf8), contentType: .png)
        }
        #expect(error?.code == .decodingFailed)
        #expect(throws: TransferError.self) { _ = try Image(data: Data([1, 2, 3])) }
        await #expect(throws: TransferError.self) { _ = try await Image(importing: Data(), contentType: .image) }
    }

    @Test func otherImageTypesTravelAsThemselves() async throws {
        let ppm = try #require(UTType(mimeType: "image/x-portable-pixmap", conformingTo: .image))
        let bytes = Data("P6\n1 1\n255\n\u{0}\u{0}\u{0}".utf8)
        let image = try await Image(importing: bytes, contentType: ppm)
        #expect(image.contentType == ppm && image.data == bytes)
        // As itself only: an imported image carries no transcoder.
        #expect(ids(image.exportedContentTypes()) == [ppm.identifier])
        #expect(try await image.exported(as: ppm) == bytes)
        let importer = try #require(Image.resolvedImporter(forOfferedTypes: [ppm]))
        #expect(importer.contentType == .image && importer.offeredType == ppm)
    }
}
