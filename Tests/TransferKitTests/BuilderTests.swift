// The result builder: many representations, body composition, if/else, optionals, switch, loops.
import Foundation
import Testing
import TransferKit

/// Switches read while a type's representation is built; task-local so parallel tests don't interfere.
enum BuilderSwitch {
    enum Mode: Sendable { case html, markdown, none }

    @TaskLocal static var includeRTF = false
    @TaskLocal static var mode = Mode.none
    @TaskLocal static var extraTypes: [UTType] = []
}

struct Memo: Codable, Hashable, Transferable {
    var text: String

    static var transferRepresentation: some TransferRepresentation {
        if BuilderSwitch.includeRTF {
            DataRepresentation(exportedContentType: .rtf) { memo in Data("{\\rtf1 \(memo.text)}".utf8) }
        }
        switch BuilderSwitch.mode {
        case .html:
            DataRepresentation(exportedContentType: .html) { memo in Data("<p>\(memo.text)</p>".utf8) }
        case .markdown:
            DataRepresentation(exportedContentType: .markdown) { memo in Data("*\(memo.text)*".utf8) }
        case .none:
            CodableRepresentation(contentType: .testCard)
        }
        if BuilderSwitch.mode == .html {
            CodableRepresentation(contentType: .json)
        } else {
            CodableRepresentation(contentType: .xmlPropertyList, encoder: xmlEncoder, decoder: PropertyListDecoder())
        }
        for type in BuilderSwitch.extraTypes {
            DataRepresentation(exportedContentType: type) { memo in Data(memo.text.utf8) }
        }
        ProxyRepresentation(exporting: \.text)
    }

    /// `PropertyListEncoder` writes binary property lists unless told otherwise.
    static var xmlEncoder: PropertyListEncoder {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        return encoder
    }
}

/// Twelve representations: more than Apple's ten-argument `buildBlock`, folded by `buildPartialBlock`.
struct Dozen: Transferable {
    var value: String

    static let types: [UTType] = [
        .html, .xml, .yaml, .css, .json, .rtf, .commaSeparatedText, .tabSeparatedText, .swiftSource, .cSource,
        .shellScript, .pythonScript,
    ]

    static var transferRepresentation: some TransferRepresentation {
        DataRepresentation(exportedContentType: .html) { Data("html:\($0.value)".utf8) }
        DataRepresentation(exportedContentType: .xml) { Data("xml:\($0.value)".utf8) }
        DataRepresentation(exportedContentType: .yaml) { Data("yaml:\($0.value)".utf8) }
        DataRepresentation(exportedContentType: .css) { Data("css:\($0.value)".utf8) }
        DataRepresentation(exportedContentType: .json) { Data("json:\($0.value)".utf8) }
        DataRepresentation(exportedContentType: .rtf) { Data("rtf:\($0.value)".utf8) }
        DataRepresentation(exportedContentType: .commaSeparatedText) { Data("csv:\($0.value)".utf8) }
        DataRepresentation(exportedContentType: .tabSeparatedText) { Data("tsv:\($0.value)".utf8) }
        DataRepresentation(exportedContentType: .swiftSource) { Data("swift:\($0.value)".utf8) }
        DataRepresentation(exportedContentType: .cSource) { Data("c:\($0.value)".utf8) }
        DataRepresentation(exportedContentType: .shellScript) { Data("sh:\($0.value)".utf8) }
        DataRepresentation(exportedContentType: .pythonScript) { Data("py:\($0.value)".utf8) }
    }
}

/// A user-defined composite representation: Apple's `body` composition.
struct JSONWithText<Item: Transferable & Codable>: TransferRepresentation {
    let text: @Sendable (Item) -> String

    var body: some TransferRepresentation<Item> {
        CodableRepresentation(contentType: .json)
        ProxyRepresentation(exporting: text)
    }
}

struct Composed: Codable, Transferable {
    var title: String

    static var transferRepresentation: some TransferRepresentation {
        DataRepresentation(exportedContentType: .html) { Data("<h1>\($0.title)</h1>".utf8) }
        JSONWithText { (item: Composed) in item.title.uppercased() }
            .suggestedFileName("composed.json")
    }
}

@Suite("Result builder")
struct BuilderTests {
    @Test func singleCodableRepresentationInfersItsItem() async throws {
        // `CodableRepresentation(contentType:)` with no `for:` relies on the builder pinning `Item`.
        let memo = Memo(text: "hi")
        #expect(ids(memo.exportedContentTypes()) == ids([.testCard, .xmlPropertyList, .utf8PlainText, .plainText]))
        let back = try await Memo(importing: try await memo.exported(as: .testCard), contentType: .testCard)
        #expect(back == memo)
    }

    @Test func ifWithoutElseAddsARepresentationOnlyWhenTrue() async throws {
        let memo = Memo(text: "x")
        #expect(!memo.exportedContentTypes().contains(.rtf))
        let (types, rtf) = try await BuilderSwitch.$includeRTF.withValue(true) {
            (memo.exportedContentTypes(), try await memo.exported(as: .rtf))
        }
        #expect(types.first == .rtf)
        #expect(rtf == Data("{\\rtf1 x}".utf8))
    }

    @Test(arguments: [BuilderSwitch.Mode.html, .markdown, .none])
    func switchAndIfElseChooseOneBranch(mode: BuilderSwitch.Mode) throws {
        let expected: [UTType] =
            switch mode {
            case .html: [.html, .json]
            case .markdown: [.markdown, .xmlPropertyList]
            case .none: [.testCard, .xmlPropertyList]
            }
        BuilderSwitch.$mode.withValue(mode) {
            #expect(ids(Memo.exportedContentTypes()) == ids(expected + [.utf8PlainText, .plainText]))
        }
    }

    @Test func forLoopAddsOneRepresentationPerIteration() {
        BuilderSwitch.$extraTypes.withValue([.yaml, .css]) {
            let expected: [UTType] = [.testCard, .xmlPropertyList, .yaml, .css, .utf8PlainText, .plainText]
            #expect(ids(Memo.exportedContentTypes()) == ids(expected))
        }
    }

    @Test func customPropertyListCodersAreUsed() async throws {
        let data = try await Memo(text: "plist").exported(as: .xmlPropertyList)
        #expect(String(decoding: data, as: UTF8.self).contains("<plist"))
        #expect(try await Memo(importing: data, contentType: .xmlPropertyList) == Memo(text: "plist"))
    }

    @Test func moreThanTenRepresentationsKeepTheirOrder() async throws {
        let dozen = Dozen(value: "v")
        #expect(ids(dozen.exportedContentTypes()) == ids(Dozen.types))
        #expect(try await dozen.exported(as: .pythonScript) == Data("py:v".utf8))
        #expect(try await dozen.exported(as: .html) == Data("html:v".utf8))
    }

    @Test func bodyCompositionContributesInPlaceWithItsModifiers() async throws {
        let item = Composed(title: "Hello")
        #expect(ids(item.exportedContentTypes()) == ids([.html, .json, .utf8PlainText, .plainText]))
        #expect(try await item.exported(as: .plainText) == Data("HELLO".utf8))
        let exporters = item.resolvedExporters()
        #expect(exporters.map(\.suggestedFileName) == [nil, "composed.json", "composed.json", "composed.json"])
        let back = try await Composed(importing: try await item.exported(as: .json), contentType: .json)
        #expect(back.title == "Hello")
    }

    @Test func neverIsTheBodyOfLeafRepresentations() {
        #expect(DataRepresentation<String>.Body.self == Never.self)
        #expect(CodableRepresentation<Memo, JSONEncoder, JSONDecoder>.Body.self == Never.self)
        #expect(FileRepresentation<String>.Body.self == Never.self)
        #expect(ProxyRepresentation<Memo, String>.Body.self == Never.self)
        #expect(Never.Representation.self == Never.self)
        #expect(Never.Item.self == Never.self)
    }
}
