// The standard conformances: String, Data, URL, AttributedString.
import Foundation
import Testing
import TransferKit

@Suite("Standard conformances")
struct StandardConformanceTests {
    // MARK: String

    @Test func stringExportsUTF8TextFirst() async throws {
        #expect(ids(String.exportedContentTypes()) == ids([.utf8PlainText, .plainText]))
        #expect(try await "héllo".exported(as: nil) == Data("héllo".utf8))
        #expect(try await "héllo".exported(as: .plainText) == Data("héllo".utf8))
        #expect(try await "x".exported(as: .text) == Data("x".utf8), "a supertype finds UTF-8 text")
    }

    @Test func stringImportsThePlainTextFamily() async throws {
        let imported: [UTType] = [.utf8PlainText, .plainText, .utf16PlainText, .utf16ExternalPlainText]
        #expect(ids(String.importedContentTypes()) == ids(imported))
        #expect(try await String(importing: Data("ok".utf8), contentType: .utf8PlainText) == "ok")
        #expect(try await String(importing: Data([0xEF, 0xBB, 0xBF, 0x41]), contentType: .utf8PlainText) == "A")
        // Legacy text/plain that is not UTF-8 is read as ISO 8859-1.
        #expect(try await String(importing: Data([0x63, 0x61, 0x66, 0xE9]), contentType: .plainText) == "café")
        // UTF-16: byte-order marks both ways; the external form defaults to big-endian.
        #expect(try await String(importing: Data([0xFE, 0xFF, 0, 0x48, 0, 0x69]), contentType: .utf16PlainText) == "Hi")
        #expect(try await String(importing: Data([0xFF, 0xFE, 0x48, 0, 0x69, 0]), contentType: .utf16PlainText) == "Hi")
        #expect(try await String(importing: Data([0, 0x48, 0, 0x69]), contentType: .utf16ExternalPlainText) == "Hi")
    }

    @Test(arguments: [
        (Data([0xC3, 0x28]), UTType.utf8PlainText),
        (Data([0x00, 0x48, 0x00]), .utf16PlainText),
        (Data([0xD8, 0x00, 0x00, 0x41]), .utf16ExternalPlainText)  // a lone high surrogate,
    ])
    func malformedTextIsADecodingFailure(bytes: Data, type: UTType) async throws {
        let error = await #expect(throws: TransferError.self) {
            _ = try await String(importing: bytes, contentType: type)
        }
        #expect(error?.code == .decodingFailed)
        #expect(error?.contentType == type)
    }

    @Test func stringDoesNotImportNonTextTypes() async throws {
        #expect(String.resolvedImporter(forOfferedTypes: [.png, .html, .json]) == nil)
        let error = await #expect(throws: TransferError.self) {
            _ = try await String(importing: Data("<b>".utf8), contentType: .html)
        }
        #expect(error?.code == .noCompatibleRepresentation)
        #expect(error?.message.contains("public.utf8-plain-text") == true)
    }

    // MARK: Data

    @Test func dataTransfersBytesUnchangedFromAnyDataType() async throws {
        let bytes = Data([0, 1, 2, 255])
        #expect(ids(Data.exportedContentTypes()) == ids([.data]))
        #expect(try await bytes.exported(as: .data) == bytes)
        #expect(try await Data(importing: bytes, contentType: .png) == bytes)
        #expect(try await Data(importing: bytes, contentType: .testCard) == bytes)
        #expect(Data.resolvedImporter(forOfferedTypes: [.utf8PlainText])?.offeredType == .utf8PlainText)
    }

    // MARK: URL

    @Test func fileURLsExportAsFileURLsURLsAndText() async throws {
        let file = URL(fileURLWithPath: "/tmp/report final.pdf")
        #expect(ids(file.exportedContentTypes()) == ids([.fileURL, .url, .utf8PlainText, .plainText]))
        #expect(try await file.exported(as: .fileURL) == Data("file:///tmp/report%20final.pdf".utf8))
        let web = URL(string: "https://swift.org/documentation")!
        #expect(ids(web.exportedContentTypes()) == ids([.url, .utf8PlainText, .plainText]))
        #expect(try await web.exported(as: .plainText) == Data("https://swift.org/documentation".utf8))
        #expect(ids(URL.exportedContentTypes()) == ids([.fileURL, .url, .utf8PlainText, .plainText]))
    }

    @Test func urlsImportFromURIListsAndText() async throws {
        let list = Data("# copied\r\nfile:///home/me/a.txt\r\nfile:///home/me/b.txt\r\n".utf8)
        #expect(try await URL(importing: list, contentType: .fileURL) == URL(fileURLWithPath: "/home/me/a.txt"))
        let web = try await URL(importing: Data("https://a.example/x".utf8), contentType: .url)
        #expect(web == URL(string: "https://a.example/x"))
        let mail = try await URL(importing: Data("  mailto:me@example.com\n".utf8), contentType: .utf8PlainText)
        #expect(mail == URL(string: "mailto:me@example.com"))
    }

    @Test(arguments: [
        (Data("https://web.example/".utf8), UTType.fileURL),
        (Data("no scheme here".utf8), .url),
        (Data("two words".utf8), .utf8PlainText),
        (Data("relative/path".utf8), .plainText),
    ])
    func urlImportRejectsWhatIsNotAURLOfTheOfferedKind(bytes: Data, type: UTType) async throws {
        let error = await #expect(throws: TransferError.self) {
            _ = try await URL(importing: bytes, contentType: type)
        }
        #expect(error?.code == .decodingFailed)
    }

    // MARK: AttributedString

    @Test func attributedStringKeepsLinksAndLanguagesThroughItsJSON() async throws {
        var string = AttributedString("hi there")
        string[string.range(of: "hi")!].languageIdentifier = "en"
        string[string.range(of: "there")!].link = URL(string: "https://swift.org")
        let type = try #require(AttributedString.exportedContentTypes().first)
        #expect(type.identifier == "org.swift.foundation.attributed-string")
        #expect(ids(Array(AttributedString.exportedContentTypes().dropFirst())) == ids([.utf8PlainText, .plainText]))
        let data = try await string.exported(as: type)
        let back = try await AttributedString(importing: data, contentType: type)
        #expect(back == string)
        #expect(back.runs.count == 3)
    }

    @Test func attributedStringFallsBackToPlainText() async throws {
        var string = AttributedString("émoji 👍🏽 ok")
        string[string.range(of: "ok")!].link = URL(string: "https://example.com")
        #expect(try await string.exported(as: .utf8PlainText) == Data("émoji 👍🏽 ok".utf8))
        let plain = try await AttributedString(importing: Data("plain".utf8), contentType: .utf8PlainText)
        #expect(plain == AttributedString("plain"))
        // Run lengths count Unicode scalars, so multi-scalar characters survive.
        let type = AttributedString.exportedContentTypes()[0]
        #expect(try await AttributedString(importing: try await string.exported(as: type), contentType: type) == string)
    }

    @Test func attributedStringRejectsInconsistentArchives() async throws {
        let type = AttributedString.exportedContentTypes()[0]
        let bad = Data("{\"text\":\"abc\",\"runs\":[{\"length\":5}]}".utf8)
        let error = await #expect(throws: TransferError.self) {
            _ = try await AttributedString(importing: bad, contentType: type)
        }
        #expect(error?.code == .decodingFailed)
    }
}
