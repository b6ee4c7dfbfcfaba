// ClipBridge — the clipbridge command-line tool.
// Running `watch --exec` commands: posix_spawnp with default signal dispositions and an empty mask
// (our own SIGINT/SIGTERM are ignored in favour of dispatch sources, and ignored dispositions would
// otherwise survive exec into the user's command), content streamed into a pipe on its stdin.

import FoundationEssentials
import Glibc

/// One run of a user command with content on its standard input.
struct CommandRunner: Sendable {
    /// argv, the first element looked up in PATH.
    var arguments: [String]
    /// Variables added to (or replacing in) our environment.
    var environment: [String: String]

    /// A started command: its pid and the write end of its stdin pipe.
    struct Running: Sendable {
        var pid: pid_t
        var input: Int32

        /// Writes content to the command; false once it stopped reading (EPIPE), which is not an error.
        func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let count = write(input, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return false }
                offset += count
            }
            return true
        }

        /// Closes stdin and waits for the command on a separate thread (waitpid blocks), returning its
        /// exit status (128 + signal number when killed).
        func finish() async -> Int32 {
            close(input)
            let pid = pid
            return await withCheckedContinuation { continuation in
                BlockingThread.start {
                    var status: Int32 = 0
                    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                    continuation.resume(returning: Spawn.exitStatus(ofWaitStatus: status))
                }
            }
        }
    }

    /// Starts the command.
    func start() throws -> Running {
        var ends: [Int32] = [-1, -1]
        guard Descriptors.makePipe(&ends) else {
            throw CLIFailure(status: .ioError, message: "cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let stdinEnd = ends[0]
        let spawned = Spawn.start(
            arguments[0], arguments: arguments, environment: merged.map { "\($0.key)=\($0.value)" },
            searchPath: true
        ) { actions in
            posix_spawn_file_actions_adddup2(&actions, stdinEnd, STDIN_FILENO)
        }
        close(ends[0])
        switch spawned {
        case .success(let pid):
            return Running(pid: pid, input: ends[1])
        case .failure(let error):
            close(ends[1])
            throw CLIFailure(status: .ioError, message: "cannot run \(arguments[0]): \(error.message)")
        }
    }
}
