// The checks fuzz-toml and fuzz-json-config make of what a configuration reader returned. Like the readers, this
// file is compiled into each of the two fuzzers (symbolic links in their directories): ConfigTable is each
// fuzzer's own type, so no shared module could hold the checks.

import FuzzSupport

/// Reads `bytes` with `read` (only valid UTF-8 reaches a reader, as in DaemonConfigFile) and checks the result:
/// every value's line within the file, each key once per table, nesting bounded; an error names a line of the
/// file. `finiteFloats`: no float may be infinite or NaN (JSON has neither).
func checkConfigReader(
    _ bytes: [UInt8], finiteFloats: Bool, _ read: (String) throws(ConfigError) -> ConfigTable
) {
    guard let text = String(validating: bytes, as: UTF8.self) else { return }
    let lines = bytes.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    do {
        let table = try read(text)
        checkLines(table, lines: lines, finiteFloats: finiteFloats)
    } catch {
        fuzzCheck(error.line >= 0 && error.line <= lines, "error line \(error.line) of \(lines): \(error)")
        _ = error.description
    }
}

private let nestingBound = 8 * maximumConfigDepth

/// Checks a table at `depth` (the number of tables and arrays around it; the document is at 0).
private func checkLines(_ table: ConfigTable, lines: Int, finiteFloats: Bool, depth: Int = 0) {
    // The reader bounds nesting so that a hostile file cannot exhaust the stack of its recursive functions (or
    // of the recursive deallocation of the result): arrays and tables nest at most maximumConfigDepth deep,
    // and key paths (TOML's dotted keys and headers, whose arrays of tables add a level each) are bounded
    // alike; a small multiple of maximumConfigDepth is the most any file may reach.
    fuzzCheck(depth <= nestingBound, "nested \(depth) deep")
    for entry in table.entries {
        check(entry.value, lines: lines, finiteFloats: finiteFloats, depth: depth + 1)
    }
    fuzzCheck(Set(table.entries.map(\.key)).count == table.entries.count, "a key twice in \(table.entries.map(\.key))")
}

private func check(_ value: ConfigValue, lines: Int, finiteFloats: Bool, depth: Int) {
    fuzzCheck(value.line >= 1 && value.line <= lines, "value line \(value.line) of \(lines)")
    _ = value.kindName
    switch value.kind {
    case .array(let elements):
        fuzzCheck(depth <= nestingBound, "nested \(depth) deep")
        for element in elements { check(element, lines: lines, finiteFloats: finiteFloats, depth: depth + 1) }
    case .table(let inner):
        checkLines(inner, lines: lines, finiteFloats: finiteFloats, depth: depth)
    case .float(let number):
        fuzzCheck(!finiteFloats || number.isFinite, "a number read as \(number)")
    case .string, .integer, .boolean:
        break
    }
}
