import FoundationEssentials
import Glibc
import Synchronization

/// One flavour's bytes as a snapshot reads them, on any backend: in memory up to a threshold, then in a private file
/// (`PrivateFiles`, mode 0600), and refused once they pass the flavour's limit — so an owner announcing or sending
/// any size costs at most the limit, in linear time.
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

    private struct State {
        var memory = Data()
        var descriptor: Int32 = -1
        var path: String?
        var count = 0
    }

    private let limit: Int
    private let inMemoryLimit: Int
    private let directory: String
    private let state = Mutex(State())

    package init(limit: Int, inMemoryLimit: Int, directory: URL?) {
        self.limit = limit
        self.inMemoryLimit = inMemoryLimit
        self.directory = directory?.path ?? PrivateFiles.temporaryDirectory
    }

    /// Takes the next chunk.
    /// - Throws: ``TooLarge`` past the limit; ``StorageFailure`` when the file cannot be written.
    package func append(_ chunk: Data) throws {
        try state.withLock { state in
            state.count += chunk.count
            guard state.count <= limit else { throw TooLarge(limit: limit) }
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
    }

    /// How many bytes it has taken.
    package var byteCount: Int { state.withLock { $0.count } }

    /// The bytes taken, for the snapshot.
    package func finish() throws -> SelectionSnapshot.Content {
        try state.withLock { state in
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
