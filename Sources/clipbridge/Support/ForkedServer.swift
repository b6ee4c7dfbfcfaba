// ClipBridge — the clipbridge command-line tool.
// `copy` the xclip way: claim, fork, and the child serves.

import ClipBridge
import Glibc
import X11Selection

/// Starts the copy server by claiming the selection in this process and forking: the parent exits as
/// soon as the claim is verified, the child continues the claim's connection and serves. One process
/// start instead of two (the re-executed `serve-detached` of ``Background``), and the caller waits only
/// for the claim, not for a second process to start its threads — xclip's model, made sound by forking
/// while this process still has a single thread (fork keeps only the calling thread).
///
/// The child leaves the caller's session and terminal exactly as the re-executed server does: a new
/// session, standard streams on /dev/null (so `x=$(echo hi | clipbridge copy)` returns), SIGHUP and the
/// job-control signals ignored, the working directory `/`. The parent does not wait for the child's
/// `setsid`; signals sent to the caller's process group meanwhile cannot reach the server (see `start`).
enum ForkedServer {
    /// Whether this process has exactly one thread, the condition for forking soundly. (A Swift async
    /// `main` starts no thread before its first hop to the global executor; this checks rather than
    /// assumes, and the caller falls back to re-executing.)
    static var isSingleThreaded: Bool {
        guard let directory = opendir("/proc/self/task") else { return false }
        defer { closedir(directory) }
        var tasks = 0
        while let entry = readdir(directory) {
            let isDot = withUnsafeBytes(of: entry.pointee.d_name) { $0.first == UInt8(ascii: ".") }
            if !isDot { tasks += 1 }
        }
        return tasks == 1
    }

    /// How long the forked server sleeps on its claim before building its offer when nobody asks.
    static let quietStart: Duration = .milliseconds(100)

    /// The forked child's work: serving the plan on the claim it inherited.
    struct Child {
        let plan: CopyPlan
        let payloads: [SpooledPayload]
        let prepared: PreparedClaim

        /// Serves until the server ends, then exits the process with the server's status.
        ///
        /// The serving machinery (threads, the type registry, the offer) starts when the first event
        /// arrives or after ``quietStart``, whichever comes first; a copy that the next copy replaces
        /// before then (a script copying in a loop) exits without having built anything. A request
        /// that comes meanwhile starts it at once, so no paste waits for the quiet period.
        func serve() async -> Never {
            switch prepared.awaitActivity(for: ForkedServer.quietStart) {
            case .lost: exit(ExitStatus.success.rawValue)
            case .connectionLost: exit(ExitStatus.displayUnavailable.rawValue)
            case .events, .quiet: break
            }
            var status = ExitStatus.success
            _ = await CopyServer(plan: plan, payloads: payloads, prepared: prepared).run { result in
                if case .failure(let failure) = result { status = failure.status }
            }
            exit(status.rawValue)
        }
    }

    /// Claims and forks. In the parent it does not return once the fork happened (it exits 0: the claim
    /// is verified); in the child it returns the server to run, already detached from the caller.
    /// - Throws: the claim's failure (`SelectionError`), or `CLIFailure` when fork fails.
    static func start(plan: CopyPlan, payloads: [SpooledPayload], timeout: Double) throws -> Child {
        let selection = SelectionName(rawValue: plan.selection)
        let prepared = try PreparedClaim(
            selection, display: plan.display, configuration: Connections.configuration(timeout: timeout))
        // The child is in the caller's process group until its setsid, and `copy` does not wait for that
        // (a handshake cost the caller a wake-up of the child: 0.5-0.8 ms of a 16-byte copy). What the
        // caller's group may receive in that window, the server must survive: SIGHUP and the job-control
        // stops are ignored for good, and Ctrl-C, Ctrl-\ and `kill 0` (SIGINT, SIGQUIT, SIGTERM) are
        // ignored across the fork and restored once the child leads its own session.
        Signals.ignoreTerminalSignals()
        let interruptions = Signals.GroupInterruptions.ignore()
        let pid = fork()
        if pid < 0 {
            interruptions.restore()
            throw CLIFailure(status: .ioError, message: "cannot fork the server: \(String(cString: strerror(errno)))")
        }
        if pid > 0 {
            // _exit, not exit: nothing may touch the X connection the child now owns (closing the Display
            // would run a round trip on the shared socket).
            _exit(ExitStatus.success.rawValue)
        }
        _ = setsid()
        interruptions.restore()
        detachFromCaller(keeping: Set(payloads.map(\.descriptor) + [prepared.fileDescriptor]))
        return Child(plan: plan, payloads: payloads, prepared: prepared)
    }

    /// The child's break with the caller's session, terminal and working directory.
    private static func detachFromCaller(keeping kept: Set<Int32>) {
        // (Already in its own session, with the terminal's signals ignored: see `start`.)
        closeInheritedDescriptors(keeping: kept)
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        if null >= 0 {
            for target in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] { _ = dup2(null, target) }
            if null > STDERR_FILENO { close(null) }
        }
        // Do not keep the caller's working directory busy (an unmountable USB stick).
        _ = chdir("/")
    }

    /// Closes every descriptor but the standard streams and `kept`. A re-executed server gets only the
    /// descriptors it is handed; a forked one inherits all of the caller's, and one of them may be the
    /// write end of the pipe a `$(…)` waits on (a leaked descriptor would keep the caller's shell waiting
    /// for as long as the server lives).
    private static func closeInheritedDescriptors(keeping kept: Set<Int32>) {
        guard let directory = opendir("/proc/self/fd") else { return }
        var open: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let descriptor = Int32(name) { open.append(descriptor) }
        }
        let listing = dirfd(directory)
        closedir(directory)
        for descriptor in open where descriptor > STDERR_FILENO && descriptor != listing && !kept.contains(descriptor) {
            close(descriptor)
        }
    }
}
