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
/// job-control signals ignored, the working directory `/`.
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

    /// The forked child's work: serving the plan on the claim it inherited.
    struct Child {
        let plan: CopyPlan
        let payloads: [SpooledPayload]
        let prepared: PreparedClaim

        /// Serves until the server ends, then exits the process with the server's status.
        func serve() async -> Never {
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
        // When `copy` returns, the server must already be out of the caller's session: a shell running
        // `clipbridge copy; kill -HUP 0` (a terminal closing) or a Ctrl-C would otherwise reach it before
        // its setsid. So the parent waits for the child's word that it left (one pipe wake-up), and the
        // signals the server ignores are ignored before the fork, so the child has them from its start.
        Signals.ignoreTerminalSignals()
        var left: [Int32] = [-1, -1]
        guard Descriptors.makePipe(&left) else {
            throw CLIFailure(status: .ioError, message: "cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        let pid = fork()
        if pid < 0 {
            throw CLIFailure(status: .ioError, message: "cannot fork the server: \(String(cString: strerror(errno)))")
        }
        if pid > 0 {
            close(left[1])
            var byte: UInt8 = 0
            while read(left[0], &byte, 1) < 0 && errno == EINTR {}
            // _exit, not exit: nothing may touch the X connection the child now owns (closing the Display
            // would run a round trip on the shared socket).
            _exit(ExitStatus.success.rawValue)
        }
        close(left[0])
        _ = setsid()
        var byte: UInt8 = 1
        _ = write(left[1], &byte, 1)
        close(left[1])
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
