// SPDX-License-Identifier: Apache-2.0
// ClipBridge — the private directory that receives pasted files

import FoundationEssentials
import Synchronization
import UniformTypes

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One private directory per process (mode 0700) in which pasted files are received, each in its own file of
/// mode 0600 created with `O_EXCL`, so no other user can read or swap a file while an importer reads it.
/// Files are removed as soon as their importer returns; the directory when the last clipboard shuts down.
enum ImportDirectory {
    private static let state = Mutex<URL?>(nil)

    /// The directory, created on first use under `parent` (or `$TMPDIR`, else `/tmp`). Call with the lock held.
    private static func directory(parent: URL?, current: inout URL?) throws -> URL {
        if let current, FileManager.default.fileExists(atPath: current.path) { return current }
        let base = parent ?? URL(fileURLWithPath: ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")
        let name = "clipbridge-\(getuid())-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let url = base.appendingPathComponent(name, isDirectory: true)
        guard mkdir(url.path, 0o700) == 0 else {
            throw ClipboardError(.importFailed, "cannot create the private directory \(url.path): errno \(errno)")
        }
        current = url
        return url
    }

    /// Creates an empty private file (mode 0600) for content of `contentType`, named after `suggestedName`
    /// once sanitised, and returns its URL and an open handle.
    static func makeFile(parent: URL?, suggestedName: String?, contentType: UTType) throws -> (URL, DescriptorFile) {
        let base = sanitisedFileName(suggestedName) ?? "Transfer"
        var name = base
        if FilenameExtensionRule.pathExtension(of: base) == nil, let ext = contentType.preferredFilenameExtension {
            name = base + "." + ext
        }
        // Finding the directory and creating the file are one step under the lock: a clipboard of this process
        // shutting down in between would otherwise remove the directory while it is still empty, and `open`
        // would fail with ENOENT (1 in 4 creations failed under a stress test before this; ImportDirectoryTests).
        return try state.withLock { current in
            let directory = try directory(parent: parent, current: &current)
            var failure: Int32 = 0
            for attempt in 0..<100 {
                let candidate = attempt == 0 ? name : "\(attempt)-\(name)"
                let url = directory.appendingPathComponent(candidate)
                let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
                if descriptor >= 0 {
                    return (url, DescriptorFile(descriptor: descriptor, path: url.path))
                }
                failure = errno
                guard failure == EEXIST else { break }
            }
            throw ClipboardError(
                .importFailed, "cannot create a private file for \(name) in \(directory.path): errno \(failure)")
        }
    }

    /// Removes the directory if it is empty (other clipboards of this process may still be receiving).
    static func removeIfEmpty() {
        state.withLock { current in
            guard let url = current else { return }
            if rmdir(url.path) == 0 { current = nil }
        }
    }

    /// A file name that is safe to create in the private directory: the last path component only, no NUL or
    /// control characters, not `.` or `..`, no leading dot (hidden files), at most 200 bytes. nil when
    /// nothing usable is left.
    static func sanitisedFileName(_ name: String?) -> String? {
        guard let name else { return nil }
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var cleaned = String(last.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F })
        while cleaned.hasPrefix(".") { cleaned.removeFirst() }
        cleaned = cleaned.trimming { $0 == " " || $0 == "\t" }
        while cleaned.utf8.count > 200 { cleaned.removeFirst() }
        guard !cleaned.isEmpty, cleaned != "..", cleaned != "." else { return nil }
        return cleaned
    }
}
