// SPDX-License-Identifier: Apache-2.0
// ClipBridge — trailing whitespace in copied text

/// Removes the whitespace terminals and editors leave at the end of copied lines: what the daemon's
/// `trim-whitespace` rule does. Spaces and tabs at the end of every line go, and so do the blank lines and
/// the newline at the end of the text; line breaks inside the text stay as written (LF or CRLF), and so does
/// leading indentation. Linear in the length of the text.
enum TrailingWhitespace {
    /// The text trimmed; nil when there was nothing to trim.
    static func trimmed(_ text: String) -> String? {
        // Unicode scalars, not Characters: "\r\n" is one Character, and lines split at "\n" scalars.
        var result = String.UnicodeScalarView()
        var pendingBlanks = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\n" || scalar == "\r" {
                pendingBlanks = String.UnicodeScalarView()
                result.append(scalar)
            } else if scalar.properties.isWhitespace {
                pendingBlanks.append(scalar)
            } else {
                result.append(contentsOf: pendingBlanks)
                pendingBlanks = String.UnicodeScalarView()
                result.append(scalar)
            }
        }
        while let last = result.last, last.properties.isWhitespace { result.removeLast() }
        let trimmed = String(result)
        return trimmed.unicodeScalars.elementsEqual(text.unicodeScalars) ? nil : trimmed
    }
}
