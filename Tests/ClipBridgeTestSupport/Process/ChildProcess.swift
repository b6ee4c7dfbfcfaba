// ClipBridge test support: a child process spawned with a clean signal state, reaped without blocking.

import Foundation
import Glibc
import Synchronization

/// A child process started with `posix_spawn`, with an empty signal mask and default signal dispositions.
///
/// Why not `Foundation.Process`: started from inside a swift-testing run, children inherited a signal mask
/// with SIGTERM blocked, so `terminate()` did nothing and `waitUntilExit()` hung the test (architecture.md
/// §1.0-9). `POSIX_SPAWN_SETSIGMASK` with an empty set plus `POSIX_SPAWN_SETSIGDEF` for every catchable
/// signal gives the child the state a shell would give it. All other descriptors are closed in the child
/// (`posix_spawn_file_actions_addclosefrom_np`), so a pipe end or an X socket of the test process never
/// leaks into a peer that outlives its command (xclip forks a server that would hold it open).
///
/// The child is reaped with `waitpid(WNOHANG)` polls between `Task.sleep`s, never a blocking `waitpid`,
/// so waiting never occupies one of the cooperative pool's threads (the test machines have two cores).
final class ChildProcess: Sendable {
    /// How the child is wired to the parent's descriptors: `target` in the child is a copy of `source`.
    struct Redirection: Sendable {
        var source: Int32
        var target: Int32
    }

    /// The child's process id.
    let pid: pid_t
    /// The command line, for messages.
    let arguments: [String]
    private let termination = Mutex<Termination?>(nil)

    private init(pid: pid_t, arguments: [String]) {
        self.pid = pid
        self.arguments = arguments
    }

    /// Spawns `arguments[0]` (looked up in `PATH` unless it contains a slash) with exactly `environment`.
    ///
    /// Descriptors 0, 1 and 2 of the child come from `redirections`, or from /dev/null when not listed;
    /// every descriptor above the highest redirected one is closed in the child.
    static func spawn(
        _ arguments: [String],
        environment: [String: String],
        redirections: [Redirection]
    ) throws(CommandError) -> ChildProcess {
        guard let executable = arguments.first, !executable.isEmpty else {
            throw CommandError(kind: .spawnFailed, arguments: arguments, detail: "empty command line")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        let targets = Set(redirections.map(\.target))
        for standard: Int32 in 0...2 where !targets.contains(standard) {
            posix_spawn_file_actions_addopen(&actions, standard, "/dev/null", standard == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        for redirection in redirections {
            // glibc ≥ 2.29 clears FD_CLOEXEC when source == target, so a close-on-exec descriptor that happens
            // to already sit at its target number is still inherited.
            posix_spawn_file_actions_adddup2(&actions, redirection.source, redirection.target)
        }
        closeDescriptors(from: (targets.max() ?? 2) + 1, in: &actions)

        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // Its own process group, so a Ctrl-C on the test runner's terminal does not reach peers directly and
        // `stop()` can signal a peer's helpers too (a shell script's children).
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes,
            Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP)
        )

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        SpawnLog.record(arguments, searchPath: environment["PATH"])
        var pid: pid_t = 0
        let result = argv.withUnsafeBufferPointer { argvBuffer in
            envp.withUnsafeBufferPointer { envpBuffer in
                posix_spawnp(&pid, executable, &actions, &attributes, argvBuffer.baseAddress!, envpBuffer.baseAddress!)
            }
        }
        guard result == 0 else {
            let kind: CommandError.Kind = result == ENOENT ? .notFound : .spawnFailed
            throw CommandError(kind: kind, arguments: arguments, detail: String(cString: strerror(result)))
        }
        return ChildProcess(pid: pid, arguments: arguments)
    }

    /// Adds "close every descriptor from `lowest` up" to `actions`.
    ///
    /// glibc ≥ 2.34 has `posix_spawn_file_actions_addclosefrom_np`, but the Glibc module imports spawn.h without
    /// `_GNU_SOURCE`, so it is looked up with `dlsym`. Without it, every descriptor listed in /proc/self/fd that
    /// is not close-on-exec gets an explicit close (glibc ignores closing one that is already gone).
    private static func closeDescriptors(from lowest: Int32, in actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "posix_spawn_file_actions_addclosefrom_np") {
            if unsafeBitCast(symbol, to: CloseFrom.self)(&actions, lowest) == 0 { return }
        }
        let listed = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in listed.compactMap({ Int32($0) }) where fd >= lowest {
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 && flags & FD_CLOEXEC == 0 {
                posix_spawn_file_actions_addclose(&actions, fd)
            }
        }
    }

    /// How the child ended, once it has been reaped.
    var exitStatus: Termination? { termination.withLock { $0 } }

    /// Reaps the child if it has exited; returns how it ended, or nil while it runs.
    @discardableResult
    func poll() -> Termination? {
        termination.withLock { stored in
            if let stored { return stored }
            var status: Int32 = 0
            while true {
                let reaped = waitpid(pid, &status, WNOHANG)
                if reaped == pid {
                    stored = Termination(waitStatus: status)
                    return stored
                }
                if reaped == -1 && errno == EINTR { continue }
                if reaped == -1 {
                    // ECHILD: someone else reaped it (a SIGCHLD handler set to SIG_IGN, for example). It is gone.
                    stored = .unknown
                    return stored
                }
                return nil
            }
        }
    }

    /// Waits until the child exits or `deadline` passes; returns nil on the deadline (the child still runs).
    ///
    /// Polls with a backoff from 1 ms to 20 ms: quick commands are noticed within a millisecond or two,
    /// long ones cost at most 50 wake-ups a second. Cancellation does not stop the wait early (callers kill).
    func waitForExit(until deadline: ContinuousClock.Instant) async -> Termination? {
        var pause = Duration.milliseconds(1)
        while true {
            if let done = poll() { return done }
            let now = ContinuousClock.now
            if now >= deadline { return nil }
            let remaining = now.duration(to: deadline)
            do {
                try await Task.sleep(for: min(pause, remaining))
            } catch {
                // Cancelled: keep honouring the deadline without spinning.
                usleep(UInt32(min(pause, remaining).milliseconds * 1000))
            }
            pause = min(pause * 2, .milliseconds(20))
        }
    }

    /// Sends `signal` to the child unless it has already been reaped (its pid may then belong to another).
    func send(_ signal: Int32) {
        termination.withLock { stored in
            if stored == nil { _ = kill(pid, signal) }
        }
    }

    /// SIGTERM, then SIGKILL if the child is still there after `grace`; returns once it is reaped.
    func terminate(grace: Duration) async -> Termination {
        send(SIGTERM)
        if let done = await waitForExit(until: .now + grace) { return done }
        return await forceKill()
    }

    /// SIGKILL and reap. A killed process always goes; the 10 s bound only guards against a zombie parent bug.
    func forceKill() async -> Termination {
        send(SIGKILL)
        return await waitForExit(until: .now + .seconds(10)) ?? .unknown
    }

    deinit {
        // Last resort for a test that forgot to stop its peer: never leave a child behind.
        if poll() == nil {
            _ = kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        }
    }
}

extension Duration {
    /// Whole milliseconds, rounded down (for `usleep` and messages).
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
