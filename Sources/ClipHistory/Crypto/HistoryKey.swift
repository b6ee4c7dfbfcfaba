import FoundationEssentials

/// The secret an encrypted history is sealed with: the bytes a key command printed (`pass show clipbridge`) or
/// the key kept in the Secret Service. The history never stores it; it derives its keys from it and a random salt
/// of its own (``HistoryStore`` says what is encrypted).
///
/// It is used as a key, not as a password: the derivation is HKDF-SHA-256 (RFC 5869), which does not slow down a
/// guesser. Give a random secret — what `pass generate clipbridge 32` makes, or the key the Secret Service holds.
public struct HistoryKey: Sendable {
    let secret: [UInt8]

    /// The fewest bytes a secret may have.
    public static let minimumBytes = 16

    /// A key from `secret`, with the final line break a command prints removed.
    /// - Throws: ``HistoryError`` when fewer than ``minimumBytes`` bytes remain.
    public init(secret: [UInt8]) throws {
        var secret = secret
        while let last = secret.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") { secret.removeLast() }
        guard secret.count >= Self.minimumBytes else {
            throw HistoryError(
                "a history key needs at least \(Self.minimumBytes) bytes, and \(secret.count) were given "
                    + "(make a random one, e.g. `pass generate clipbridge 32`)")
        }
        self.secret = secret
    }

    /// A new random secret for a key kept elsewhere (the Secret Service): 32 bytes from the kernel's generator, as
    /// Base64 text, so it can be stored and printed as a password is.
    public static func newSecret() -> String {
        Data(HistoryCipher.randomBytes(32)).base64EncodedString()
    }
}
