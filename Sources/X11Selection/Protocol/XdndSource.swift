/// The drag source's side of XDND (version 5), as a pure state machine: what to send as the pointer moves,
/// answers arrive and the button is released, and when the drag is over.
///
/// The rules it keeps:
/// - One XdndPosition in flight: after sending one, the source waits for its XdndStatus and keeps only the
///   newest position meanwhile (XDND: "the source must wait for XdndStatus before sending the next
///   XdndPosition"); a target that answered with a rectangle and no "send positions inside" flag gets no
///   positions while the pointer stays in it.
/// - Entering a new window leaves the old one first; a window below version 3 is not a target.
/// - The version spoken with a target is the lower of the two.
/// - Every XdndStatus from the current target is its latest word, awaited or not, as GTK's source takes it
///   (gdk/x11/gdkdrag-x11.c, gdk_x11_drag_handle_status): LibreOffice (VCL's GTK 3 drop target) answers each
///   XdndPosition with three statuses — refuse, accept, accept — and a source that believed only the awaited
///   first one saw a refusal at every position and never dropped.
/// - Released over a target whose last status accepted, the source sends XdndDrop with the release's
///   timestamp — the one the target converts `XdndSelection` with. Released before the status came, it waits
///   for that status first; released over a target whose latest word refuses a position it also accepted, it
///   asks once more with a position where the button was released. When that answer refuses (or is the first of
///   a wavering target's), the target's latest word `settleTimeout` later decides: its last status, as GTK 4's
///   source drops only while its last status accepts. LibreOffice Writer 7.4 (VCL's GTK 3 drop target) answers
///   a position with refuse, accept, accept where it takes a drop, and refuse, accept, refuse where it does not —
///   then finishes a drop "not accepted" without reading the data. Released anywhere else, it leaves, and the
///   drag ends refused.
/// - Escape cancels: leave, then `.cancelled`.
/// - A watchdog: a target that does not answer a position within `statusTimeout`, or a drop within
///   `finishTimeout`, or that vanishes, releases the source (`deadlinePassed`, `targetVanished`).
struct XdndSource: Sendable, Equatable {
    /// How a drag ended.
    enum Outcome: Sendable, Equatable {
        /// Dropped on `target`, which finished: `action` is what its last status before the drop accepted,
        /// `targetAccepted` the flag of its XdndFinished (version 5; true before) — reported, not judged (see
        /// ``received(_:)``).
        case dropped(target: X11Window, action: X11Atom, targetAccepted: Bool)
        /// Released where no target accepted it (or over no target).
        case refused
        /// Cancelled by the user (Escape) or the program.
        case cancelled
        /// The target stopped answering, or vanished, during the drop: the source goes on without its verdict.
        case abandoned(target: X11Window, reason: String)
    }

    /// A window that can take a drop: where messages go (its XdndProxy, if any) and the toplevel it stands for.
    struct Target: Sendable, Equatable {
        /// The toplevel with XdndAware: the window messages name as the target.
        var window: X11Window
        /// Where messages are sent: the window itself, or the window its XdndProxy names.
        var messageWindow: X11Window
        /// Its XdndAware version.
        var version: Int
    }

    /// What to do.
    enum Step: Sendable, Equatable {
        /// Send `message` to `target` (a ClientMessage to its `messageWindow` naming its `window`, no
        /// propagation, no event mask).
        case send(XdndMessage, to: Target)
        /// The drag is over.
        case finish(Outcome)
        /// Start the watchdog anew for `awaitedAnswer` (it waits for something no message of ours asked for).
        case restartWatchdog
    }

    private enum Phase: Sendable, Equatable {
        case dragging
        /// Released over an accepting target, waiting for its status before dropping; `reasked`: the status asked
        /// for at the release of a wavering target, which settles whatever it says.
        case releasedAwaitingStatus(time: X11Timestamp, reasked: Bool)
        /// Released; waiting `settleTimeout` for the target's latest word, which then decides.
        case releasedSettling(time: X11Timestamp)
        case dropped
        case ended(Outcome)
    }

    private struct Position: Sendable, Equatable {
        var x: Int
        var y: Int
        var time: X11Timestamp
        var action: X11Atom
    }

    private struct Session: Sendable, Equatable {
        var target: Target
        var version: Int
        var awaitingStatus = false
        /// The newest position that came while a status was awaited.
        var pending: Position?
        var accepts = false
        var acceptedAction = X11Atom.none
        /// Where the target asked not to be told of positions.
        var quietRectangle: XdndRectangle?
        /// The action the last position asked for.
        var askedAction = X11Atom.none
        /// The last position sent.
        var lastSent: Position?
        /// Whether any status since the last position sent accepted (a target that wavers answers a position
        /// with refusals and acceptances: LibreOffice).
        var acceptedSinceLastPosition = false
    }

    let source: X11Window
    let types: [X11Atom]
    /// The watchdog's two bounds (`statusTimeout` and `finishTimeout` unless configured).
    let statusWait: Duration
    let finishWait: Duration
    private var phase = Phase.dragging
    private var session: Session?

    /// The longest a target may take to answer an XdndPosition, by default (GTK and Qt answer in milliseconds).
    static let statusTimeout = Duration.seconds(2)
    /// The longest a target may take to finish a drop: its conversion of `XdndSelection` (INCR for big data)
    /// and its handler. Long enough for 50 MiB through a toolkit; a source must not wait forever on a target
    /// that died or hangs (react-x11 #126).
    static let finishTimeout = Duration.seconds(30)
    /// After the release, how long a refusing target may take to send the status that accepts: LibreOffice sends
    /// its three statuses per position within a millisecond or two.
    static let settleTimeout = Duration.milliseconds(150)

    init(source: X11Window, types: [X11Atom], statusWait: Duration = statusTimeout, finishWait: Duration = finishTimeout) {
        self.source = source
        self.types = types
        self.statusWait = statusWait
        self.finishWait = finishWait
    }

    /// The outcome, once over.
    var outcome: Outcome? {
        if case .ended(let outcome) = phase { return outcome }
        return nil
    }

    /// The target the pointer is over, if it entered one.
    var currentTarget: Target? { session?.target }

    /// Whether that target's last status accepted the drag (the source's cursor shows it).
    var targetAccepts: Bool { session?.accepts ?? false }

    /// What the watchdog waits for now, and how long it may take: nil when nothing is awaited from a target.
    var awaitedAnswer: Duration? {
        switch phase {
        case .dropped: finishWait
        case .releasedAwaitingStatus: statusWait
        case .releasedSettling: Self.settleTimeout
        case .dragging: session?.awaitingStatus == true ? statusWait : nil
        case .ended: nil
        }
    }

    /// The pointer is at (`x`, `y`) on the root window, over `target` (nil: no XDND window there).
    mutating func pointerMoved(over target: Target?, x: Int, y: Int, time: X11Timestamp, action: X11Atom) -> [Step] {
        guard phase == .dragging else { return [] }
        var steps: [Step] = []
        let usable = target.flatMap { $0.version >= XdndMessage.minimumVersion ? $0 : nil }
        if session?.target != usable {
            steps += leaveCurrent()
            if let usable {
                let version = min(usable.version, XdndMessage.version)
                session = Session(target: usable, version: version)
                steps.append(.send(
                    .enter(source: source, version: version, types: Array(types.prefix(3)), hasTypeList: types.count > 3),
                    to: usable))
            }
        }
        guard var current = session else { return steps }
        if current.awaitingStatus {
            current.pending = Position(x: x, y: y, time: time, action: action)
            session = current
            return steps
        }
        // Quiet inside the target's rectangle, unless the user changed the action (a key pressed): the target's
        // answer was for the old one.
        if let quiet = current.quietRectangle, quiet.contains(x: x, y: y), action == current.askedAction { return steps }
        current.askedAction = action
        current.awaitingStatus = true
        current.pending = nil
        current.lastSent = Position(x: x, y: y, time: time, action: action)
        current.acceptedSinceLastPosition = false
        session = current
        steps.append(.send(.position(source: source, rootX: x, rootY: y, time: time, action: action), to: current.target))
        return steps
    }

    /// A message from a window: XdndStatus and XdndFinished from the current target count; anything else,
    /// or from anyone else, is ignored (any client can send us ClientMessages).
    mutating func received(_ message: XdndMessage) -> [Step] {
        guard var current = session, message.sender == current.target.window else { return [] }
        switch message {
        case .status(_, let accepts, let wantsPositionsInside, let rectangle, let action):
            // After XdndDrop the target's word is its XdndFinished: a late status (LibreOffice sends several per
            // position) does not change the action the drop was made with.
            if phase == .dropped { return [] }
            // Awaited or not, the target's latest word (see the type's rules).
            let answered = current.awaitingStatus
            current.awaitingStatus = false
            current.accepts = accepts
            current.acceptedAction = accepts ? action : .none
            if accepts { current.acceptedSinceLastPosition = true }
            current.quietRectangle = wantsPositionsInside || rectangle.width == 0 || rectangle.height == 0 ? nil : rectangle
            session = current
            switch phase {
            case .dragging:
                guard answered, let pending = current.pending else { return [] }
                current.pending = nil
                session = current
                return pointerMoved(over: current.target, x: pending.x, y: pending.y, time: pending.time, action: pending.action)
            case .releasedAwaitingStatus(let time, let reasked):
                if accepts, !reasked { return drop(at: time) }
                phase = .releasedSettling(time: time)
                return [.restartWatchdog]
            case .releasedSettling:
                // The target's latest word when `settleTimeout` is over decides (`deadlinePassed`): a fixed bound,
                // which a target that keeps talking cannot stretch (Writer's three come within 2 ms).
                return []
            case .dropped, .ended:
                return []
            }
        case .finished(_, let accepted, _):
            guard phase == .dropped else { return [] }
            // A finish after an accepting status is a drop, with the action that status accepted, whatever the
            // finish's flag says — as GTK 4's source judges it (gdk/x11/gdkdrag-x11.c, gdk_x11_drag_handle_finished:
            // "dnd-finished" is emitted, and GtkDragSource ends the drag as done, before the flag reaches
            // gdk_drag_drop_done, which only animates a failure). Qt 5's target answers a drop its widget handled
            // without calling accept() with flag 0 and action None (qxcbdrag.cpp, QXcbDrag::handleDrop): Kate opens
            // a dropped file so. The flag is kept beside the outcome; before version 5 a finish carries none.
            return end(.dropped(target: current.target.window, action: current.acceptedAction,
                                targetAccepted: current.version >= 5 ? accepted : true))
        case .enter, .position, .leave, .drop:
            return []
        }
    }

    /// The button was released at `time`.
    mutating func buttonReleased(time: X11Timestamp) -> [Step] {
        guard phase == .dragging else { return [] }
        guard var current = session else { return end(.refused) }
        if current.awaitingStatus {
            phase = .releasedAwaitingStatus(time: time, reasked: false)
            return []
        }
        if !current.accepts, current.acceptedSinceLastPosition, let last = current.lastSent {
            // The target's latest word refuses, but it accepted this very position a moment ago: a wavering target
            // (LibreOffice under load answers refuse, accept, refuse) is asked once more where the button was
            // released; its latest word `settleTimeout` after the first answer decides.
            current.awaitingStatus = true
            current.acceptedSinceLastPosition = false
            current.lastSent = Position(x: last.x, y: last.y, time: time, action: last.action)
            session = current
            phase = .releasedAwaitingStatus(time: time, reasked: true)
            return [.send(.position(source: source, rootX: last.x, rootY: last.y, time: time, action: last.action),
                          to: current.target)]
        }
        return drop(at: time)
    }

    private mutating func drop(at time: X11Timestamp) -> [Step] {
        guard let current = session else { return end(.refused) }
        guard current.accepts else { return leaveCurrent() + end(.refused) }
        phase = .dropped
        return [.send(.drop(source: source, time: time), to: current.target)]
    }

    /// Escape, or the program gave up.
    mutating func cancel() -> [Step] {
        guard outcome == nil else { return [] }
        if phase == .dropped, let current = session {
            return end(.abandoned(target: current.target.window, reason: "cancelled while the target took the drop"))
        }
        return leaveCurrent() + end(.cancelled)
    }

    /// The watchdog's deadline (`awaitedAnswer`) passed.
    mutating func deadlinePassed() -> [Step] {
        guard let current = session else { return [] }
        switch phase {
        case .dropped:
            return end(.abandoned(target: current.target.window, reason: "no XdndFinished within \(finishWait)"))
        case .releasedAwaitingStatus:
            return leaveCurrent() + end(.abandoned(target: current.target.window, reason: "no XdndStatus within \(statusWait)"))
        case .releasedSettling(let time):
            return current.accepts ? drop(at: time) : leaveCurrent() + end(.refused)
        case .dragging:
            // A target that stopped answering mid-drag is treated as refusing until it answers again.
            var stale = current
            stale.awaitingStatus = false
            stale.accepts = false
            session = stale
            return []
        case .ended:
            return []
        }
    }

    /// The target's window was destroyed (or its client went away).
    mutating func targetVanished(_ window: X11Window) -> [Step] {
        guard let current = session, current.target.window == window || current.target.messageWindow == window else {
            return []
        }
        session = nil
        switch phase {
        case .dropped, .releasedAwaitingStatus, .releasedSettling:
            return end(.abandoned(target: current.target.window, reason: "the target went away during the drop"))
        case .dragging, .ended:
            return []
        }
    }

    private mutating func leaveCurrent() -> [Step] {
        guard let current = session else { return [] }
        session = nil
        return [.send(.leave(source: source), to: current.target)]
    }

    private mutating func end(_ outcome: Outcome) -> [Step] {
        phase = .ended(outcome)
        return [.finish(outcome)]
    }
}
