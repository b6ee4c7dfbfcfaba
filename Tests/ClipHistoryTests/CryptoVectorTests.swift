// The history's cryptography against its standards' own test vectors: HKDF-SHA-256 (RFC 5869, appendix A.1–A.3)
// and ChaCha20-Poly1305 (RFC 8439 §2.8.2).

@testable import ClipHistory
import Testing

@Suite("Cryptography test vectors")
struct CryptoVectorTests {
    private func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.filter { !$0.isWhitespace })
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
    }

    private struct HKDFCase: Sendable {
        var name: String, ikm: String, salt: String, info: String, length: Int, prk: String, okm: String
    }

    private static let hkdfCases = [
        HKDFCase(
            name: "A.1", ikm: "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", salt: "000102030405060708090a0b0c",
            info: "f0f1f2f3f4f5f6f7f8f9", length: 42,
            prk: "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
            okm: "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"),
        HKDFCase(
            name: "A.2",
            ikm: "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f"
                + "303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f",
            salt: "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d8e8f"
                + "909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeaf",
            info: "b0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
                + "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
            length: 82, prk: "06a6b88c5853361a06104c9ceb35b45cef760014904671014a193f40c15fc244",
            okm: "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09"
                + "da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87"),
        HKDFCase(
            name: "A.3", ikm: "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", salt: "", info: "", length: 42,
            prk: "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
            okm: "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"),
    ]

    @Test("HKDF-SHA-256: RFC 5869's test cases A.1, A.2 and A.3", arguments: 0..<3)
    func hkdf(_ index: Int) throws {
        let vector = Self.hkdfCases[index]
        let prk = try HKDF.extract(salt: bytes(vector.salt), secret: bytes(vector.ikm))
        #expect(prk == bytes(vector.prk), "\(vector.name) PRK")
        #expect(try HKDF.expand(prk, info: bytes(vector.info), length: vector.length) == bytes(vector.okm), "\(vector.name) OKM")
    }

    @Test("HKDF-Expand of one block is the history's key derivation")
    func oneBlock() throws {
        let prk = bytes(Self.hkdfCases[0].prk)
        #expect(try HKDF.expand(prk, info: "payload") == (try HKDF.expand(prk, info: Array("payload".utf8), length: 32)))
    }

    @Test("ChaCha20-Poly1305: RFC 8439 §2.8.2, sealed and opened; a changed byte does not open")
    func aead() throws {
        let key = bytes("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f")
        let nonce = bytes("070000004041424344454647")
        let associatedData = bytes("50515253c0c1c2c3c4c5c6c7")
        let plain = Array("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.".utf8)
        let ciphertext = bytes("""
            d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b6116
            """)
        let tag = bytes("1ae10b594f09e26a7e902ecbd0600691")
        let sealed = try AEAD.seal(plain, key: key, nonce: nonce, associatedData: associatedData)
        #expect(sealed == ciphertext + tag)
        let opened = try sealed.withUnsafeBytes { raw in
            try nonce.withUnsafeBytes { try AEAD.open(raw, key: key, nonce: $0, associatedData: associatedData) }
        }
        #expect(opened == plain)
        var changed = sealed
        changed[7] ^= 0x01
        let refused = try changed.withUnsafeBytes { raw in
            try nonce.withUnsafeBytes { try AEAD.open(raw, key: key, nonce: $0, associatedData: associatedData) }
        }
        #expect(refused == nil)
    }
}
