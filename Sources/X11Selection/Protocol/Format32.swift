import FoundationEssentials

/// Format-32 property data as the engine holds it: 32-bit little-endian items (Xlib hands out C longs;
/// `XDisplay.getProperty` normalises them).
enum Format32 {
    /// The items of `bytes`; a trailing partial item is ignored.
    static func values(_ bytes: Data) -> [UInt] {
        bytes.withUnsafeBytes { raw in
            (0..<(raw.count / 4)).map { index in
                UInt(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)))
            }
        }
    }

    /// The atoms of a TARGETS reply (ICCCM 2.6.2: type ATOM, format 32; some owners write TARGETS as type).
    /// - Throws: `.invalidReply` for any other type or format.
    static func targetAtoms(_ bytes: Data, type: SelectionTarget, format: Int) throws(SelectionError) -> [X11Atom] {
        guard format == 32, type == .atom || type == .targets else {
            throw SelectionError(.invalidReply, "TARGETS reply has type \(type) and format \(format), not ATOM/32")
        }
        return values(bytes).map(X11Atom.init(rawValue:))
    }
}
