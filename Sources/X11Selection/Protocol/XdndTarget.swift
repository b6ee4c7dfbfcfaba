/// The drop target's side of XDND (version 5), as a pure state machine: one drag at a time, from the source
/// that entered, answered position by position, and finished once the drop's data was taken.
///
/// The rules it keeps:
/// - Only the source that sent XdndEnter is listened to; a position, leave or drop from any other window is
///   ignored (any client can send ClientMessages), and a new XdndEnter replaces a drag whose source vanished
///   without leaving — but never a drop being taken: that one is finished with its own source, which would
///   otherwise wait out its finish timeout for an XdndFinished that went nowhere.
/// - Each XdndPosition gets exactly one XdndStatus, with the application's verdict for that point; the
///   rectangle the application gives (the area its answer holds for) is passed on, so the source can stop
///   sending positions inside it.
/// - XdndDrop: when the last status accepted, the application converts `XdndSelection` with the drop's
///   timestamp, then the target sends XdndFinished with its verdict; when it did not, XdndFinished(refused)
///   goes at once (version 5; older sources get no finish for a refusal, they expect none).
/// - A source that enters and then goes silent is forgotten after `idleTimeout` (`deadlinePassed`), so a
///   crashed drag does not leave the window "targeted".
struct XdndTarget: Sendable, Equatable {
    /// What to do.
    enum Step: Sendable, Equatable {
        /// Read the source window's `XdndTypeList` (it offers more than three types), then call `typesRead`.
        case readTypeList(source: X11Window)
        /// A drag entered, offering `types` (in the source's order).
        case entered(source: X11Window, types: [X11Atom])
        /// Ask the application whether it takes a drop at (`x`, `y`) with `action`; answer with `decide`.
        case ask(x: Int, y: Int, action: X11Atom, time: X11Timestamp)
        /// Send `message` to the source window.
        case send(XdndMessage, to: X11Window)
        /// The drag left (or was forgotten) without a drop.
        case left
        /// Convert `XdndSelection` with `time` and hand the data to the application; answer with `dropHandled`.
        case takeDrop(time: X11Timestamp, action: X11Atom)
    }

    private struct Session: Sendable, Equatable {
        var source: X11Window
        var version: Int
        var types: [X11Atom]
        var typesKnown: Bool
        /// A position was asked about and not answered yet.
        var asking = false
        var accepts = false
        var action = X11Atom.none
        var dropping = false
    }

    let window: X11Window
    private var session: Session?

    /// How long a source may stay silent between messages before its drag is forgotten.
    static let idleTimeout = Duration.seconds(30)

    init(window: X11Window) {
        self.window = window
    }

    /// The source of the drag under way, if any.
    var source: X11Window? { session?.source }

    /// True while a drag is over the window (the `isTargeted` of the API above).
    var isTargeted: Bool { session != nil }

    /// A message sent to our window.
    mutating func received(_ message: XdndMessage) -> [Step] {
        switch message {
        case .enter(let source, let version, let types, let hasTypeList):
            if let current = session, current.dropping { return [] }
            var steps: [Step] = session.map { $0.source != source ? [.left] : [] } ?? []
            session = Session(source: source, version: min(version, XdndMessage.version), types: types, typesKnown: !hasTypeList)
            steps.append(hasTypeList ? .readTypeList(source: source) : .entered(source: source, types: types))
            return steps
        case .position(let source, let x, let y, let time, let action):
            guard var current = session, current.source == source, !current.dropping else { return [] }
            current.asking = true
            session = current
            return [.ask(x: x, y: y, action: action, time: time)]
        case .leave(let source):
            guard let current = session, current.source == source, !current.dropping else { return [] }
            session = nil
            return [.left]
        case .drop(let source, let time):
            guard var current = session, current.source == source, !current.dropping else { return [] }
            guard current.accepts else {
                session = nil
                let finish: [Step] = current.version >= 5
                    ? [.send(.finished(target: window, accepted: false, action: .none), to: source)] : []
                return finish + [.left]
            }
            current.dropping = true
            session = current
            return [.takeDrop(time: time, action: current.action)]
        case .status, .finished:
            return []
        }
    }

    /// The source's `XdndTypeList`, read after `.readTypeList` (nil: it could not be read; the inline types
    /// are used).
    mutating func typesRead(_ list: [X11Atom]?) -> [Step] {
        guard var current = session, !current.typesKnown else { return [] }
        if let list, !list.isEmpty { current.types = list }
        current.typesKnown = true
        session = current
        return [.entered(source: current.source, types: current.types)]
    }

    /// The application's answer to `.ask`: whether it accepts, with which action, and the rectangle (root
    /// coordinates) its answer holds for (`.empty`: ask again at every move).
    mutating func decide(accepts: Bool, action: X11Atom, rectangle: XdndRectangle = .empty) -> [Step] {
        guard var current = session, current.asking else { return [] }
        current.asking = false
        current.accepts = accepts && !action.isNone
        current.action = current.accepts ? action : .none
        session = current
        return [.send(
            .status(target: window, accepts: current.accepts, wantsPositionsInside: rectangle == .empty,
                    rectangle: rectangle, action: current.action),
            to: current.source)]
    }

    /// The application took the drop (`accepted`, with the `action` it performed) or failed to.
    mutating func dropHandled(accepted: Bool, action: X11Atom) -> [Step] {
        guard let current = session, current.dropping else { return [] }
        session = nil
        return [.send(.finished(target: window, accepted: accepted, action: accepted ? action : .none), to: current.source)]
    }

    /// The source went silent for `idleTimeout`, or its window was destroyed: forget the drag.
    mutating func sourceGone() -> [Step] {
        guard session != nil else { return [] }
        session = nil
        return [.left]
    }
}
