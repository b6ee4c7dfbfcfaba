// TransferKit's Color: RGBA, application/x-color (GTK/Qt) and #rrggbb[aa] text.
import Foundation
import Testing
import TransferKit

@Suite("Color")
struct ColorTests {
    @Test func offersXColorThenText() {
        #expect(Color.xColorContentType.preferredMIMEType == "application/x-color")
        #expect(ids(Color.exportedContentTypes()) == ids([Color.xColorContentType, .utf8PlainText, .plainText]))
        let imported: [UTType] = [
            Color.xColorContentType, .utf8PlainText, .plainText, .utf16PlainText, .utf16ExternalPlainText,
        ]
        #expect(ids(Color.importedContentTypes()) == ids(imported))
    }

    @Test func xColorIsFourNativeEndianUInt16() async throws {
        let color = Color(red: 1, green: 0.5, blue: 0, opacity: 0.25)
        let data = try await color.exported(as: Color.xColorContentType)
        #expect(data.count == 8)
        let words = data.withUnsafeBytes { raw in
            (0..<4).map { raw.loadUnaligned(fromByteOffset: $0 * 2, as: UInt16.self) }
        }
        #expect(words == [65535, 32768, 0, 16384])
    }

    @Test func xColorRoundTripsAtSixteenBitPrecision() async throws {
        let color = Color(red: 0.1, green: 0.2, blue: 0.3, opacity: 0.4)
        let data = try await color.exported(as: Color.xColorContentType)
        let back = try await Color(importing: data, contentType: Color.xColorContentType)
        for (a, b) in zip([back.red, back.green, back.blue, back.opacity], [0.1, 0.2, 0.3, 0.4]) {
            #expect(abs(a - b) <= 0.5 / 65535)
        }
    }

    @Test func xColorOfTheWrongSizeIsRejected() async throws {
        let error = await #expect(throws: TransferError.self) {
            _ = try await Color(importing: Data([1, 2, 3]), contentType: Color.xColorContentType)
        }
        #expect(error?.code == .decodingFailed)
        let opaque = try Color(xColorData: Data([0xFF, 0xFF, 0, 0, 0, 0]))
        #expect(opaque == Color(red: 1, green: 0, blue: 0))
    }

    @Test(arguments: [
        ("#0077B6", Color(red: 0, green: 0x77 / 255, blue: 0xB6 / 255)),
        ("0077b6", Color(red: 0, green: 0x77 / 255, blue: 0xB6 / 255)),
        ("  #fff\n", Color(red: 1, green: 1, blue: 1)),
        ("#f008", Color(red: 1, green: 0, blue: 0, opacity: 0x88 / 255)),
        ("#11223344", Color(red: 0x11 / 255, green: 0x22 / 255, blue: 0x33 / 255, opacity: 0x44 / 255)),
    ])
    func hexStringsParse(text: String, expected: Color) {
        #expect(Color(hexString: text) == expected)
    }

    @Test(arguments: ["", "#", "#12", "#12345", "#1234567", "#gggggg", "rgb(1,2,3)", "#112233445"])
    func malformedHexStringsDoNotParse(text: String) {
        #expect(Color(hexString: text) == nil)
    }

    @Test func hexStringsAreWrittenShortWhenOpaque() {
        #expect(Color(red: 0, green: 0x77 / 255, blue: 0xB6 / 255).hexString == "#0077b6")
        #expect(Color(red: 1, green: 0, blue: 0, opacity: 0.5).hexString == "#ff000080")
        #expect(Color(red: 2, green: -1, blue: .nan).hexString == "#ff0000", "components are clamped")
    }

    @Test func textRoundTripsAndBadTextIsADecodingFailure() async throws {
        let color = Color(red: 0.2, green: 0.4, blue: 0.6)
        let text = try await color.exported(as: .utf8PlainText)
        #expect(text == Data("#336699".utf8))
        #expect(try await Color(importing: text, contentType: .utf8PlainText) == color)
        let error = await #expect(throws: TransferError.self) {
            _ = try await Color(importing: Data("teal".utf8), contentType: .plainText)
        }
        #expect(error?.code == .decodingFailed)
    }
}
