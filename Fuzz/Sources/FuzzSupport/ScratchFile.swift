// ClipBridge fuzzing — a scratch file for parsers whose entry point reads a file.

import FoundationEssentials
import Glibc

/// A file of this process's own, in `$TMPDIR` (scripts/fuzz.sh points it at a directory it removes) or
/// `/tmp`, rewritten for each input: the declaration and shared-mime-info readers take a URL, not bytes.
public struct ScratchFile: Sendable {
    public let url: URL

    public init(name: String) {
        let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let directory = "\(base)/clipbridge-fuzz-\(getpid())"
        mkdir(directory, 0o700)
        url = URL(fileURLWithPath: "\(directory)/\(name)")
    }

    /// Replaces the file's content with `bytes`; traps when it cannot (the fuzzer would test nothing).
    public func write(_ bytes: [UInt8]) {
        do {
            try Data(bytes).write(to: url)
        } catch {
            fatalError("cannot write the scratch file \(url.path): \(error)")
        }
    }
}
