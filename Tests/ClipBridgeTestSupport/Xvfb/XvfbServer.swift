// ClipBridge test support: a private Xvfb X server, one per suite (or per `withXvfb` block).

import Foundation
import Glibc

/// A private, headless X server (`Xvfb`) that tests own: started on a free display chosen by the server itself,
/// stopped (and reaped) when the test is done.
///
/// The server is started as `Xvfb -displayfd 3 -nolisten tcp -noreset -screen 0 1280x800x24`:
/// - `-displayfd` lets the server pick a display that is free and announces readiness by writing its number,
///   so no display number is ever assumed and two suites never collide;
/// - `-noreset` keeps the server from resetting every time its last client disconnects (peers come and go
///   all the time in these tests, and a client that connects during a reset is refused);
/// - it is spawned with an empty signal mask and default dispositions (see `ChildProcess`), so SIGTERM works.
///
/// Use it through the `.xvfb` trait (`XvfbServer.current`) or `withXvfb { server in ... }`.
public final class XvfbServer: Sendable {
    /// The display name to put in `DISPLAY` or pass to `X11Connection.open(display:)`, e.g. ":3".
    public let display: String
    /// The display number the server chose.
    public let displayNumber: Int
    private let child: ChildProcess
    private let logFile: CaptureFile

    /// The server of the enclosing `.xvfb` trait or `withXvfb` block, if any.
    @TaskLocal public static var current: XvfbServer?

    private init(display: Int, child: ChildProcess, log: CaptureFile) {
        self.displayNumber = display
        self.display = ":\(display)"
        self.child = child
        self.logFile = log
    }

    /// True when an `Xvfb` executable is in `PATH`. Tests do not skip on it: without Xvfb, `start()` throws
    /// `.notFound` and the test fails (`make test` installs it), so a green run always means the X tests ran.
    public static var isInstalled: Bool { executableInPath("Xvfb") }

    /// Starts a server and waits until it accepts connections (it writes its display number only then).
    ///
    /// - Parameters:
    ///   - screen: the `-screen 0` geometry and depth.
    ///   - timeout: how long to wait for the display number; the machines are small and shared, so be generous.
    ///   - display: the display number to take (it must be free); nil lets the server choose.
    /// - Throws: `CommandError` (`.notFound` when Xvfb is not installed, `.notReady` with the server's log when
    ///   it exits or stays silent).
    public static func start(
        screen: String = "1280x800x24",
        timeout: Duration = .seconds(20),
        display: Int? = nil
    ) async throws(CommandError) -> XvfbServer {
        let announcementFD: Int32 = 3
        // With `display`, that number (a server restarted where a killed one was, for reconnection tests);
        // otherwise the server picks a free one and announces it.
        let arguments = ["Xvfb"] + (display.map { [":\($0)"] } ?? []) + [
            "-displayfd", "\(announcementFD)", "-nolisten", "tcp", "-noreset", "-screen", "0", screen,
        ]
        var ends: [Int32] = [-1, -1]
        // pipe2(O_CLOEXEC) is not exported by the Glibc module (no _GNU_SOURCE); setting FD_CLOEXEC right after
        // pipe() leaves a tiny window in which a concurrent spawn could inherit an end, which only delays EOF.
        guard pipe(&ends) == 0 else {
            throw CommandError(kind: .spawnFailed, arguments: arguments, detail: String(cString: strerror(errno)))
        }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        defer { close(readEnd) }
        _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)

        let log: CaptureFile
        let child: ChildProcess
        do {
            defer { close(writeEnd) }  // the parent's copy: EOF on the read end once the server is gone
            log = try CaptureFile()
            var environment = ProcessInfo.processInfo.environment
            environment["DISPLAY"] = nil
            child = try ChildProcess.spawn(
                arguments, environment: environment,
                redirections: [
                    .init(source: log.descriptor, target: 1), .init(source: log.descriptor, target: 2),
                    .init(source: writeEnd, target: announcementFD),
                ]
            )
        }

        func failure(_ detail: String, _ termination: Termination) -> CommandError {
            let output = CommandResult(
                arguments: arguments, termination: termination, stdout: Data(), stderr: log.contents(),
                duration: .zero
            )
            return CommandError(kind: .notReady, arguments: arguments, detail: detail, partialResult: output)
        }

        let deadline = ContinuousClock.now + timeout
        var announcement = [UInt8]()
        var pause = Duration.milliseconds(1)
        while true {
            var byte: UInt8 = 0
            let count = read(readEnd, &byte, 1)
            if count == 1 {
                if byte == UInt8(ascii: "\n") { break }
                announcement.append(byte)
                continue
            }
            if count == 0 && announcement.isEmpty {
                // EOF without a number: the server exited (e.g. cannot create /tmp/.X11-unix).
                var ended = await child.waitForExit(until: .now + .seconds(2))
                if ended == nil { ended = await child.forceKill() }
                throw failure("exited before announcing its display", ended ?? .unknown)
            }
            if count == 0 { break }
            if count < 0 && errno != EAGAIN && errno != EINTR {
                let ended = await child.terminate(grace: .seconds(1))
                throw failure("reading the display number failed: \(String(cString: strerror(errno)))", ended)
            }
            if ContinuousClock.now >= deadline {
                let ended = await child.terminate(grace: .seconds(1))
                throw failure("did not announce a display within \(timeout)", ended)
            }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(20))
        }
        guard let number = Int(String(decoding: announcement, as: UTF8.self)), number >= 0 else {
            let ended = await child.terminate(grace: .seconds(1))
            throw failure("announced an unreadable display \(announcement)", ended)
        }
        return XvfbServer(display: number, child: child, log: log)
    }

    /// The server's process id.
    public var pid: Int32 { child.pid }
    /// True until the server has been stopped, killed, or has exited.
    public var isRunning: Bool { child.poll() == nil }
    /// Everything the server printed (warnings about fonts and XKB are normal).
    public var log: String { String(decoding: logFile.contents(), as: UTF8.self) }

    /// Stops the server: SIGTERM (it removes its lock file and socket), SIGKILL after `grace`; returns when reaped.
    @discardableResult
    public func stop(grace: Duration = .seconds(3)) async -> Termination {
        await child.terminate(grace: grace)
    }

    /// Kills the server with SIGKILL, as a crash would (for "X server killed mid-read" tests); returns when reaped.
    @discardableResult
    public func kill() async -> Termination {
        await child.forceKill()
    }
}

/// True when `name` is an executable file in one of `PATH`'s directories.
func executableInPath(_ name: String) -> Bool {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").contains { access("\($0)/\(name)", X_OK) == 0 }
}
