import FoundationEssentials

/// A requestor that runs entirely on its caller's thread: no event-loop thread, no Swift concurrency, no
/// owner side. For short-lived processes that read a selection once and exit (a `paste` command, a
/// script helper), where starting threads and the actor machinery of ``X11Connection`` would cost more
/// than the read itself: like xclip, it is one thread blocking in `poll(2)` with a deadline.
///
/// It speaks the same protocol as ``X11Connection``'s reads, driven by the same state machine: a unique
/// property per read, INCR (ICCCM 2.7.2) with a per-chunk idle timeout, the owner's refusal told apart
/// from "nobody owns the selection". Every wait has a deadline; a dead X server ends the call with
/// `.connectionLost` and the process lives on.
///
/// Not `Sendable`: use one reader from one thread (or task) at a time, and ``close()`` it when done (the
/// deinitialiser closes it too). For anything long-lived — owning, watching, concurrent reads — use
/// ``X11Connection``.
public final class BlockingSelectionReader {
    /// The display name in use (`$DISPLAY` when none was given).
    public let displayName: String
    private let configuration: Configuration
    private let display: XDisplay
    private let window: X11Window
    /// Interned atoms and their names, in parallel. Arrays, not dictionaries: a reader lives for a few
    /// reads of a short process, where a Dictionary's first generic-metadata work costs more than
    /// searching a dozen entries.
    private var knownNames: [String] = []
    private var knownAtoms: [X11Atom] = []
    private var readCount = 0
    /// Whether the last read was an incremental (INCR) transfer.
    public private(set) var lastReadWasIncremental = false

    /// Opens `display` (or `$DISPLAY`).
    ///
    /// - Throws: `.displayUnavailable` naming the display value when it is unset or cannot be opened;
    ///   there is no silent fallback to `:0`.
    public init(display: String? = nil, configuration: Configuration = .init()) throws(SelectionError) {
        let (name, opened) = try DisplayOpening.open(display)
        displayName = name
        self.configuration = configuration
        self.display = opened
        window = opened.createUtilityWindow()
        // A real server time for the requests (ICCCM 2.4), at no extra round trip: the PropertyNotify of a
        // zero-length append to our window's WM_NAME (as xsel does) is queued before the InternAtoms reply.
        opened.requestServerTime(on: window)
        // In the one round trip that also creates the window: what the first reads need. The names owners
        // usually list in TARGETS are interned by the first read while its owner answers (see
        // `internCommonNamesOnce`): Xlib handles each InternAtom reply with a few system calls, about 8 µs a
        // name here, time better spent while the owner works than before the first request.
        _ = atoms(Self.essentialNames + (1...2).map(Self.propertyName))
        serverTime = opened.takeServerTime(on: window) ?? .currentTime
    }

    /// The server time the requests carry (taken when the reader opened).
    private var serverTime = X11Timestamp.currentTime

    deinit { display.close() }

    /// Closes the connection. Later calls throw `.shutDown`.
    public func close() { display.close() }

    /// The targets the owner of `selection` offers, in its order.
    ///
    /// - Throws: `.noOwner`, `.timedOut`, `.invalidReply`, `.connectionLost`.
    public func targets(of selection: SelectionName, timeout: Duration? = nil) throws(SelectionError)
        -> [SelectionTarget]
    {
        var bytes = Data()
        let summary: SelectionStreamSummary
        do {
            summary = try read(selection, target: .targets, timeout: timeout) { bytes.append($0) }
        } catch let error as SelectionError {
            throw error
        } catch {
            throw SelectionError(.invalidReply, "\(selection):TARGETS", underlying: error)
        }
        let list = try Format32.targetAtoms(bytes, type: summary.type, format: summary.format)
        return try names(list).compactMap { $0.map(SelectionTarget.init(rawValue:)) }
    }

    /// Reads `selection` as `target`, handing the bytes to `sink` as they arrive (one call for a reply in
    /// one piece, one per chunk for INCR), so memory stays bounded at any size.
    ///
    /// - Parameters:
    ///   - selection: the selection to read.
    ///   - target: the target to convert it to.
    ///   - timeout: the wait for the owner's answer; nil uses the configuration's `readTimeout`. Each INCR
    ///     chunk has the configuration's `incrementalIdleTimeout`.
    ///   - sink: receives the bytes, in order, on the calling thread.
    /// - Throws: ``SelectionError`` (`.noOwner`; `.targetUnavailable` when the owner refuses; `.timedOut`;
    ///   `.invalidReply`; `.connectionLost`; `.shutDown` after ``close()``), or what `sink` throws (the read
    ///   is then abandoned).
    public func read(
        _ selection: SelectionName, target: SelectionTarget, timeout: Duration? = nil,
        into sink: (Data) throws -> Void
    ) throws -> SelectionStreamSummary {
        guard !display.isDead else {
            throw SelectionError(display.isClosed ? .shutDown : .connectionLost,
                                 "the connection to \(displayName) is closed")
        }
        readCount += 1
        // One round trip for every name this read may meet: INCR, and TEXT's encodings (a TEXT read may be
        // answered with any of them, ReadStateMachine.answers).
        let resolved = atoms([selection.rawValue, target.rawValue, Self.propertyName(readCount),
                              "INCR", "TEXT", "STRING", "UTF8_STRING", "COMPOUND_TEXT"])
        let (selectionAtom, targetAtom, property) = (resolved[0], resolved[1], resolved[2])
        let context = "\(selection):\(target)"
        let replyTimeout = timeout ?? configuration.readTimeout
        var machine = ReadStateMachine(
            request: .init(
                selection: selectionAtom, target: targetAtom, property: property, time: serverTime,
                alternativeTargets: ReadStateMachine.Request.alternatives(
                    for: targetAtom, text: resolved[4], encodings: Array(resolved[5...]))),
            incrAtom: resolved[3], bufferLimit: Int.max, sliceBytes: configuration.propertySliceBytes)
        var deadline = ContinuousClock.now + replyTimeout
        var probe: ContinuousClock.Instant?
        var finished = false
        var total = 0

        // Performs the machine's actions, feeding back what they produce; true once the read ended.
        func perform(_ actions: [ReadStateMachine.Action]) throws -> Bool {
            var queue = actions[...]
            while let action = queue.popFirst() {
                switch action {
                case .convert(let time):
                    display.convertSelection(selectionAtom, target: targetAtom, property: property, requestor: window,
                                             time: time)
                    display.flush()
                case .requestTimestamp:
                    display.requestServerTime(on: window)
                    display.flush()
                case .readProperty(let offset):
                    // A round trip: the deletion (which lets an INCR owner send on) is in the same request.
                    let value = display.getProperty(
                        window, property, delete: true, offset: offset, length: machine.sliceBytes)
                    queue.append(contentsOf: machine.propertyRead(value))
                case .deliver(let bytes):
                    total += bytes.count
                    try sink(bytes)
                    queue.append(contentsOf: machine.consumed(bytes.count))
                case .finish:
                    return true
                case .fail(let failure):
                    throw error(for: failure)
                case .armIdleDeadline:
                    deadline = .now + configuration.incrementalIdleTimeout
                case .shortenReplyDeadline:
                    deadline = min(deadline, .now + ReadStateMachine.notifyGrace)
                case .armProbe:
                    probe = .now + ReadStateMachine.probeInterval
                case .probeOwner:
                    queue.append(contentsOf: machine.ownerProbed(display.selectionOwner(selectionAtom)))
                case .watchOwner(let owner):
                    // Its DestroyNotify, or a BadWindow when it is already gone, ends the read as "owner gone".
                    display.selectInput(owner, propertyChanges: false, structureChanges: true)
                    display.flush()
                }
            }
            return false
        }

        func error(for failure: ReadStateMachine.Failure) -> SelectionError {
            // A refusal or silence from a selection nobody owns (any more) is "nothing is copied".
            if failure == .refused || failure == .noReply, display.selectionOwner(selectionAtom) == nil {
                return SelectionError(.noOwner, "\(selection): nobody owns the selection")
            }
            return failure.selectionError(
                context: context, replyTimeout: replyTimeout, idleTimeout: configuration.incrementalIdleTimeout,
                byteCount: machine.byteCount)
        }

        finished = try perform(machine.start())
        internCommonNamesOnce()
        // Protocol errors are drained as they come (a BadWindow for the watched owner means it is gone), so the
        // queue never grows. An abandoned read needs no clean-up: the owner of an INCR transfer times out when
        // we stop deleting, and each read has its own property.
        defer {
            if let owner = machine.watchedOwner, !display.isDead {
                display.selectInput(owner, propertyChanges: false, structureChanges: false)
                display.flush()
            }
            _ = display.takeErrors()
        }
        while !finished {
            while !finished, display.readAvailableEvents() > 0 {
                switch display.nextEvent(fixesEventBase: nil) {
                case .selectionNotify(let requestor, let notifiedSelection, let notifiedTarget, let notified, let time)
                where requestor == window
                    && machine.answers(selection: notifiedSelection, target: notifiedTarget, property: notified,
                                       time: time):
                    finished = try perform(machine.selectionNotified(property: notified))
                case .propertyNotify(let changed, let changedProperty, _, let deleted)
                where changed == window && changedProperty == property:
                    finished = try perform(machine.propertyChanged(deleted: deleted))
                case .propertyNotify(let changed, .wmName, let time, false) where changed == window:
                    serverTime = time
                    finished = try perform(machine.freshTime(time))
                case .destroyNotify(let destroyed):
                    finished = try perform(machine.windowDestroyed(destroyed))
                default:
                    break
                }
            }
            for failure in display.takeErrors() where !finished && failure.isBadWindow {
                finished = try perform(machine.windowDestroyed(X11Window(rawValue: failure.resourceID)))
            }
            if finished { break }
            if display.isDead {
                throw SelectionError(.connectionLost, "\(context): the connection to \(displayName) broke")
            }
            let now = ContinuousClock.now
            if now >= deadline {
                finished = try perform(machine.deadlinePassed())
                continue
            }
            if let due = probe, now >= due {
                probe = nil
                finished = try perform(machine.probeDue())
                continue
            }
            guard display.waitForInput(until: min(deadline, probe ?? deadline)) else {
                throw SelectionError(.connectionLost, "\(context): the connection to \(displayName) broke")
            }
        }
        lastReadWasIncremental = machine.wasIncremental
        let type = machine.type.isNone ? SelectionTarget(rawValue: "None")
            : SelectionTarget(rawValue: try names([machine.type])[0] ?? "atom#\(machine.type.rawValue)")
        return SelectionStreamSummary(target: target, type: type, format: machine.format, byteCount: total)
    }

    // MARK: Atoms

    /// The property of the `index`th read (a unique one per read, so a late reply to an abandoned read is
    /// never taken for the next one's).
    private static func propertyName(_ index: Int) -> String { "CLIPBRIDGE_SEL_\(index)" }

    /// Atoms a reader needs at once: a text paste reads TARGETS, then usually UTF8_STRING, of CLIPBOARD.
    private static let essentialNames = ["INCR", "TARGETS", "CLIPBOARD", "UTF8_STRING"]

    /// The names most owners list in TARGETS (GTK, Qt, xclip, xsel), so reading that list asks the server
    /// for no name.
    private static let commonNames = [
        "ATOM", "PRIMARY", "MULTIPLE", "TIMESTAMP", "SAVE_TARGETS", "TARGET_SIZES", "DELETE", "STRING", "TEXT",
        "COMPOUND_TEXT", "text/plain", "text/plain;charset=utf-8", "text/html", "text/uri-list", "image/png",
    ]
    private var commonNamesInterned = false

    /// Interns ``commonNames`` once, right after the first read's request went out: the replies come
    /// while the owner prepares its answer, and the SelectionNotify that arrives meanwhile waits in
    /// Xlib's queue for the read.
    private func internCommonNamesOnce() {
        guard !commonNamesInterned else { return }
        commonNamesInterned = true
        _ = atoms(Self.commonNames)
    }

    /// Atoms for names, interning the unknown ones in one round trip.
    private func atoms(_ names: [String]) -> [X11Atom] {
        let missing = names.filter { !knownNames.contains($0) }
        if !missing.isEmpty {
            knownNames += missing
            knownAtoms += display.internAtoms(missing)
        }
        return names.map { knownAtoms[knownNames.firstIndex(of: $0)!] }
    }

    /// Names for atoms, asking the server for the unknown ones in one round trip.
    ///
    /// Linear in the list's length whatever the owner sends (a TARGETS reply is peer-controlled: 100,000
    /// atoms, repeated or unknown to the server, must not cost quadratic time): a dictionary indexes the
    /// known names, each distinct atom is asked once, and atoms the server does not know map to nil.
    private func names(_ atoms: [X11Atom]) throws(SelectionError) -> [String?] {
        var index: [X11Atom: String] = [:]
        index.reserveCapacity(knownAtoms.count)
        for (atom, name) in zip(knownAtoms, knownNames) where index[atom] == nil { index[atom] = name }
        var missing: [X11Atom] = []
        var asked = Set<X11Atom>()
        for atom in atoms where !atom.isNone && index[atom] == nil && asked.insert(atom).inserted {
            missing.append(atom)
        }
        if !missing.isEmpty {
            for (atom, name) in zip(missing, display.atomNames(missing)) {
                guard let name else { continue }
                index[atom] = name
                // Only the few names reads look up again are worth keeping (the arrays are searched linearly).
                if knownAtoms.count < 256 {
                    knownNames.append(name)
                    knownAtoms.append(atom)
                }
            }
            _ = display.takeErrors()
            if display.isDead {
                throw SelectionError(.connectionLost, "the connection to \(displayName) broke")
            }
        }
        return atoms.map { index[$0] }
    }
}
