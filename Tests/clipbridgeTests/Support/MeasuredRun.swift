// clipbridge tests: running the binary with its peak RSS measured (wait4's rusage of exactly that child).

import Foundation
import Glibc

/// The outcome of a measured run.
struct MeasuredResult {
    /// Exit status (or 128 + signal).
    var status: Int32
    /// The child's peak resident set size in KiB (`ru_maxrss`).
    var peakRSSKiB: Int
    /// Wall time.
    var duration: Duration
}

/// Runs `arguments` with DISPLAY=`display`, stdin from `input` (or /dev/null), stdout to `output` (or
/// /dev/null), stderr discarded; kills it after `timeout`.
func measuredRun(_ arguments: [String], display: String, input: String? = nil, output: String? = nil,
                 timeout: Duration = .seconds(120)) async throws -> MeasuredResult {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, input ?? "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    var environment = ProcessInfo.processInfo.environment
    environment["DISPLAY"] = display
    var cEnvironment: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer {
        cEnvironment.forEach { free($0) }
        cArguments.forEach { free($0) }
    }
    let started = ContinuousClock.now
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, arguments[0], &actions, &attributes, &cArguments, &cEnvironment)
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
    var status: Int32 = 0
    var usage = rusage()
    while true {
        let reaped = wait4(pid, &status, WNOHANG, &usage)
        if reaped == pid { break }
        if ContinuousClock.now - started > timeout {
            kill(pid, SIGKILL)
            _ = wait4(pid, &status, 0, &usage)
            throw POSIXError(.ETIMEDOUT)
        }
        try await Task.sleep(for: .milliseconds(5))
    }
    let signal = status & 0x7f
    return MeasuredResult(status: signal == 0 ? (status >> 8) & 0xff : 128 + signal,
                          peakRSSKiB: Int(usage.ru_maxrss), duration: ContinuousClock.now - started)
}
