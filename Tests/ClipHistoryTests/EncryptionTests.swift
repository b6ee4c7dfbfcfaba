// An encrypted history against a real SQLite database and real files: what is sealed, what opens, what does not.

@testable import ClipHistory
import ClipBridgeTestSupport
import FoundationEssentials
import Glibc
import Testing
import X11Selection

@Suite("History encryption")
struct EncryptionTests {
    static let key = try! HistoryKey(secret: Array("correct horse battery staple 42\n".utf8))
    static let otherKey = try! HistoryKey(secret: Array("another entirely different secret".utf8))

    /// Bytes no encoder would make by chance: found on disk only if stored unsealed.
    static func marker(_ tag: String) -> String { "zq\(tag)xv-7f3e-\(tag)-marker" }

    /// The format as documented (HistoryCipher's doc comment), implemented again in Python with `cryptography`
    /// (Tests/Peers/history_open.py): it opens every value and blob ClipHistory wrote — one inline payload, one over a
    /// segment, one exactly two segments, one empty — checks the key's check value and each blob's keyed name; and a
    /// wrong key opens nothing.
    @Test("an independent implementation of the documented format opens what ClipHistory sealed")
    func anIndependentImplementationOpensIt() async throws {
        let history = try TemporaryHistory(key: Self.key)
        let text = "meeting notes \(Self.marker("interop")) ✓"
        let big = Data((0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) })
        let exact = Data((0..<(2 * HistoryCipher.segmentBytes)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
        let flavours: [(SelectionTarget, Data)] = [
            ("UTF8_STRING", Data(text.utf8)), ("application/x-big", big), ("application/x-exact", exact),
            ("application/x-empty", Data()),
        ]
        let copy = CapturedCopy(selection: .clipboard, ownerClass: "Notes", flavours: flavours.map {
            .init(target: $0.0, type: $0.0, format: 8, content: .bytes($0.1), byteCount: $0.1.count)
        })
        guard case .added(let id) = try history.store.record(copy) else { Issue.record("not added"); return }
        let opener = ToolkitPeer.script("history_open.py")
        let directory = history.store.directory
        let opened = try await PeerCommand(
            [ToolkitPeer.python, opener, directory], display: nil,
            stdin: .data(Data("correct horse battery staple 42\n".utf8)), timeout: .seconds(60)).run()
        #expect(opened.succeeded, "\(opened.stderrText)")
        struct Opened: Decodable {
            struct Entry: Decodable {
                struct Flavour: Decodable { var target: String, size: Int, sha256: String, storedAs: String }
                var id: Int, summary: String, ownerClass: String?, text: String?, flavours: [Flavour]
            }
            var entries: [Entry]
        }
        let entries = try JSONDecoder().decode(Opened.self, from: opened.stdout).entries
        #expect(entries.count == 1)
        let entry = try #require(entries.first)
        #expect(entry.id == Int(id))
        #expect(entry.summary == text)
        #expect(entry.ownerClass == "Notes")
        #expect(entry.text == text)
        #expect(entry.flavours.map(\.target) == flavours.map(\.0.rawValue))
        for (flavour, expected) in zip(entry.flavours, flavours) {
            #expect(flavour.size == expected.1.count, "\(expected.0)")
            #expect(flavour.sha256 == HexDigest.string(try SHA256.hash(expected.1)), "\(expected.0)")
        }
        #expect(Set(entry.flavours.map(\.storedAs)) == ["blob", "inline"])

        let wrong = try await PeerCommand(
            [ToolkitPeer.python, opener, directory], display: nil,
            stdin: .data(Data("another entirely different secret".utf8)), timeout: .seconds(60)).run()
        #expect(wrong.exitCode == 1 && wrong.stdout.isEmpty, "\(wrong)")
    }

    @Test("every payload, summary, application and text is sealed; everything reads back byte-exact")
    func sealsEverything() throws {
        let history = try TemporaryHistory(key: Self.key)
        #expect(history.store.isEncrypted)
        let text = "invoice \(Self.marker("text")) due"
        // A payload over one 64 KiB segment, not a multiple of it, with the marker in its last segment.
        var big = Data((0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) })
        big.append(Data(Self.marker("blob").utf8))
        let exact = Data((0..<(2 * HistoryCipher.segmentBytes)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let copy = CapturedCopy(selection: .clipboard, ownerClass: "Secret\(Self.marker("owner"))", flavours: [
            .init(target: "UTF8_STRING", type: "UTF8_STRING", format: 8, content: .bytes(Data(text.utf8)), byteCount: text.utf8.count),
            .init(target: "application/x-big", type: "application/x-big", format: 8, content: .bytes(big), byteCount: big.count),
            .init(target: "application/x-exact", type: "application/x-exact", format: 8, content: .bytes(exact),
                  byteCount: exact.count),
        ])
        guard case .added(let id) = try history.store.record(copy) else { Issue.record("not added"); return }
        let entry = try #require(try history.store.entry(id))
        #expect(entry.summary == text)
        #expect(entry.ownerClass == "Secret\(Self.marker("owner"))")
        let flavours = try history.store.flavours(of: id)
        #expect(try flavours.map { try history.store.bytes(of: $0) } == [Data(text.utf8), big, exact])
        #expect(try history.store.verify() == [])
        #expect(try history.store.search("invoice due").map(\.id) == [id])
        #expect(try history.store.search("nothing").isEmpty)
        // No marker anywhere on disk: database, WAL, blobs.
        for tag in ["text", "blob", "owner"] {
            #expect(!history.holds(Self.marker(tag)), "\(tag) found unsealed")
        }
        // Blob names are keyed: not the content's SHA-256.
        let plainName = HexDigest.string(try SHA256.hash(big))
        #expect(!history.blobFiles.contains { $0.hasSuffix(plainName) })
        // Read back by another process's store with the key; a payload streamed to a file in memory.
        let again = try HistoryStore(directory: history.store.directory, key: Self.key)
        let descriptor = try again.openPayload(flavours[1])
        defer { close(descriptor) }
        var read = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        lseek(descriptor, 0, SEEK_SET)
        while case let got = Glibc.read(descriptor, &buffer, buffer.count), got > 0 { read.append(contentsOf: buffer[0..<got]) }
        #expect(read == big)
        #expect(try again.record(copy) == .movedToTop(id))
    }

    @Test("an encrypted history does not open without its key, nor with another")
    func refusesWrongKeys() throws {
        let history = try TemporaryHistory(key: Self.key)
        _ = try history.store.record(textCopy("hello"))
        #expect { try HistoryStore(directory: history.store.directory) } throws: {
            "\($0)".contains("is encrypted: give its key")
        }
        #expect { try HistoryStore(directory: history.store.directory, key: Self.otherKey) } throws: {
            "\($0)".contains("does not open the history")
        }
        #expect(throws: HistoryError.self) { try HistoryKey(secret: Array("short\n".utf8)) }
    }

    @Test("a changed, cut or extended blob is an error, never other bytes")
    func detectsTampering() throws {
        let history = try TemporaryHistory(key: Self.key)
        let payload = Data((0..<(3 * HistoryCipher.segmentBytes + 100)).map { UInt8(truncatingIfNeeded: $0) })
        guard case .added(let id) = try history.store.record(copy("application/x-data", payload)) else {
            Issue.record("not added"); return
        }
        let flavour = try #require(try history.store.flavours(of: id).first)
        let file = try #require(history.blobFiles.first)
        let original = try #require(FileManager.default.contents(atPath: file))
        let segment = HistoryCipher.segmentBytes + HistoryCipher.tagBytes
        let header = HistoryCipher.streamHeaderBytes
        let changes: [(String, Data)] = [
            ("a flipped bit", { var d = original; d[header + 10] ^= 1; return d }()),
            ("cut at a segment boundary", original.prefix(header + 2 * segment)),
            ("its last segment cut", original.dropLast(5)),
            ("extended", original + Data(repeating: 0, count: segment)),
            ("two segments swapped", original.prefix(header) + original[(header + segment)..<(header + 2 * segment)]
                + original[header..<(header + segment)] + original[(header + 2 * segment)...]),
        ]
        for (what, changed) in changes {
            #expect(FileManager.default.createFile(atPath: file, contents: changed))
            #expect(throws: HistoryError.self, "\(what)") { try history.store.bytes(of: flavour) }
        }
        #expect(FileManager.default.createFile(atPath: file, contents: original))
        #expect(try history.store.bytes(of: flavour) == payload)
    }

    @Test("a plain history given a key is sealed in place: no plain byte left, every entry still there")
    func sealsAPlainHistory() throws {
        let history = try TemporaryHistory()
        let big = Data((Self.marker("oldblob") + String(repeating: "x", count: 100_000)).utf8)
        guard case .added(let textID) = try history.store.record(textCopy("old \(Self.marker("oldtext")) words"),
                                                                 at: Date(timeIntervalSince1970: 1)),
            case .added(let blobID) = try history.store.record(copy("text/x-log", big), at: Date(timeIntervalSince1970: 2))
        else { Issue.record("not added"); return }
        #expect(history.holds(Self.marker("oldtext")))

        let sealed = try HistoryStore(directory: history.store.directory, key: Self.key)
        #expect(try sealed.entries().map(\.id) == [blobID, textID])
        #expect(try sealed.entry(textID)?.summary == "old \(Self.marker("oldtext")) words")
        #expect(try sealed.bytes(of: try #require(try sealed.flavours(of: blobID).first)) == big)
        #expect(try sealed.search("oldtext words").map(\.id) == [textID])
        #expect(try sealed.search("zqoldtext").map(\.id) == [textID])
        #expect(try sealed.verify() == [])
        #expect(!history.holds(Self.marker("oldtext")))
        #expect(!history.holds(Self.marker("oldblob")))
        // The same copy again is the same entry.
        #expect(try sealed.record(copy("text/x-log", big)) == .movedToTop(blobID))
        #expect(try HistoryStore(directory: history.store.directory, key: Self.key).entries().count == 2)
    }

    @Test("search in an encrypted history finds what the full-text index finds (accents aside)")
    func searchMatchesTheIndex() throws {
        let plain = try TemporaryHistory()
        let encrypted = try TemporaryHistory(key: Self.key)
        var generator = SplitMix(seed: 42)
        let words = ["clip", "clipboard", "board", "Invoice", "INV-2024", "naïve", "über", "東京", "foo_bar", "x86",
                     "self-test", "e-mail", "mail", "O'Brien", "3.14", "λόγος", "co-op", "coop", "a", "zz"]
        for index in 0..<300 {
            let count = Int(generator.next() % 8) + 1
            let text = (0..<count).map { _ in words[Int(generator.next() % UInt64(words.count))] }
                .joined(separator: [" ", ", ", "\n", "\t", "/", " -- "][Int(generator.next() % 6)])
            let time = Date(timeIntervalSince1970: Double(index))
            _ = try plain.store.record(textCopy(text + " #\(index)"), at: time)
            _ = try encrypted.store.record(textCopy(text + " #\(index)"), at: time)
        }
        let queries = ["clip", "board", "clipboard mail", "inv", "INV-2024", "2024", "naïve", "über", "東京", "foo",
                       "foo_bar", "bar", "x8", "self-test", "test self", "e-mail", "o'brien", "brien", "3.14", "14",
                       "λόγ", "co-op", "coop", "\"", "-", "zz a", "mail e", "#12", "nothing"]
        for query in queries {
            let expected = try plain.store.search(query).map(\.summary)
            #expect(try encrypted.store.search(query).map(\.summary) == expected, "query \(query)")
        }
    }
}
