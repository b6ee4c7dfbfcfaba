import CWaylandShims
import Glibc
import Synchronization

/// The one thread that talks to a compositor for a ``WaylandConnection``: it owns the libwayland connection, sleeps in
/// `poll(2)` on its socket, a wake-up pipe and the descriptors callers wait on, runs what callers submit, and hands
/// the compositor's events up as Swift values. Every wait it serves has a deadline; a compositor that goes away ends
/// the loop, and everything waiting on it is told so.
///
/// `@unchecked Sendable`: `client` is touched only on the loop thread (after `start`) or after it ended; everything
/// else is behind `shared`.
final class WaylandEventLoop: @unchecked Sendable {
    /// What a caller waits for on a descriptor.
    enum Readiness: Sendable {
        case readable, writable
    }

    /// What the compositor said, as delivered to the connection.
    enum Event: Sendable {
        case offered(WaylandSelectionName, types: [String], isOwn: Bool)
        case sendRequested(WaylandSelectionName, source: UInt64, mimeType: String, fd: Int32)
        case cancelled(WaylandSelectionName, source: UInt64)
        case ended(WaylandError)
    }

    private typealias Command = @Sendable (OpaquePointer?) -> Void

    private struct Wait {
        var fd: Int32
        var readiness: Readiness
        var deadline: ContinuousClock.Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct Shared {
        var commands: [Command] = []
        var waits: [UInt64: Wait] = [:]
        var nextWait: UInt64 = 0
        /// Why the loop ended; nil while it runs.
        var ended: WaylandError?
        var closing = false
    }

    private let shared = Mutex(Shared())
    private let client: OpaquePointer
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let deliver: @Sendable (Event) -> Void

    /// Starts the loop on a connected client; `deliver` is called on the loop thread, in order.
    init(client: OpaquePointer, deliver: @escaping @Sendable (Event) -> Void) throws(WaylandError) {
        guard let ends = makePipe(nonblocking: true) else {
            throw WaylandError(.connectionLost, "cannot create the Wayland loop's wake-up pipe: errno \(errno)")
        }
        self.client = client
        (wakeRead, wakeWrite) = (ends[0], ends[1])
        self.deliver = deliver
        // The thread keeps the loop alive until it ends.
        guard detachThread({ [self] in run() }) else {
            // Its pipe is closed by deinit, as always.
            throw WaylandError(.connectionLost, "cannot start the Wayland loop's thread")
        }
    }

    // MARK: For callers

    /// Runs `body` on the loop thread with the connection and returns its result.
    /// - Throws: ``WaylandError/Code/connectionLost`` when the loop has ended (or ends before running it).
    func perform<T: Sendable>(_ body: @escaping @Sendable (OpaquePointer) -> T) async throws(WaylandError) -> T {
        let result: Result<T, WaylandError> = await withCheckedContinuation { continuation in
            let command: Command = { client in
                guard let client else {
                    continuation.resume(returning: .failure(WaylandError(.connectionLost, "the Wayland connection is closed")))
                    return
                }
                continuation.resume(returning: .success(body(client)))
            }
            let ended = shared.withLock { shared -> WaylandError? in
                if let ended = shared.ended { return ended }
                shared.commands.append(command)
                return nil
            }
            if let ended { continuation.resume(returning: .failure(ended)) } else { wake() }
        }
        return try result.get()
    }

    /// Waits until `fd` is ready, or throws ``WaylandError/Code/timedOut`` at `deadline` (the loop polls it).
    func wait(until readiness: Readiness, on fd: Int32, deadline: ContinuousClock.Instant) async throws {
        let id = shared.withLock { shared -> UInt64 in
            shared.nextWait += 1
            return shared.nextWait
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let refused = shared.withLock { shared -> (any Error)? in
                    if let ended = shared.ended { return ended }
                    if Task.isCancelled { return CancellationError() }
                    shared.waits[id] = Wait(fd: fd, readiness: readiness, deadline: deadline, continuation: continuation)
                    return nil
                }
                if let refused { continuation.resume(throwing: refused) } else { wake() }
            }
        } onCancel: {
            let wait = shared.withLock { $0.waits.removeValue(forKey: id) }
            wait?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Whether the compositor has hung up the connection, asked of its socket now (poll(2) with no wait): the
    /// compositor's end closes when it exits, before any source it served can notice and close a transfer's pipe, so a
    /// transfer that ended while this is true may have been cut short.
    func compositorHungUp() async -> Bool {
        (try? await perform { client in
            var socket = pollfd(fd: cw_fd(client), events: Int16(POLLIN), revents: 0)
            return poll(&socket, 1, 0) > 0 && socket.revents & Int16(POLLHUP | POLLERR) != 0
        }) ?? true
    }

    /// How long the loop waits without news before it asks the compositor for a round trip.
    static let keepAlive: Duration = .seconds(1)

    /// Ends the loop: the connection closes on the loop thread, and waiting callers are told.
    func close() {
        shared.withLock { $0.closing = true }
        wake()
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = Glibc.write(wakeWrite, &byte, 1)
    }

    // MARK: The loop thread

    private func run() {
        // A requestor that closes its end while we write to it must cost an EPIPE, not the process (SIGPIPE): the
        // loop thread does the writes with the signal blocked (the pending signal is taken back in `write`).
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)

        var reason = WaylandError(.connectionLost, "the Wayland connection is closed")
        loop: while true {
            let (commands, closing) = shared.withLock { shared -> ([Command], Bool) in
                defer { shared.commands.removeAll() }
                return (shared.commands, shared.closing)
            }
            for command in commands { command(client) }
            if closing { break }
            guard cw_prepare_poll(client) == CW_OK else {
                reason = WaylandError(.connectionLost, "the compositor closed the connection")
                break
            }
            let waits = shared.withLock { $0.waits.map { (id: $0.key, fd: $0.value.fd, readiness: $0.value.readiness, deadline: $0.value.deadline) } }
            var fds = [pollfd(fd: cw_fd(client), events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            fds += waits.map { pollfd(fd: $0.fd, events: Int16($0.readiness == .readable ? POLLIN : POLLOUT), revents: 0) }
            let now = ContinuousClock.now
            // Idle at most a second: then a keep-alive round trip goes out (cw_ping), so a compositor that stopped
            // sending us events — libwayland-server < 1.23 gives up on a client whose socket filled, and tells it
            // only when it next sends — hangs up within a second, seen on the socket. (Measured with sway 1.7 and a
            // source of 10,000 types: `watch` stayed connected and deaf, and the bridge learned 10 s later.)
            var timeout = milliseconds(Self.keepAlive)
            if let nearest = waits.map(\.deadline).min() { timeout = min(timeout, milliseconds(nearest - now)) }
            var polled: Int32
            repeat { polled = poll(&fds, nfds_t(fds.count), timeout) } while polled < 0 && errno == EINTR
            if polled == 0 && ContinuousClock.now - now >= Self.keepAlive { _ = cw_ping(client) }
            let finished = cw_finish_poll(client, polled > 0 && fds[0].revents != 0 ? 1 : 0)
            if polled > 0 && fds[1].revents != 0 {
                var sink = [UInt8](repeating: 0, count: 64)
                while Glibc.read(wakeRead, &sink, sink.count) > 0 {}
            }
            deliverEvents()
            let after = ContinuousClock.now
            var due: [(CheckedContinuation<Void, any Error>, (any Error)?)] = []
            shared.withLock { shared in
                for (index, wait) in waits.enumerated() {
                    let ready = polled > 0 && fds[index + 2].revents != 0
                    guard ready || wait.deadline <= after, let taken = shared.waits.removeValue(forKey: wait.id) else { continue }
                    // A pipe that became ready as the compositor went away (its source ended with it) is not taken as a
                    // transfer's end: the waiter is told the connection is gone.
                    let error: WaylandError? = finished != CW_OK
                        ? WaylandError(.connectionLost, "the compositor closed the connection during the transfer")
                        : ready ? nil : WaylandError(.timedOut, "a Wayland transfer was silent past its deadline")
                    due.append((taken.continuation, error))
                }
            }
            for (continuation, error) in due {
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
            guard finished == CW_OK else {
                reason = WaylandError(.connectionLost, "the compositor closed the connection")
                break loop
            }
        }
        end(reason)
    }

    /// Hands up what the compositor queued since the last turn.
    private func deliverEvents() {
        var event = cw_event()
        while cw_next_event(client, &event) != 0 {
            let selection: WaylandSelectionName = event.selection == CW_PRIMARY ? .primary : .clipboard
            switch Int(event.kind) {
            case Int(CW_EVENT_SELECTION):
                // The types the offer had when it was announced, not the current offer's: several changes may come
                // in one dispatch, and each is told with its own.
                let types = (0..<event.type_count).compactMap { index in event.types[index].map { String(cString: $0) } }
                deliver(.offered(selection, types: types, isOwn: event.own != 0))
            case Int(CW_EVENT_SEND):
                let mimeType = event.mime_type.map { String(cString: $0) } ?? ""
                let fd = event.fd
                event.fd = -1  // the descriptor is the request's now
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                enlargePipe(fd)
                deliver(.sendRequested(selection, source: event.source, mimeType: mimeType, fd: fd))
            case Int(CW_EVENT_CANCELLED):
                deliver(.cancelled(selection, source: event.source))
            default:
                break
            }
            cw_event_release(&event)
        }
    }

    /// The loop is over: the connection closes, queued commands and waits are refused, the connection is told.
    private func end(_ reason: WaylandError) {
        let (commands, waits) = shared.withLock { shared -> ([Command], [Wait]) in
            shared.ended = reason
            defer {
                shared.commands.removeAll()
                shared.waits.removeAll()
            }
            return (shared.commands, Array(shared.waits.values))
        }
        for command in commands { command(nil) }
        for wait in waits { wait.continuation.resume(throwing: reason) }
        cw_disconnect(client)
        deliver(.ended(reason))
    }

    deinit {
        // Here, not when the loop ends: a caller may still wake it then, and a closed descriptor's number may be reused.
        Glibc.close(wakeRead)
        Glibc.close(wakeWrite)
    }
}

/// A pipe whose ends close on exec (pipe2 is not in Swift's Glibc module); both ends non-blocking when asked, else the
/// read end only.
func makePipe(nonblocking both: Bool) -> [Int32]? {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return nil }
    for (index, end) in ends.enumerated() {
        _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        if both || index == 0 { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
    }
    return ends
}
