// fuzz-xdnd-machines: the two XDND state machines (Sources/X11Selection/Protocol/XdndSource.swift and
// XdndTarget.swift), fed event sequences decoded from the input. Byte 0 picks the machine.
//
// XdndSource: the pointer moves over windows (XDND-aware ones of versions 2–5, one behind a proxy, or none),
// the button is released, Escape cancels, the watchdog's deadline passes, windows vanish, and messages arrive
// from anyone — decoded from arbitrary ClientMessage words, as the source's window receives them.
// Checked: no trap; nothing after the drag ended (`.finish`), `.finish` at most once and last in its list,
// and `outcome` set exactly then; every message comes from our window, goes to the target entered last and
// not left (an enter first, to a window of version 3 or more, with the lower of the two versions; a leave
// before another enter); one XdndPosition in flight per target (the next only after a status, or the
// watchdog); at most one XdndDrop, only to a target whose latest status accepted, and no position after it;
// a `.dropped` outcome names the dropped-on target; every message sent survives its wire form.
//
// XdndTarget: messages arrive from several sources (decoded from arbitrary words), the application answers
// asks and drops at any time (or never), the type list is read or not, sources go silent.
// Checked: no trap; only the source that entered is heard (no step for another's position, leave or drop,
// but for a new enter, which never replaces a drop being taken); each ask gets one status at most, and a status only answers an ask; a status that
// accepts names an action; one drop per drag: `.takeDrop` at most once per enter, then exactly one
// XdndFinished when the application reports, carrying its verdict; a refused drop finishes at once for
// version 5 and not before; after a drag ended (left, finished) nothing is sent for it; messages go to the
// source that entered and name our window.

import CFuzzerDriver
import FuzzSupport
@testable import X11Selection

private let maximumSteps = 4096
private let ourWindow = X11Window(rawValue: 0x20_0001)
private let copy = X11Atom(rawValue: 300), move = X11Atom(rawValue: 301)
private let actions: [X11Atom] = [.none, copy, move, X11Atom(rawValue: 7)]
/// Windows messages may come from: the targets (and a proxy), sources, strangers, and 0.
private let senders: [UInt] = [0x30_0001, 0x30_0002, 0x30_0009, 0x30_0003, 0x50_0001, 0x50_0002, 0x99, 0]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var input = FuzzReader(fuzzBytes(start, count))
    if input.byte() & 1 == 0 {
        var run = SourceRun(input: input)
        run.run()
    } else {
        var run = TargetRun(input: input)
        run.run()
    }
    return 0
}

/// A message as a window receives it: a kind, then five words from the input (the first, the sender, from
/// `senders` so that it often names a window in play), decoded as the connection decodes ClientMessages.
private func receivedMessage(_ input: inout FuzzReader, honestKinds: [XdndMessage.Kind]? = nil) -> XdndMessage? {
    let kind = input.pick(honestKinds ?? XdndMessage.Kind.allCases)
    var words = [UInt(senders[input.below(senders.count)])]
    for _ in 0..<4 {
        // Mostly small values (flags, versions, atoms), sometimes any 32 bits.
        words.append(input.bool() ? UInt(input.uint32()) : UInt(input.byte()) << (input.bool() ? 24 : 0))
    }
    return XdndMessage.decode(kind, words: words)
}

/// A sent message must survive the wire: its words decode to the same message.
private func checkWire(_ message: XdndMessage) {
    let decoded = XdndMessage.decode(message.kind, words: message.words)
    fuzzCheck(decoded == message, "\(message) does not survive its wire form: \(String(describing: decoded))")
}

// MARK: - Source

private struct SourceRun {
    enum Phase { case dragging, released, dropped, ended }

    var input: FuzzReader
    var machine: XdndSource
    let targets: [XdndSource.Target?] = [
        nil,
        XdndSource.Target(window: X11Window(rawValue: 0x30_0001), messageWindow: X11Window(rawValue: 0x30_0001), version: 5),
        XdndSource.Target(window: X11Window(rawValue: 0x30_0002), messageWindow: X11Window(rawValue: 0x30_0009), version: 4),
        XdndSource.Target(window: X11Window(rawValue: 0x30_0003), messageWindow: X11Window(rawValue: 0x30_0003), version: 3),
        XdndSource.Target(window: X11Window(rawValue: 0x30_0001), messageWindow: X11Window(rawValue: 0x30_0001), version: 2),
        XdndSource.Target(window: X11Window(rawValue: 0x30_0003), messageWindow: X11Window(rawValue: 0x30_0003), version: 9),
    ]
    // A model of the drag, kept from the messages sent and the answers delivered, against which the machine's
    // steps are checked.
    var phase = Phase.dragging
    /// The target entered and not left (or forgotten when it vanished).
    var entered: XdndSource.Target?
    /// A position was sent to `entered` and its status not taken yet.
    var positionInFlight = false
    /// The last status `entered` answered (and the source took) accepted.
    var accepted = false
    var dropTarget: XdndSource.Target?

    init(input: FuzzReader) {
        self.input = input
        let typeCount = [0, 1, 3, 4, 40][Int(self.input.byte()) % 5]
        machine = XdndSource(source: X11Window(rawValue: 0x10_0001), types: (0..<typeCount).map { X11Atom(rawValue: UInt(400 + $0)) })
    }

    mutating func run() {
        var steps = 0
        while !input.isAtEnd && steps < maximumSteps {
            steps += 1
            switch input.byte() % 10 {
            case 0, 1, 2:
                let over = input.pick(targets)
                let (x, y) = (Int(input.uint16()), Int(input.uint16()))
                let time = X11Timestamp(rawValue: UInt(input.uint32()))
                let action = input.pick(actions)
                apply(machine.pointerMoved(over: over, x: x, y: y, time: time, action: action), "pointerMoved")
            case 3, 4, 5:
                // Mostly what a target answers (status, finished), from whoever the input names.
                let honest: [XdndMessage.Kind]? = input.bool() ? [.status, .finished] : nil
                guard let message = receivedMessage(&input, honestKinds: honest) else { continue }
                if let entered, message.sender == entered.window, case .status(_, let accepts, _, _, _) = message {
                    // Awaited or not, a status from the current target is its latest word.
                    positionInFlight = false
                    accepted = accepts
                }
                apply(machine.received(message), "received(\(message.kind))")
            case 6:
                let wasDragging = phase == .dragging
                let steps = machine.buttonReleased(time: X11Timestamp(rawValue: UInt(input.uint32())))
                apply(steps, "buttonReleased")
                if wasDragging && steps.isEmpty {
                    fuzzCheck(entered != nil && positionInFlight, "released with nothing to wait for, and nothing done")
                    phase = .released
                } else if wasDragging, steps.count == 1, case .send(.position, _) = steps[0] {
                    // Asked once more where the button was released (a target that accepted, then refused).
                    phase = .released
                }
            case 7:
                apply(machine.cancel(), "cancel")
            case 8:
                if phase == .dragging, entered != nil {
                    // A target that did not answer in time is treated as refusing until it answers again.
                    positionInFlight = false
                    accepted = false
                }
                apply(machine.deadlinePassed(), "deadlinePassed")
            default:
                let window = X11Window(rawValue: senders[input.below(senders.count)])
                if let current = entered, current.window == window || current.messageWindow == window {
                    // Forgotten: no leave can reach a window that is gone.
                    entered = nil
                    positionInFlight = false
                    accepted = false
                }
                apply(machine.targetVanished(window), "targetVanished")
            }
            fuzzCheck((phase == .ended) == (machine.outcome != nil), "outcome \(String(describing: machine.outcome)), phase \(phase)")
            if phase == .ended { fuzzCheck(machine.awaitedAnswer == nil, "awaiting an answer after the drag ended") }
            if phase == .dropped { fuzzCheck(machine.awaitedAnswer == machine.finishWait, "not waiting for XdndFinished") }
            fuzzCheck(machine.currentTarget == entered || phase == .ended, "current target \(String(describing: machine.currentTarget))")
        }
    }

    mutating func apply(_ steps: [XdndSource.Step], _ call: String) {
        if phase == .ended { fuzzCheck(steps.isEmpty, "\(call) after the drag ended: \(steps)") }
        for (index, step) in steps.enumerated() {
            switch step {
            case .finish(let outcome):
                fuzzCheck(phase != .ended, "a second finish \(outcome)")
                fuzzCheck(index == steps.count - 1, "finish is not the last step of \(call): \(steps)")
                fuzzCheck(machine.outcome == outcome, "finished \(outcome), outcome \(String(describing: machine.outcome))")
                if case .dropped(let target, _, _) = outcome {
                    fuzzCheck(dropTarget?.window == target, "dropped on \(target), the drop went to \(String(describing: dropTarget))")
                }
                phase = .ended
            case .restartWatchdog:
                fuzzCheck(phase != .ended, "restartWatchdog after the drag ended")
                fuzzCheck(machine.awaitedAnswer != nil, "restartWatchdog with nothing awaited")
            case .send(let message, let target):
                fuzzCheck(phase != .ended, "\(message) after the drag ended")
                fuzzCheck(message.sender == machine.source, "\(message) does not come from the source window")
                fuzzCheck(target.version >= XdndMessage.minimumVersion, "a message to a version-\(target.version) window")
                checkWire(message)
                switch message {
                case .enter(_, let version, let types, let hasTypeList):
                    fuzzCheck(entered == nil, "entered \(target.window) without leaving \(String(describing: entered))")
                    fuzzCheck(phase == .dragging, "entered in phase \(phase)")
                    fuzzCheck(version == min(target.version, XdndMessage.version), "entered with version \(version)")
                    fuzzCheck(types == Array(machine.types.prefix(3)) && hasTypeList == (machine.types.count > 3), "types \(types)")
                    entered = target
                    positionInFlight = false
                    accepted = false
                case .position:
                    fuzzCheck(entered == target, "a position to \(target.window), entered \(String(describing: entered))")
                    fuzzCheck(!positionInFlight, "a second position in flight to \(target.window)")
                    fuzzCheck(phase == .dragging, "a position in phase \(phase)")
                    positionInFlight = true
                case .leave:
                    fuzzCheck(entered == target, "a leave to \(target.window), entered \(String(describing: entered))")
                    fuzzCheck(phase != .dropped, "a leave after the drop")
                    entered = nil
                    positionInFlight = false
                    accepted = false
                case .drop:
                    fuzzCheck(entered == target, "a drop on \(target.window), entered \(String(describing: entered))")
                    fuzzCheck(dropTarget == nil && phase != .dropped, "a second drop")
                    fuzzCheck(accepted, "a drop on \(target.window), whose last status did not accept")
                    fuzzCheck(!positionInFlight, "a drop before the last position's status")
                    dropTarget = target
                    phase = .dropped
                case .status, .finished:
                    fuzzCheck(false, "the source sent \(message)")
                }
            }
        }
    }
}

// MARK: - Target

private struct TargetRun {
    var input: FuzzReader
    var machine = XdndTarget(window: ourWindow)
    /// The source of the drag under way, as the steps say, and its version.
    var source: X11Window?
    var version = 0
    var typesKnown = true
    var asked = false
    var acceptedLast = false
    var dropping = false
    var dropsThisDrag = 0

    init(input: FuzzReader) { self.input = input }

    mutating func run() {
        var steps = 0
        while !input.isAtEnd && steps < maximumSteps {
            steps += 1
            switch input.byte() % 8 {
            case 0, 1, 2, 3:
                // Mostly the messages a source sends, from whoever the input names.
                let honest: [XdndMessage.Kind]? = input.bool() ? [.enter, .position, .position, .drop, .leave] : nil
                guard let message = receivedMessage(&input, honestKinds: honest) else { continue }
                receive(message)
            case 4:
                let list: [X11Atom]? = input.bool() ? nil : (0..<input.below(6)).map { X11Atom(rawValue: UInt(500 + $0)) }
                let steps = machine.typesRead(list)
                check(steps, "typesRead")
                if !typesKnown, source != nil {
                    fuzzCheck(steps.count == 1, "typesRead answered \(steps)")
                    typesKnown = true
                } else {
                    fuzzCheck(steps.isEmpty, "typesRead when no list was asked for: \(steps)")
                }
            case 5:
                let accepts = input.bool()
                let action = input.pick(actions)
                let rectangle = input.bool() ? XdndRectangle.empty
                    : XdndRectangle(x: Int(input.byte()), y: Int(input.byte()), width: Int(input.byte()), height: Int(input.byte()))
                let steps = machine.decide(accepts: accepts, action: action, rectangle: rectangle)
                check(steps, "decide")
                if asked && source != nil {
                    fuzzCheck(steps.count == 1, "an ask answered with \(steps)")
                    if case .send(.status(_, let sentAccepts, let inside, let sentRectangle, let sentAction), _)? = steps.first {
                        fuzzCheck(sentAccepts == (accepts && !action.isNone), "status accepts \(sentAccepts) for \(accepts)/\(action)")
                        fuzzCheck(sentAction == (sentAccepts ? action : .none), "status action \(sentAction)")
                        fuzzCheck(sentRectangle == rectangle && inside == (rectangle == .empty), "status rectangle")
                        acceptedLast = sentAccepts
                    } else {
                        fuzzCheck(false, "an ask answered with \(steps)")
                    }
                    asked = false
                } else {
                    fuzzCheck(steps.isEmpty, "a status that answers no ask: \(steps)")
                }
            case 6:
                let accepted = input.bool()
                let action = input.pick(actions)
                let steps = machine.dropHandled(accepted: accepted, action: action)
                check(steps, "dropHandled")
                if dropping {
                    guard case .send(.finished(_, let sentAccepted, let sentAction), to: let to)? = steps.first, steps.count == 1 else {
                        fuzzCheck(false, "a handled drop finished with \(steps)")
                        continue
                    }
                    fuzzCheck(to == source, "finished sent to \(to), the source is \(String(describing: source))")
                    fuzzCheck(sentAccepted == accepted && sentAction == (accepted ? action : .none), "finished verdict")
                    endDrag()
                } else {
                    fuzzCheck(steps.isEmpty, "dropHandled without a drop: \(steps)")
                }
            default:
                let steps = machine.sourceGone()
                check(steps, "sourceGone")
                fuzzCheck(steps == (source == nil ? [] : [.left]), "sourceGone: \(steps)")
                endDrag()
            }
            fuzzCheck(machine.isTargeted == (source != nil), "isTargeted \(machine.isTargeted), source \(String(describing: source))")
            fuzzCheck(machine.source == source, "the machine's source \(String(describing: machine.source)), ours \(String(describing: source))")
        }
    }

    mutating func endDrag() {
        source = nil
        asked = false
        acceptedLast = false
        dropping = false
        typesKnown = true
    }

    mutating func receive(_ message: XdndMessage) {
        let steps = machine.received(message)
        check(steps, "received(\(message.kind))")
        let fromSource = source == message.sender
        switch message {
        case .enter(let sender, let enterVersion, let types, let hasTypeList):
            // A drop being taken is never replaced: an enter meanwhile (anyone's) is ignored.
            guard !dropping else {
                fuzzCheck(steps.isEmpty, "an enter during a drop answered \(steps)")
                return
            }
            var expected: [XdndTarget.Step] = source != nil && !fromSource ? [.left] : []
            expected.append(hasTypeList ? .readTypeList(source: sender) : .entered(source: sender, types: types))
            fuzzCheck(steps == expected, "enter answered \(steps), expected \(expected)")
            source = sender
            version = min(enterVersion, XdndMessage.version)
            typesKnown = !hasTypeList
            asked = false
            acceptedLast = false
            dropping = false
            dropsThisDrag = 0
        case .position(_, let x, let y, let time, let action):
            guard fromSource && !dropping else {
                fuzzCheck(steps.isEmpty, "a position heard from \(message.sender): \(steps)")
                return
            }
            fuzzCheck(steps == [.ask(x: x, y: y, action: action, time: time)], "position answered \(steps)")
            asked = true
        case .leave:
            guard fromSource && !dropping else {
                fuzzCheck(steps.isEmpty, "a leave heard from \(message.sender): \(steps)")
                return
            }
            fuzzCheck(steps == [.left], "leave answered \(steps)")
            endDrag()
        case .drop(_, let time):
            guard fromSource && !dropping, let dropSource = source else {
                fuzzCheck(steps.isEmpty, "a drop heard from \(message.sender): \(steps)")
                return
            }
            dropsThisDrag += 1
            fuzzCheck(dropsThisDrag == 1, "a second drop in one drag")
            if acceptedLast {
                guard case .takeDrop(let dropTime, let action)? = steps.first, steps.count == 1 else {
                    fuzzCheck(false, "an accepted drop answered \(steps)")
                    return
                }
                fuzzCheck(dropTime == time && !action.isNone, "takeDrop(\(dropTime), \(action))")
                dropping = true
            } else {
                let finish: [XdndTarget.Step] = version >= 5
                    ? [.send(.finished(target: ourWindow, accepted: false, action: .none), to: dropSource)] : []
                fuzzCheck(steps == finish + [.left], "a refused drop answered \(steps)")
                endDrag()
            }
        case .status, .finished:
            fuzzCheck(steps.isEmpty, "a target heard \(message.kind): \(steps)")
        }
    }

    /// Every message the target sends names our window and goes to the source that entered.
    func check(_ steps: [XdndTarget.Step], _ call: String) {
        for step in steps {
            guard case .send(let message, let to) = step else { continue }
            fuzzCheck(message.sender == ourWindow, "\(message) does not name our window")
            fuzzCheck(to == source, "\(message) sent to \(to), not the source \(String(describing: source))")
            checkWire(message)
        }
    }
}

// libFuzzer's main, under the name SwiftPM links as `main` (see CFuzzerDriver.h).
@_cdecl("fuzz_xdnd_machines_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    clipbridge_fuzzer_main(argc, argv)
}
