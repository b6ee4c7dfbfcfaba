import FoundationEssentials
import Glibc
import Synchronization

/// One flavour's bytes as a snapshot reads them, on any backend: in memory up to a threshold, then in a private file
/// (`PrivateFiles`, mode 0600), and refused once they pass the flavour's limit — so an owner announcing or sending
/// any size costs at most the limit, in linear time.
///
/// A flavour whose bytes equal one read before it (a twin) is not stored again: the bytes are compared as they
/// come, and the content kept is the twin's. Owners offer the same text under several names — wl-copy under five
/// (`text/plain;charset=utf-8`, `text/plain`, `TEXT`, `STRING`, `UTF8_STRING`), Qt and GTK 4 under two — and a 50 MiB
/// copy would otherwise be spooled five times. At the first difference the bytes matched so far are copied from the
/// twin and the flavour goes on as its own.
package final class FlavourSpool: Sendable {
    /// The bytes passed the limit.
    package struct TooLarge: Error, CustomStringConvertible {
        package var limit: Int
        package var description: String { "over the size limit of \(limit) bytes" }
    }

    /// The spool file could not be made or written (the disk full, the folder gone).
    package struct StorageFailure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Content read before, which this flavour may turn out to repeat.
    package struct Twin: Sendable {
        package var content: SelectionSnapshot.Content
        package var byteCount: Int

        package init(content: SelectionSnapshot.Content, byteCount: Int) {
            self.content = content
            self.byteCount = byteCount
        }
    }

    private struct State {
        var memory = Data()
        var descriptor: Int32 = -1
        var path: String?
        var count = 0
        /// The twin the bytes taken so far equal (all `count` of them, none stored); nil once they differ (or none).
        var twin: Int?
        var undecided = true
    }

    private let limit: Int
    private let inMemoryLimit: Int
    private let directory: String
    private let twins: [Twin]
    private let state = Mutex(State())

    /// - Parameter twins: content read before, in order; the first one the bytes equal is kept instead of them.
    package init(limit: Int, inMemoryLimit: Int, directory: URL?, twins: [Twin] = []) {
        self.limit = limit
        self.inMemoryLimit = inMemoryLimit
        self.directory = directory?.path ?? PrivateFiles.temporaryDirectory
        self.twins = twins
    }

    /// Takes the next chunk.
    /// - Throws: ``TooLarge`` past the limit; ``StorageFailure`` when the file cannot be written.
    package func append(_ chunk: Data) throws {
        try state.withLock { state in
            guard state.count + chunk.count <= limit else { throw TooLarge(limit: limit) }
            if state.undecided {
                state.undecided = false
                state.twin = twins.firstIndex { $0.byteCount >= chunk.count && Self.bytes(of: $0, at: 0, count: chunk.count) == chunk }
                if state.twin != nil {
                    state.count += chunk.count
                    return
                }
            } else if let twin = state.twin {
                let candidate = twins[twin]
                if state.count + chunk.count <= candidate.byteCount,
                    Self.bytes(of: candidate, at: state.count, count: chunk.count) == chunk
                {
                    state.count += chunk.count
                    return
                }
                try parted(from: candidate, &state)
            }
            state.count += chunk.count
            try store(chunk, &state)
        }
    }

    /// How many bytes it has taken.
    package var byteCount: Int { state.withLock { $0.count } }

    /// The bytes taken, for the snapshot: the twin's content when they equal it whole.
    package func finish() throws -> SelectionSnapshot.Content {
        try state.withLock { state in
            if let twin = state.twin {
                if state.count == twins[twin].byteCount { return twins[twin].content }
                try parted(from: twins[twin], &state)
            }
            guard state.descriptor >= 0, let path = state.path else { return .bytes(state.memory) }
            let closed = close(state.descriptor) == 0
            state.descriptor = -1
            guard closed else { throw Self.failure("cannot write the spool file \(path)") }
            return .file(URL(fileURLWithPath: path))
        }
    }

    /// Drops what was taken (its file included).
    package func discard() {
        state.withLock { state in
            if state.descriptor >= 0 { close(state.descriptor) }
            if let path = state.path { unlink(path) }
            state = State()
        }
    }

    /// Stores a chunk: in memory up to the threshold, then in the file.
    private func store(_ chunk: Data, _ state: inout State) throws {
        if state.descriptor < 0 && state.memory.count + chunk.count <= inMemoryLimit {
            state.memory.append(chunk)
            return
        }
        if state.descriptor < 0 {
            guard let (descriptor, path) = PrivateFiles.makeFile(in: directory, prefix: "clipbridge-flavour.") else {
                throw Self.failure("cannot create a spool file in \(directory)")
            }
            state.descriptor = descriptor
            state.path = path
            try Self.write(state.memory, to: descriptor)
            state.memory = Data()
        }
        try Self.write(chunk, to: state.descriptor)
    }

    /// The bytes differ from the twin's after `state.count` equal ones: those are stored as this flavour's own, a
    /// piece at a time.
    private func parted(from twin: Twin, _ state: inout State) throws {
        state.twin = nil
        var offset = 0
        while offset < state.count {
            let piece = min(1 << 20, state.count - offset)
            guard let bytes = Self.bytes(of: twin, at: offset, count: piece) else {
                throw Self.failure("cannot read back a spooled flavour")
            }
            try store(bytes, &state)
            offset += piece
        }
    }

    /// `count` bytes of a twin's content from `offset`; nil when they cannot be read.
    private static func bytes(of twin: Twin, at offset: Int, count: Int) -> Data? {
        switch twin.content {
        case .bytes(let data):
            guard offset + count <= data.count else { return nil }
            return data.subdata(in: data.startIndex + offset..<data.startIndex + offset + count)
        case .file, .opened:
            guard let path = twin.content.path else { return nil }
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var bytes = Data(count: count)
            var done = 0
            while done < count {
                let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset + done)) }
                if read < 0 && errno == EINTR { continue }
                guard read > 0 else { return nil }
                done += read
            }
            return bytes
        }
    }

    private static func write(_ data: Data, to descriptor: Int32) throws {
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw failure("cannot write a spool file") }
                offset += written
            }
        }
    }

    private static func failure(_ what: String) -> StorageFailure {
        StorageFailure(description: "\(what): \(String(cString: strerror(errno)))")
    }
}
