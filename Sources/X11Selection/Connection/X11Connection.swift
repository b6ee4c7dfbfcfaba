import FoundationEssentials
import Glibc
import Logging
import Synchronization

/// A connection to an X server: selection owner, requestor and owner-change watcher.
///
/// Threading — the one rule: **isolated code runs on whichever thread holds the loop token.** Each connection
/// owns one loop thread that opens the `Display` (no `XInitThreads`); the actor's executor is that thread, and
/// it holds the token whenever it is awake, so actor methods and X event handling normally run there. While
/// the loop sleeps, a read called from another thread may *borrow* the token for up to
/// `Configuration.inlineWaitLimit` and run the same isolated code on its own thread (`X11EventLoop.lend`, see
/// ThreadingModel.md); the two never overlap. Every Xlib call is made by the token's holder. Nothing blocks
/// without a deadline; callers `await`.
///
/// Failure: protocol errors caused by peers (a requestor window that vanished: `BadWindow`) are logged and
/// contained. When the connection breaks (X server killed), pending calls throw `.connectionLost`,
/// sequences finish, and the process keeps running: the Xlib IO error handler *and* the IO error exit
/// handler are replaced (both default to `exit(3)`).
///
/// Structure: the connection keeps what its features share — the loop, the configuration, the link to the
/// server (`ServerLink`: the display, our window on it, the server's identity, why it closed), the atoms, the
/// deadlines, the server clock, the interests in other clients' windows — and the one dispatch of X events.
/// Each feature — requestor, owner, owner watchers, clipboard-manager roles, drop targets, drag source — is a
/// component held in a `let` (`Connection/<feature>/`) that owns its state (its ids included), its deadlines
/// and its teardown, and carries its protocol out in methods taking `on connection: isolated X11Connection`;
/// the public API stays on the connection, in `X11Connection+<feature>.swift` files that hand over to the
/// component (ThreadingModel.md, "Where the connection's state lives").
public actor X11Connection {
    let loop: X11EventLoop
    /// The display this connection talks to (the `display` argument or `$DISPLAY`).
    public nonisolated let displayName: String
    let configuration: Configuration
    var logger: Logger { configuration.logger }

    /// The actor runs on its X event-loop thread.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    // Connection (all on the loop thread).
    /// The display, this connection's window on it, the server it reaches, and why it closed once it did.
    var link = ServerLink()
    /// The display while the connection is open (nil before, and once closed).
    var xdisplay: XDisplay? { link.display }
    /// The window this connection uses as owner and requestor.
    var window: X11Window { link.window }
    /// The server this connection reaches (`XDisplay.serverAddress`), the key of `ProcessWindows`.
    var serverIdentity: String { link.serverIdentity }
    /// Set once the connection is closed (`.shutDown`) or broke (`.connectionLost`).
    var closedError: SelectionError? { link.closedError }
    /// Atom names both ways, the well-known atoms and the XDND ones (`wellKnown`, `xdndNames`).
    var atoms = AtomTable()
    var wellKnown: WellKnownAtoms { atoms.wellKnown }
    var xdndNames: XdndAtoms? { atoms.xdnd }
    var deadlines = DeadlineQueue<DeadlineKey>()
    /// The newest server time seen in an event (PropertyNotify on our window, XFixes notifications), first
    /// taken when the connection opened: what our requests carry.
    var clock = ServerClock()
    var lastServerTime: X11Timestamp { clock.latest }
    /// Why this client selected events on other clients' windows (requestors of our INCR transfers, owners
    /// of our reads): one event mask per window and client, so both needs are merged here.
    var windowInterests = WindowInterests()

    /// Components added from outside the core (`ConnectionComponent`), and the windows they made.
    let added = AddedComponents()

    // Features, one component each (Connection/<feature>/): each owns its state, handles its events and
    // deadlines and tears itself down.
    let requestor = Requestor()
    let owner = Owner()
    let ownerWatchers = OwnerWatchers()
    let dragSource = DragSource()
    let dropTargets = DropTargets()
    let managing = ClipboardManaging()

    init(loop: X11EventLoop, displayName: String, configuration: Configuration) {
        self.loop = loop
        self.displayName = displayName
        self.configuration = configuration
    }

    isolated deinit {
        tearDown(SelectionError(.shutDown, "the connection to \(displayName) was released"))
        loop.terminate()
    }

    /// Opens `display` (or `$DISPLAY`) on a new event-loop thread.
    ///
    /// - Throws: `.displayUnavailable` naming the display value when it is unset or cannot be opened;
    ///   there is no silent fallback to `:0`.
    public static func open(display: String? = nil, configuration: Configuration = .init()) async throws
        -> X11Connection
    {
        let name = try DisplayOpening.name(display)
        let loop = try X11EventLoop(name: "clipbridge.x11")
        let connection = X11Connection(loop: loop, displayName: name, configuration: configuration)
        try await connection.start()
        return connection
    }

    /// Continues the connection of a ``PreparedClaim`` on a new event-loop thread: the claimed selection
    /// stays owned, requests that arrived meanwhile are answered once ``claim(_:offering:)`` for that
    /// selection supplies the offer (the claim's timestamp is kept; no new SetSelectionOwner).
    ///
    /// This is the child's half of claim-then-fork (see ``PreparedClaim``).
    ///
    /// - Throws: `.shutDown` when the prepared claim was already used; `.connectionLost`.
    public static func open(continuing prepared: PreparedClaim, configuration: Configuration = .init())
        async throws -> X11Connection
    {
        guard prepared.take() else {
            throw SelectionError(.shutDown, "the prepared claim of \(prepared.selection) was already used")
        }
        let loop = try X11EventLoop(name: "clipbridge.x11")
        let connection = X11Connection(loop: loop, displayName: prepared.displayName, configuration: configuration)
        try await connection.start(adopting: prepared)
        return connection
    }

    /// Runs on the loop thread: opens the Display (or takes a prepared claim's), creates the utility
    /// window, interns the atoms.
    private func start(adopting prepared: PreparedClaim? = nil) throws {
        loop.setDriver(self)
        let display: XDisplay
        let window: X11Window
        if let prepared {
            display = prepared.display
            window = prepared.window
            for (name, atom) in zip(prepared.internedNames, prepared.internedAtoms) { atoms.record(name, atom) }
            owner.adoptedSelections[prepared.selectionAtom] = prepared.timestamp
        } else {
            guard let opened = XDisplay.open(displayName) else {
                link.close(SelectionError(.displayUnavailable, "cannot open X display \"\(displayName)\""))
                throw SelectionError(
                    .displayUnavailable,
                    "cannot open X display \"\(displayName)\" (is the X server running and DISPLAY right?)")
            }
            display = opened
            window = display.createUtilityWindow()
        }
        // A real server time for our first requests, at no extra round trip: the PropertyNotify of a
        // zero-length append is queued before the InternAtoms reply below.
        display.requestServerTime(on: window)
        // A prepared claim interned only its selection's name (its caller waits for the claim, not for
        // these): both ways, the well-known atoms are interned here, in one round trip.
        let names = WellKnownAtoms.names
        let interned = display.internAtoms(names)
        for (name, atom) in zip(names, interned) { atoms.record(name, atom) }
        if let time = display.takeServerTime(on: window) { clock.note(time) }
        link.open(display, window: window, displayName: displayName)
        atoms.wellKnown = WellKnownAtoms(table: atoms)
        owner.incrementalThreshold = configuration.incrementalThreshold
            ?? IncrementalSender.threshold(maximumRequestBytes: display.maximumRequestBytes)
        ProcessWindows.shared.insert(serverIdentity, window)
        display.flush()
        if display.isDead {
            tearDown(SelectionError(.connectionLost, "the connection to \(displayName) broke while opening"))
            throw SelectionError(.displayUnavailable, "the connection to X display \"\(displayName)\" broke")
        }
    }

    /// The window this connection uses as owner and requestor.
    public var utilityWindow: X11Window { window }

    /// True once the connection to the X server broke (not after `shutdown()`).
    public var isBroken: Bool { closedError?.code == .connectionLost || xdisplay?.isDead == true }

    /// INCR transfers being served right now (diagnostics and tests).
    public var activeTransferCount: Int { owner.outgoing.count + owner.relays.count }

    /// Reads in flight right now (diagnostics and tests).
    public var activeReadCount: Int { requestor.reads.count }

    /// Loans so far (`X11EventLoop.lend`): taken, ended with their wait done, and the loop's eventfd
    /// wake-ups (diagnostics for tests and benchmarks).
    package nonisolated var loanStatistics: (taken: Int, finished: Int, wakeUps: Int) {
        (loop.loanCount.load(ordering: .relaxed), loop.finishedLoanCount.load(ordering: .relaxed),
         loop.wakeSignalCount.load(ordering: .relaxed))
    }

    /// Releases every selection, fails pending calls with `.shutDown`, finishes every sequence and closes
    /// the display. Later calls throw `.shutDown`. Does not hand over to a clipboard manager: call
    /// `handOverToClipboardManager(timeout:)` first for that.
    public func shutdown() async {
        tearDown(SelectionError(.shutDown, "the connection to \(displayName) was shut down"))
    }

    /// Runs `body` on this connection's executor, isolated to the connection, and returns its result.
    ///
    /// Use it for a sequence of calls: every call inside `body` is a plain call on the event-loop thread,
    /// with no thread hop in between. The requestor reads (`read`, `targets(of:)`, `readText`, streamed and
    /// MULTIPLE reads) run on their caller's executor, so inside `body` they send their request directly
    /// and the loop resumes them in its own turn, without a wake-up: a read costs the X traffic only. Entering and leaving `body` cost one hop each, like any actor call
    /// (compare `MainActor.run` and SwiftNIO's `EventLoop.submit`).
    ///
    /// `body` does not block the connection while it awaits: the actor is reentrant, so the loop goes on
    /// serving X events, other callers and this connection's own selections (a read of a selection this
    /// connection owns completes). But `body` runs *on* the loop: synchronous work in it (a long
    /// computation, blocking I/O) delays every transfer and reply of the connection; hand such work to a
    /// task or an `async` function of your own. A `@concurrent`/plain `nonisolated async` function awaited
    /// in `body` runs on the global executor (one hop out and one back).
    ///
    /// Errors thrown in `body` (`SelectionError`s of reads included) are rethrown to the caller; a
    /// cancelled caller task cancels the reads in `body` as usual.
    ///
    /// While `body` runs, the loop is also the task's executor preference (SE-0417): continuations resume
    /// there instead of on the global pool, and nonisolated code in `body` and in its child tasks
    /// (`async let`, task groups) runs on the loop thread too. Unstructured tasks (`Task {}`) do not inherit it.
    public nonisolated func withIsolation<T: Sendable, Failure: Error>(
        _ body: @Sendable (isolated X11Connection) async throws(Failure) -> T
    ) async throws(Failure) -> T {
        try await withTaskExecutorPreference(loop.taskExecutor) { () async throws(Failure) -> T in
            try await self.runIsolated(body)
        }
    }

    private func runIsolated<T: Sendable, Failure: Error>(
        _ body: @Sendable (isolated X11Connection) async throws(Failure) -> T
    ) async throws(Failure) -> T {
        try await body(self)
    }

    /// Runs `body` on the loop: inline when the caller already runs there (a task on this connection's
    /// executor, e.g. inside `withIsolation`), else enqueued in order behind the loop's work (at most one
    /// eventfd wake-up). Inline is safe there: a task job on the loop runs from the loop's job queue, never
    /// nested inside another isolated method of the connection.
    nonisolated func onLoop(_ body: @escaping @Sendable (isolated X11Connection) -> Void) {
        if loop.inLoop {
            onLoopThread(body)
        } else {
            loop.execute { self.onLoopThread(body) }
        }
    }

    /// `assumeIsolated` for code the loop thread runs between (or inside) its jobs: the check is the loop's
    /// own (one atomic load and `pthread_equal`), not the runtime's executor comparison, which perf showed
    /// at about 3% of the owner's CPU per served paste (it also asks whether the main executor is current).
    /// Sound for the same reason `assumeIsolated` is: the loop thread runs one job at a time, so code on it
    /// outside a job, or in a job of this actor, is exclusive with the actor; the standard library's
    /// `assumeIsolated` performs the same cast once its check passed.
    nonisolated func onLoopThread<T>(_ body: (isolated X11Connection) -> T) -> T {
        loop.checkIsolated()
        LoopToken.assertHeld("X11Connection's isolated state")
        return withoutActuallyEscaping(body) { body in
            unsafeBitCast(body, to: ((X11Connection) -> T).self)(self)
        }
    }

    /// Throws if the connection is closed; returns the display otherwise.
    package func requireDisplay() throws(SelectionError) -> XDisplay {
        try link.requireDisplay()
    }

    // MARK: Atoms

    /// Atoms for names, interning the uncached ones in one round trip.
    package func atoms(for names: [String]) throws(SelectionError) -> [X11Atom] {
        let display = try requireDisplay()
        // Every call after a name's first finds it cached: answer without building the set of missing names
        // (a read's hot path; perf showed the set's allocation per read).
        if names.count == 1, let cached = atoms.cachedAtom(names[0]) { return [cached] }
        let missing = atoms.missingNames(names)
        if !missing.isEmpty {
            for (name, atom) in zip(missing, display.internAtoms(missing)) { atoms.record(name, atom) }
        }
        return names.map { atoms.cachedAtom($0) ?? .none }
    }

    func atom(for name: String) throws(SelectionError) -> X11Atom {
        if closedError == nil, xdisplay != nil, let cached = atoms.cachedAtom(name) { return cached }
        return try atoms(for: [name])[0]
    }

    /// Names for atoms, fetching the uncached ones in one round trip (nil for invalid atoms).
    func names(for list: [X11Atom]) throws(SelectionError) -> [String?] {
        let display = try requireDisplay()
        if list.count == 1, let cached = atoms.cachedName(list[0]) { return [cached] }
        let missing = atoms.missingAtoms(list)
        if !missing.isEmpty {
            for (atom, name) in zip(missing, display.atomNames(missing)) {
                if let name { atoms.record(name, atom) }
            }
            _ = display.takeErrors().filter { $0.code != X11Error.badAtomCode }.map(handleProtocolError)
        }
        return list.map { $0.isNone ? nil : atoms.cachedName($0) }
    }

    // MARK: Other clients' windows

    /// Starts (or counts once more) our interest in `window`'s events and updates our event mask on it.
    func watchWindow(_ window: X11Window, as interest: WindowInterests.Interest) {
        if let mask = windowInterests.add(interest, on: window) {
            xdisplay?.selectInput(window, propertyChanges: mask.propertyChanges, structureChanges: mask.structureChanges)
        }
    }

    /// Ends one interest in `window`'s events; the mask keeps what the remaining ones need.
    func unwatchWindow(_ window: X11Window, as interest: WindowInterests.Interest) {
        if let mask = windowInterests.remove(interest, on: window), closedError == nil {
            xdisplay?.selectInput(window, propertyChanges: mask.propertyChanges, structureChanges: mask.structureChanges)
        }
    }

    // MARK: Teardown

    /// Closes everything: used by shutdown, deinit and a broken connection.
    func tearDown(_ error: SelectionError) {
        guard link.close(error) else { return }
        // The owner first: it gives up our selections while the window and the display still work.
        owner.tearDown(error, on: self)
        if let display = xdisplay, !display.isDead, error.code != .connectionLost {
            display.destroyWindow(window)
            display.flush()
        }
        requestor.tearDown(error, on: self)
        managing.tearDown(error, on: self)
        dropTargets.tearDown(error, on: self)
        dragSource.tearDown(error, on: self)
        added.tearDown(error, on: self)
        windowInterests = WindowInterests()
        ownerWatchers.tearDown(error, on: self)
        deadlines = DeadlineQueue()
        ProcessWindows.shared.remove(serverIdentity, window)
        link.closeDisplay()
    }
}

extension X11Connection: X11EventLoopDriver {
    nonisolated func pump(socketReadable: Bool) -> PumpResult {
        onLoopThread { $0.pumpOnLoop(socketReadable: socketReadable) }
    }
}

/// Windows of every open `X11Connection` in this process, per X server (its socket address): tells a watcher
/// whether a new owner is "us", whichever spelling of the display name each connection was opened with.
final class ProcessWindows: Sendable {
    static let shared = ProcessWindows()
    private let windows = Mutex<Set<String>>([])

    private func key(_ server: String, _ window: X11Window) -> String { "\(server)#\(window.rawValue)" }

    func insert(_ server: String, _ window: X11Window) {
        _ = windows.withLock { $0.insert(key(server, window)) }
    }

    func remove(_ server: String, _ window: X11Window) {
        _ = windows.withLock { $0.remove(key(server, window)) }
    }

    func contains(_ server: String, _ window: X11Window) -> Bool {
        windows.withLock { $0.contains(key(server, window)) }
    }
}
