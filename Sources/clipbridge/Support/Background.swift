// ClipBridge — the clipbridge command-line tool.
// Detached serving by re-executing this binary in a new session (architecture.md §4.5-14): the way `copy`
// detaches when it cannot fork.
//
// wl-copy and xclip fork() after taking the selection, and so does `copy` while its process has one thread
// (ForkedServer.swift, the default). A fork is only safe then: once Swift's runtime, Dispatch or the X
// connection's thread exist, a forked child inherits locks held by threads that no longer exist. So when the
// process already has threads (or CLIPBRIDGE_DETACH=exec asks for it), `copy` spawns `/proc/self/exe` with a
// hidden subcommand, hands over the payload as inherited file descriptors, and waits on a status pipe until
// the child says whether it owns the selection.

import Glibc
import X11Selection

/// Starting the detached server, and the status pipe between it and the `copy` that started it.
enum Background {
    /// The descriptor number at which the child finds the write end of the status pipe; the payload
    /// descriptors follow it (4, 5, …) in the order they were passed.
    static let statusDescriptor: Int32 = 3

    /// Spawns this executable detached: new session (so the terminal's SIGHUP and the caller's Ctrl-Z
    /// never reach it: bugaevc/wl-clipboard#298), stdin/stdout/stderr on /dev/null (so
    /// `x=$(… | clipbridge copy)` and terminals that wait for EOF return: astrand/xclip#20, #154),
    /// default signal dispositions and an empty signal mask.
    ///
    /// - Parameters:
    ///   - arguments: the arguments after the executable name.
    ///   - descriptors: open descriptors to hand over; the child sees them as 4, 5, … in order.
    /// - Returns: the read end of the status pipe (close-on-exec) and the child's pid.
    static func spawnDetached(arguments: [String], passing descriptors: [Int32]) throws -> (status: Int32, pid: pid_t) {
        var pipeEnds: [Int32] = [-1, -1]
        guard Descriptors.makePipe(&pipeEnds) else { throw systemFailure("cannot create a pipe") }
        defer { close(pipeEnds[1]) }

        // Move every descriptor out of the 3…3+n range first, so no dup2 below overwrites a source
        // that a later dup2 still needs (and dup2(fd, fd) would leave close-on-exec set).
        let sources = [pipeEnds[1]] + descriptors
        let high = sources.map { fcntl($0, F_DUPFD_CLOEXEC, 64 as Int32) }
        defer { for fd in high where fd >= 0 { close(fd) } }
        guard !high.contains(where: { $0 < 0 }) else {
            close(pipeEnds[0])
            throw systemFailure("cannot duplicate a descriptor")
        }

        let spawned = Spawn.start("/proc/self/exe", arguments: ["clipbridge"] + arguments, newSession: true) { actions in
            for target in Int32(0)...2 {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            }
            // Descriptors our caller leaked to us (not close-on-exec) must not reach the server: a terminal,
            // editor or `$(…)` waiting for EOF on one would hang for as long as we serve
            // (helix-editor/helix#11633, mawww/kakoune#2325). Ours are all close-on-exec.
            for fd in inheritableDescriptors() where fd > 2 {
                posix_spawn_file_actions_addclose(&actions, fd)
            }
            for (offset, fd) in high.enumerated() {
                posix_spawn_file_actions_adddup2(&actions, fd, statusDescriptor + Int32(offset))
            }
        }
        switch spawned {
        case .success(let pid):
            return (pipeEnds[0], pid)
        case .failure(let error):
            close(pipeEnds[0])
            throw CLIFailure(status: .ownershipFailed, message: "cannot start the background server: \(error.message)")
        }
    }

    /// Waits until the child reports on the status pipe, then reaps nothing: the child lives on.
    ///
    /// The child writes `ok` once it owns the selection, or `error <status> <message>`. End of file
    /// without a message means the child died before claiming.
    static func awaitReadiness(statusDescriptor fd: Int32, pid: pid_t, timeoutMilliseconds: Int32) throws {
        defer { close(fd) }
        var message: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        // The wait is measured against one deadline, so a signal that interrupts poll or read does not
        // start the full timeout again.
        let deadline = ContinuousClock.now + .milliseconds(Int(timeoutMilliseconds))
        while true {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, deadline.pollTimeoutFromNow)
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 {
                kill(pid, SIGTERM)
                throw CLIFailure(status: .timedOut, message: "the background server did not report within "
                                 + "\(timeoutMilliseconds / 1000) s; it was stopped")
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
        // The child died without a word: collect its status if it already exited, for the message.
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        let how = reaped == pid ? " (exit status \(status >> 8 & 0xff), signal \(status & 0x7f))" : ""
        throw CLIFailure(status: .ownershipFailed, message: "the background server ended before owning the selection\(how)")
    }

    /// Reports readiness (or failure) to the `copy` that spawned us, then closes the pipe.
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

    /// Open descriptors without close-on-exec, from /proc/self/fd.
    private static func inheritableDescriptors() -> [Int32] {
        guard let directory = opendir("/proc/self/fd") else { return [] }
        defer { closedir(directory) }
        let own = dirfd(directory)
        var found: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let fd = Int32(name), fd != own else { continue }
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 && flags & FD_CLOEXEC == 0 { found.append(fd) }
        }
        return found
    }

    private static func systemFailure(_ what: String) -> CLIFailure {
        CLIFailure(status: .ioError, message: "\(what): \(String(cString: strerror(errno)))")
    }
}

extension String {
    /// The string without one trailing `suffix`, if present.
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
