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
            let start = offset
            // On the loop thread, which blocks SIGPIPE: a requestor gone costs an EPIPE, not the process.
            let written = try await loop.perform { _ -> Int in
                let result = bytes.withUnsafeBytes { raw in Glibc.write(fd, raw.baseAddress! + start, raw.count - start) }
                guard result < 0 else { return result }
                let code = errno
                if code == EPIPE { Self.takePendingPipeSignal() }
                return -Int(code)
            }
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

    /// Closes the descriptor: the requestor sees the end of the data. Later calls do nothing.
    public func finish() {
        let fd = self.fd.withLock { fd -> Int32 in
            defer { fd = -1 }
            return fd
        }
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Takes the SIGPIPE a write to a closed pipe left pending on the (blocking) loop thread.
    private static func takePendingPipeSignal() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGPIPE)
        var none = timespec()
        _ = sigtimedwait(&signals, nil, &none)
    }
}
