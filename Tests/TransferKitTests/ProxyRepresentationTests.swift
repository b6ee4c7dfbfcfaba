// ProxyRepresentation: export-only, import-only, both ways, chains, cycles, failures.
import Foundation
import Testing
import TransferKit

/// Proxies both ways to `Kelvin`, which proxies both ways to `String`: a chain.
struct Celsius: Hashable, Transferable {
    var degrees: Double

    static var transferRepresentation: some TransferRepresentation {
        ProxyRepresentation { (celsius: Celsius) in
            Kelvin(value: celsius.degrees + 273.15)
        } importing: { (kelvin: Kelvin) in
            Celsius(degrees: kelvin.value - 273.15)
        }
    }
}

struct Kelvin: Hashable, Transferable {
    var value: Double

    static var transferRepresentation: some TransferRepresentation {
        ProxyRepresentation(exporting: { (kelvin: Kelvin) in String(kelvin.value) }, importing: { (text: String) in
            guard let value = Double(text) else { throw PlannedFailure(tag: "not a number") }
            return Kelvin(value: value)
        })
    }
}

/// `Ping` and `Pong` proxy to each other: the cycle must be cut, not followed forever.
struct Ping: Hashable, Transferable {
    var count: Int

    static var transferRepresentation: some TransferRepresentation {
        DataRepresentation(contentType: .testA) { Data("\($0.count)".utf8) } importing: {
            Ping(count: Int(String(decoding: $0, as: UTF8.self)) ?? -1)
        }
        ProxyRepresentation { (ping: Ping) in
            Pong(count: ping.count)
        } importing: { (pong: Pong) in
            Ping(count: pong.count)
        }
    }
}

struct Pong: Hashable, Transferable {
    var count: Int

    static var transferRepresentation: some TransferRepresentation {
        DataRepresentation(contentType: .testB) { Data("\($0.count)".utf8) } importing: {
            Pong(count: Int(String(decoding: $0, as: UTF8.self)) ?? -1)
        }
        ProxyRepresentation { (pong: Pong) in
            Ping(count: pong.count)
        } importing: { (ping: Ping) in
            Pong(count: ping.count)
        }
    }
}

/// Export-only proxy whose conversion can fail, import-only asynchronous proxy.
struct Label: Hashable, Transferable {
    var text: String

    static var transferRepresentation: some TransferRepresentation {
        ProxyRepresentation(exporting: { (label: Label) throws -> String in
            guard !label.text.isEmpty else { throw PlannedFailure(tag: "empty") }
            return label.text
        })
        ProxyRepresentation(importing: { (url: URL) async throws -> Label in
            await Swift.Task.yield()
            return Label(text: url.lastPathComponent)
        })
    }
}

/// The deprecated asynchronous export: its target's conditions can only be checked when exporting.
struct Slow: Hashable, Transferable {
    var link: String

    static var transferRepresentation: some TransferRepresentation {
        ProxyRepresentation(exporting: { (slow: Slow) async throws -> URL in
            await Swift.Task.yield()
            guard let url = URL(string: slow.link) else { throw PlannedFailure(tag: "bad link") }
            return url
        })
    }
}

@Suite("Proxy representations")
struct ProxyRepresentationTests {
    @Test func chainsExportThroughEveryLink() async throws {
        #expect(ids(Celsius.exportedContentTypes()) == ids([.utf8PlainText, .plainText]))
        #expect(try await Celsius(degrees: 20).exported(as: .plainText) == Data("293.15".utf8))
        let exporter = try #require(Celsius(degrees: 0).resolvedExporters().first)
        #expect(exporter.isProxied && exporter.contentType == .utf8PlainText)
    }

    @Test func chainsImportThroughEveryLink() async throws {
        let celsius = try await Celsius(importing: Data("373.15".utf8), contentType: .utf8PlainText)
        #expect(abs(celsius.degrees - 100) < 1e-9)
        let importer = try #require(Celsius.resolvedImporter(forOfferedTypes: [.utf16PlainText]))
        #expect(importer.isProxied && importer.contentType == .utf16PlainText)
        let fromUTF16 = try await importer.import(.data(Data([0xFF, 0xFE, 0x33, 0, 0x37, 0, 0x33, 0])))
        #expect(abs(fromUTF16.degrees - 99.85) < 1e-9)
    }

    @Test func conversionErrorsInTheChainAreImportFailures() async throws {
        let error = await #expect(throws: TransferError.self) {
            _ = try await Celsius(importing: Data("warm".utf8), contentType: .utf8PlainText)
        }
        #expect(error?.code == .importFailed)
        #expect(error?.underlying as? PlannedFailure == PlannedFailure(tag: "not a number"))
    }

    @Test func cyclesAreCutWhereTheyClose() async throws {
        #expect(ids(Ping.exportedContentTypes()) == ids([.testA, .testB]))
        #expect(ids(Pong.exportedContentTypes()) == ids([.testB, .testA]))
        #expect(ids(Ping(count: 3).exportedContentTypes()) == ids([.testA, .testB]))
        #expect(ids(Ping.importedContentTypes()) == ids([.testA, .testB]))
        #expect(try await Ping(count: 7).exported(as: .testB) == Data("7".utf8))
        #expect(try await Ping(importing: Data("9".utf8), contentType: .testB) == Ping(count: 9))
    }

    @Test func exportOnlyProxyFailureIsReportedWhenExporting() async throws {
        // The types are still listed (the conversion's failure is not a condition) …
        #expect(ids(Label(text: "").exportedContentTypes()) == ids([.utf8PlainText, .plainText]))
        // … and exporting reports the conversion's error.
        let error = await #expect(throws: TransferError.self) {
            _ = try await Label(text: "").exported(as: .utf8PlainText)
        }
        #expect(error?.code == .exportFailed)
        #expect(error?.underlying as? PlannedFailure == PlannedFailure(tag: "empty"))
        #expect(try await Label(text: "ok").exported(as: .utf8PlainText) == Data("ok".utf8))
    }

    @Test func importOnlyAsyncProxyImportsThroughTheTarget() async throws {
        let imported: [UTType] = [.fileURL, .url, .utf8PlainText, .plainText, .utf16PlainText, .utf16ExternalPlainText]
        #expect(ids(Label.importedContentTypes()) == ids(imported))
        let label = try await Label(importing: Data("https://example.com/a/b.txt".utf8), contentType: .url)
        #expect(label == Label(text: "b.txt"))
        // Export-only proxy: the String types are not importable through it, only through the URL proxy.
        let viaText = try await Label(importing: Data("file:///tmp/x.pdf".utf8), contentType: .utf8PlainText)
        #expect(viaText == Label(text: "x.pdf"))
    }

    @Test func asynchronousExportConversionRunsWhenExporting() async throws {
        // Type-level listing: everything URL can export, conditions unevaluated.
        #expect(ids(Slow.exportedContentTypes()) == ids([.fileURL, .url, .utf8PlainText, .plainText]))
        let web = Slow(link: "https://swift.org")
        #expect(try await web.exported(as: .url) == Data("https://swift.org".utf8))
        // URL's `.fileURL` condition fails for a web URL; with an async proxy that surfaces at export time.
        let error = await #expect(throws: TransferError.self) {
            _ = try await web.exported(as: .fileURL)
        }
        #expect(error?.code == .noCompatibleRepresentation)
    }
}
