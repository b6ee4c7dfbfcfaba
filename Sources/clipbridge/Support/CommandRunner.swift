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
                    let signal = status & 0x7f
                    continuation.resume(returning: signal == 0 ? (status >> 8) & 0xff : 128 + signal)
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
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[0], STDIN_FILENO)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let environmentStrings = merged.map { "\($0.key)=\($0.value)" }
        var cEnvironment: [UnsafeMutablePointer<CChar>?] = environmentStrings.map { strdup($0) } + [nil]
        var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer {
            for pointer in cEnvironment { free(pointer) }
            for pointer in cArguments { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, &cArguments, &cEnvironment)
        close(ends[0])
        guard result == 0 else {
            close(ends[1])
            throw CLIFailure(status: .ioError, message: "cannot run \(arguments[0]): \(String(cString: strerror(result)))")
        }
        return Running(pid: pid, input: ends[1])
    }
}
