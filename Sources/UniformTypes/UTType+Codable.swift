// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypes

extension UTType: Codable {
    /// Encodes the type as its identifier string (a single value).
    ///
    /// Apple does not document its wire format; a bare identifier is what both ends of a clipboard
    /// transfer can agree on, and `dyn.` identifiers carry their tags with them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }

    /// Decodes a type from its identifier string.
    ///
    /// An identifier this process does not know (a custom type the sender declared) still decodes, as
    /// a type that keeps the identifier but is neither declared nor dynamic, so data is not lost in
    /// transit. A string that is not a valid identifier throws `DecodingError.dataCorrupted`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let identifier = try container.decode(String.self)
        guard let type = UTType(identifier: identifier, allowUndeclared: true) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "\"\(identifier)\" is not a valid uniform type identifier"
            )
        }
        self = type
    }
}
