/// Where an INCR chunk of UTF-8 text may end: never inside a character.
///
/// ICCCM §2.7.2 lets chunks be cut anywhere, and a reader that joins the chunks before decoding (GTK, Qt, xclip)
/// does not care. Tk 8.6 decodes each chunk on its own (`SelRcvIncrProc` in unix/tkUnixSelect.c turns every piece
/// into a Tcl string as it arrives): a character split between two chunks came out as two replacement characters,
/// 262,147 bytes into a 1 MB paste. Ending each chunk on a character boundary costs at most three bytes a chunk.
enum UTF8ChunkBoundary {
    /// Whether the chunks of `target` (written with `format`) hold UTF-8 text: `UTF8_STRING`, and `text/…` types
    /// whose charset is UTF-8 or not named (text/html, text/uri-list, GTK's and Qt's text/plain;charset=utf-8).
    /// Not STRING or COMPOUND_TEXT (one byte per character, or ISO 2022 escapes), nor a named other charset
    /// (UTF-16's units are two bytes: a chunk shortened by one would split those instead).
    static func applies(to target: SelectionTarget, format: Int) -> Bool {
        guard format == 8 else { return false }
        if target == .utf8String { return true }
        let name = target.rawValue.lowercased()
        guard name.hasPrefix("text/") else { return false }
        guard let charset = name.firstRange(of: "charset=") else { return true }
        let value = name[charset.upperBound...].prefix { $0 != ";" }.filter { $0 != "\"" && $0 != " " }
        return value == "utf-8" || value == "utf8"
    }

    /// How many bytes at the end of `chunk` start a character that the chunk does not finish (0 to 3): the chunk
    /// ends on a boundary once they are held back for the next one. Invalid UTF-8 is left as it is (0).
    static func incompleteTail(of chunk: some BidirectionalCollection<UInt8>) -> Int {
        var index = chunk.endIndex
        var trailing = 0
        while index != chunk.startIndex && trailing < 4 {
            index = chunk.index(before: index)
            trailing += 1
            let byte = chunk[index]
            if byte & 0xC0 == 0x80 { continue }  // a continuation byte: the lead is further back
            let length = byte < 0x80 ? 1 : byte & 0xE0 == 0xC0 ? 2 : byte & 0xF0 == 0xE0 ? 3 : byte & 0xF8 == 0xF0 ? 4 : 0
            return length > trailing ? trailing : 0
        }
        return 0
    }
}
