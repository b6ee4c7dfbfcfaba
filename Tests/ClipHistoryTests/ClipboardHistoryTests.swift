// The history as a library: entries read as item providers (as a paste or a drop reads), restored to a real
// X server's clipboard byte-exact, and followed as another connection records.

import ClipBridge
@testable import ClipHistory
import ClipBridgeTestSupport
import FoundationEssentials
import Testing
import UniformTypes
import X11Selection

@Suite("ClipboardHistory", .xvfb, .serialized, .timeLimit(.minutes(1)))
struct ClipboardHistoryTests {
    /// A copy as GTK 3 might offer it: Latin-1 STRING, UTF-8, HTML and an app-private type.
    private func richCopy() -> CapturedCopy {
        let html = Data("<i>café</i>".utf8)
        let todo = Data(#"{"title":"milk"}"#.utf8)
        return CapturedCopy(selection: .clipboard, flavours: [
            .init(target: "text/html", type: "text/html", format: 8, content: .bytes(html), byteCount: html.count),
            .init(target: "STRING", type: "STRING", format: 8, content: .bytes(Data([0x63, 0x61, 0x66, 0xe9])), byteCount: 4),
            .init(target: "UTF8_STRING", type: "UTF8_STRING", format: 8, content: .bytes(Data("café".utf8)), byteCount: 5),
            .init(target: "application/x-example-todo", type: "application/x-example-todo", format: 8,
                  content: .bytes(todo), byteCount: todo.count),
        ])
    }

    @Test("an entry loads as a paste would: String from the best text, HTML and a custom type by their types")
    func itemProvider() async throws {
        let temporary = try TemporaryHistory()
        let history = try ClipboardHistory(directory: temporary.store.directory)
        guard case .added(let id) = try temporary.store.record(richCopy()) else { Issue.record("not added"); return }
        let provider = try history.itemProvider(for: id)
        #expect(try await provider.loadTransferable(type: String.self) == "café")
        #expect(try await provider.loadDataRepresentation(for: .html) == Data("<i>café</i>".utf8))
        let todo = try #require(UTType(mimeType: "application/x-example-todo"))
        #expect(try await provider.loadDataRepresentation(for: todo) == Data(#"{"title":"milk"}"#.utf8))
        #expect(provider.hasItemConformingTo(.plainText))
        #expect(!provider.hasItemConformingTo(.image))
        #expect(throws: HistoryError.self) { try history.itemProvider(for: 999) }
    }

    @Test("restore claims the clipboard with every flavour byte-exact, in order, and moves the entry to the top")
    func restore() async throws {
        let temporary = try TemporaryHistory()
        let history = try ClipboardHistory(directory: temporary.store.directory)
        guard case .added(let id) = try temporary.store.record(richCopy(), at: Date(timeIntervalSince1970: 1)),
            case .added(let newer) = try temporary.store.record(textCopy("newer"), at: Date(timeIntervalSince1970: 2))
        else { Issue.record("not added"); return }
        let display = try #require(XvfbServer.current).display
        let clipboard = try await Clipboard.open(display: display)
        let lease = try await history.restore(id) { try await clipboard.claim($0) }
        let reader = try await X11Connection.open(display: display)
        let targets = try await reader.targets(of: .clipboard)
        #expect(Array(targets.prefix(4)).map(\.rawValue) == ["text/html", "STRING", "UTF8_STRING", "application/x-example-todo"])
        #expect(try await reader.read(.clipboard, target: "STRING").bytes == Data([0x63, 0x61, 0x66, 0xe9]))
        #expect(try await reader.read(.clipboard, target: "application/x-example-todo").bytes == Data(#"{"title":"milk"}"#.utf8))
        #expect(try history.entries().map(\.id) == [id, newer])
        _ = lease
        await reader.shutdown()
        await clipboard.shutdown(handOverTimeout: nil)
    }

    @Test("a restored entry stays whole when the history deletes it while served, plain and encrypted",
          arguments: [false, true])
    func restoreOutlivesTheEntry(encrypted: Bool) async throws {
        let temporary = try TemporaryHistory(key: encrypted ? EncryptionTests.key : nil)
        let history = ClipboardHistory(store: temporary.store)
        // 3 MB of distinct bytes (a blob, served by INCR) beside a small inline flavour.
        var large = Data(count: 3_000_000)
        for index in large.indices { large[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 13) }
        let small = Data("beside".utf8)
        let copy = CapturedCopy(selection: .clipboard, flavours: [
            .init(target: "image/x-test", type: "image/x-test", format: 8, content: .bytes(large), byteCount: large.count),
            .init(target: "UTF8_STRING", type: "UTF8_STRING", format: 8, content: .bytes(small), byteCount: small.count),
        ])
        guard case .added(let id) = try temporary.store.record(copy) else { Issue.record("not added"); return }
        let display = try #require(XvfbServer.current).display
        let clipboard = try await Clipboard.open(display: display)
        let lease = try await history.restore(id) { try await clipboard.claim($0) }
        #expect(try history.delete([id]) == 1)
        #expect(try temporary.store.totals().entries == 0)
        let reader = try await X11Connection.open(display: display)
        #expect(try await reader.read(.clipboard, target: "image/x-test").bytes == large)
        #expect(try await reader.read(.clipboard, target: "UTF8_STRING").bytes == small)
        _ = lease
        await reader.shutdown()
        await clipboard.shutdown(handOverTimeout: nil)
        #expect(throws: HistoryError.self) { try history.snapshot(for: id) }
        #expect((try? history.snapshot(for: id)) == nil)
        do { _ = try history.snapshot(for: id) } catch let error as HistoryError { #expect(error.isNoSuchEntry) }
    }

    @Test("changes yields the entries now, then again when another connection records")
    func changes() async throws {
        let temporary = try TemporaryHistory()
        let history = try ClipboardHistory(directory: temporary.store.directory)
        _ = try temporary.store.record(textCopy("first"))
        var iterator = history.changes(every: .milliseconds(50)).makeAsyncIterator()
        #expect(try await iterator.next()?.map(\.summary) == ["first"])
        let writer = try HistoryStore(directory: temporary.store.directory)
        _ = try writer.record(textCopy("second"))
        #expect(try await iterator.next()?.map(\.summary) == ["second", "first"])
    }
}
