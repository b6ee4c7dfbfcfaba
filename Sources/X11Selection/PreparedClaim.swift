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
    /// The well-known atoms and the selection's, interned in one round trip (parallel arrays).
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
        let names = WellKnownAtoms.names + [selection.rawValue]
        let atoms = opened.internAtoms(names)
        // Looked up in the arrays: a Dictionary here would be this short-lived process's first of its
        // kind, and instantiating its generic metadata costs more than the lookups.
        func atom(_ name: String) -> X11Atom { atoms[names.firstIndex(of: name)!] }
        let selectionAtom = atoms[atoms.count - 1]
        do throws(SelectionError) {
            // ICCCM 2.1: the claim's time is a server timestamp, taken from the PropertyNotify of a
            // zero-length append to a property of our own window.
            let property = atom("CLIPBRIDGE_TIMESTAMP")
            opened.changeProperty(
                window, property, type: atom("INTEGER"), format: 8, append: true,
                bytes: UnsafeRawBufferPointer(start: nil, count: 0))
            opened.flush()
            let time = try Self.awaitPropertyNotify(
                on: opened, window: window, property: property, deadline: .now + configuration.readTimeout,
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
        self.selectionAtom = selectionAtom
        internedNames = names
        internedAtoms = atoms
    }

    deinit {
        if !taken.withLock({ $0 }) { display.close() }
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
        while true {
            if let time = display.takePropertyNotify(window: window, property: property) { return time }
            if display.isDead {
                throw SelectionError(.connectionLost, "the connection to \(displayName) broke")
            }
            guard ContinuousClock.now < deadline else {
                throw SelectionError(.timedOut, "no PropertyNotify from the server for a timestamp")
            }
            guard display.waitForInput(until: deadline) else {
                throw SelectionError(.connectionLost, "the connection to \(displayName) broke")
            }
            _ = display.readAvailableEvents()
        }
    }
}
