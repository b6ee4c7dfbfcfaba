// ClipBridge — the clipbridge command-line tool.
// Starting child processes: the detached copy server, and watch --exec's commands.

import FoundationEssentials
import Glibc

/// The one way the CLI starts a process (`posix_spawn`): an empty signal mask and default dispositions in the
/// child, whatever this process blocks or ignores — an inherited blocked SIGTERM would make the child
/// unkillable (architecture.md §1.0-9) — and, on request, a new session.
enum Spawn {
    /// glibc's POSIX_SPAWN_SETSID (spawn.h, behind _GNU_SOURCE, so not imported into Swift).
    private static let setSessionFlag: Int32 = 0x80

    /// Starts `executable` (looked up in PATH when `searchPath`) with `arguments` (argv[0] included).
    ///
    /// - Parameters:
    ///   - environment: the child's environment as `NAME=value` strings; nil passes this process's on.
    ///   - newSession: start it in a new session (no controlling terminal: SIGHUP and job control of the
    ///     caller's terminal never reach it).
    ///   - fileActions: adds the descriptor set-up (redirections, closes) to the spawn's file actions.
    /// - Returns: the child's pid, or the errno `posix_spawn` failed with.
    static func start(
        _ executable: String, arguments: [String], environment: [String]? = nil, searchPath: Bool = false,
        newSession: Bool = false, fileActions: (inout posix_spawn_file_actions_t) -> Void
    ) -> Result<pid_t, Errno> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        fileActions(&actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        let flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | (newSession ? setSessionFlag : 0)
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let cEnvironment: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup($0) } + [nil] }
        defer {
            for pointer in cArguments { free(pointer) }
            for pointer in cEnvironment ?? [] { free(pointer) }
        }
        var pid: pid_t = 0
        let result: Int32
        if var cEnvironment {
            result = searchPath
                ? posix_spawnp(&pid, executable, &actions, &attributes, &cArguments, &cEnvironment)
                : posix_spawn(&pid, executable, &actions, &attributes, &cArguments, &cEnvironment)
        } else {
            result = searchPath
                ? posix_spawnp(&pid, executable, &actions, &attributes, &cArguments, environ)
                : posix_spawn(&pid, executable, &actions, &attributes, &cArguments, environ)
        }
        return result == 0 ? .success(pid) : .failure(Errno(code: result))
    }

    /// A process's exit status from waitpid's status word: its exit code, or 128 + the signal's number when a
    /// signal ended it (as shells report it).
    static func exitStatus(ofWaitStatus status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// An errno value, with its message.
    struct Errno: Error {
        var code: Int32
        var message: String { String(cString: strerror(code)) }
    }
}
