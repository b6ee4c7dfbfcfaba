import FoundationEssentials
import SelectionCore

/// What makes two copies the same entry: every flavour's target, property type, format and bytes (by their
/// SHA-256, or in an encrypted history their keyed names), in the owner's order. The selection, the time and the application are not part of it: the same
/// content copied again is the same entry, moved to the top.
enum Fingerprint {
    /// The SHA-256 of `data`, lowercase hex — keyed by `cipher` in an encrypted history, as blob names are.
    static func digest(_ data: Data, cipher: HistoryCipher?) throws -> String {
        let digest = try SHA256.hash(data)
        return try cipher?.name(forDigest: digest) ?? HexDigest.string(digest)
    }

    /// The fingerprint of flavours given with their bytes' digests.
    static func of(_ flavours: [(target: SelectionTarget, type: SelectionTarget, format: Int, digest: String)]) throws -> Data {
        let hasher = try SHA256()
        for flavour in flavours {
            // Each field ends with a NUL, which no atom name or hex digest holds: no two lists encode alike.
            for field in [flavour.target.rawValue, flavour.type.rawValue, String(flavour.format), flavour.digest] {
                hasher.update(Data(field.utf8))
                hasher.update(Data([0]))
            }
        }
        return Data(hasher.finalize())
    }
}
