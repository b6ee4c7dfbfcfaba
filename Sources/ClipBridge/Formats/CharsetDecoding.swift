// ClipBridge — the bridge between Transferable values and X11 selections.
// Text in a named charset (`text/plain;charset=windows-1252`, GTK's locale charset target) to UTF-8.

import FoundationEssentials
import Glibc

/// Decodes text in any charset glibc's iconv knows (the same table GTK and Qt fall back on), so that a
/// `text/plain;charset=…` target pastes as text whatever legacy charset the owner's locale uses.
/// FoundationEssentials decodes only the Unicode encodings, ASCII and Latin-1 itself.
enum CharsetDecoding {
    /// Whether iconv can convert from `charset` to UTF-8.
    static func isSupported(_ charset: String) -> Bool {
        let converter = iconv_open("UTF-8", charset)
        guard converter != iconv_t(bitPattern: -1) else { return false }
        iconv_close(converter)
        return true
    }

    /// The text of `data` in `charset`, or nil when the charset is unknown or the bytes are not valid in it
    /// (never a lossy `?` substitution: the caller then keeps the raw bytes).
    static func decode(_ data: Data, charset: String) -> String? {
        let converter = iconv_open("UTF-8", charset)
        guard converter != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(converter) }
        if data.isEmpty { return "" }
        var output: [UInt8] = []
        output.reserveCapacity(data.count * 2)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = Array(data)
        let ok = input.withUnsafeMutableBufferPointer { inputBuffer -> Bool in
            var inPointer = UnsafeMutableRawPointer(inputBuffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            var inLeft = inputBuffer.count
            while inLeft > 0 {
                let produced = chunk.withUnsafeMutableBufferPointer { chunkBuffer -> Int? in
                    var outPointer: UnsafeMutablePointer<CChar>? =
                        UnsafeMutableRawPointer(chunkBuffer.baseAddress!).assumingMemoryBound(to: CChar.self)
                    var outLeft = chunkBuffer.count
                    var inOptional: UnsafeMutablePointer<CChar>? = inPointer
                    let result = iconv(converter, &inOptional, &inLeft, &outPointer, &outLeft)
                    inPointer = inOptional!
                    // E2BIG only means the output chunk is full: take it and go on.
                    if result == -1, errno != E2BIG { return nil }
                    return chunkBuffer.count - outLeft
                }
                guard let produced else { return false }
                output.append(contentsOf: chunk[0..<produced])
            }
            return true
        }
        guard ok else { return nil }
        return String(validating: output, as: UTF8.self)
    }
}
