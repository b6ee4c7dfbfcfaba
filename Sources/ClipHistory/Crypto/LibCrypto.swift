import Glibc
import X11Selection

/// The few libcrypto functions the history uses — OpenSSL 3's EVP digest and cipher API and its one-shot HMAC —
/// looked up once, when a history first hashes or encrypts (Debian's libssl3; `dlopen`, so a process that never
/// touches a history, a 16-byte paste, maps none of it).
struct LibCrypto: @unchecked Sendable {
    // Digests (EVP_MD).
    let newDigestContext: @convention(c) () -> OpaquePointer?
    let freeDigestContext: @convention(c) (OpaquePointer?) -> Void
    let sha256: @convention(c) () -> OpaquePointer?
    let digestInit: @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32
    let digestUpdate: @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int) -> Int32
    let digestFinal: @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt32>?) -> Int32
    /// `HMAC(md, key, key_len, data, data_len, out, out_len)`.
    let hmac: @convention(c) (
        OpaquePointer?, UnsafeRawPointer?, Int32, UnsafeRawPointer?, Int, UnsafeMutablePointer<UInt8>?,
        UnsafeMutablePointer<UInt32>?
    ) -> UnsafeMutablePointer<UInt8>?

    // Ciphers (EVP_CIPHER).
    let newCipherContext: @convention(c) () -> OpaquePointer?
    let freeCipherContext: @convention(c) (OpaquePointer?) -> Void
    /// ChaCha20-Poly1305, fetched from the default provider once (OpenSSL 3 fetches a legacy `EVP_chacha20_poly1305()`
    /// again at every initialisation, which cost more than sealing a short summary).
    let chacha20Poly1305: OpaquePointer
    /// `EVP_CipherInit_ex(ctx, cipher, engine, key, iv, enc)`.
    let cipherInit: @convention(c) (
        OpaquePointer?, OpaquePointer?, OpaquePointer?, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?, Int32
    ) -> Int32
    /// `EVP_CipherUpdate(ctx, out, out_len, in, in_len)`; `out` nil for additional authenticated data.
    let cipherUpdate: @convention(c) (
        OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int32>?, UnsafePointer<UInt8>?, Int32
    ) -> Int32
    let cipherFinal: @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int32>?) -> Int32
    let cipherControl: @convention(c) (OpaquePointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32

    /// `EVP_CTRL_AEAD_GET_TAG` and `EVP_CTRL_AEAD_SET_TAG` (openssl/evp.h).
    static let getTag: Int32 = 0x10
    static let setTag: Int32 = 0x11

    private static let loaded: Result<LibCrypto, HistoryError> = {
        do throws(HistoryError) {
            return .success(try LibCrypto())
        } catch {
            return .failure(error)
        }
    }()

    /// The functions, loaded on first use.
    /// - Throws: ``HistoryError`` when libcrypto or one of its functions is missing.
    static func api() throws(HistoryError) -> LibCrypto {
        try loaded.get()
    }

    private init() throws(HistoryError) {
        do throws(SharedLibrary.LoadError) {
            try self.init(SharedLibrary("libcrypto.so.3", provider: "libssl3"))
        } catch {
            throw HistoryError(error.description)
        }
    }

    private init(_ library: SharedLibrary) throws(SharedLibrary.LoadError) {
        func symbol<T>(_ name: String) throws(SharedLibrary.LoadError) -> T { try library.function(name) }
        newDigestContext = try symbol("EVP_MD_CTX_new")
        freeDigestContext = try symbol("EVP_MD_CTX_free")
        sha256 = try symbol("EVP_sha256")
        digestInit = try symbol("EVP_DigestInit_ex")
        digestUpdate = try symbol("EVP_DigestUpdate")
        digestFinal = try symbol("EVP_DigestFinal_ex")
        hmac = try symbol("HMAC")
        newCipherContext = try symbol("EVP_CIPHER_CTX_new")
        freeCipherContext = try symbol("EVP_CIPHER_CTX_free")
        let fetch: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> OpaquePointer? =
            try symbol("EVP_CIPHER_fetch")
        guard let cipher = fetch(nil, "ChaCha20-Poly1305", nil) else {
            throw SharedLibrary.LoadError(description: "\(library.name) has no ChaCha20-Poly1305 in its default provider")
        }
        chacha20Poly1305 = cipher
        cipherInit = try symbol("EVP_CipherInit_ex")
        cipherUpdate = try symbol("EVP_CipherUpdate")
        cipherFinal = try symbol("EVP_CipherFinal_ex")
        cipherControl = try symbol("EVP_CIPHER_CTX_ctrl")
    }
}
