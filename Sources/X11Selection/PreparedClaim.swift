import FoundationEssentials
import Synchronization

/// A selection claimed synchronously on the calling thread, to be served by an ``X11Connection`` that
/// continues this claim's connection: ``X11Connection/open(continuing:configuration:)``.
///
/// It exists for commands that return as soon as they own the selection and serve from a child process,
/// xclip's model: claim, then `fork(2)`, and the child serves. Claiming before the fork lets the parent
/// report a refused claim with its exit status and exit at once, without waiting for a second process to
/// start its threads; forking before any thread exists keeps the child sound (only the forking thread
/// survives a fork). The claim takes a real server timestamp (ICCCM 2.1: never CurrentTime) and is
/// verified with GetSelectionOwner, exactly as ``X11Connection/claim(_:offering:)`` does.
///
/// Requests that arrive before the continuing connection's ``X11Connection/claim(_:offering:)`` supplies
/// the offer are held, not refused, and answered once it does; if the selection is lost in between, that
/// `claim` throws `.ownershipLost` instead of taking it back from the newer owner.
///
/// A prepared claim is used once. Dropping it unused closes its connection, which gives the selection up.
/// In a parent that forked, end with `_exit(2)` and do not drop it: closing the Display runs a round trip
/// on the socket the child shares.
public final class PreparedClaim: @unchecked Sendable {
    // @unchecked: the Display is used by the initialiser and then by the one party that `take()`s it
    // (guarded by the mutex), never by two threads at once.

    /// The display name in use (`$DISPLAY` when none was given).
    public let displayName: String
    /// The claimed selection.
    public let selection: SelectionName
    /// The server time of the claim (what TIMESTAMP will answer).
    public let timestamp: X11Timestamp
    /// The connection's socket: a forked child that closes the descriptors it inherited keeps this one.
    public var fileDescriptor: Int32 { display.fileDescriptor }
    let display: XDisplay
    let window: X11Window
    let selectionAtom: X11Atom
    /// The selection's atom when it had to be interned (parallel arrays; empty for PRIMARY and SECONDARY).
    let internedNames: [String]
    let internedAtoms: [X11Atom]
    private let taken = Mutex(false)

    /// Opens `display` (or `$DISPLAY`), claims `selection` and verifies the claim, on the calling thread.
    ///
    /// - Throws: `.displayUnavailable` naming the display value; `.timedOut` when the server time did not
    ///   arrive within the configuration's `readTimeout`; `.ownershipRefused`; `.connectionLost`.
    public init(_ selection: SelectionName, display: String? = nil, configuration: Configuration = .init())
        throws(SelectionError)
    {
        let (name, opened) = try DisplayOpening.open(display)
        let window = opened.createUtilityWindow()
        do throws(SelectionError) {
            // ICCCM 2.1: the claim's time is a server timestamp; asked for with the window's creation.
            opened.requestServerTime(on: window)
            // CLIPBOARD's atom is interned in the same round trip (its reply follows the PropertyNotify);
            // PRIMARY and SECONDARY are predefined. The atoms the server needs are interned by the
            // connection that continues this one, off the path of a caller waiting for the claim.
            let predefined = X11Atom.predefinedSelection(selection.rawValue)
            selectionAtom = predefined ?? opened.internAtom(selection.rawValue)
            internedNames = predefined == nil ? [selection.rawValue] : []
            internedAtoms = predefined == nil ? [selectionAtom] : []
            opened.flush()
            let time = try Self.awaitPropertyNotify(
                on: opened, window: window, property: .wmName, deadline: .now + configuration.readTimeout,
                displayName: name)
            opened.setSelectionOwner(selectionAtom, window, time: time)
            guard opened.selectionOwner(selectionAtom) == window else {
                throw SelectionError(
                    .ownershipRefused, "\(selection): the server did not make this client the owner (time \(time))")
            }
            if opened.isDead {
                throw SelectionError(.connectionLost, "the connection to \(name) broke while claiming \(selection)")
            }
            _ = opened.takeErrors()
            timestamp = time
        } catch {
            opened.close()
            throw error
        }
        displayName = name
        self.selection = selection
        self.display = opened
        self.window = window
    }

    deinit {
        if !taken.withLock({ $0 }) { display.close() }
    }

    /// What ended ``awaitActivity(for:)``.
    public enum Activity: Sendable, Equatable {
        /// Events arrived (a request for the selection, most likely): serve them.
        case events
        /// Another client took the selection before anyone asked this one for anything.
        case lost
        /// Nothing happened within the time given.
        case quiet
        /// The connection to the X server broke.
        case connectionLost
    }

    /// Sleeps on the calling thread until the claim sees activity, at most `duration`.
    ///
    /// For a server that starts its serving machinery only when there is something to serve: a copy
    /// superseded by the next one within moments (a script copying in a loop) never has to build its
    /// offer. Events that arrive stay queued, in order, for the connection that continues this claim,
    /// which answers them; only a loss that comes with nothing else queued is reported as `.lost` (nothing
    /// was asked of this owner, so there is no transfer to finish, ICCCM 2.2). Call it before
    /// ``X11Connection/open(continuing:configuration:)``, on the thread that made the claim.
    public func awaitActivity(for duration: Duration) -> Activity {
        let outcome = Self.readEvents(on: display, until: .now + duration) { () -> Activity? in
            // Events come in the server's order: with a SelectionClear in the queue, every request the
            // server sent before the loss is queued too. A request is answered (the continuing
            // connection refuses what it no longer owns), never left to time out.
            if display.queueHoldsOnlySelectionClear(window: window, selection: selectionAtom) {
                display.discardSelectionClears(window: window)
                return .lost
            }
            return display.queuedEvents > 0 ? .events : nil
        }
        switch outcome {
        case .found(let activity): return activity
        case .deadlinePassed: return .quiet
        case .connectionLost: return .connectionLost
        }
    }

    /// Marks the claim used; false if it already was.
    func take() -> Bool {
        taken.withLock { wasTaken in
            defer { wasTaken = true }
            return !wasTaken
        }
    }

    /// Blocks until PropertyNotify for `property` on `window` arrives; other events stay in Xlib's queue
    /// for the connection that continues this one (a SelectionRequest may come right after the claim).
    private static func awaitPropertyNotify(
        on display: XDisplay, window: X11Window, property: X11Atom, deadline: ContinuousClock.Instant,
        displayName: String
    ) throws(SelectionError) -> X11Timestamp {
        let outcome = readEvents(on: display, until: deadline) {
            display.takePropertyNotify(window: window, property: property)
        }
        switch outcome {
        case .found(let time): return time
        case .deadlinePassed: throw SelectionError(.timedOut, "no PropertyNotify from the server for a timestamp")
        case .connectionLost: throw SelectionError(.connectionLost, "the connection to \(displayName) broke")
        }
    }

    /// How ``readEvents(on:until:_:)`` ended.
    private enum EventSearch<Found> {
        case found(Found), deadlinePassed, connectionLost
    }

    /// Reads what the socket holds into Xlib's queue, on the calling thread, until `look` finds what it
    /// looks for in the queue, the connection breaks, or `deadline` passes.
    private static func readEvents<Found>(
        on display: XDisplay, until deadline: ContinuousClock.Instant, _ look: () -> Found?
    ) -> EventSearch<Found> {
        while true {
            if let found = look() { return .found(found) }
            if display.isDead { return .connectionLost }
            guard ContinuousClock.now < deadline else { return .deadlinePassed }
            guard display.waitForInput(until: deadline) else { return .connectionLost }
            _ = display.readAvailableEvents()
        }
    }
}
