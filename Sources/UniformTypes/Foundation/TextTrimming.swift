// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypes

// FoundationEssentials has no `trimmingCharacters(in:)` (CharacterSet is part of full Foundation); the
// package's modules trim with these instead.
extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and line breaks (ASCII whitespace only, so
    /// the work is on UTF-8 bytes, not grapheme clusters).
    package func trimmingWhitespace() -> String {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let string = String(self)
        guard let first = string.utf8.firstIndex(where: { !isSpace($0) }),
            let last = string.utf8.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(string[first...last])
    }

    /// The text without the leading and trailing characters for which `isTrimmed` holds.
    package func trimming(where isTrimmed: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !isTrimmed($0) }), let last = lastIndex(where: { !isTrimmed($0) })
        else { return "" }
        return String(self[first...last])
    }
}
