// ClipBridge test support: an external command run against the test's X server, always with a deadline.

import Foundation
import Glibc

/// An external command (a peer such as xclip, xsel, a toolkit script, or the built `clipbridge`) run against
/// one X display, with a deadline.
///
/// The environment is the test process's, minus `DISPLAY` and `WAYLAND_DISPLAY` (tests never touch the user's
/// display), plus `DISPLAY=display` when one is given, plus `environment`.
///
/// ```swift
/// let result = try await PeerCommand(["xclip", "-selection", "clipboard", "-o"], display: server.display).run()
/// #expect(result.stdoutText == "hello")
/// ```
public struct PeerCommand: Sendable {
    /// Where the child's stdin comes from.
    public enum Input: Sendable {
        /// /dev/null.
        case none
        /// These bytes (staged in an anonymous temporary file, so any size works).
        case data(Data)
        /// This file, opened read-only.
        case file(URL)
    }

    /// Where one of the child's output streams goes.
    public enum Output: Sendable {
        /// Captured into the result (through an anonymous temporary file).
        case capture
        /// Written to this file (created or truncated), e.g. for 512 MiB pastes.
        case file(URL)
        /// /dev/null.
        case discard
    }

    /// The command line; `arguments[0]` is looked up in `PATH` unless it contains a slash.
    public var arguments: [String]
    /// The X display for `DISPLAY` (e.g. `XvfbServer.display`), or nil to leave `DISPLAY` unset.
    public var display: String?
    /// Extra environment variables (they win over inherited ones).
    public var environment: [String: String]
    /// The child's stdin.
    public var stdin: Input
    /// The child's stdout.
    public var stdout: Output
    /// The child's stderr.
    public var stderr: Output
    /// How long `run()` waits before killing the command.
    public var timeout: Duration

    /// Describes a command; nothing runs until `run()` or `start()`.
    public init(
        _ arguments: [String],
        display: String?,
        environment: [String: String] = [:],
        stdin: Input = .none,
        stdout: Output = .capture,
        stderr: Output = .capture,
        timeout: Duration = .seconds(10)
    ) {
        self.arguments = arguments
        self.display = display
        self.environment = environment
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
        self.timeout = timeout
    }

    /// Runs the command to completion; kills it (SIGKILL) and throws `.timedOut` when `timeout` passes first.
    ///
    /// Only the spawned process is waited for: a server it forks (plain `xclip -i`) may outlive it.
    public func run() async throws(CommandError) -> CommandResult {
        let launched = try launch()
        let deadline = ContinuousClock.now + timeout
        guard let termination = await launched.child.waitForExit(until: deadline) else {
            let killed = await launched.child.forceKill()
            throw CommandError(
                kind: .timedOut, arguments: arguments, detail: "still running after \(timeout); killed",
                partialResult: launched.result(termination: killed)
            )
        }
        return launched.result(termination: termination)
    }

    /// Starts the command and returns at once; the command must stay in the foreground (e.g. `xclip -quiet -i`,
    /// `xsel -n -i`, a toolkit peer's `--set-text`), because only the spawned process is stopped.
    public func start() throws(CommandError) -> BackgroundPeer {
        BackgroundPeer(try launch(), command: self)
    }

    /// The environment the child gets.
    var childEnvironment: [String: String] {
        var variables = ProcessInfo.processInfo.environment
        variables["DISPLAY"] = nil
        variables["WAYLAND_DISPLAY"] = nil
        if let display { variables["DISPLAY"] = display }
        variables.merge(environment) { _, new in new }
        return variables
    }

    /// Spawns the child with its streams wired up.
    func launch() throws(CommandError) -> LaunchedCommand {
        var redirections: [ChildProcess.Redirection] = []
        var keepAlive: [Int32] = []
        defer { keepAlive.forEach { close($0) } }

        let stdinFile: CaptureFile?
        switch stdin {
        case .none:
            stdinFile = nil
        case .data(let data):
            stdinFile = try CaptureFile(contents: data)
            redirections.append(.init(source: stdinFile!.descriptor, target: 0))
        case .file(let url):
            stdinFile = nil
            let fd = open(url.path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                throw CommandError(kind: .spawnFailed, arguments: arguments, detail: "cannot open stdin \(url.path)")
            }
            keepAlive.append(fd)
            redirections.append(.init(source: fd, target: 0))
        }

        func wire(_ output: Output, to target: Int32) throws(CommandError) -> CaptureFile? {
            switch output {
            case .discard:
                return nil
            case .capture:
                let file = try CaptureFile()
                redirections.append(.init(source: file.descriptor, target: target))
                return file
            case .file(let url):
                let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                guard fd >= 0 else {
                    throw CommandError(kind: .spawnFailed, arguments: arguments, detail: "cannot create \(url.path)")
                }
                keepAlive.append(fd)
                redirections.append(.init(source: fd, target: target))
                return nil
            }
        }
        let stdoutFile = try wire(stdout, to: 1)
        let stderrFile = try wire(stderr, to: 2)

        let started = ContinuousClock.now
        let child = try ChildProcess.spawn(arguments, environment: childEnvironment, redirections: redirections)
        return LaunchedCommand(
            child: child, started: started, stdin: stdinFile, stdout: stdoutFile, stderr: stderrFile
        )
    }
}

/// A spawned command and the files its streams go to.
struct LaunchedCommand: Sendable {
    let child: ChildProcess
    let started: ContinuousClock.Instant
    let stdin: CaptureFile?
    let stdout: CaptureFile?
    let stderr: CaptureFile?

    /// The result once the child has ended.
    func result(termination: Termination) -> CommandResult {
        CommandResult(
            arguments: child.arguments, termination: termination,
            stdout: stdout?.contents() ?? Data(), stderr: stderr?.contents() ?? Data(),
            duration: started.duration(to: .now)
        )
    }
}

/// Runs `arguments` against `display` and returns what it printed; throws `.timedOut` (after killing it) when
/// it runs longer than `timeout`, `.notFound` when it is not installed.
///
/// ```swift
/// let targets = try await runPeer(["xclip", "-selection", "clipboard", "-o", "-t", "TARGETS"], display: ":1")
/// ```
public func runPeer(
    _ arguments: [String],
    display: String?,
    stdin: Data? = nil,
    environment: [String: String] = [:],
    timeout: Duration = .seconds(10)
) async throws(CommandError) -> CommandResult {
    try await PeerCommand(
        arguments, display: display, environment: environment, stdin: stdin.map { .data($0) } ?? .none,
        timeout: timeout
    ).run()
}

/// Starts a long-running peer (it must stay in the foreground: `xclip -quiet -i`, `xsel -n -i`, ...) and
/// returns at once; stop it with `BackgroundPeer.stop()`.
public func startPeer(
    _ arguments: [String],
    display: String?,
    stdin: Data? = nil,
    environment: [String: String] = [:]
) throws(CommandError) -> BackgroundPeer {
    try PeerCommand(
        arguments, display: display, environment: environment, stdin: stdin.map { .data($0) } ?? .none
    ).start()
}
