import CX11Shims
import Glibc
import Synchronization

/// What the loop asks of the connection it drives, once per iteration, on the loop thread.
struct PumpResult {
    /// File descriptor of the X connection to poll for input, or nil when there is none (closed or dead).
    var fileDescriptor: Int32?
    /// The earliest deadline the connection waits for.
    var deadline: ContinuousClock.Instant?
    /// More work can be done right away (events already in Xlib's queue): do not sleep.
    var hasMoreWork: Bool
}

/// The object the loop drives; called only on the loop thread.
protocol X11EventLoopDriver: AnyObject, Sendable {
    /// Processes X events, fires expired deadlines and flushes the output buffer. `socketReadable` is
    /// false when the last `poll` saw no input on the X socket (then reading it would only cost a syscall).
    func pump(socketReadable: Bool) -> PumpResult
}

/// The thread that owns one X `Display` and the serial executor of the actor bound to it.
///
/// Xlib is used without `XInitThreads`: every Xlib call for a Display happens on its loop thread, which
/// the type system enforces because `X11Connection` is an actor whose executor is this loop (the design
/// follows SwiftNIO's `SelectableEventLoop`). The loop runs enqueued actor jobs, lets the driver pump X
/// events, then sleeps in `epoll_wait` on the X socket and an `eventfd` until input, a wake-up or the
/// next deadline.
///
/// The one exception is a *loan* (`lend`): while the loop sleeps, a caller on another thread may take the
/// loop's role for a moment — run the connection's code and pump its events itself — instead of waking
/// the loop and then being woken by it (leader/follower, as in Schmidt's pattern). The *token*, a mutex
/// the loop holds whenever it is awake, makes the two exclusive, so the connection's state and the
/// Display are still used by one thread at a time.
///
/// Invariant that makes `@unchecked Sendable` sound: `state` is only touched under its `Mutex`; `driver`
/// and `wakeFD` are written before the thread starts (`driver` is weak and set once from the loop
/// thread itself); `watchedFD` is only touched by the holder of `token`; everything else is immutable.
final class X11EventLoop: SerialExecutor, @unchecked Sendable {
    /// One unit of work for the loop: an actor job, a job of a task that prefers the loop as its task
    /// executor (see `taskExecutor`), or a plain closure (see `execute`).
    private enum Work {
        case job(UnownedJob)
        case taskJob(UnownedJob)
        case closure(@Sendable () -> Void)
    }

    private struct State {
        var jobs: [Work] = []
        /// The loop is in (or about to enter) `poll`: only then does an enqueue need the eventfd.
        var sleeping = false
        var wakePending = false
        var terminating = false
        /// A caller has borrowed the loop's role (`lend`): enqueues must wake it too, so it hands back.
        var lent = false
        /// The latest the current sleep lasts (nil: no deadline); a loan that armed an earlier deadline
        /// wakes the loop so it sleeps again with the right timeout.
        var sleepDeadline: ContinuousClock.Instant?
    }

    private let state = Mutex(State())
    /// The right to use the Display and the connection's state: held by the loop thread whenever it is
    /// not asleep, and by a borrowing caller during a loan.
    private let token = Mutex(())
    /// The thread that borrowed the loop's role (0 when none): `inLoop` is true on it during the loan.
    private let borrower = Atomic<UInt>(0)
    /// Diagnostics for tests and benchmarks: loans taken, loans that ended with their wait done, and
    /// eventfd writes (each one a loop wake-up).
    let loanCount = Atomic<Int>(0)
    let finishedLoanCount = Atomic<Int>(0)
    let wakeSignalCount = Atomic<Int>(0)
    /// The epoll set the loop sleeps on: the eventfd, and the X socket once the driver reports it.
    private let epollFD: Int32
    /// The X socket in `epollFD`, if any. Touched only by the holder of `token`.
    nonisolated(unsafe) private var watchedFD: Int32?
    /// The loop thread's `pthread_t` once it runs (0 before): read on every read call to decide whether the
    /// caller already runs on the loop, so an atomic load rather than the queue's lock.
    private let thread = Atomic<UInt>(0)
    private let wakeFD: Int32
    /// The loop as a `TaskExecutor` (see `LoopTaskExecutor`). Created with the loop; holds it unowned.
    private(set) var taskExecutor: LoopTaskExecutor!
    /// Set on the loop thread only (by the connection's start job), read on the loop thread only.
    nonisolated(unsafe) private weak var driver: (any X11EventLoopDriver)?

    /// Starts the loop thread. Throws if the thread or the eventfd cannot be created.
    /// Shown in debuggers, perf and /proc (Linux keeps the first 15 bytes).
    private let name: String

    init(name: String) throws(SelectionError) {
        self.name = name
        let fd = CX11Shims_eventfd()
        guard fd >= 0 else {
            throw SelectionError(.connectionLost, "cannot create an eventfd: errno \(errno)")
        }
        wakeFD = fd
        epollFD = CX11Shims_epollCreate()
        guard epollFD >= 0, CX11Shims_epollAdd(epollFD, fd) == 0 else {
            let code = errno
            if epollFD >= 0 { close(epollFD) }
            close(fd)
            throw SelectionError(.connectionLost, "cannot create the event loop's epoll set: errno \(code)")
        }
        taskExecutor = LoopTaskExecutor(loop: self)
        let box = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { raw in
            let loop = Unmanaged<X11EventLoop>.fromOpaque(raw!).takeRetainedValue()
            loop.run()
            return nil
        }, box.toOpaque())
        guard rc == 0 else {
            box.release()
            close(epollFD)
            close(fd)
            throw SelectionError(.connectionLost, "cannot start the X event-loop thread: error \(rc)")
        }
        pthread_detach(thread)
    }

    deinit {
        close(epollFD)
        close(wakeFD)
    }

    /// Binds the driver; must be called on the loop thread.
    func setDriver(_ newDriver: any X11EventLoopDriver) {
        checkIsolated()
        driver = newDriver
    }

    /// Asks the thread to exit once its queue is empty. Jobs enqueued afterwards still run first.
    func terminate() {
        state.withLock { $0.terminating = true }
        signalWake()
    }

    private func signalWake() {
        wakeSignalCount.add(1, ordering: .relaxed)
        _ = CX11Shims_eventfdSignal(wakeFD)
    }

    // MARK: SerialExecutor

    func enqueue(_ job: consuming ExecutorJob) {
        submit(.job(UnownedJob(job)))
    }

    /// Queues a job of a task whose executor preference is this loop (`LoopTaskExecutor.enqueue`).
    func enqueueTaskJob(_ job: UnownedJob) {
        submit(.taskJob(job))
    }

    /// Runs `work` on the loop thread, in order with the actor's jobs (like SwiftNIO's `EventLoop.execute`).
    ///
    /// Why it exists: a caller that awaits a continuation *inside* the actor is resumed through the global
    /// executor and then hops back onto the loop (two extra thread wake-ups per wait). A nonisolated caller
    /// can instead create its continuation in its own context, hand the loop a closure that starts the work,
    /// and be resumed once, directly, when the work ends.
    func execute(_ work: @escaping @Sendable () -> Void) {
        submit(.closure(work))
    }

    private func submit(_ work: Work) {
        let needsWake = state.withLock { state -> Bool in
            state.jobs.append(work)
            // A loop that is awake (handling events, or enqueuing for itself) looks at its queue before it
            // sleeps, so the eventfd write, the poll it ends and the drain would be pure overhead. A caller
            // on loan polls the eventfd too: the write tells it to hand the role back.
            if !(state.sleeping || state.lent) || state.wakePending { return false }
            state.wakePending = true
            return true
        }
        if needsWake {
            signalWake()
        }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// True when called on the loop thread, or on the thread that borrowed its role (`lend`).
    var inLoop: Bool {
        let current = pthread_self()
        let owner = thread.load(ordering: .acquiring)
        if owner != 0 && pthread_equal(owner, current) != 0 { return true }
        let guest = borrower.load(ordering: .acquiring)
        return guest != 0 && pthread_equal(guest, current) != 0
    }

    func checkIsolated() {
        precondition(inLoop, "X11Selection: not on the X event-loop thread of this connection")
    }

    // MARK: The loop

    /// What one turn of the loop decided.
    private enum Turn {
        case again
        case sleep(PumpResult)
        case exit
    }

    private func run() {
        CX11Shims_setCurrentThreadName(name)
        thread.store(pthread_self(), ordering: .releasing)
        var socketReadable = true
        // Swapped with the shared queue each turn, so neither buffer is reallocated.
        var batch: [Work] = []
        while true {
            let turn = token.withLock { _ in
                LoopToken.whileHeld { runTurn(batch: &batch, socketReadable: &socketReadable) }
            }
            switch turn {
            case .again:
                continue
            case .exit:
                return
            case .sleep(let result):
                let woken = sleep(until: result.deadline)
                socketReadable = woken.socketReadable
                state.withLock { state in
                    state.sleeping = false
                    state.sleepDeadline = nil
                    // During a loan the eventfd is the borrower's signal to hand the role back: the loop wakes
                    // on it too, and draining it here could win the race against the borrower's `poll`, which
                    // would then sleep on to its limit while this thread waits for the token. Left set, it is
                    // drained by the next sleep, after the loan.
                    if state.lent { return }
                    if woken.wakeSignalled { CX11Shims_eventfdDrain(wakeFD) }
                    state.wakePending = false
                }
            }
        }
    }

    /// Runs the queued jobs and pumps the driver; with `token` held.
    private func runTurn(batch: inout [Work], socketReadable: inout Bool) -> Turn {
        let executor = asUnownedSerialExecutor()
        let terminating = state.withLock { state -> Bool in
            swap(&batch, &state.jobs)
            return state.terminating
        }
        let ranJobs = !batch.isEmpty
        for work in batch {
            switch work {
            case .job(let job): job.runSynchronously(on: executor)
            // Run *isolated to* the loop's serial executor: the loop runs one job at a time, so a job on
            // this thread is exclusive with the actor anyway, and a task that switches into the actor
            // (a read resumed inside `withIsolation`) then goes on at once instead of being queued again.
            case .taskJob(let job):
                job.runSynchronously(isolatedTo: executor, taskExecutor: taskExecutor.asUnownedTaskExecutor())
            case .closure(let closure): closure()
            }
        }
        batch.removeAll(keepingCapacity: true)
        if terminating && !ranJobs {
            return .exit
        }
        let result = driver?.pump(socketReadable: socketReadable)
            ?? PumpResult(fileDescriptor: nil, deadline: nil, hasMoreWork: false)
        // Input is looked for only when a poll reported some: the pump's closing XFlush also reads what
        // the socket holds (and what Xlib set aside during round trips in jobs), reporting it as more
        // work, so a speculative read here would only cost a recvmsg.
        socketReadable = false
        let sleeps = state.withLock { state -> Bool in
            guard !result.hasMoreWork, state.jobs.isEmpty, !state.terminating else { return false }
            state.sleeping = true
            state.sleepDeadline = result.deadline
            return true
        }
        guard sleeps else { return .again }
        watch(result.fileDescriptor)
        return .sleep(result)
    }

    /// Puts `fd` (the X socket, or nil once it is closed) into the epoll set in place of the previous one.
    private func watch(_ fd: Int32?) {
        guard fd != watchedFD else { return }
        // A closed socket already left the set (the kernel drops closed files); the removal is then a no-op.
        if let old = watchedFD { _ = CX11Shims_epollRemove(epollFD, old) }
        watchedFD = nil
        if let fd, CX11Shims_epollAdd(epollFD, fd) == 0 { watchedFD = fd }
    }

    // MARK: Lending the loop's role to a caller

    /// How a loan ended.
    enum LoanOutcome {
        /// The loop was awake (or the caller is the loop): nothing ran.
        case unavailable
        /// `isDone()` held when the loan ended: the work will not touch its wait again.
        case finished
        /// The work started but is not done: the loop goes on with it.
        case handedBack
    }

    /// Runs `start` and then pumps the connection on the *calling* thread while the loop sleeps, until
    /// `isDone()` holds, `deadline` passes, or the loop has work of its own. Whether the wait was done is
    /// decided while the token is still held: after the loan the loop may complete it at any time.
    ///
    /// Why: a caller off the loop that hands its request to the loop pays two thread wake-ups per round
    /// trip (the eventfd that wakes the loop, and the pool thread that resumes the caller), and on a
    /// virtual machine each one that lands on another CPU costs an inter-processor interrupt — as much as
    /// the X round trip itself. On loan, the caller sends its request, waits on the X socket and handles
    /// the reply itself, as a single-threaded Xlib client does; the loop is not woken at all: its epoll
    /// set stops watching the X socket for the loan (`epoll_ctl` from this thread), and watches it again
    /// afterwards, which wakes it only if input arrived that the caller left alone.
    ///
    /// During the loan `inLoop` is true on the calling thread, so the connection's isolated code runs here
    /// exactly as on the loop: `token` keeps the two exclusive. The caller blocks its thread for at most
    /// `deadline`; it hands back early when anything is enqueued for the loop (the eventfd it also polls).
    /// Events for other work (an owner's requests, other reads) are handled as the loop would handle them.
    func lend(until deadline: ContinuousClock.Instant, start: () -> Void, isDone: () -> Bool) -> LoanOutcome {
        guard !inLoop else { return .unavailable }
        let outcome = token.withLockIfAvailable { _ -> LoanOutcome in LoopToken.whileHeld { () -> LoanOutcome in
            guard let driver else { return .unavailable }
            let available = state.withLock { state -> Bool in
                guard state.sleeping, !state.wakePending, !state.terminating else { return false }
                state.lent = true
                return true
            }
            guard available else { return .unavailable }
            borrower.store(pthread_self(), ordering: .releasing)
            loanCount.add(1, ordering: .relaxed)
            let muted = watchedFD
            if let muted { _ = CX11Shims_epollSetInput(epollFD, muted, 0) }
            start()
            var result = driver.pump(socketReadable: false)
            while true {
                // Work enqueued for the loop ends the loan: checked here too, not only by the eventfd in the
                // wait, because a busy connection (an INCR transfer being served) may never need to wait.
                if state.withLock({ !$0.jobs.isEmpty || $0.terminating }) { break }
                // Events Xlib already holds are handled even once the wait is done (they cost no system call):
                // left queued, they would make the loop wake up for them right after the loan.
                if result.hasMoreWork && ContinuousClock.now < deadline {
                    result = driver.pump(socketReadable: false)
                    continue
                }
                if isDone() { break }
                guard let fd = result.fileDescriptor, ContinuousClock.now < deadline else { break }
                let until = result.deadline.map { min($0, deadline) } ?? deadline
                guard let readable = waitOnLoan(socket: fd, until: until) else { break }
                result = driver.pump(socketReadable: readable)
            }
            let finished = isDone()
            if finished { finishedLoanCount.add(1, ordering: .relaxed) }
            // Watching the socket again wakes the loop at once if input arrived that nobody read yet.
            if let muted, muted == result.fileDescriptor { _ = CX11Shims_epollSetInput(epollFD, muted, 1) }
            borrower.store(0, ordering: .releasing)
            let wake = state.withLock { state -> Bool in
                state.lent = false
                let earlier = result.deadline.map { deadline in state.sleepDeadline.map { deadline < $0 } ?? true }
                guard result.hasMoreWork || earlier == true || !state.jobs.isEmpty else { return false }
                guard state.sleeping, !state.wakePending else { return false }
                state.wakePending = true
                return true
            }
            if wake { signalWake() }
            return finished ? .finished : .handedBack
        } }
        return outcome ?? .unavailable
    }

    /// A loan's wait: polls the X socket and the eventfd until `deadline`. Returns whether the socket has
    /// input, or nil when the loop has work (the eventfd is readable: hand the role back).
    private func waitOnLoan(socket: Int32, until deadline: ContinuousClock.Instant) -> Bool? {
        withUnsafeTemporaryAllocation(of: pollfd.self, capacity: 2) { fds in
            fds[0] = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            fds[1] = pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)
            let rc = poll(fds.baseAddress, 2, deadline.pollTimeoutFromNow)
            if rc > 0 && fds[1].revents != 0 { return nil }
            // POLLHUP/POLLERR count as readable: reading is how Xlib notices the broken connection.
            return rc < 0 || fds[0].revents != 0
        }
    }

    /// Sleeps until input, a wake-up or the deadline; returns whether the X socket has input and whether
    /// the eventfd was signalled (the caller drains it).
    private func sleep(until deadline: ContinuousClock.Instant?) -> (socketReadable: Bool, wakeSignalled: Bool) {
        var wakeReady: Int32 = 0
        var socketReady: Int32 = 0
        let rc = CX11Shims_epollWait(epollFD, wakeFD, deadline?.pollTimeoutFromNow ?? -1, &wakeReady, &socketReady)
        // Errors and hang-ups count as readable: reading is how Xlib notices the broken connection.
        return (rc < 0 || socketReady != 0, wakeReady != 0)
    }
}
