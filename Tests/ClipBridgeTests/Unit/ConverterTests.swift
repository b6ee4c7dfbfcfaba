// SPDX-License-Identifier: Apache-2.0
// ClipBridgeTests — converters and the cheapest-chain search

import Foundation
import Testing
import UniformTypes

@testable import ClipBridge

@Suite("Converters")
struct ConverterTests {
    let registry = ConverterRegistry.standard

    private func convert(_ text: String, from source: UTType, to destination: UTType) throws -> String {
        let chain = try #require(registry.cheapestChain(from: [source], to: destination))
        return String(decoding: try chain.apply(Data(text.utf8)), as: UTF8.self)
    }

    @Test("HTML becomes readable plain text")
    func htmlToText() throws {
        let html = """
            <html><head><title>T</title><style>p{}</style></head><body>
            <p>Hello&nbsp;<b>world</b> &amp; friends</p><ul><li>one</li><li>two</li></ul>
            line<br>break <script>alert(1)</script>&#x263A;</body></html>
            """
        #expect(
            try convert(html, from: .html, to: .utf8PlainText)
                == "Hello world & friends\n\n- one\n- two\n\nline\nbreak ☺")
    }

    @Test("an HTML-only owner reaches plain text through exactly one converter")
    func htmlChain() throws {
        let chain = try #require(registry.cheapestChain(from: [.html], to: .plainText))
        #expect(chain.steps.map(\.name) == ["HTML → plain text"])
        #expect(!chain.isPartial)
    }

    @Test("the cheapest chain wins, and ties go to the richer offered type")
    func cheapest() throws {
        // JSON → text costs 2, HTML → text costs 3: JSON wins although HTML is offered first.
        let chain = try #require(registry.cheapestChain(from: [.html, .json], to: .utf8PlainText))
        #expect(chain.source == .json)
        // Something already offered needs no conversion at all.
        let direct = try #require(registry.cheapestChain(from: [.html, .utf8PlainText], to: .plainText))
        #expect(direct.steps.isEmpty)
        #expect(direct.source == .utf8PlainText)
        // Equal cost: the first offered source wins.
        var custom = ConverterRegistry()
        let a = UTType(mimeType: "application/x-bridge-a")!
        let b = UTType(mimeType: "application/x-bridge-b")!
        custom.register(ContentConverter(name: "a", from: a, to: .utf8PlainText) { $0 })
        custom.register(ContentConverter(name: "b", from: b, to: .utf8PlainText) { $0 })
        #expect(custom.cheapestChain(from: [b, a], to: .utf8PlainText)?.source == b)
        #expect(custom.cheapestChain(from: [a, b], to: .utf8PlainText)?.source == a)
    }

    @Test("chains compose: gnome-copied-files → URL list → paths as text")
    func chains() throws {
        let chain = try #require(registry.cheapestChain(from: [TargetMapping.gnomeCopiedFilesType], to: .utf8PlainText))
        #expect(chain.steps.count == 2)
        let text = String(decoding: try chain.apply(Data("cut\nfile:///tmp/a%20b\nfile:///tmp/c".utf8)), as: UTF8.self)
        #expect(text == "/tmp/a b\n/tmp/c")
    }

    @Test("uri-list ↔ gnome-copied-files ↔ paths as text")
    func fileLists() throws {
        let uris = "file:///home/u/a.txt\r\nfile:///home/u/b%20c.txt\r\n"
        #expect(
            try convert(uris, from: .url, to: TargetMapping.gnomeCopiedFilesType)
                == "copy\nfile:///home/u/a.txt\nfile:///home/u/b%20c.txt")
        #expect(
            try convert("copy\nfile:///x\nfile:///y", from: TargetMapping.gnomeCopiedFilesType, to: .url)
                == "file:///x\r\nfile:///y\r\n")
        #expect(try convert(uris, from: .url, to: .utf8PlainText) == "/home/u/a.txt\n/home/u/b c.txt")
        #expect(
            try convert("/tmp/a b\nhttps://example.org/", from: .utf8PlainText, to: .url)
                == "file:///tmp/a%20b\r\nhttps://example.org/\r\n")
        // Prose is not a URL list, and remote URLs are not files for a file manager.
        #expect(throws: ClipboardError.self) { try convert("hello there", from: .utf8PlainText, to: .url) }
        #expect(throws: ClipboardError.self) {
            try convert("https://example.org/\r\n", from: .url, to: TargetMapping.gnomeCopiedFilesType)
        }
    }

    @Test("application/x-color ↔ #rrggbb")
    func colors() throws {
        let chainOut = try #require(registry.cheapestChain(from: [TargetMapping.colorType], to: .utf8PlainText))
        let wire = X11Color(red: 0xFFFF, green: 0x8080, blue: 0, alpha: 0xFFFF).wire
        #expect(String(decoding: try chainOut.apply(wire), as: UTF8.self) == "#ff8000")
        let chainIn = try #require(registry.cheapestChain(from: [.utf8PlainText], to: TargetMapping.colorType))
        #expect(try chainIn.apply(Data("#ff8000".utf8)) == X11Color(red: 0xFFFF, green: 0x8080, blue: 0).wire)
        #expect(try chainIn.apply(Data("#0f08".utf8)) == X11Color(red: 0, green: 0xFFFF, blue: 0, alpha: 0x8888).wire)
        #expect(throws: ClipboardError.self) { try chainIn.apply(Data("orange".utf8)) }
        #expect(X11Color(red: 0, green: 0, blue: 0xFFFF, alpha: 0x8000).hex == "#0000ff80")
    }

    @Test("text encodings: UTF-16 text becomes UTF-8")
    func utf16() throws {
        let chain = try #require(registry.cheapestChain(from: [.utf16PlainText], to: .utf8PlainText))
        #expect(String(decoding: try chain.apply(Data([0xFF, 0xFE, 0x68, 0, 0xE9, 0])), as: UTF8.self) == "hé")
    }

    @Test("JSON, CSV and other text become plain text; RTF and HTML do not pass as-is")
    func textLike() throws {
        #expect(try convert("{\"a\":1}", from: .json, to: .utf8PlainText) == "{\"a\":1}")
        #expect(try convert("a,b\n1,2", from: .commaSeparatedText, to: .utf8PlainText) == "a,b\n1,2")
        let rtf = registry.cheapestChain(from: [.rtf], to: .utf8PlainText)
        #expect(rtf == nil)
        let htmlChain = try #require(registry.cheapestChain(from: [.html], to: .utf8PlainText))
        #expect(htmlChain.steps.first?.name != StandardConverters.textToUTF8.name)
    }

    @Test("reachable types list converted types, without partial conversions")
    func reachable() {
        let reachable = registry.reachableTypes(from: [.html]).map(\.destination)
        #expect(reachable.contains(.utf8PlainText))
        #expect(!reachable.contains(TargetMapping.colorType))
        #expect(!reachable.contains(.url))
        let fromText = registry.reachableTypes(from: [.utf8PlainText]).map(\.destination)
        #expect(fromText.isEmpty)
        let fromFiles = registry.reachableTypes(from: [.url]).map(\.destination)
        #expect(fromFiles.contains(.utf8PlainText))
    }

    @Test("chains never exceed the maximum length and never loop")
    func bounded() {
        var registry = ConverterRegistry()
        let types = (0..<6).map { UTType(mimeType: "application/x-bridge-chain-\($0)")! }
        for index in 0..<5 {
            registry.register(ContentConverter(name: "\(index)", from: types[index], to: types[index + 1]) { $0 })
            registry.register(ContentConverter(name: "back\(index)", from: types[index + 1], to: types[index]) { $0 })
        }
        #expect(registry.cheapestChain(from: [types[0]], to: types[3])?.steps.count == 3)
        #expect(registry.cheapestChain(from: [types[0]], to: types[4]) == nil)
    }
}
