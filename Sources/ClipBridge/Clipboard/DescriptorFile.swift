// ClipBridge — the bridge between Transferable values and X11 selections.
// Reading and writing files through plain descriptors.

import FoundationEssentials
import Glibc

/// A file descriptor with the few operations the bridge needs: whole writes that retry short writes and
/// EINTR, reads of a bounded size, and close. It stands in for `FileHandle`, which lives in full Foundation
/// (the library builds on FoundationEssentials to keep every process that links it quick to start).
struct DescriptorFile: Sendable {
    /// The descriptor.
    let descriptor: Int32
    /// The path, for error messages.
    let path: String

    init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// Opens `path` read-only (close-on-exec).
    init(openingForReading path: String) throws {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ClipboardError(.invalidItem, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        self.init(descriptor: descriptor, path: path)
    }

    /// Writes all of `data`.
    func write(contentsOf data: Data) throws {
        try data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { throw failure("write to") }
                offset += count
            }
        }
    }

    /// Up to `count` bytes; nil at the end of the file.
    func read(upToCount count: Int) throws -> Data? {
        var data = Data(count: count)
        let got = try data.withUnsafeMutableBytes { buffer -> Int in
            while true {
                let result = Glibc.read(descriptor, buffer.baseAddress!, count)
                if result < 0, errno == EINTR { continue }
                guard result >= 0 else { throw failure("read") }
                return result
            }
        }
        guard got > 0 else { return nil }
        data.count = got
        return data
    }

    /// Closes the descriptor.
    func close() throws {
        guard Glibc.close(descriptor) == 0 else { throw failure("close") }
    }

    private func failure(_ verb: String) -> ClipboardError {
        ClipboardError(.writeFailed, "cannot \(verb) \(path): \(String(cString: strerror(errno)))")
    }
}
