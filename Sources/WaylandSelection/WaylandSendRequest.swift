import FoundationEssentials
import Glibc
import Synchronization

/// A requestor's ask for one of our sources' data: write the bytes, then ``finish()`` (the requestor reads until the
/// descriptor closes). Unfinished requests are finished when released.
public final class WaylandSendRequest: Sendable {
    /// The selection our source holds (or held).
    public let selection: WaylandSelectionName
    /// Our source asked.
    public let source: WaylandSourceID
    /// The type asked.
    public let mimeType: String
    private let fd: Mutex<Int32>
    private let loop: WaylandEventLoop

    init(selection: WaylandSelectionName, source: WaylandSourceID, mimeType: String, fd: Int32, loop: WaylandEventLoop) {
        self.selection = selection
        self.source = source
        self.mimeType = mimeType
        self.fd = Mutex(fd)
        self.loop = loop
    }

    deinit {
        finish()
    }

    /// Writes `bytes`, waiting at most `timeout` each time the requestor's pipe is full.
    /// - Throws: ``WaylandError/Code/transferFailed`` when the requestor closed its end (or the request is finished),
    ///   ``WaylandError/Code/timedOut`` when it stopped reading.
    public func write(_ bytes: Data, timeout: Duration = .seconds(5)) async throws {
        var offset = 0
        while offset < bytes.count {
            let fd = self.fd.withLock { $0 }
            guard fd >= 0 else { throw WaylandError(.transferFailed, "the request is finished") }
            // On the caller's thread: the descriptor is non-blocking, and only a full pipe waits, on the loop.
            let written = bytes.withUnsafeBytes { raw in Self.write(fd, raw.baseAddress! + offset, raw.count - offset) }
            if written >= 0 {
                offset += written
                continue
            }
            let code = Int32(-written)
            guard code == EAGAIN || code == EINTR else {
                throw WaylandError(.transferFailed, code == EPIPE
                    ? "the requestor of \(mimeType) closed its end" : "cannot write \(mimeType): errno \(code)")
            }
            do {
                try await loop.wait(until: .writable, on: fd, deadline: .now + timeout)
            } catch let error as WaylandError where error.code == .timedOut {
                throw WaylandError(.timedOut, "the requestor of \(mimeType) read nothing for \(timeout)")
            }
        }
    }

    /// Whether the requestor has closed its end of the pipe (the write end then polls POLLERR): a requestor that went
    /// away, known without writing — so a writer that holds bytes back (a source still being read) stops reading
    /// for nobody. A finished request counts as gone.
    public var requestorHasGone: Bool {
        let fd = self.fd.withLock { $0 }
        guard fd >= 0 else { return true }
        var poller = pollfd(fd: fd, events: 0, revents: 0)
        guard poll(&poller, 1, 0) > 0 else { return false }
        return poller.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
    }

    /// Closes the descriptor: the requestor sees the end of the data. Later calls do nothing.
    public func finish() {
        let fd = self.fd.withLock { fd -> Int32 in
            defer { fd = -1 }
            return fd
        }
        if fd >= 0 { Glibc.close(fd) }
    }

    /// write(2) with SIGPIPE blocked on this thread for the call, so that a requestor gone costs an EPIPE, not the
    /// process — without touching the process's signal handling (a library's to leave alone). The signal such a write
    /// leaves pending on this thread is taken before the thread's mask is restored. Returns the count written, or
    /// −errno.
    private static func write(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        let result = Glibc.write(fd, bytes, count)
        let code = errno
        // A SIGPIPE blocked before this call is not ours to take.
        if result < 0, code == EPIPE, sigismember(&previous, SIGPIPE) == 0 {
            var none = timespec()
            _ = sigtimedwait(&pipeSignal, nil, &none)
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        return result < 0 ? -Int(code) : result
    }
}
