import FoundationEssentials
import Glibc
import SelectionCore

/// The history's large payloads: one file per distinct content, named by its SHA-256 (`blobs/ab/abcd…`), so
/// identical bytes are stored once — across the flavours of one copy and across copies. In an encrypted history
/// each file is the sealed stream of its content, named by the keyed hash ``HistoryCipher`` makes.
///
/// A blob is written to a temporary file, synced, then renamed into place and its directory synced: once
/// ``store(_:)`` returns, the file is complete on disk, before any row naming it commits. A crash before the
/// rename leaves only a temporary file, which ``collectGarbage(keeping:)`` removes at the next start.
struct BlobStore: Sendable {
    /// What a stored payload is known by.
    struct Stored: Sendable, Equatable {
        /// The SHA-256 of the bytes, lowercase hex: the file's name.
        var name: String
        /// The bytes' count.
        var byteCount: Int
    }

    /// The `blobs` directory.
    let directory: String
    /// The encrypted history's keys; nil for plain files.
    let cipher: HistoryCipher?

    /// The bytes read and written at a time.
    static let chunkBytes = 1 << 20

    init(directory: String, cipher: HistoryCipher?) throws {
        self.directory = directory
        self.cipher = cipher
        try PrivateDirectory.make(directory)
    }

    private init(unchecked directory: String) {
        self.directory = directory
        cipher = nil
    }

    /// The same directory read and written as plain files (for sealing a history's earlier plain blobs).
    var plain: BlobStore { BlobStore(unchecked: directory) }

    /// The size of blob `name`'s file when it holds `byteCount` bytes of content.
    func fileBytes(holding byteCount: Int) -> Int {
        cipher == nil ? byteCount : HistoryCipher.sealedStreamBytes(byteCount)
    }

    /// The file of blob `name`.
    func path(of name: String) -> String {
        "\(directory)/\(name.prefix(2))/\(name)"
    }

    /// Stores the bytes `read` produces (called until it returns an empty chunk), synced to disk.
    /// - Throws: ``HistoryError`` naming the file when it cannot be written (a full disk among them).
    func store(reading read: () throws -> Data) throws -> Stored {
        // The writer's pid in the name: `collectGarbage` removes only files of writers that died.
        guard let (descriptor, temporary) = PrivateFiles.makeFile(in: directory, prefix: "incoming.\(getpid()).") else {
            throw HistoryError.system("cannot create a file in \(directory)")
        }
        let hasher = try SHA256()
        var count = 0
        do {
            let sealer = try cipher?.streamSealer()
            if let sealer { try Self.write(Data(sealer.header), to: descriptor, path: temporary) }
            while true {
                let chunk = try read()
                if chunk.isEmpty { break }
                hasher.update(chunk)
                try Self.write(try sealer?.seal(chunk) ?? chunk, to: descriptor, path: temporary)
                count += chunk.count
            }
            if let sealer { try Self.write(try sealer.finish(), to: descriptor, path: temporary) }
            guard fsync(descriptor) == 0 else { throw HistoryError.system("cannot sync \(temporary)") }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        let digest = hasher.finalize()
        let name = try cipher?.name(forDigest: digest) ?? HexDigest.string(digest)
        let folder = "\(directory)/\(name.prefix(2))"
        do {
            try PrivateDirectory.make(folder)
            let final = path(of: name)
            if access(final, F_OK) == 0 {
                // The same bytes are stored already: one file serves both.
                unlink(temporary)
            } else {
                guard rename(temporary, final) == 0 else { throw HistoryError.system("cannot move a blob to \(final)") }
                try PrivateDirectory.sync(folder)
            }
        } catch {
            unlink(temporary)
            throw error
        }
        return Stored(name: name, byteCount: count)
    }

    /// Stores `data`.
    func store(_ data: Data) throws -> Stored {
        var pending: Data? = data
        return try store(reading: {
            defer { pending = nil }
            return pending ?? Data()
        })
    }

    /// Stores the content of the file at `path`, read in chunks.
    func store(contentsOf path: String) throws -> Stored {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw HistoryError.system("cannot open \(path)") }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: Self.chunkBytes)
        return try store(reading: {
            let got = buffer.withUnsafeMutableBytes { raw in
                var got: Int
                repeat { got = Glibc.read(descriptor, raw.baseAddress, raw.count) } while got < 0 && errno == EINTR
                return got
            }
            guard got >= 0 else { throw HistoryError.system("cannot read \(path)") }
            return Data(buffer[0..<got])
        })
    }

    /// The content of blob `name`.
    /// - Throws: ``HistoryError`` when it cannot be read, or (encrypted) does not open.
    func contents(of name: String) throws -> Data {
        var data = Data()
        try forEachChunk(of: name) { data.append($0) }
        return data
    }

    /// Writes the content of blob `name` to `descriptor`.
    func copy(_ name: String, to descriptor: Int32, path: String) throws {
        try forEachChunk(of: name) { try Self.write($0, to: descriptor, path: path) }
    }

    /// Calls `body` with the content of blob `name`, in order, a chunk at a time.
    private func forEachChunk(of name: String, _ body: (Data) throws -> Void) throws {
        let file = path(of: name)
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw HistoryError.system("cannot open \(file)") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw HistoryError.system("cannot read \(file)") }
        let size = Int(info.st_size)
        guard let cipher else {
            var offset = 0
            while offset < size {
                let chunk = try Self.read(descriptor, count: min(Self.chunkBytes, size - offset), path: file)
                try body(Data(chunk))
                offset += chunk.count
            }
            return
        }
        guard size >= HistoryCipher.streamHeaderBytes + HistoryCipher.tagBytes else {
            throw HistoryError("\(file) is too short for a sealed blob (\(size) bytes)")
        }
        let opener = try cipher.streamOpener(
            header: try Self.read(descriptor, count: HistoryCipher.streamHeaderBytes, path: file))
        var offset = HistoryCipher.streamHeaderBytes
        let segment = HistoryCipher.segmentBytes + HistoryCipher.tagBytes
        repeat {
            let count = min(segment, size - offset)
            let bytes = try Self.read(descriptor, count: count, path: file)
            offset += count
            try body(try opener.open(bytes[...], last: offset == size))
        } while offset < size
    }

    /// Exactly `count` bytes from `descriptor` (a file that ends sooner was cut short: an error).
    private static func read(_ descriptor: Int32, count: Int, path: String) throws -> [UInt8] {
        try [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
            filled = 0
            while filled < count {
                let got = Glibc.read(descriptor, buffer.baseAddress! + filled, count - filled)
                if got < 0 && errno == EINTR { continue }
                guard got >= 0 else { throw HistoryError.system("cannot read \(path)") }
                guard got > 0 else { throw HistoryError("\(path) ended early: it changed while read") }
                filled += got
            }
        }
    }

    /// Removes blob `name`'s file.
    func remove(_ name: String) {
        unlink(path(of: name))
    }

    /// Removes every file that is neither a blob `isReferenced` accepts nor in use: blobs no row names (a crash
    /// between a blob's rename and its row's commit) and temporary files of writers that died. Returns how many
    /// went.
    @discardableResult
    func collectGarbage(keeping isReferenced: (String) -> Bool) -> Int {
        var removed = 0
        for entry in PrivateDirectory.entries(directory) {
            let path = "\(directory)/\(entry)"
            if entry.hasPrefix("incoming.") {
                // Another writer's file is its own until it dies: only files of processes gone are removed.
                let pid = entry.split(separator: ".").dropFirst().first.flatMap { Int32($0) } ?? 0
                if pid != getpid() && (pid <= 0 || (kill(pid, 0) != 0 && errno == ESRCH)) {
                    if unlink(path) == 0 { removed += 1 }
                }
                continue
            }
            guard entry.count == 2 else { continue }
            for name in PrivateDirectory.entries(path) where !isReferenced(name) {
                if unlink("\(path)/\(name)") == 0 { removed += 1 }
            }
        }
        return removed
    }

    static func write(_ data: Data, to descriptor: Int32, path: String) throws {
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw HistoryError.system("cannot write \(path)") }
                offset += written
            }
        }
    }
}
