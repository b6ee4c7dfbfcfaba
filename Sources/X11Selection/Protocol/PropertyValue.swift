import FoundationEssentials

/// A property as read from the server.
struct PropertyValue {
    /// The property type (`X11Atom.none` when the property does not exist).
    var type: X11Atom
    /// 8, 16 or 32; 0 when the property does not exist.
    var format: Int
    /// The data; format-32 items are normalised to 32-bit little-endian values (Xlib hands out C longs).
    var bytes: Data
    /// Bytes left unread on the server.
    var bytesAfter: Int
    /// Number of items (bytes / (format / 8)).
    var itemCount: Int

    var exists: Bool { !type.isNone }
}
