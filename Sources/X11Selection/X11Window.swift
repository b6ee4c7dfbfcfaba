/// An X window ID (an XID), e.g. the owner of a selection or the requestor of a transfer.
public struct X11Window: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The XID.
    public var rawValue: UInt

    /// Wraps an XID.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// The XID in hexadecimal, as xprop and xwininfo print it.
    public var description: String { "0x" + String(rawValue, radix: 16) }
}

/// An X server timestamp in milliseconds (wraps around every ~49.7 days, ICCCM 2.1).
public struct X11Timestamp: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Milliseconds since the server's epoch; 0 is `CurrentTime`.
    public var rawValue: UInt

    /// Wraps a server time.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// X11 `CurrentTime` (0): "now" as the server sees it.
    public static let currentTime = X11Timestamp(rawValue: 0)

    /// Orders timestamps as the server does, modulo 2³² (a time is later if it is less than half the
    /// range ahead), so comparisons stay right across the wrap-around.
    public static func < (lhs: X11Timestamp, rhs: X11Timestamp) -> Bool {
        let left = UInt32(truncatingIfNeeded: lhs.rawValue)
        let right = UInt32(truncatingIfNeeded: rhs.rawValue)
        return left != right && (right &- left) < 0x8000_0000
    }

    /// The time in milliseconds.
    public var description: String { String(rawValue) }
}
