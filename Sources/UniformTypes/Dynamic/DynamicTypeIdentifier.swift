// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypes

/// The `dyn.` identifiers of dynamic types, in the encoding macOS itself uses.
///
/// Apple does not document the encoding; this follows the community reverse engineering cited in the
/// reference sheet (§6), checked against identifiers observed on real Macs
/// (`dyn.ah62d4rv4ge81k652` ⇄ `?0=6:1=tsx`):
///
/// - identifier = `"dyn.a"` + base-32 of the UTF-8 payload, 5 bits per character, most significant bit
///   first, alphabet `abcdefghkmnpqrstuvwxyz0123456789`, last group zero-padded, no `=` padding;
/// - payload = `?` + `key=value` pairs joined by `:`; `:`, `=` and `\` inside keys and values are
///   escaped with `\`; key `0` (UTTypeConformsTo) holds a parent, other keys are tag classes; common
///   keys and values use one-character short codes (`6` = public.data, `3` = public.mime-type, …).
///
/// The encoding is reversible, so `UTType(dynamicType.identifier)` rebuilds the same type in any
/// process, with no registry entry.
struct DynamicTypeIdentifier: Hashable, Sendable {
    /// Direct parents, in payload order.
    var conformsTo: [String]
    /// Tags, in payload order, as (tag class raw value, tag).
    var tags: [(tagClass: String, tag: String)]

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.payload == rhs.payload }
    func hash(into hasher: inout Hasher) { hasher.combine(payload) }

    /// A dynamic type for one tag that conforms to `parent`.
    init(tag: String, tagClass: String, conformingTo parent: String?) {
        conformsTo = parent.map { [$0] } ?? []
        tags = [(tagClass, tag)]
    }

    /// Decodes a `dyn.` identifier; `nil` if it is not one this encoding produced.
    init?(identifier: String) {
        guard let payload = Self.decode(identifier) else { return nil }
        guard let pairs = Self.splitPairs(payload) else { return nil }
        conformsTo = []
        tags = []
        for (key, value) in pairs {
            let key = Self.expand(key)
            let value = Self.expand(value)
            if key == Self.conformsToKey {
                conformsTo.append(value)
            } else {
                tags.append((key, value))
            }
        }
        guard !tags.isEmpty || !conformsTo.isEmpty else { return nil }
    }

    /// The `dyn.a…` identifier.
    var identifier: String { Self.prefix + Self.encode(payload) }

    /// The tags of one class, in order.
    func tags(for tagClass: String) -> [String] {
        tags.filter { $0.tagClass == tagClass }.map(\.tag)
    }

    // MARK: - Payload

    private static let prefix = "dyn.a"
    private static let conformsToKey = "UTTypeConformsTo"
    private static let alphabet = Array("abcdefghkmnpqrstuvwxyz0123456789".utf8)

    /// Short codes, reference §6.
    private static let shortCodes: [(code: String, long: String)] = [
        ("0", conformsToKey), ("1", "public.filename-extension"), ("2", "com.apple.ostype"),
        ("3", "public.mime-type"), ("4", "com.apple.nspboard-type"), ("5", "public.url-scheme"),
        ("6", "public.data"), ("7", "public.text"), ("8", "public.plain-text"), ("9", "public.utf16-plain-text"),
        ("A", "com.apple.traditional-mac-plain-text"), ("B", "public.image"), ("C", "public.video"),
        ("D", "public.audio"), ("E", "public.directory"), ("F", "public.folder"),
    ]

    private static func shorten(_ text: String) -> String {
        shortCodes.first { $0.long == text }?.code ?? text
    }

    private static func expand(_ text: String) -> String {
        shortCodes.first { $0.code == text }?.long ?? text
    }

    private var payload: String {
        // Appended in place: this runs for every dynamic type a process makes (each unknown X target),
        // and the map/joined form costs several intermediate arrays and generic instantiations.
        var result = "?"
        func append(_ key: String, _ value: String) {
            if result.utf8.count > 1 { result += ":" }
            result += Self.escape(Self.shorten(key))
            result += "="
            result += Self.escape(Self.shorten(value))
        }
        for parent in conformsTo { append(Self.conformsToKey, parent) }
        for tag in tags { append(tag.tagClass, tag.tag) }
        return result
    }

    // Escaping and splitting work on UTF-8 bytes: the three special characters are ASCII, so they never occur
    // inside a multi-byte sequence, and this runs for every dynamic type a process makes or decodes (an owner
    // may offer a million unknown targets) — walking Characters cost more than the rest of the type.

    private static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == colon || $0 == equals || $0 == backslash }) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 4)
        for byte in text.utf8 {
            if byte == colon || byte == equals || byte == backslash { out.append(backslash) }
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let colon = UInt8(ascii: ":"), equals = UInt8(ascii: "="), backslash = UInt8(ascii: "\\")

    /// Splits `k=v:k=v` honouring `\` escapes; `nil` on malformed input.
    private static func splitPairs(_ bytes: ArraySlice<UInt8>) -> [(String, String)]? {
        var pairs: [(String, String)] = []
        var key: String?
        var current: [UInt8] = []
        var escaped = false
        for byte in bytes {
            if escaped {
                current.append(byte)
                escaped = false
            } else if byte == backslash {
                escaped = true
            } else if byte == equals {
                guard key == nil else { return nil }
                key = String(decoding: current, as: UTF8.self)
                current.removeAll(keepingCapacity: true)
            } else if byte == colon {
                guard let pairKey = key else { return nil }
                pairs.append((pairKey, String(decoding: current, as: UTF8.self)))
                key = nil
                current.removeAll(keepingCapacity: true)
            } else {
                current.append(byte)
            }
        }
        guard !escaped else { return nil }
        if let pairKey = key {
            pairs.append((pairKey, String(decoding: current, as: UTF8.self)))
        } else if !current.isEmpty {
            return nil
        }
        return pairs
    }

    // MARK: - Base 32

    private static func encode(_ text: String) -> String {
        var out: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in text.utf8 {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                out.append(alphabet[Int((buffer >> UInt32(bits)) & 0x1F)])
            }
            buffer &= (1 << UInt32(bits)) - 1
        }
        if bits > 0 {
            out.append(alphabet[Int((buffer << UInt32(5 - bits)) & 0x1F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The value of each base-32 character (either case), 0xFF for any other byte.
    private static let alphabetValues: [UInt8] = {
        var values = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in alphabet.enumerated() {
            values[Int(character)] = UInt8(value)
            if character >= UInt8(ascii: "a"), character <= UInt8(ascii: "z") { values[Int(character) - 32] = UInt8(value) }
        }
        return values
    }()

    /// The payload's bytes, after checking the `dyn.a` prefix (any case); nil when it is not this encoding or
    /// not valid UTF-8.
    private static func decode(_ identifier: String) -> ArraySlice<UInt8>? {
        var bytes: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        var index = 0
        let prefixBytes = Array(prefix.utf8)
        for character in identifier.utf8 {
            defer { index += 1 }
            if index < prefixBytes.count {
                // ASCII case folding of the prefix ("DYN.A" is the same identifier).
                let folded = character >= UInt8(ascii: "A") && character <= UInt8(ascii: "Z") ? character + 32 : character
                guard folded == prefixBytes[index] else { return nil }
                continue
            }
            let value = alphabetValues[Int(character)]
            guard value != 0xFF else { return nil }
            buffer = (buffer << 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8((buffer >> UInt32(bits)) & 0xFF))
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        // Leftover bits are the zero padding of the last group; anything else is not our encoding.
        guard index >= prefixBytes.count, buffer == 0, String(validating: bytes, as: UTF8.self) != nil,
            bytes.first == UInt8(ascii: "?")
        else { return nil }
        return bytes[1...]
    }
}
