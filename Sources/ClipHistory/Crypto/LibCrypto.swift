import CLibCrypto
import Glibc
import DynamicLibraries

/// The few libcrypto functions the history uses — OpenSSL 3's EVP digest and cipher API and its one-shot HMAC —
/// looked up once, when a history first hashes or encrypts (Debian's libssl3; `dlopen`, so a process that never
/// touches a history, a 16-byte paste, maps none of it).
struct LibCrypto: @unchecked Sendable {
    // Each type is the C declaration's (CLibCrypto/shim.h, from OpenSSL's headers): a call that does not match it
    // does not compile.

    // Digests (EVP_MD).
    let newDigestContext: clipbridge_EVP_MD_CTX_new_t
    let freeDigestContext: clipbridge_EVP_MD_CTX_free_t
    let sha256: clipbridge_EVP_sha256_t
    let digestInit: clipbridge_EVP_DigestInit_ex_t
    let digestUpdate: clipbridge_EVP_DigestUpdate_t
    let digestFinal: clipbridge_EVP_DigestFinal_ex_t
    /// `HMAC(md, key, key_len, data, data_len, out, out_len)`.
    let hmac: clipbridge_HMAC_t

    // Ciphers (EVP_CIPHER).
    let newCipherContext: clipbridge_EVP_CIPHER_CTX_new_t
    let freeCipherContext: clipbridge_EVP_CIPHER_CTX_free_t
    /// ChaCha20-Poly1305, fetched from the default provider once (OpenSSL 3 fetches a legacy `EVP_chacha20_poly1305()`
    /// again at every initialisation, which cost more than sealing a short summary).
    let chacha20Poly1305: OpaquePointer
    /// `EVP_CipherInit_ex(ctx, cipher, engine, key, iv, enc)`.
    let cipherInit: clipbridge_EVP_CipherInit_ex_t
    /// `EVP_CipherUpdate(ctx, out, out_len, in, in_len)`; `out` nil for additional authenticated data.
    let cipherUpdate: clipbridge_EVP_CipherUpdate_t
    let cipherFinal: clipbridge_EVP_CipherFinal_ex_t
    let cipherControl: clipbridge_EVP_CIPHER_CTX_ctrl_t

    /// `EVP_CTRL_AEAD_GET_TAG` and `EVP_CTRL_AEAD_SET_TAG` (openssl/evp.h).
    static let getTag = clipbridge_EVP_CTRL_AEAD_GET_TAG
    static let setTag = clipbridge_EVP_CTRL_AEAD_SET_TAG

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
        newDigestContext = try library.function(clipbridge_EVP_MD_CTX_new_name)
        freeDigestContext = try library.function(clipbridge_EVP_MD_CTX_free_name)
        sha256 = try library.function(clipbridge_EVP_sha256_name)
        digestInit = try library.function(clipbridge_EVP_DigestInit_ex_name)
        digestUpdate = try library.function(clipbridge_EVP_DigestUpdate_name)
        digestFinal = try library.function(clipbridge_EVP_DigestFinal_ex_name)
        hmac = try library.function(clipbridge_HMAC_name)
        newCipherContext = try library.function(clipbridge_EVP_CIPHER_CTX_new_name)
        freeCipherContext = try library.function(clipbridge_EVP_CIPHER_CTX_free_name)
        let fetch: clipbridge_EVP_CIPHER_fetch_t = try library.function(clipbridge_EVP_CIPHER_fetch_name)
        guard let cipher = fetch(nil, "ChaCha20-Poly1305", nil) else {
            throw SharedLibrary.LoadError(description: "\(library.name) has no ChaCha20-Poly1305 in its default provider")
        }
        chacha20Poly1305 = cipher
        cipherInit = try library.function(clipbridge_EVP_CipherInit_ex_name)
        cipherUpdate = try library.function(clipbridge_EVP_CipherUpdate_name)
        cipherFinal = try library.function(clipbridge_EVP_CipherFinal_ex_name)
        cipherControl = try library.function(clipbridge_EVP_CIPHER_CTX_ctrl_name)
    }
}
