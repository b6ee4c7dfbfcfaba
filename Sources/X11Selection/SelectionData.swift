import FoundationEssentials

/// Bytes read from a selection.
public struct SelectionData: Sendable, Equatable {
    /// The target that was asked for.
    public var target: SelectionTarget
    /// The property type the owner wrote (e.g. `UTF8_STRING`, `ATOM`; never `INCR`).
    public var type: SelectionTarget
    /// 8, 16 or 32. Format-32 items are normalised to 32-bit little-endian values in `bytes` (Xlib hands
    /// them over as C longs); format 16 keeps the native 2-byte items.
    public var format: Int
    /// The data.
    public var bytes: Data

    /// Creates a value.
    public init(target: SelectionTarget, type: SelectionTarget, format: Int, bytes: Data) {
        self.target = target
        self.type = type
        self.format = format
        self.bytes = bytes
    }
}

/// What a streamed read delivered: the reply's type and format and how many bytes went to the sink.
public struct SelectionStreamSummary: Sendable, Equatable {
    /// The target that was asked for.
    public var target: SelectionTarget
    /// The property type the owner wrote.
    public var type: SelectionTarget
    /// 8, 16 or 32.
    public var format: Int
    /// Total bytes handed to the sink.
    public var byteCount: Int

    /// Creates a value.
    public init(target: SelectionTarget, type: SelectionTarget, format: Int, byteCount: Int) {
        self.target = target
        self.type = type
        self.format = format
        self.byteCount = byteCount
    }
}
