// clipbridge tests: running the binary with its peak RSS measured.
//
// Why GNU time sits in between: posix_spawn is a vfork (CLONE_VM), so until it execs the child shares the
// test process's address space, and Linux folds the old mm's high-water mark into the new program's
// `ru_maxrss` at exec (fs/exec.c, exec_mmap → setmax_mm_hiwater_rss). Measured directly, every child would
// report at least the test process's own peak — hundreds of MiB once other suites have moved large
// payloads in-process. /usr/bin/time is exec'd first (small), then fork()s the command with a fresh
// signal struct, so the figure it prints (`%M`, from wait4) is the command's own peak.

import Foundation
import Glibc
import ClipBridgeTestSupport

/// The outcome of a measured run.
struct MeasuredResult {
    /// Exit status (or 128 + signal).
    var status: Int32
    /// The command's peak resident set size in KiB (`ru_maxrss` as GNU time reports it).
    var peakRSSKiB: Int
    /// Wall time.
    var duration: Duration
}

/// Runs `arguments` with DISPLAY=`display` (nil: DISPLAY unset) and `environment`, stdin from `input` (or
/// /dev/null), stdout to `output` (or /dev/null), stderr discarded; kills it after `timeout`.
func measuredRun(_ arguments: [String], display: String?, environment extra: [String: String] = [:],
                 input: String? = nil, output: String? = nil,
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
    // Its own process group, so a timeout kills time and the command it runs together.
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

    let report = FileManager.default.temporaryDirectory
        .appendingPathComponent("clipbridge-maxrss-\(UUID().uuidString)").path
    defer { unlink(report) }
    let arguments = ["/usr/bin/time", "-f", "%M", "-o", report, "--"] + arguments

    var environment = ProcessInfo.processInfo.environment
    environment["DISPLAY"] = display
    environment.merge(extra) { $1 }
    var cEnvironment: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer {
        cEnvironment.forEach { free($0) }
        cArguments.forEach { free($0) }
    }
    SpawnLog.record(arguments, searchPath: environment["PATH"])
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
            kill(-pid, SIGKILL)
            _ = wait4(pid, &status, 0, &usage)
            throw POSIXError(.ETIMEDOUT)
        }
        try await Task.sleep(for: .milliseconds(5))
    }
    let duration = ContinuousClock.now - started
    let signal = status & 0x7f
    // GNU time exits with the command's status; on a signal it writes "Command terminated by signal N"
    // before the figure, so the figure is the last line of its report.
    let lines = (try? String(contentsOfFile: report, encoding: .utf8))?.split(separator: "\n") ?? []
    guard let peak = lines.last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) else {
        throw POSIXError(.EBADMSG)
    }
    return MeasuredResult(status: signal == 0 ? (status >> 8) & 0xff : 128 + signal,
                          peakRSSKiB: peak, duration: duration)
}
