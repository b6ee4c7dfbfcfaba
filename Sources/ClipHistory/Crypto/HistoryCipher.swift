import FoundationEssentials
import Synchronization

/// An encrypted history's keys and formats: every payload, summary, application name and search text sealed
/// with ChaCha20-Poly1305 (RFC 8439, OpenSSL's libcrypto), names keyed so they say nothing of the content.
///
/// Keys, derived with HKDF-SHA-256 (RFC 5869) from the ``HistoryKey`` and the history's random 32-byte salt:
/// - the record key seals small values — a version byte, a random 12-byte nonce, the ciphertext, the 16-byte
///   tag, with what the value is (its column) as associated data, so a value cannot be moved to another column;
/// - the stream key seals blob files in the STREAM construction age uses (Hoang, Reyhanitabar, Rogaway and
///   Vizár, "Online Authenticated-Encryption and its Nonce-Reuse Misuse-Resistance", 2015; the age format's
///   payload, https://age-encryption.org/v1): a version byte and a random 16-byte nonce from which the file's own
///   key is derived, then 64 KiB segments, each sealed with an 11-byte big-endian counter and a last-segment flag
///   as its nonce — so a file cut short, extended or with segments swapped does not open;
/// - the name key makes blob names and fingerprints HMACs of the content's SHA-256: equal content still has
///   one name (stored once, and a copy equal to an earlier one still moves it to the top), but the name does not
///   confirm a guess of the content to whoever reads the disk without the key;
/// - a check value, stored with the salt, tells a wrong key from a damaged file.
///
/// A value that does not open — a wrong key, a changed byte — is an error, never other bytes.
final class HistoryCipher: Sendable {
    /// What a sealed value is; sealed as associated data.
    enum Column: String {
        case summary, ownerClass = "owner_class", text, payload

        var associatedData: [UInt8] { Array(rawValue.utf8) }
    }

    private let recordKey: [UInt8]
    private let streamKey: [UInt8]
    private let nameKey: [UInt8]
    /// A value derived from the key alone, stored beside the salt: equal when the same key is given again.
    let check: [UInt8]

    static let saltBytes = 32
    static let segmentBytes = 64 << 10
    static let tagBytes = 16
    static let recordNonceBytes = 12
    static let streamNonceBytes = 16
    /// What a sealed stream starts with: the version byte and the stream's nonce.
    static let streamHeaderBytes = 1 + streamNonceBytes
    private static let version: UInt8 = 1

    /// The keys of `key` with `salt`.
    init(key: HistoryKey, salt: [UInt8]) throws {
        let master = try HKDF.extract(salt: salt, secret: key.secret)
        recordKey = try HKDF.expand(master, info: "clipbridge history record key")
        streamKey = try HKDF.expand(master, info: "clipbridge history stream key")
        nameKey = try HKDF.expand(master, info: "clipbridge history name key")
        check = try HKDF.expand(master, info: "clipbridge history key check")
    }

    /// A new history's salt.
    static func newSalt() -> [UInt8] {
        randomBytes(saltBytes)
    }

    // MARK: - Small values

    /// `plain` sealed as a value of `column`.
    func seal(_ plain: Data, as column: Column) throws -> Data {
        let nonce = Self.randomBytes(Self.recordNonceBytes)
        var sealed = Data([Self.version])
        sealed.append(contentsOf: nonce)
        sealed.append(contentsOf: try AEAD.seal(Array(plain), key: recordKey, nonce: nonce, associatedData: column.associatedData))
        return sealed
    }

    /// The text `plain` sealed as a value of `column`.
    func seal(_ plain: String, as column: Column) throws -> Data {
        try seal(Data(plain.utf8), as: column)
    }

    /// The plaintext of a value sealed as `column`.
    /// - Throws: ``HistoryError`` when it does not open (another key, a changed byte, another column's value).
    func open(_ sealed: Data, as column: Column) throws -> Data {
        Data(try openBytes(sealed, as: column))
    }

    private func openBytes(_ sealed: Data, as column: Column) throws -> [UInt8] {
        let opened = try sealed.withUnsafeBytes { raw -> [UInt8]? in
            guard raw.count >= 1 + Self.recordNonceBytes + Self.tagBytes, raw[0] == Self.version else {
                throw HistoryError("a sealed \(column.rawValue) is damaged (\(raw.count) bytes)")
            }
            return try AEAD.open(
                UnsafeRawBufferPointer(rebasing: raw[(1 + Self.recordNonceBytes)...]), key: recordKey,
                nonce: UnsafeRawBufferPointer(rebasing: raw[1...Self.recordNonceBytes]), associatedData: column.associatedData)
        }
        guard let opened else { throw HistoryError("a sealed \(column.rawValue) does not open with this key: it was changed") }
        return opened
    }

    /// The text sealed as `column` (invalid UTF-8 repaired, as a summary is shown).
    func openText(_ sealed: Data, as column: Column) throws -> String {
        String(decoding: try openBytes(sealed, as: column), as: UTF8.self)
    }

    // MARK: - Names

    /// The keyed name of content whose SHA-256 is `digest`: lowercase hex of its HMAC-SHA-256.
    func name(forDigest digest: [UInt8]) throws -> String {
        HexDigest.string(try HKDF.hmac(key: nameKey, digest))
    }

    /// The keyed form of a fingerprint.
    func fingerprint(_ plain: Data) throws -> Data {
        Data(try HKDF.hmac(key: nameKey, Array(plain)))
    }

    // MARK: - Streams

    /// How many bytes `plainBytes` take sealed as a stream.
    static func sealedStreamBytes(_ plainBytes: Int) -> Int {
        let segments = max(1, (plainBytes + segmentBytes - 1) / segmentBytes)
        return streamHeaderBytes + plainBytes + segments * tagBytes
    }

    /// A sealer of one stream.
    func streamSealer() throws -> StreamSealer {
        let nonce = Self.randomBytes(Self.streamNonceBytes)
        return StreamSealer(
            header: [Self.version] + nonce, key: try HKDF.expand(HKDF.extract(salt: nonce, secret: streamKey), info: "payload"))
    }

    /// An opener of the stream whose first ``streamHeaderBytes`` are `header`.
    func streamOpener(header: [UInt8]) throws -> StreamOpener {
        guard header.count == Self.streamHeaderBytes, header[0] == Self.version else {
            throw HistoryError("a sealed blob is damaged (its header)")
        }
        let nonce = Array(header[1...])
        return StreamOpener(key: try HKDF.expand(HKDF.extract(salt: nonce, secret: streamKey), info: "payload"))
    }

    /// Seals a stream's plaintext as it comes, a segment at a time.
    final class StreamSealer {
        /// The stream's first bytes.
        let header: [UInt8]
        private let key: [UInt8]
        private var pending: [UInt8] = []
        private var counter: UInt64 = 0

        fileprivate init(header: [UInt8], key: [UInt8]) {
            self.header = header
            self.key = key
        }

        /// Takes more plaintext; returns the sealed segments it completes. A full segment is kept back until more
        /// comes, because only the last one is sealed as last.
        func seal(_ plain: Data) throws -> Data {
            pending.append(contentsOf: plain)
            var sealed = Data()
            var start = 0
            while pending.count - start > HistoryCipher.segmentBytes {
                sealed.append(try segment(pending[start..<start + HistoryCipher.segmentBytes], last: false))
                start += HistoryCipher.segmentBytes
            }
            pending.removeFirst(start)
            return sealed
        }

        /// The last segment (empty plaintext included).
        func finish() throws -> Data {
            defer { pending = [] }
            return try segment(pending[...], last: true)
        }

        private func segment(_ plain: ArraySlice<UInt8>, last: Bool) throws -> Data {
            defer { counter += 1 }
            return Data(try AEAD.seal(Array(plain), key: key, nonce: StreamOpener.nonce(counter, last: last), associatedData: []))
        }
    }

    /// Opens a stream's segments in order.
    final class StreamOpener {
        private let key: [UInt8]
        private var counter: UInt64 = 0

        fileprivate init(key: [UInt8]) {
            self.key = key
        }

        /// The plaintext of the next segment (at most ``HistoryCipher/segmentBytes`` + tag bytes), `last` when the
        /// file ends with it.
        /// - Throws: ``HistoryError`` when it does not open: a changed byte, or a file cut or extended.
        func open(_ segment: ArraySlice<UInt8>, last: Bool) throws -> Data {
            defer { counter += 1 }
            let nonce = Self.nonce(counter, last: last)
            let opened = try segment.withUnsafeBytes { raw in
                try nonce.withUnsafeBytes { try AEAD.open(raw, key: key, nonce: $0, associatedData: []) }
            }
            guard let plain = opened else {
                throw HistoryError("a sealed blob does not open at segment \(counter): it was changed, cut short or extended")
            }
            return Data(plain)
        }

        /// Segment `counter`'s nonce: 11 bytes of counter, big-endian, then 1 for the last segment.
        fileprivate static func nonce(_ counter: UInt64, last: Bool) -> [UInt8] {
            [0, 0, 0] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: counter >> ($0 * 8)) } + [last ? 1 : 0]
        }
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        // SystemRandomNumberGenerator is getrandom(2) on Linux: the kernel's CSPRNG.
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}

/// HMAC-SHA-256 and HKDF-SHA-256 (RFC 5869), checked against the RFC's test vectors (A.1–A.3) in the tests.
enum HKDF {
    static func hmac(key: [UInt8], _ message: [UInt8]) throws -> [UInt8] {
        let crypto = try LibCrypto.api()
        var digest = [UInt8](repeating: 0, count: SHA256.byteCount)
        var length: UInt32 = 0
        let done = key.withUnsafeBytes { keyBytes in
            // The data is `const unsigned char *` (openssl/hmac.h), the key `const void *`.
            message.withUnsafeBufferPointer { messageBytes in
                crypto.hmac(crypto.sha256(), keyBytes.baseAddress, Int32(keyBytes.count), messageBytes.baseAddress,
                            messageBytes.count, &digest, &length)
            }
        }
        guard done != nil, length == UInt32(SHA256.byteCount) else { throw HistoryError("libcrypto's HMAC failed") }
        return digest
    }

    /// HKDF-Extract (RFC 5869 §2.2): the pseudorandom key of `secret`. An empty salt is HashLen zero bytes, as the
    /// RFC says for a salt "not provided".
    static func extract(salt: [UInt8], secret: [UInt8]) throws -> [UInt8] {
        try hmac(key: salt.isEmpty ? [UInt8](repeating: 0, count: SHA256.byteCount) : salt, secret)
    }

    /// HKDF-Expand (RFC 5869 §2.3): `length` bytes (at most 255 blocks of 32) of `pseudorandomKey` for `info`:
    /// T(1) | T(2) | …, where T(i) = HMAC(PRK, T(i − 1) | info | i).
    static func expand(_ pseudorandomKey: [UInt8], info: [UInt8], length: Int) throws -> [UInt8] {
        precondition(length >= 0 && length <= 255 * SHA256.byteCount)
        var output: [UInt8] = []
        var block: [UInt8] = []
        var counter: UInt8 = 1
        while output.count < length {
            block = try hmac(key: pseudorandomKey, block + info + [counter])
            output += block
            counter &+= 1
        }
        return Array(output.prefix(length))
    }

    /// One block of output, 32 bytes, for a text `info`: each of the history's keys.
    static func expand(_ pseudorandomKey: [UInt8], info: String) throws -> [UInt8] {
        try expand(pseudorandomKey, info: Array(info.utf8), length: SHA256.byteCount)
    }
}

/// ChaCha20-Poly1305 through libcrypto's EVP interface.
enum AEAD {
    /// Cipher contexts kept for the next operation: making and freeing one for each sealed summary cost as much as
    /// the sealing (a list of 10,000 entries opens 10,000 of them).
    private static let contexts = ContextPool()
    /// The ciphertext of `plain`, then its tag.
    static func seal(_ plain: [UInt8], key: [UInt8], nonce: [UInt8], associatedData: [UInt8]) throws -> [UInt8] {
        try plain.withUnsafeBytes { input in
            try nonce.withUnsafeBytes { nonce in
                try run(encrypting: true, input, key: key, nonce: nonce, associatedData: associatedData, tag: nil)!
            }
        }
    }

    /// The plaintext of `sealed` (ciphertext then tag), or nil when the tag does not match.
    static func open(_ sealed: UnsafeRawBufferPointer, key: [UInt8], nonce: UnsafeRawBufferPointer, associatedData: [UInt8])
        throws -> [UInt8]?
    {
        guard sealed.count >= HistoryCipher.tagBytes else { return nil }
        let split = sealed.count - HistoryCipher.tagBytes
        return try run(
            encrypting: false, UnsafeRawBufferPointer(rebasing: sealed[..<split]), key: key, nonce: nonce,
            associatedData: associatedData, tag: UnsafeRawBufferPointer(rebasing: sealed[split...]))
    }

    private static func run(
        encrypting: Bool, _ input: UnsafeRawBufferPointer, key: [UInt8], nonce: UnsafeRawBufferPointer,
        associatedData: [UInt8], tag: UnsafeRawBufferPointer?
    ) throws -> [UInt8]? {
        let crypto = try LibCrypto.api()
        let context = try contexts.take(crypto)
        defer { contexts.give(context) }
        let failed = HistoryError("libcrypto's ChaCha20-Poly1305 failed")
        let started = nonce.withMemoryRebound(to: UInt8.self) {
            crypto.cipherInit(context, crypto.chacha20Poly1305, nil, key, $0.baseAddress, encrypting ? 1 : 0)
        }
        guard started == 1 else { throw HistoryError("libcrypto could not start ChaCha20-Poly1305") }
        var length: Int32 = 0
        if !associatedData.isEmpty {
            guard crypto.cipherUpdate(context, nil, &length, associatedData, Int32(associatedData.count)) == 1 else { throw failed }
        }
        if let tag {
            var copy = Array(tag)
            guard crypto.cipherControl(context, LibCrypto.setTag, Int32(copy.count), &copy) == 1 else { throw failed }
        }
        let extra = encrypting ? HistoryCipher.tagBytes : 0
        var status: Int32 = 1
        let output = try [UInt8](unsafeUninitializedCapacity: input.count + extra) { buffer, count in
            count = 0
            var written: Int32 = 0
            if input.count > 0 {
                let updated = input.withMemoryRebound(to: UInt8.self) {
                    crypto.cipherUpdate(context, buffer.baseAddress, &written, $0.baseAddress, Int32(input.count))
                }
                guard updated == 1 else { throw failed }
            }
            var final: Int32 = 0
            status = crypto.cipherFinal(context, buffer.baseAddress! + Int(written), &final)
            guard status == 1 else {
                if encrypting { throw failed }
                return
            }
            count = Int(written + final)
            if encrypting {
                guard crypto.cipherControl(context, LibCrypto.getTag, Int32(HistoryCipher.tagBytes), buffer.baseAddress! + count) == 1
                else { throw failed }
                count += HistoryCipher.tagBytes
            }
        }
        return status == 1 ? output : nil
    }
}

/// Free EVP cipher contexts, shared by every thread (each operation takes one and gives it back). Kept as
/// addresses: the pointers themselves are not Sendable.
private final class ContextPool: Sendable {
    private let free = Mutex<[Int]>([])

    func take(_ crypto: LibCrypto) throws -> OpaquePointer {
        if let kept = free.withLock({ $0.popLast() }), let context = OpaquePointer(bitPattern: kept) { return context }
        guard let made = crypto.newCipherContext() else { throw HistoryError("libcrypto could not make a cipher context") }
        return made
    }

    func give(_ context: OpaquePointer) {
        let address = Int(bitPattern: context)
        // A handful is enough: one per thread using the history at once.
        let kept = free.withLock { pool in
            guard pool.count < 8 else { return false }
            pool.append(address)
            return true
        }
        if !kept, let crypto = try? LibCrypto.api() { crypto.freeCipherContext(context) }
    }
}
