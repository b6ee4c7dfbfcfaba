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
/// events, then sleeps in `poll(2)` on the X socket and an `eventfd` until input, a wake-up or the next
/// deadline.
///
/// Invariant that makes `@unchecked Sendable` sound: `state` is only touched under its `Mutex`; `driver`
/// and `wakeFD` are written before the thread starts (`driver` is weak and set once from the loop
/// thread itself); everything else is immutable.
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
    }

    private let state = Mutex(State())
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
            close(fd)
            throw SelectionError(.connectionLost, "cannot start the X event-loop thread: error \(rc)")
        }
        pthread_detach(thread)
    }

    deinit {
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
            // sleeps, so the eventfd write, the poll it ends and the drain would be pure overhead.
            if !state.sleeping || state.wakePending { return false }
            state.wakePending = true
            return true
        }
        if needsWake {
            _ = CX11Shims_eventfdSignal(wakeFD)
        }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// True when called on the loop thread.
    var inLoop: Bool {
        let owner = thread.load(ordering: .acquiring)
        return owner != 0 && pthread_equal(owner, pthread_self()) != 0
    }

    func checkIsolated() {
        precondition(inLoop, "X11Selection: not on the X event-loop thread of this connection")
    }

    // MARK: The loop

    private func run() {
        CX11Shims_setCurrentThreadName(name)
        thread.store(pthread_self(), ordering: .releasing)
        let executor = asUnownedSerialExecutor()
        let unownedTaskExecutor = taskExecutor.asUnownedTaskExecutor()
        var socketReadable = true
        // Swapped with the shared queue each turn, so neither buffer is reallocated.
        var batch: [Work] = []
        while true {
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
                case .taskJob(let job): job.runSynchronously(isolatedTo: executor, taskExecutor: unownedTaskExecutor)
                case .closure(let closure): closure()
                }
            }
            batch.removeAll(keepingCapacity: true)
            if terminating && !ranJobs {
                return
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
                return true
            }
            if !sleeps {
                continue
            }
            socketReadable = sleep(until: result)
            state.withLock { state in
                state.sleeping = false
                state.wakePending = false
            }
        }
    }

    /// Sleeps until input, a wake-up or the deadline; returns whether the X socket has input.
    private func sleep(until result: PumpResult) -> Bool {
        let timeout = result.deadline?.pollTimeoutFromNow ?? -1
        return withUnsafeTemporaryAllocation(of: pollfd.self, capacity: 2) { fds in
            fds[0] = pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)
            var count = 1
            if let fd = result.fileDescriptor {
                fds[1] = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                count = 2
            }
            let rc = poll(fds.baseAddress, nfds_t(count), timeout)
            if rc > 0 && fds[0].revents != 0 {
                CX11Shims_eventfdDrain(wakeFD)
            }
            // POLLHUP/POLLERR count as readable: reading is how Xlib notices the broken connection.
            return rc < 0 || (count > 1 && fds[1].revents != 0)
        }
    }
}
