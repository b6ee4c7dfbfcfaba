import FoundationEssentials

/// An owner's reply to a read: the target asked for, what the owner wrote (property type and format), and
/// the payload — the bytes themselves (``SelectionData``) or, for a streamed read whose bytes went to a
/// sink, how many there were (``SelectionStreamSummary``).
public struct SelectionReply<Payload: Sendable & Equatable>: Sendable, Equatable {
    /// The target that was asked for.
    public var target: SelectionTarget
    /// The property type the owner wrote (e.g. `UTF8_STRING`, `ATOM`; never `INCR`).
    public var type: SelectionTarget
    /// 8, 16 or 32. Format-32 items are normalised to 32-bit little-endian values (Xlib hands them over as
    /// C longs); format 16 keeps the native 2-byte items.
    public var format: Int
    /// The bytes, or their count.
    public var payload: Payload

    /// Creates a value.
    public init(target: SelectionTarget, type: SelectionTarget, format: Int, payload: Payload) {
        self.target = target
        self.type = type
        self.format = format
        self.payload = payload
    }
}

/// Bytes read from a selection.
public typealias SelectionData = SelectionReply<Data>

/// What a streamed read delivered: the reply's type and format and how many bytes went to the sink.
public typealias SelectionStreamSummary = SelectionReply<Int>

extension SelectionReply where Payload == Data {
    /// Creates a value.
    public init(target: SelectionTarget, type: SelectionTarget, format: Int, bytes: Data) {
        self.init(target: target, type: type, format: format, payload: bytes)
    }

    /// The data.
    public var bytes: Data {
        get { payload }
        set { payload = newValue }
    }
}

extension SelectionReply where Payload == Int {
    /// Creates a value.
    public init(target: SelectionTarget, type: SelectionTarget, format: Int, byteCount: Int) {
        self.init(target: target, type: type, format: format, payload: byteCount)
    }

    /// Total bytes handed to the sink.
    public var byteCount: Int {
        get { payload }
        set { payload = newValue }
    }
}
