// ClipBridge — the clipbridge command-line tool.
// Commands the user configures, run through the shell with their output read: history pick's picker, the
// history's key command.

import Glibc

/// Runs `/bin/sh -c COMMAND` with `input` on its standard input and its standard output read whole. Its standard
/// error and terminal stay the caller's: fzf draws on /dev/tty, and `pass` asks for a passphrase through
/// gpg-agent's pinentry.
enum ShellCommand {
    /// The command's exit status (128 + the signal's number when it was killed) and everything it printed.
    /// - Throws: ``CLIFailure`` when it cannot be started (`what` names it in the message).
    static func run(_ command: String, input: [UInt8] = [], what: String) throws -> (status: Int32, output: [UInt8]) {
        var toCommand: [Int32] = [-1, -1], fromCommand: [Int32] = [-1, -1]
        guard Descriptors.makePipe(&toCommand), Descriptors.makePipe(&fromCommand) else {
            throw CLIFailure(status: .ioError, message: "cannot create a pipe").exit()
        }
        let started = Spawn.start("/bin/sh", arguments: ["sh", "-c", command]) { actions in
            posix_spawn_file_actions_adddup2(&actions, toCommand[0], STDIN_FILENO)
            posix_spawn_file_actions_adddup2(&actions, fromCommand[1], STDOUT_FILENO)
        }
        close(toCommand[0])
        close(fromCommand[1])
        guard case .success(let pid) = started else {
            close(toCommand[1])
            close(fromCommand[0])
            throw CLIFailure(status: .usage, message: "cannot run \(what) '\(command)'").exit()
        }
        // A command may print before reading everything (or quit): a closed pipe is not an error.
        signal(SIGPIPE, SIG_IGN)
        _ = try? input.withUnsafeBytes { try Output.write($0, to: toCommand[1]) }
        close(toCommand[1])
        var output = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fromCommand[0], &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            output += buffer[0..<count]
        }
        close(fromCommand[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (Spawn.exitStatus(ofWaitStatus: status), output)
    }

    /// The first line the command printed (a picker's choice).
    static func firstLine(_ command: String, input: String, what: String) throws -> String {
        let (_, output) = try run(command, input: Array(input.utf8), what: what)
        let firstLine = output.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).first ?? []
        return String(decoding: firstLine, as: UTF8.self)
    }
}
