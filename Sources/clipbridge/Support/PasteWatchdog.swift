// ClipBridge — the clipbridge command-line tool.
// `paste --timeout`: a bound the whole command keeps, whatever it is busy with.

import Glibc

/// Ends a `paste` that has not started writing within its `--timeout`, with the timeout's exit status.
///
/// The engine bounds every wait (the owner's answer, each INCR chunk), but a deadline is only looked at
/// between events: work that does not return to the wait — an owner's 100,000-atom TARGETS once took
/// minutes to parse — outlived `--timeout` (issue 11). A real-time interval timer does not depend on the
/// process reaching any particular line: SIGALRM's handler writes one line and `_exit`s, both
/// async-signal-safe. Once output has begun, the per-chunk idle timeout bounds the rest, so a large paste
/// that keeps moving is never cut short.
enum PasteWatchdog {
    /// Arms the watchdog: `seconds` (plus a small margin, so an engine timeout reports first with its own
    /// words) until the process ends with status 3. Does nothing when it is armed already (the quick paste
    /// handing over to the full path keeps its first deadline).
    static func arm(seconds: Double) {
        var current = itimerval()
        getitimer(__itimer_which_t(ITIMER_REAL.rawValue), &current)
        if current.it_value.tv_sec != 0 || current.it_value.tv_usec != 0 { return }
        signal(SIGALRM) { _ in
            let message = "clipbridge: timed out: no answer within --timeout\n"
            _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
            _exit(ExitStatus.timedOut.rawValue)
        }
        let total = seconds + margin
        var timer = itimerval()
        timer.it_value.tv_sec = Int(total)
        timer.it_value.tv_usec = Int((total - Double(Int(total))) * 1_000_000)
        setitimer(__itimer_which_t(ITIMER_REAL.rawValue), &timer, nil)
    }

    /// Disarms it: output has begun (or the paste is over).
    static func disarm() {
        var timer = itimerval()
        setitimer(__itimer_which_t(ITIMER_REAL.rawValue), &timer, nil)
    }

    /// Lets the engine's own timeout, which names what it waited for, come first.
    static let margin = 0.5
}
