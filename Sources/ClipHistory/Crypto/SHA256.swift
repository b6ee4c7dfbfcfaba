import FoundationEssentials
import Glibc

/// SHA-256 of the history's payloads (blob names, fingerprints), computed by OpenSSL's libcrypto (Debian's
/// libssl3, on every system that has TLS) loaded when a history first hashes — as ``SQLiteLibrary`` loads SQLite.
///
/// Why not swift-crypto: linked statically into the one `clipbridge` binary, BoringSSL and its Swift layer added
/// 8,200 relocations and 5,200 exported symbols that every process pays for at start-up, hashing or not — a 16-byte
/// paste took 1.17× as long (`farm-bench --vs` on `--version`, 40 runs), though a paste never hashes.
final class SHA256 {
    /// A digest's bytes.
    static let byteCount = 32

    private let context: OpaquePointer
    private let library: LibCrypto

    /// A new hash.
    /// - Throws: ``HistoryError`` when libcrypto cannot be loaded.
    init() throws {
        library = try LibCrypto.api()
        guard let context = library.newDigestContext(), library.digestInit(context, library.sha256(), nil) == 1 else {
            throw HistoryError("libcrypto could not start a SHA-256 hash")
        }
        self.context = context
    }

    /// Adds `data`.
    func update(_ data: Data) {
        data.withUnsafeBytes { raw in
            if let base = raw.baseAddress { _ = library.digestUpdate(context, base, raw.count) }
        }
    }

    deinit {
        library.freeDigestContext(context)
    }

    /// The digest of everything added; the hash is used up.
    func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Self.byteCount)
        var length: UInt32 = 0
        _ = library.digestFinal(context, &digest, &length)
        return digest
    }

    /// The digest of `data`.
    static func hash(_ data: Data) throws -> [UInt8] {
        let hash = try SHA256()
        hash.update(data)
        return hash.finalize()
    }
}

/// SHA-256 digests as lowercase hex.
enum HexDigest {
    static func string(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digest.count * 2)
        for byte in digest {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0xf)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
