// ClipBridge — the clipbridge command-line tool.
// Writing to descriptors and reporting failures.

import ArgumentParser
import Glibc

/// Small output helpers over write(2): no buffering surprises when the process ends with exit().
enum Output {
    /// Writes all of `bytes` to `descriptor`, retrying short writes; throws on EPIPE and other errors.
    static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws {
        var offset = 0
        while offset < bytes.count {
            let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw CLIFailure(status: .ioError, message: "cannot write the output: \(String(cString: strerror(errno)))")
            }
            offset += count
        }
    }

    /// Writes a string to `descriptor`.
    static func write(_ text: String, to descriptor: Int32) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0), to: descriptor) }
    }

    /// Ends pasted text with a newline when standard output is a terminal and the text does not end with
    /// one (so the prompt starts on its own line); pipes and files always get the exact bytes.
    /// - Parameter last: the last byte written, nil when nothing was.
    static func endLineOnTerminal(after last: UInt8?) throws {
        if let last, last != 0x0A, isatty(STDOUT_FILENO) == 1 { try write("\n", to: STDOUT_FILENO) }
    }

    /// Prints one line on standard output.
    static func line(_ text: String) throws {
        try write(text + "\n", to: STDOUT_FILENO)
    }

    /// Prints "clipbridge: message" on standard error, ignoring failures (nothing else can be done).
    static func complain(_ text: String) {
        try? write("clipbridge: " + text + "\n", to: STDERR_FILENO)
    }
}

extension CLIFailure {
    /// Prints the failure on standard error and returns the exit code to throw.
    func exit() -> ExitCode {
        Output.complain(message)
        for line in details { try? Output.write(line + "\n", to: STDERR_FILENO) }
        return ExitCode(status.rawValue)
    }
}

/// Descriptor helpers the Glibc module does not import (pipe2 needs _GNU_SOURCE).
enum Descriptors {
    /// pipe(2) with both ends close-on-exec.
    static func makePipe(_ ends: inout [Int32]) -> Bool {
        guard pipe(&ends) == 0 else { return false }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// Opens /dev/null on standard streams the caller closed (`clipbridge copy x 2>&-`), before anything opens a
    /// descriptor: else the next file opened — a copy's payload, a status pipe — takes the number 0, 1 or 2, and is
    /// then written to as output, or replaced by /dev/null when the server leaves the caller's streams
    /// (bugaevc/wl-clipboard#245 is wl-copy's hang of this family).
    static func openClosedStandardStreams() {
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            // open(2) takes the lowest free number: this one, as the lower ones are open by now.
            let opened = open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            if opened != fd && opened >= 0 { close(opened) }
        }
    }
}
