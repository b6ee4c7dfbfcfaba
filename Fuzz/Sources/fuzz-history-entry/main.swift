// fuzz-history-entry: what the clipboard history reads of other clients' bytes and of what a person types, in
// Sources/ClipHistory and SelectionCore:
// - EntrySummary (Entries/EntrySummary.swift): a copy's one-line summary and search text from its flavours'
//   names and first bytes — file lists (file: URIs, percent-decoding), image headers, text decoded as paste does;
// - ImageHeader (Entries/ImageHeader.swift): PNG, GIF, JPEG (segment walk), BMP and WebP sizes from a header;
// - WindowClass(property:) (SelectionCore/Values/WindowClass.swift): a WM_CLASS property of any client;
// - SearchQuery.expression (Store/SearchQuery.swift): `history search` words as an FTS5 query, run against a
//   real FTS5 table in memory — no input may be a query syntax error;
// - SearchQuery.Matcher (the same file): an encrypted history's search in memory, which must find the rows FTS5
//   finds for every ASCII query (accents, which FTS5 folds and the matcher does not, aside).
//
// Input: byte 0 sets how many flavours (1–4) the rest is split into at NUL bytes, each flavour's target picked by
// its first byte from `targets`; the whole input is also the header, the WM_CLASS value and the search text.
// Checked: no trap; the line is one line (no line break) and bounded; image sizes are non-negative; a WM_CLASS
// read names something; every search expression runs.

import CFuzzerDriver
import FoundationEssentials
import FuzzSupport
@testable import ClipHistory
@testable import SelectionCore

private let targets: [SelectionTarget] = [
    "UTF8_STRING", "text/uri-list", "image/png", "image/jpeg", "image/gif", "image/bmp", "image/webp", "STRING",
    "text/plain;charset=utf-8", "text/html", "TEXT", "text/plain;charset=utf-16", "com.example.todo",
    "x-special/gnome-copied-files",
]

/// One in-memory FTS5 table for every input (opening one per input would dominate the run); libFuzzer runs inputs
/// on one thread.
nonisolated(unsafe) private let searchIndex: SQLiteDatabase = {
    let database = try! SQLiteDatabase(path: ":memory:")
    try! database.execute(
        "CREATE VIRTUAL TABLE t USING fts5 (body, tokenize = 'unicode61 remove_diacritics 2');"
            + "INSERT INTO t (body) VALUES " + searchRows.map { "('\($0.replacing("'", with: "''"))')" }
                .joined(separator: ", "))
    return database
}()

private let searchRows = [
    "café crème brûlée", "https://github.com/apple/swift", "x \"y\" z", "INV-2024/03 invoice_total 3.14 e-mail",
    "O'Brien's co-op: a b c abc", "self-test\tfoo--bar x86_64 #12",
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    guard let first = bytes.first else { return 0 }
    let pieces = bytes.dropFirst().split(separator: 0, maxSplits: Int(first % 4), omittingEmptySubsequences: false)
    let flavours = pieces.map { piece -> EntrySummary.Flavour in
        let target = targets[Int(piece.first ?? 0) % targets.count]
        let data = Data(piece.dropFirst())
        return EntrySummary.Flavour(target: target, type: target, byteCount: data.count, prefix: data)
    }
    let summary = EntrySummary(flavours)
    fuzzCheck(!summary.line.isEmpty, "an empty line")
    fuzzCheck(!summary.line.contains(where: \.isNewline), "a line break in the line: \(summary.line.debugDescription)")
    fuzzCheck(summary.line.count <= EntrySummary.maximumCharacters + 64, "a line of \(summary.line.count) characters")

    if let header = ImageHeader(bytes) {
        fuzzCheck(header.width >= 0 && header.height >= 0, "a negative size \(header)")
    }
    if let windowClass = WindowClass(property: Data(bytes)) {
        fuzzCheck(!windowClass.instance.isEmpty || !windowClass.className.isEmpty, "a class naming nothing")
        _ = windowClass.matches("keepassxc")
    }
    if let expression = SearchQuery.expression(String(decoding: bytes, as: UTF8.self)) {
        var found = Set<Int64>()
        do {
            try searchIndex.forEachRow("SELECT rowid FROM t WHERE t MATCH ?", [.text(expression)]) { found.insert($0.integer(0)) }
        } catch {
            fuzzCheck(false, "the query \(expression.debugDescription) failed: \(error)")
        }
        if bytes.allSatisfy({ $0 < 0x80 }), let matcher = SearchQuery.Matcher(String(decoding: bytes, as: UTF8.self)) {
            for (index, row) in searchRows.enumerated() where row.utf8.allSatisfy({ $0 < 0x80 }) {
                fuzzCheck(matcher.matches(row) == found.contains(Int64(index + 1)),
                          "the matcher and FTS5 disagree on \(String(decoding: bytes, as: UTF8.self).debugDescription) in \(row.debugDescription)")
            }
        }
    }
    return 0
}

// libFuzzer's main, under the name SwiftPM links as `main` (see CFuzzerDriver.h).
@_cdecl("fuzz_history_entry_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    clipbridge_fuzzer_main(argc, argv)
}
