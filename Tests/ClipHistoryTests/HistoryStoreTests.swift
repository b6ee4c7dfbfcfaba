// The history store against a real SQLite database and real files in a private directory.

@testable import ClipHistory
import FoundationEssentials
import Glibc
import Dispatch
import Synchronization
import Testing
import X11Selection

@Suite("History store")
struct HistoryStoreTests {
    @Test("a copy is recorded with every flavour, byte-exact, in the owner's order")
    func recordsEveryFlavour() throws {
        let history = try TemporaryHistory()
        let html = Data("<b>bold</b> text".utf8)
        let big = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let custom = Data([0, 1, 2, 255])
        let recorded = CapturedCopy(selection: .clipboard, ownerClass: "Gedit", flavours: [
            .init(target: "text/html", type: "text/html", format: 8, content: .bytes(html), byteCount: html.count),
            .init(target: "UTF8_STRING", type: "UTF8_STRING", format: 8, content: .bytes(Data("bold text".utf8)), byteCount: 9),
            .init(target: "application/x-blob", type: "application/x-blob", format: 8, content: .bytes(big), byteCount: big.count),
            .init(target: "com.example.todo", type: "INTEGER", format: 32, content: .bytes(custom), byteCount: 4),
        ])
        guard case .added(let id) = try history.store.record(recorded) else { Issue.record("not added"); return }
        let entry = try #require(try history.store.entry(id))
        #expect(entry.targets.map(\.rawValue) == ["text/html", "UTF8_STRING", "application/x-blob", "com.example.todo"])
        #expect(entry.ownerClass == "Gedit")
        #expect(entry.summary == "bold text")
        #expect(entry.byteCount == html.count + 9 + big.count + 4)
        let flavours = try history.store.flavours(of: id)
        #expect(flavours.map(\.format) == [8, 8, 8, 32])
        #expect(flavours[3].type == "INTEGER")
        #expect(try history.store.bytes(of: flavours[0]) == html)
        #expect(try history.store.bytes(of: flavours[2]) == big)
        #expect(try history.store.bytes(of: flavours[3]) == custom)
        // The large one is a blob file, the small ones inline.
        guard case .blob = flavours[2].storage, case .inline = flavours[0].storage else {
            Issue.record("storage: \(flavours.map(\.storage))"); return
        }
        #expect(history.blobFiles.count == 1)
    }

    @Test("a copy equal to an earlier one moves it to the top; identical bytes are stored once")
    func deduplicates() throws {
        let history = try TemporaryHistory()
        let image = Data(repeating: 7, count: 100_000)
        guard case .added(let first) = try history.store.record(copy("image/png", image), at: Date(timeIntervalSince1970: 1)),
            case .added(let second) = try history.store.record(textCopy("two"), at: Date(timeIntervalSince1970: 2))
        else { Issue.record("not added"); return }
        #expect(try history.store.entries().map(\.id) == [second, first])
        #expect(try history.store.record(copy("image/png", image), at: Date(timeIntervalSince1970: 3)) == .movedToTop(first))
        #expect(try history.store.entries().map(\.id) == [first, second])
        #expect(try history.store.totals().entries == 2)
        // The same bytes under another target are another entry, but one blob file.
        _ = try history.store.record(copy("image/x-other", image))
        #expect(history.blobFiles.count == 1)
        #expect(try history.store.totals().entries == 3)
    }

    @Test("beyond the entry limit the oldest unpinned entries go, and their blobs with them")
    func evictsOldestUnpinned() throws {
        var limits = HistoryLimits()
        limits.maximumEntries = 3
        let history = try TemporaryHistory(limits: limits)
        var ids: [Int64] = []
        for index in 0..<3 {
            guard case .added(let id) = try history.store.record(
                copy("application/octet-stream", Data(repeating: UInt8(index), count: 50_000)),
                at: Date(timeIntervalSince1970: Double(index)))
            else { Issue.record("not added"); return }
            ids.append(id)
        }
        try history.store.setPinned(ids[0], true)
        _ = try history.store.record(textCopy("fourth"), at: Date(timeIntervalSince1970: 10))
        // The oldest, pinned, stays; the oldest unpinned (ids[1]) went, with its blob.
        let left = try history.store.entries().map(\.id)
        #expect(left.count == 3)
        #expect(left.contains(ids[0]) && !left.contains(ids[1]) && left.contains(ids[2]))
        #expect(history.blobFiles.count == 2)
    }

    @Test("beyond the byte limit the oldest entries go")
    func evictsByBytes() throws {
        var limits = HistoryLimits()
        limits.maximumBytes = 250_000
        let history = try TemporaryHistory(limits: limits)
        for index in 0..<5 {
            _ = try history.store.record(
                copy("application/octet-stream", Data(repeating: UInt8(index), count: 100_000)),
                at: Date(timeIntervalSince1970: Double(index)))
        }
        let totals = try history.store.totals()
        #expect(totals.entries == 2)
        #expect(totals.bytes <= 250_000)
        #expect(history.blobFiles.count == 2)
    }

    @Test("a copy over the per-copy limit is skipped, nothing written")
    func skipsOversized() throws {
        var limits = HistoryLimits()
        limits.maximumEntryBytes = 1000
        let history = try TemporaryHistory(limits: limits)
        guard case .skipped = try history.store.record(copy("text/plain", Data(repeating: 65, count: 1001))) else {
            Issue.record("recorded"); return
        }
        #expect(try history.store.totals().entries == 0)
    }

    @Test("full-text search finds words and word prefixes, any punctuation in the query taken as text")
    func searches() throws {
        let history = try TemporaryHistory()
        guard case .added(let url) = try history.store.record(textCopy("see https://github.com/apple/swift-crypto today")),
            case .added(let note) = try history.store.record(textCopy("Grocery list: café, crème brûlée")),
            case .added(let code) = try history.store.record(textCopy("let x = \"quoted\" - y * z"))
        else { Issue.record("not added"); return }
        #expect(try history.store.search("github").map(\.id) == [url])
        #expect(try history.store.search("swift-cry").map(\.id) == [url])
        #expect(try history.store.search("cafe creme").map(\.id) == [note])
        #expect(try history.store.search("GROC").map(\.id) == [note])
        #expect(try history.store.search("\"quoted\" -").map(\.id) == [code])
        #expect(try history.store.search("nothing-like-this").isEmpty)
        #expect(try history.store.search("  ").count == 3)
        try history.store.delete([url])
        #expect(try history.store.search("github").isEmpty)
    }

    @Test("a deleted entry's text leaves no trace in the files (database, full-text index, write-ahead log)")
    func deletionScrubs() throws {
        let history = try TemporaryHistory()
        let secret = "hunter2-\(UInt64.random(in: 1...UInt64.max))-passphrase"
        for index in 0..<50 { _ = try history.store.record(textCopy("filler entry number \(index) clipboard words")) }
        guard case .added(let id) = try history.store.record(textCopy("my password is \(secret)")) else {
            Issue.record("not added"); return
        }
        for index in 50..<60 { _ = try history.store.record(textCopy("filler entry number \(index) more words")) }
        #expect(history.holds(secret))
        #expect(try history.store.delete([id]) == 1)
        #expect(!history.holds(secret))
        #expect(!history.holds("hunter2"))
        #expect(try history.store.search("filler").count == 60)
    }

    @Test("delete, clear and pin")
    func changes() throws {
        let history = try TemporaryHistory()
        var ids: [Int64] = []
        for word in ["one", "two", "three"] {
            if case .added(let id) = try history.store.record(textCopy(word)) { ids.append(id) }
        }
        #expect(try history.store.delete([ids[0], 999]) == 1)
        #expect(try history.store.setPinned(ids[1], true))
        #expect(!(try history.store.setPinned(999, true)))
        #expect(try history.store.clear(keepingPinned: true) == 1)
        #expect(try history.store.entries().map(\.id) == [ids[1]])
        #expect(try history.store.entries().first?.isPinned == true)
        #expect(try history.store.clear() == 1)
        #expect(try history.store.entries().isEmpty)
        #expect(try history.store.integrityCheck() == "ok")
    }

    @Test("pause and resume are seen by every process")
    func pauses() throws {
        let history = try TemporaryHistory()
        #expect(try history.store.pausedUntil() == nil)
        try history.store.pause()
        #expect(try history.store.pausedUntil() == .distantFuture)
        let other = try HistoryStore(directory: history.store.directory)
        #expect(try other.pausedUntil() == .distantFuture)
        try other.resume()
        #expect(try history.store.pausedUntil() == nil)
        try history.store.pause(until: Date(timeIntervalSinceNow: -1))
        #expect(try history.store.pausedUntil() == nil)
    }

    @Test("the directory is private and the files are the user's alone")
    func privateFiles() throws {
        let history = try TemporaryHistory()
        _ = try history.store.record(copy("application/octet-stream", Data(repeating: 1, count: 100_000)))
        var info = stat()
        #expect(stat(history.store.directory, &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(stat("\(history.store.directory)/\(HistoryStore.databaseName)", &info) == 0 && info.st_mode & 0o077 == 0)
        for file in history.blobFiles {
            #expect(stat(file, &info) == 0 && info.st_mode & 0o077 == 0)
        }
    }

    /// The database, its write-ahead log and the log's index are the user's alone, whatever the umask, and opening a
    /// history leaves the process's umask as it was (the daemon's other threads create files meanwhile).
    @Test("the database and its log are made 0600, without touching the process's umask")
    func databaseFilesArePrivate() throws {
        let before = umask(0o022)
        defer { umask(before) }
        let history = try TemporaryHistory()
        _ = try history.store.record(copy("UTF8_STRING", Data("private".utf8)))
        let database = "\(history.store.directory)/\(HistoryStore.databaseName)"
        for path in [database, database + "-wal", database + "-shm"] {
            var info = stat()
            #expect(stat(path, &info) == 0, "\(path) missing")
            #expect(info.st_mode & 0o777 == 0o600, "\(path): \(String(info.st_mode & 0o777, radix: 8))")
        }
        let now = umask(0o022)
        #expect(now == 0o022)
    }

    @Test("garbage left by a writer killed mid-copy is collected at the next start")
    func collectsOrphans() throws {
        let history = try TemporaryHistory()
        _ = try history.store.record(copy("application/octet-stream", Data(repeating: 1, count: 100_000)))
        let blobs = "\(history.store.directory)/blobs"
        // A blob whose row never committed, and the temporary file of a writer that died (no such pid).
        try PrivateDirectory.make("\(blobs)/ab")
        for path in ["\(blobs)/ab/ab\(String(repeating: "0", count: 62))", "\(blobs)/incoming.999999999.1"] {
            let descriptor = open(path, O_WRONLY | O_CREAT, 0o600)
            close(descriptor)
        }
        #expect(try history.store.collectGarbage() == 2)
        #expect(history.blobFiles.count == 1)
        #expect(try history.store.entries().count == 1)
    }

    @Test("connections opening a new history at once each find it made once (the schema is applied once)")
    func concurrentOpens() throws {
        let history = try TemporaryHistory()
        let fresh = "\(history.directory)/fresh"
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            do {
                let store = try HistoryStore(directory: fresh)
                _ = try store.record(textCopy("from one of eight"))
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        #expect(try HistoryStore(directory: fresh).entries().count == 1)
    }

    @Test("10,000 entries list and search in well under a second")
    func manyEntries() throws {
        let history = try TemporaryHistory()
        var limits = HistoryLimits()
        limits.maximumEntries = 20_000
        let store = try HistoryStore(directory: history.store.directory, limits: limits)
        for index in 0..<10_000 {
            _ = try store.record(textCopy("entry number \(index) word\(index % 97)"), at: Date(timeIntervalSince1970: Double(index)))
        }
        let start = ContinuousClock.now
        let all = try store.entries()
        let found = try store.search("word13")
        let elapsed = ContinuousClock.now - start
        #expect(all.count == 10_000)
        #expect(all.first?.summary == "entry number 9999 word8")
        #expect(found.count == 10_000 / 97 + (10_000 % 97 > 13 ? 1 : 0))
        #expect(elapsed < .seconds(2))
    }
}

@Suite("SHA-256 through libcrypto")
struct SHA256Tests {
    @Test("the FIPS 180-2 test vectors, whole and in pieces")
    func vectors() throws {
        #expect(HexDigest.string(try SHA256.hash(Data("abc".utf8)))
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(HexDigest.string(try SHA256.hash(Data()))
            == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let pieces = try SHA256()
        for piece in ["abcdbcdecdefdefgefghfghighij", "hijkijkljklmklmnlmnomnopnopq"] { pieces.update(Data(piece.utf8)) }
        #expect(HexDigest.string(pieces.finalize()) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}
