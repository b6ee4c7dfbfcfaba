// ClipBridge — the clipbridge command-line tool.
// The link to another machine's clipbridge: ssh (or the user's command) started with its standard streams as pipes.

import ClipboardLink
import Glibc
import Synchronization

/// Starts `SSH_COMMAND [user@]host 'clipbridge bridge --stdio …'` for a link, as rsync and git start their far ends:
/// the user's ssh, with its config, agent, keys, host verification and ProxyJump. The command's standard input and
/// output carry the link; its standard error — ssh's own messages and the far clipbridge's log — is passed on to
/// ours line by line, each line prefixed with the link's name, and its last lines kept to say why the link ended.
enum SSHTransport {
    /// The ssh options every link adds: no terminal (the stream is binary, and `~.` escapes would eat bytes), and no
    /// X11 forwarding — a forwarded DISPLAY on the far side would name this machine's display, and the far end's own
    /// session would be bridged with itself.
    static let linkOptions = ["-T", "-x"]

    /// Starts the command; the transport it returns ends it on close.
    /// - Parameters:
    ///   - sshCommand: the ssh command as the user gave it (`ssh -F config -p 2222`), run by /bin/sh.
    ///   - name: the link's name, for the lines passed on.
    static func open(sshCommand: String, host: String, remoteLine: String, name: String) throws -> LinkTransport {
        var toCommand: [Int32] = [-1, -1], fromCommand: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
        guard Descriptors.makePipe(&toCommand), Descriptors.makePipe(&fromCommand), Descriptors.makePipe(&errors) else {
            throw LinkClosed("cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        let arguments = linkOptions + [host, remoteLine]
        let typed = ([sshCommand] + arguments.map(SSHDestination.shellQuoted)).joined(separator: " ")
        // "$@" hands the host and the far command line to ssh as words of their own, whatever they contain.
        let started = Spawn.start("/bin/sh", arguments: ["sh", "-c", "\(sshCommand) \"$@\"", "sh"] + arguments) { actions in
            posix_spawn_file_actions_adddup2(&actions, toCommand[0], STDIN_FILENO)
            posix_spawn_file_actions_adddup2(&actions, fromCommand[1], STDOUT_FILENO)
            posix_spawn_file_actions_adddup2(&actions, errors[1], STDERR_FILENO)
        }
        for descriptor in [toCommand[0], fromCommand[1], errors[1]] { Glibc.close(descriptor) }
        guard case .success(let pid) = started else {
            for descriptor in [toCommand[1], fromCommand[0], errors[0]] { Glibc.close(descriptor) }
            throw LinkUnusable("cannot run /bin/sh for `\(typed)`")
        }
        let process = LinkProcess(pid: pid, command: typed)
        let errorReader = errors[0]
        BlockingThread.start { process.passOn(errorReader, prefix: name) }
        let input = fromCommand[0], output = toCommand[1]
        return LinkTransport(
            input: input, output: output,
            close: { process.stop() },
            ending: { await process.ending() })
    }
}

/// The command behind a link: its standard error passed on, its end awaited with a deadline, stopped by its pid only.
final class LinkProcess: Sendable {
    let pid: pid_t
    let command: String
    private struct State {
        var lastLines: [String] = []
        var status: Int32?
        var errorsDone = false
    }
    private let state = Mutex(State())

    init(pid: pid_t, command: String) {
        self.pid = pid
        self.command = command
    }

    /// Copies the command's standard error to ours, one whole line at a time behind `prefix`, keeping the last few.
    func passOn(_ descriptor: Int32, prefix: String) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        func flush(_ line: ArraySlice<UInt8>) {
            let text = String(decoding: line, as: UTF8.self)
            let shown = "\(prefix): \(text)\n"
            _ = shown.withCString { Glibc.write(STDERR_FILENO, $0, strlen($0)) }
            state.withLock { state in
                state.lastLines.append(String(text.prefix(300)))
                if state.lastLines.count > 3 { state.lastLines.removeFirst() }
            }
        }
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            pending += buffer[0..<count]
            while let newline = pending.firstIndex(of: 0x0A) {
                flush(pending[..<newline])
                pending.removeSubrange(...newline)
            }
            // A line longer than this is shown in pieces rather than held without bound.
            if pending.count > 16 << 10 {
                flush(pending[...])
                pending.removeAll()
            }
        }
        if !pending.isEmpty { flush(pending[...]) }
        Glibc.close(descriptor)
        state.withLock { $0.errorsDone = true }
    }

    /// Stops the command (SIGTERM; SIGKILL if it has not ended a second later) unless it has ended.
    func stop() {
        guard reap(waiting: false) == nil else { return }
        kill(pid, SIGTERM)
        BlockingThread.start { [self] in
            for _ in 0..<50 where reap(waiting: false) == nil { usleep(20_000) }
            if reap(waiting: false) == nil {
                kill(pid, SIGKILL)
                _ = reap(waiting: true)
            }
        }
    }

    /// How the command ended: waits up to 5 s for it to exit after its output closed (ssh reports a failed login just
    /// before it exits), then stops it.
    func ending() async -> LinkEnding? {
        for _ in 0..<250 {
            if let status = reap(waiting: false) {
                // Its last words are read before they are quoted (at most a moment after it exited).
                for _ in 0..<50 where !state.withLock({ $0.errorsDone }) { try? await Task.sleep(for: .milliseconds(10)) }
                let message = state.withLock { $0.lastLines.joined(separator: " / ") }
                return LinkEnding(command: command, status: status, message: message)
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        stop()
        return nil
    }

    /// The command's exit status once it has ended (reaped once, remembered); nil while it runs.
    private func reap(waiting: Bool) -> Int32? {
        state.withLock { state -> Int32? in
            if let status = state.status { return status }
            var raw: Int32 = 0
            let result = waitpid(pid, &raw, waiting ? 0 : WNOHANG)
            guard result == pid else { return nil }
            state.status = Spawn.exitStatus(ofWaitStatus: raw)
            return state.status
        }
    }
}
