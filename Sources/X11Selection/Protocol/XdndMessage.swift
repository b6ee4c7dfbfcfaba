/// The client messages of the XDND protocol (freedesktop.org, "Drag-and-Drop Protocol for the X Window System",
/// version 5), as values, with their wire form: the five 32-bit words of a format-32 ClientMessage's data.
///
/// Decoding is for untrusted input: any client can send any ClientMessage to any window, so a message whose
/// words do not make sense (a version below 3, a zero window) decodes to nil rather than to a guess.
enum XdndMessage: Sendable, Equatable {
    /// Source → target: the pointer entered. Up to three types inline; `hasTypeList` when there are more, in
    /// the source window's `XdndTypeList` property.
    case enter(source: X11Window, version: Int, types: [X11Atom], hasTypeList: Bool)
    /// Source → target: the pointer is at (`rootX`, `rootY`) on the root window; `action` is the one the user
    /// asked for (XdndActionCopy unless a modifier says otherwise). Version 1 and up carry `time`.
    case position(source: X11Window, rootX: Int, rootY: Int, time: X11Timestamp, action: X11Atom)
    /// Target → source: whether it would accept a drop here, with which action, and a rectangle (root
    /// coordinates) within which the answer stays the same: unless `wantsPositionsInside`, the source need not
    /// send positions while the pointer stays inside it.
    case status(target: X11Window, accepts: Bool, wantsPositionsInside: Bool, rectangle: XdndRectangle, action: X11Atom)
    /// Source → target: the pointer left, or the drag was cancelled.
    case leave(source: X11Window)
    /// Source → target: the button was released over it; `time` is the one to convert `XdndSelection` with.
    case drop(source: X11Window, time: X11Timestamp)
    /// Target → source: the drop is over (version 5: whether it was accepted, and the action performed).
    case finished(target: X11Window, accepted: Bool, action: X11Atom)

    /// Which message: the ClientMessage's `message_type` atom is named after it.
    enum Kind: String, Sendable, CaseIterable {
        case enter = "XdndEnter", position = "XdndPosition", status = "XdndStatus", leave = "XdndLeave"
        case drop = "XdndDrop", finished = "XdndFinished"
    }

    /// The oldest version this implementation speaks: version 3 added XdndActionList and the drop timestamp
    /// (GTK and Qt speak 5, and refuse below 3 too).
    static let minimumVersion = 3
    /// The version this implementation speaks.
    static let version = 5

    var kind: Kind {
        switch self {
        case .enter: .enter
        case .position: .position
        case .status: .status
        case .leave: .leave
        case .drop: .drop
        case .finished: .finished
        }
    }

    /// The window that sent it (data.l[0] of every XDND message).
    var sender: X11Window {
        switch self {
        case .enter(let window, _, _, _), .position(let window, _, _, _, _), .leave(let window), .drop(let window, _):
            window
        case .status(let window, _, _, _, _), .finished(let window, _, _):
            window
        }
    }

    /// The five data words.
    var words: [UInt] {
        switch self {
        case .enter(let source, let version, let types, let hasTypeList):
            let inline = types.prefix(3).map(\.rawValue)
            return [source.rawValue, UInt(version & 0xFF) << 24 | (hasTypeList ? 1 : 0)]
                + inline + Array(repeating: 0, count: 3 - inline.count)
        case .position(let source, let x, let y, let time, let action):
            return [source.rawValue, 0, Self.pack(x, y), time.rawValue, action.rawValue]
        case .status(let target, let accepts, let wantsPositionsInside, let rectangle, let action):
            let flags: UInt = (accepts ? 1 : 0) | (wantsPositionsInside ? 2 : 0)
            return [target.rawValue, flags, Self.pack(rectangle.x, rectangle.y),
                    Self.pack(rectangle.width, rectangle.height), accepts ? action.rawValue : 0]
        case .leave(let source):
            return [source.rawValue, 0, 0, 0, 0]
        case .drop(let source, let time):
            return [source.rawValue, 0, time.rawValue, 0, 0]
        case .finished(let target, let accepted, let action):
            return [target.rawValue, accepted ? 1 : 0, accepted ? action.rawValue : 0, 0, 0]
        }
    }

    /// The message of `kind` with these data words; nil when they are not a well-formed message.
    static func decode(_ kind: Kind, words: [UInt]) -> XdndMessage? {
        guard words.count >= 5 else { return nil }
        let word = words.map { $0 & 0xFFFF_FFFF }
        let sender = X11Window(rawValue: word[0])
        guard sender.rawValue != 0 else { return nil }
        switch kind {
        case .enter:
            let version = Int(word[1] >> 24)
            guard version >= minimumVersion else { return nil }
            let types = word[2...4].filter { $0 != 0 }.map(X11Atom.init(rawValue:))
            return .enter(source: sender, version: version, types: types, hasTypeList: word[1] & 1 == 1)
        case .position:
            let (x, y) = unpack(word[2])
            return .position(
                source: sender, rootX: x, rootY: y, time: X11Timestamp(rawValue: word[3]),
                action: X11Atom(rawValue: word[4]))
        case .status:
            let (x, y) = unpack(word[2])
            let (width, height) = unpack(word[3])
            let accepts = word[1] & 1 == 1
            return .status(
                target: sender, accepts: accepts, wantsPositionsInside: word[1] & 2 == 2,
                rectangle: XdndRectangle(x: x, y: y, width: width, height: height),
                action: accepts ? X11Atom(rawValue: word[4]) : .none)
        case .leave:
            return .leave(source: sender)
        case .drop:
            return .drop(source: sender, time: X11Timestamp(rawValue: word[2]))
        case .finished:
            // Before version 5 the words after the window were reserved: a finish then means accepted with the
            // action of the last status, which the source knows; it is reported as accepted with no action.
            let accepted = word[1] & 1 == 1
            return .finished(target: sender, accepted: accepted, action: accepted ? X11Atom(rawValue: word[2]) : .none)
        }
    }

    /// Two 16-bit coordinates in one word, x high (XDND's layout); out-of-range values are clamped, not wrapped.
    static func pack(_ high: Int, _ low: Int) -> UInt {
        UInt(UInt16(clamping: max(0, high))) << 16 | UInt(UInt16(clamping: max(0, low)))
    }

    static func unpack(_ word: UInt) -> (Int, Int) {
        (Int((word >> 16) & 0xFFFF), Int(word & 0xFFFF))
    }
}

/// A rectangle in root coordinates, as XdndStatus carries it (16 bits each).
struct XdndRectangle: Sendable, Equatable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    /// The empty rectangle: "send me every position".
    static let empty = XdndRectangle(x: 0, y: 0, width: 0, height: 0)

    func contains(x px: Int, y py: Int) -> Bool {
        px >= x && py >= y && px < x + width && py < y + height
    }
}
