// ClipBridge — the clipbridge command-line tool.
// Payloads held as open file descriptors: stdin spooled to a private, already-unlinked temporary file
// (so a 512 MiB pipe never sits in memory, and nothing is left behind even after SIGKILL), and files
// given on the command line opened once (so deleting or renaming them after `copy` changes nothing).

import Glibc
import X11Selection

/// A payload: an open, readable, seekable descriptor and its size.
struct SpooledPayload: Sendable {
    /// The open descriptor (close-on-exec; handed to the detached server explicitly).
    var descriptor: Int32
    /// The payload's size in bytes.
    var size: Int
    /// The first bytes (up to `Spool.sniffLength`), for content detection.
    var prefix: [UInt8]

    /// A path that reopens this payload with its own file offset, even after the file was unlinked:
    /// Linux's /proc/self/fd links (proc(5)). Each concurrent requestor gets an independent reader.
    var reopenablePath: String { "/proc/self/fd/\(descriptor)" }

    /// Reads the whole payload into memory (used only for small payloads, or where a text conversion
    /// needs the string).
    func readAll() throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: size)
        var offset = 0
        while offset < size {
            let count = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + offset, size - offset, off_t(offset))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw Spool.failure("cannot read the payload back") }
            offset += count
        }
        return bytes
    }
}

/// Creates spooled payloads.
enum Spool {
    /// How many leading bytes detection looks at.
    static let sniffLength = 64 * 1024

    /// Copies everything readable from `source` (stdin) into a fresh private temporary file.
    ///
    /// The file is created with mode 0600 by `mkstemp` in `$TMPDIR` (or /tmp) and unlinked at once;
    /// only the descriptor keeps it alive.
    static func spool(from source: Int32, name: String = "standard input") throws -> SpooledPayload {
        let descriptor = try makeAnonymousFile()
        // Uninitialised: zero-filling 1 MiB (and faulting in its 256 pages) would cost more than the whole
        // copy of a short text; read(2) touches only the pages it fills.
        var buffer = [UInt8](unsafeUninitializedCapacity: 1 << 20) { _, count in count = 1 << 20 }
        var size = 0
        var prefix: [UInt8] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { close(descriptor); throw failure("cannot read \(name)") }
            if count == 0 { break }
            if prefix.count < sniffLength { prefix += buffer[0..<min(count, sniffLength - prefix.count)] }
            var written = 0
            while written < count {
                let wrote = buffer.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, count - written) }
                if wrote < 0 && errno == EINTR { continue }
                if wrote <= 0 { close(descriptor); throw failure("cannot write the temporary copy of standard input") }
                written += wrote
            }
            size += count
        }
        return SpooledPayload(descriptor: descriptor, size: size, prefix: prefix)
    }

    /// Wraps bytes (command-line text, a history entry's small flavour) as a payload, through the same kind of
    /// anonymous file so the detached server receives every payload the same way; `inMemory` (a history's
    /// content) in a file in memory, never on a disk.
    static func spool(bytes: [UInt8], inMemory: Bool = false) throws -> SpooledPayload {
        let descriptor = try inMemory ? makeMemoryFile() : makeAnonymousFile()
        var written = 0
        while written < bytes.count {
            let wrote = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            if wrote < 0 && errno == EINTR { continue }
            if wrote <= 0 { close(descriptor); throw failure("cannot write a temporary file") }
            written += wrote
        }
        return SpooledPayload(descriptor: descriptor, size: bytes.count, prefix: Array(bytes.prefix(sniffLength)))
    }

    /// Opens a regular file given on the command line.
    static func open(path: String) throws -> SpooledPayload {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("cannot open \(path)") }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            // Pipes and devices (`--file /dev/stdin`, process substitution) are spooled like stdin.
            let again = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            guard again >= 0 else { throw failure("cannot open \(path)") }
            defer { close(again) }
            return try spool(from: again, name: path)
        }
        var payload = SpooledPayload(descriptor: descriptor, size: Int(info.st_size), prefix: [])
        let want = min(sniffLength, payload.size)
        var prefix = [UInt8](repeating: 0, count: want)
        let count = prefix.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, want, 0) }
        guard count >= 0 else { close(descriptor); throw failure("cannot read \(path)") }
        payload.prefix = Array(prefix[0..<count])
        return payload
    }

    /// Adopts a descriptor handed over by the `copy` that spawned us.
    static func adopt(descriptor: Int32) throws -> SpooledPayload {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure("payload descriptor \(descriptor) is not open") }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return SpooledPayload(descriptor: descriptor, size: Int(info.st_size), prefix: [])
    }

    private static func makeAnonymousFile() throws -> Int32 {
        let directory = PrivateFiles.temporaryDirectory
        guard let (descriptor, path) = PrivateFiles.makeFile(in: directory, prefix: "clipbridge.") else {
            throw failure("cannot create a temporary file in \(directory)")
        }
        unlink(path)
        return descriptor
    }

    private static func makeMemoryFile() throws -> Int32 {
        guard let (descriptor, _) = PrivateFiles.makeMemoryFile(prefix: "clipbridge.") else {
            throw failure("cannot create a file in memory")
        }
        return descriptor
    }

    /// A second descriptor of a file held open, for a payload (the payload's owner closes it).
    static func payload(of file: OpenedFile, size: Int) throws -> SpooledPayload {
        let descriptor = fcntl(file.descriptor, F_DUPFD_CLOEXEC, 0)
        guard descriptor >= 0 else { throw failure("cannot duplicate a payload descriptor") }
        return SpooledPayload(descriptor: descriptor, size: size, prefix: [])
    }

    static func failure(_ what: String) -> CLIFailure {
        CLIFailure(status: .ioError, message: "\(what): \(String(cString: strerror(errno)))")
    }
}
