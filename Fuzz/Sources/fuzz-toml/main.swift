// fuzz-toml: TOMLReader.read (Sources/clipbridge/Config/TOMLReader.swift, with ConfigScanning.swift and
// ConfigValue.swift), the reader of `clipbridge daemon`'s configuration file.
//
// The reader lives in the `clipbridge` executable target, which another package cannot import: its three
// source files are symbolic links in this directory, compiled into this fuzzer.
//
// Input: the file's bytes; like DaemonConfigFile.read, only valid UTF-8 reaches the reader (DaemonConfigFile
// refuses anything else before parsing).
// Checked: no trap, no other error than ConfigError (typed throws), every value's line within the file.

import CFuzzerDriver
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    guard let text = String(validating: bytes, as: UTF8.self) else { return 0 }
    let lines = bytes.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    do {
        let table = try TOMLReader.read(text, path: "fuzz.toml")
        checkLines(table, lines: lines)
    } catch {
        fuzzCheck(error.line >= 0 && error.line <= lines, "error line \(error.line) of \(lines): \(error)")
        _ = error.description
    }
    return 0
}

private let nestingBound = 8 * maximumConfigDepth

/// Checks a table at `depth` (the number of tables and arrays around it; the document is at 0).
private func checkLines(_ table: ConfigTable, lines: Int, depth: Int = 0) {
    // The reader bounds nesting so that a hostile file cannot exhaust the stack of its recursive functions (or
    // of the recursive deallocation of the result): arrays and tables nest at most maximumConfigDepth deep,
    // and key paths (TOML's dotted keys and headers, whose arrays of tables add a level each) are bounded
    // alike; a small multiple of maximumConfigDepth is the most any file may reach.
    fuzzCheck(depth <= nestingBound, "nested \(depth) deep")
    for entry in table.entries {
        check(entry.value, lines: lines, depth: depth + 1)
    }
    fuzzCheck(Set(table.entries.map(\.key)).count == table.entries.count, "a key twice in \(table.entries.map(\.key))")
}

private func check(_ value: ConfigValue, lines: Int, depth: Int) {
    fuzzCheck(value.line >= 1 && value.line <= lines, "value line \(value.line) of \(lines)")
    _ = value.kindName
    switch value.kind {
    case .array(let elements):
        fuzzCheck(depth <= nestingBound, "nested \(depth) deep")
        for element in elements { check(element, lines: lines, depth: depth + 1) }
    case .table(let inner):
        checkLines(inner, lines: lines, depth: depth)
    case .string, .integer, .float, .boolean:
        break
    }
}

// libFuzzer's main, under the name SwiftPM links as `main` (see CFuzzerDriver.h).
@_cdecl("fuzz_toml_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    clipbridge_fuzzer_main(argc, argv)
}
