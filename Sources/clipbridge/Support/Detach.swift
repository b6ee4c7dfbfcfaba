// ClipBridge — the clipbridge command-line tool.
// How `copy` detaches its server from the caller: the one place that decides, and both ways of doing it.
//
// xclip and wl-copy fork() after taking the selection, and `copy` does the same while its process has a
// single thread: one process start, and the caller waits only for the claim. A fork is sound only then: once
// Swift's thread pool, Dispatch or the X connection's thread exist, the child inherits locks held by threads
// that no longer exist. So when the process already has threads (or CLIPBRIDGE_DETACH=exec asks for it),
// `copy` re-executes `/proc/self/exe` with the hidden `serve-detached` subcommand instead, hands the payloads
// over as inherited descriptors, and waits on a status pipe until the new process says whether it owns the
// selection (architecture.md §4.5-14).
//
// Either way the server leaves the caller's session and terminal alike: a new session (so the terminal's
// SIGHUP and the caller's Ctrl-Z never reach it: bugaevc/wl-clipboard#298), standard streams on /dev/null
// (so `x=$(… | clipbridge copy)` and terminals that wait for EOF return: astrand/xclip#20, #154), none of the
// caller's other descriptors (helix-editor/helix#11633, mawww/kakoune#2325), the working directory `/`.

import ClipBridge
import ClipBridgeOptions
import FoundationEssentials
import Glibc
import X11Selection

/// Starting `copy`'s server apart from the caller.
enum Detach {
    /// Which side of the detach this process is on once ``start(plan:payloads:timeout:)`` returned.
    enum Side {
        /// The caller, once the re-executed server owns the selection: end the process with status 0. (After a
        /// fork the caller does not return: it exits at once, see `fork`.)
        case caller
        /// The forked server: run it (it is already detached from the caller).
        case server(ForkedServer)
    }

    /// How the server is started.
    enum Method: Equatable {
        /// Claim here, then fork: the child continues the claim's connection.
        case fork
        /// Fork, then the child claims and says so on a status pipe, as a re-executed server does: for a Wayland
        /// compositor, whose connection has a thread of its own from the start, so it cannot cross a fork.
        case forkThenClaim
        /// Spawn `clipbridge serve-detached PLAN`, which claims, and wait for its word.
        case reexecute
    }

    /// The method for `plan` in this process now: fork only while it has exactly one thread (and the environment
    /// does not ask otherwise).
    static func method(for plan: CopyPlan) -> Method {
        guard isSingleThreaded && !prefersReexecution else { return .reexecute }
        if case .wayland = DisplayChoice.resolve(plan.display) { return .forkThenClaim }
        return .fork
    }

    /// Starts the server for `plan`, waiting until it owns the selection (or failed to).
    ///
    /// Synchronous on purpose: the caller runs it on the main thread before its first suspension, when the
    /// process still has one thread, so that forking is possible.
    /// - Throws: the claim's failure (`SelectionError`), or `CLIFailure` when the server cannot be started or
    ///   reports a failure.
    static func start(plan: CopyPlan, payloads: [SpooledPayload], timeout: Seconds) throws -> Side {
        switch method(for: plan) {
        case .fork:
            return try fork(plan: plan, payloads: payloads, timeout: timeout)
        case .forkThenClaim:
            return try forkThenClaim(plan: plan, payloads: payloads)
        case .reexecute:
            try reexecute(plan: plan, payloads: payloads)
            return .caller
        }
    }

    /// `CLIPBRIDGE_DETACH=exec`: always re-execute, for an environment where forking this process is
    /// unwelcome (and so the tests reach that path).
    static var prefersReexecution: Bool {
        guard let value = getenv("CLIPBRIDGE_DETACH") else { return false }
        return strcmp(value, "exec") == 0
    }

    /// Whether this process has exactly one thread. (A Swift async `main` starts no thread before its first
    /// hop to the global executor; this checks rather than assumes.)
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

    // MARK: - Fork

    /// Claims, then forks. The parent exits with status 0 (the claim is verified); the child, detached from
    /// the caller, gets the server.
    private static func fork(plan: CopyPlan, payloads: [SpooledPayload], timeout: Seconds) throws -> Side {
        let prepared = try PreparedClaim(
            SelectionName(rawValue: plan.selection), display: plan.display,
            configuration: Connections.configuration(timeout: timeout))
        // The child is in the caller's process group until its setsid, and `copy` does not wait for that
        // (a handshake cost the caller a wake-up of the child: 0.5-0.8 ms of a 16-byte copy). What the
        // caller's group may receive in that window, the server must survive: SIGHUP and the job-control
        // stops are ignored for good, and Ctrl-C, Ctrl-\ and `kill 0` (SIGINT, SIGQUIT, SIGTERM) are
        // ignored across the fork and restored once the child leads its own session.
        Signals.ignoreTerminalSignals()
        let interruptions = Signals.GroupInterruptions.ignore()
        let pid = Glibc.fork()
        if pid < 0 {
            interruptions.restore()
            throw systemFailure("cannot fork the server")
        }
        if pid > 0 {
            // Here, not by returning `.caller`: nothing may touch the X connection the child now owns, and
            // releasing `prepared` would close it (a shutdown of the shared socket).
            _exit(ExitStatus.success.rawValue)
        }
        leaveTheCaller(keeping: payloads.map(\.descriptor) + [prepared.fileDescriptor], interruptions)
        return .server(ForkedServer(plan: plan, payloads: payloads, prepared: .x11(prepared)))
    }

    /// Forks, then the child claims (see ``Method/forkThenClaim``). The parent waits for the child's word on a
    /// status pipe, as for a re-executed server, and returns ``Side/caller``.
    private static func forkThenClaim(plan: CopyPlan, payloads: [SpooledPayload]) throws -> Side {
        var pipeEnds: [Int32] = [-1, -1]
        guard Descriptors.makePipe(&pipeEnds) else { throw systemFailure("cannot create a pipe") }
        Signals.ignoreTerminalSignals()
        let interruptions = Signals.GroupInterruptions.ignore()
        let pid = Glibc.fork()
        if pid != 0 {
            interruptions.restore()
            close(pipeEnds[1])
            if pid < 0 {
                close(pipeEnds[0])
                throw systemFailure("cannot fork the server")
            }
            try awaitReadiness(statusDescriptor: pipeEnds[0], pid: pid)
            return .caller
        }
        close(pipeEnds[0])
        leaveTheCaller(keeping: payloads.map(\.descriptor) + [pipeEnds[1]], interruptions)
        return .server(ForkedServer(plan: plan, payloads: payloads, prepared: .reportingTo(pipeEnds[1])))
    }

    /// In a forked child: a session of its own, then none of the caller's descriptors but `kept`, the standard
    /// streams on /dev/null, and `/` as the working directory.
    private static func leaveTheCaller(keeping kept: [Int32], _ interruptions: Signals.GroupInterruptions) {
        _ = setsid()
        interruptions.restore()
        // A forked child inherits every descriptor of the caller, and one may be the write end of the pipe a
        // `$(…)` waits on; a re-executed server gets only what it is handed (see `reexecute`).
        let kept = Set(kept)
        for descriptor in openDescriptors() where descriptor > STDERR_FILENO && !kept.contains(descriptor) {
            close(descriptor)
        }
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        if null >= 0 {
            for target in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] { _ = dup2(null, target) }
            if null > STDERR_FILENO { close(null) }
        }
        _ = chdir("/")
    }

    // MARK: - Re-execute

    /// The descriptor number at which the re-executed server finds the write end of the status pipe; the
    /// payload descriptors follow it (4, 5, …) in the order they were passed.
    static let statusDescriptor: Int32 = 3

    /// How long the caller waits for the re-executed server's word.
    static let readinessTimeout: Duration = .seconds(15)

    /// Spawns `clipbridge serve-detached PLAN` and waits until it reports.
    private static func reexecute(plan: CopyPlan, payloads: [SpooledPayload]) throws {
        let json = String(decoding: try JSONEncoder().encode(plan), as: UTF8.self)
        var pipeEnds: [Int32] = [-1, -1]
        guard Descriptors.makePipe(&pipeEnds) else { throw systemFailure("cannot create a pipe") }
        let status = pipeEnds[0]
        let pid: pid_t
        do {
            defer { close(pipeEnds[1]) }
            pid = try spawnServer(arguments: [ServeDetached.commandName, json],
                                  passing: [pipeEnds[1]] + payloads.map(\.descriptor))
        } catch {
            close(status)
            throw error
        }
        try awaitReadiness(statusDescriptor: status, pid: pid)
    }

    /// Spawns this executable in a new session with the standard streams on /dev/null, default signal
    /// dispositions and an empty mask; `descriptors` become 3, 4, … in the child.
    private static func spawnServer(arguments: [String], passing descriptors: [Int32]) throws -> pid_t {
        // Move every descriptor out of the 3…3+n range first, so no dup2 below overwrites a source that a later
        // dup2 still needs (and dup2(fd, fd) would leave close-on-exec set).
        let high = descriptors.map { fcntl($0, F_DUPFD_CLOEXEC, 64 as Int32) }
        defer { for fd in high where fd >= 0 { close(fd) } }
        guard !high.contains(where: { $0 < 0 }) else { throw systemFailure("cannot duplicate a descriptor") }
        // Descriptors our caller leaked to us (not close-on-exec) must not reach the server. Ours are all
        // close-on-exec.
        let leaked = openDescriptors().filter { $0 > STDERR_FILENO && fcntl($0, F_GETFD) & FD_CLOEXEC == 0 }
        let spawned = Spawn.start("/proc/self/exe", arguments: ["clipbridge"] + arguments, newSession: true) { actions in
            for target in Int32(0)...2 {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            }
            for fd in leaked { posix_spawn_file_actions_addclose(&actions, fd) }
            for (offset, fd) in high.enumerated() {
                posix_spawn_file_actions_adddup2(&actions, fd, statusDescriptor + Int32(offset))
            }
        }
        switch spawned {
        case .success(let pid):
            return pid
        case .failure(let error):
            throw CLIFailure(status: .ownershipFailed, message: "cannot start the background server: \(error.message)")
        }
    }

    /// Waits until the server reports on the status pipe; the server lives on (nothing is reaped).
    ///
    /// The server writes `ok` once it owns the selection, or `error <status> <message>`. End of file without a
    /// message means it died before claiming.
    private static func awaitReadiness(statusDescriptor fd: Int32, pid: pid_t) throws {
        defer { close(fd) }
        var message: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        // One deadline, so a signal that interrupts poll or read does not start the full wait again.
        let deadline = ContinuousClock.now + readinessTimeout
        while true {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, deadline.pollTimeoutFromNow)
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 {
                kill(pid, SIGTERM)
                throw CLIFailure(status: .timedOut, message: "the background server did not report within "
                                 + "\(readinessTimeout.components.seconds) s; it was stopped")
            }
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            message += buffer[0..<count]
        }
        let text = String(decoding: message, as: UTF8.self).trimmingSuffix("\n")
        if text == "ok" { return }
        if text.hasPrefix("error ") {
            let rest = text.dropFirst("error ".count)
            let code = rest.prefix { $0 != " " }
            let reason = rest.dropFirst(code.count).drop { $0 == " " }
            throw CLIFailure(status: ExitStatus(rawValue: Int32(code) ?? 2) ?? .ownershipFailed, message: String(reason))
        }
        // The server died without a word: collect its status if it already exited, for the message.
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        let how = reaped == pid ? " (exit status \(status >> 8 & 0xff), signal \(status & 0x7f))" : ""
        throw CLIFailure(status: .ownershipFailed, message: "the background server ended before owning the selection\(how)")
    }

    /// The re-executed server's word to the `copy` that spawned it (see `awaitReadiness`); closes the pipe.
    static func report(_ outcome: Result<Void, CLIFailure>, to fd: Int32) {
        let line: String
        switch outcome {
        case .success: line = "ok\n"
        case .failure(let failure): line = "error \(failure.status.rawValue) \(failure.description)\n"
        }
        let bytes = Array(line.utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    // MARK: - Helpers

    /// This process's open descriptors, from /proc/self/fd (the listing's own descriptor excluded).
    private static func openDescriptors() -> [Int32] {
        guard let directory = opendir("/proc/self/fd") else { return [] }
        defer { closedir(directory) }
        let own = dirfd(directory)
        var found: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let fd = Int32(name), fd != own { found.append(fd) }
        }
        return found
    }

    private static func systemFailure(_ what: String) -> CLIFailure {
        CLIFailure(status: .ioError, message: "\(what): \(String(cString: strerror(errno)))")
    }
}

/// The forked server's work: serving the plan on the claim it inherited, or on one it makes.
struct ForkedServer {
    /// What the fork prepared.
    enum Preparation {
        /// The X claim, made before the fork (``Detach/Method/fork``).
        case x11(PreparedClaim)
        /// Nothing: the server claims, and reports to the caller on this status pipe (``Detach/Method/forkThenClaim``).
        case reportingTo(Int32)
    }

    let plan: CopyPlan
    let payloads: [SpooledPayload]
    let prepared: Preparation

    /// How long the server sleeps on its claim before building its offer when nobody asks.
    static let quietStart: Duration = .milliseconds(100)

    /// Serves until the server ends, then exits the process with the server's status.
    ///
    /// On X the serving machinery (threads, the type registry, the offer) starts when the first event arrives or
    /// after ``quietStart``, whichever comes first; a copy that the next copy replaces before then (a script
    /// copying in a loop) exits without having built anything. A request that comes meanwhile starts it at
    /// once, so no paste waits for the quiet period.
    func serve() async -> Never {
        var status = ExitStatus.success
        switch prepared {
        case .x11(let claim):
            switch claim.awaitActivity(for: Self.quietStart) {
            case .lost: exit(ExitStatus.success.rawValue)
            case .connectionLost: exit(ExitStatus.displayUnavailable.rawValue)
            case .events, .quiet: break
            }
            _ = await CopyServer(plan: plan, payloads: payloads, prepared: claim).run { result in
                if case .failure(let failure) = result { status = failure.status }
            }
        case .reportingTo(let statusPipe):
            _ = await CopyServer(plan: plan, payloads: payloads).run { result in
                if case .failure(let failure) = result { status = failure.status }
                Detach.report(result, to: statusPipe)
            }
        }
        exit(status.rawValue)
    }
}

extension String {
    /// The string without one trailing `suffix`, if present.
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
