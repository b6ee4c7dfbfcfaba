// ClipBridge test support: an anonymous temporary file a child writes into (or reads from).

import Foundation
import Glibc

/// An anonymous temporary file (created, then unlinked at once) that a child's stdout or stderr goes to,
/// or that holds the bytes fed to its stdin.
///
/// Why a file and not a pipe: nothing has to drain it while the child runs, so a peer that writes 64 MiB
/// never blocks on a full pipe, and waiting for a command only means waiting for its exit — not for EOF,
/// which never comes when the command forks a server that inherits stdout (`xclip -i` does).
final class CaptureFile: Sendable {
    /// The open descriptor (close-on-exec; children get a `dup2` of it).
    let descriptor: Int32

    /// Creates an empty anonymous file in the temporary directory.
    init() throws(CommandError) {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        // mkstemp + unlink rather than O_TMPFILE or mkostemp, which the Glibc module does not export (no
        // _GNU_SOURCE). Close-on-exec is set right away: children get dup2'd copies, never this descriptor.
        var template = Array("\(directory)/clipbridge-test-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        if fd >= 0 { unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }) }
        guard fd >= 0 else {
            throw CommandError(
                kind: .spawnFailed, arguments: [],
                detail: "cannot create a temporary file in \(directory): \(String(cString: strerror(errno)))"
            )
        }
        descriptor = fd
    }

    /// Creates a file holding `data`, positioned at its start (for stdin).
    convenience init(contents data: Data) throws(CommandError) {
        try self.init()
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return false }
                offset += count
            }
            return true
        }
        guard written, lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw CommandError(kind: .spawnFailed, arguments: [], detail: "cannot write stdin data to a temporary file")
        }
    }

    /// Everything written so far (reads with `pread`, so the child's file offset is untouched).
    func contents() -> Data {
        var result = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            result.append(contentsOf: buffer[0..<count])
            offset += off_t(count)
        }
        return result
    }

    deinit { close(descriptor) }
}
