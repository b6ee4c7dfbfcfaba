// ClipBridge — the clipbridge command-line tool.
// The process's file-creation mask, read without changing it.

import Glibc

/// The process's umask, as Linux reports it in `/proc/self/status` (its `Umask:` line, since Linux 4.7). The only
/// other way to learn it, `umask(0)` then setting it back, changes it for every thread meanwhile: a file another
/// thread creates in that moment would be made world-writable.
enum FileCreationMask {
    /// The mask; 022 when it cannot be read (the usual one).
    static var current: mode_t {
        guard let file = fopen("/proc/self/status", "re") else { return 0o022 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix("Umask:") else { continue }
            let digits = text.dropFirst("Umask:".count).trimmingCharacters(in: " \t\n")
            return mode_t(digits, radix: 8) ?? 0o022
        }
        return 0o022
    }
}

private extension Substring {
    func trimmingCharacters(in characters: String) -> Substring {
        var text = self
        while let first = text.first, characters.contains(first) { text.removeFirst() }
        while let last = text.last, characters.contains(last) { text.removeLast() }
        return text
    }
}
