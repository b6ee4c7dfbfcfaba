// clipbridge tests: running the built `clipbridge` binary against the suite's Xvfb.

import ClipBridgeTestSupport
import Foundation
import Glibc
import Testing

/// The built binary and ways to run it.
///
/// Like swift-argument-parser's `AssertExecuteCommand`, the executable is found next to the test bundle
/// in the build products directory (`swift build` builds every product; `make test` runs
/// `swift build --build-tests`). `CLIPBRIDGE_BINARY` overrides the location.
enum CLI {
    /// The path of the built `clipbridge`.
    static let binary: String = {
        if let override = ProcessInfo.processInfo.environment["CLIPBRIDGE_BINARY"] { return override }
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let executable = length > 0 ? String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        // The test runner is <products>/<Package>PackageTests.xctest (an executable on Linux).
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("clipbridge").path
    }()

    /// True when the binary exists (tests are disabled with a clear reason otherwise).
    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: binary) }

    /// Where the binaries run by the tests keep their data (`XDG_DATA_HOME`: the daemon's history) unless a test
    /// names its own: a private directory of this test run, never the home of whoever runs the suite.
    static let dataHome: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("clipbridge-tests-data-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        return path
    }()

    /// `environment` over the suite's defaults (``dataHome``).
    static func environment(_ environment: [String: String]) -> [String: String] {
        environment.merging(["XDG_DATA_HOME": dataHome]) { given, _ in given }
    }

    /// Runs `clipbridge arguments…` against `display` with a deadline.
    static func run(
        _ arguments: [String], display: String?, stdin: PeerCommand.Input = .none,
        stdout: PeerCommand.Output = .capture, environment: [String: String] = [:],
        timeout: Duration = .seconds(20)
    ) async throws -> CommandResult {
        try await PeerCommand([binary] + arguments, display: display, environment: Self.environment(environment),
                              stdin: stdin, stdout: stdout, timeout: timeout).run()
    }

    /// Runs `clipbridge arguments…` with `input` as stdin.
    static func run(_ arguments: [String], display: String?, input: String) async throws -> CommandResult {
        try await run(arguments, display: display, stdin: .data(Data(input.utf8)))
    }

    /// Starts a long-running `clipbridge` (copy --foreground, watch).
    static func start(
        _ arguments: [String], display: String?, stdin: Data? = nil, environment: [String: String] = [:]
    ) throws -> BackgroundPeer {
        try startPeer([binary] + arguments, display: display, stdin: stdin, environment: Self.environment(environment))
    }

    /// The current server of `display`, from the suite's fixture.
    static func server() throws -> XvfbServer {
        try #require(XvfbServer.current)
    }
}

/// xclip, the independent peer.
enum Xclip {
    /// `xclip -selection S -o [-t T]`.
    static func paste(_ display: String, target: String? = nil, selection: String = "clipboard") async throws
        -> CommandResult
    {
        try await runPeer(["xclip", "-selection", selection, "-o"] + (target.map { ["-t", $0] } ?? []),
                          display: display)
    }

    /// The targets the owner of `selection` offers, in order.
    static func targets(_ display: String, selection: String = "clipboard") async throws -> [String] {
        let result = try await paste(display, target: "TARGETS", selection: selection)
        return result.stdoutText.split(separator: "\n").map(String.init)
    }

    /// `xclip -quiet -i [-t T]` serving `data` in the foreground until stopped.
    static func own(_ display: String, _ data: Data, target: String? = nil, selection: String = "clipboard")
        async throws -> BackgroundPeer
    {
        let owner = try startPeer(["xclip", "-quiet", "-selection", selection, "-i"]
                                  + (target.map { ["-t", $0] } ?? []), display: display, stdin: data)
        try await owner.waitUntilOwning(selection.uppercased(), display: display)
        return owner
    }
}

/// A private scratch directory, removed by `remove()`.
struct ScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("clipbridge-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String, _ contents: Data) throws -> URL {
        let file = url.appendingPathComponent(name)
        try contents.write(to: file)
        return file
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Runs `clipbridge arguments…` against an xclip owner frozen with SIGSTOP (it never answers), and the
/// command's wall time; the owner is thawed and stopped afterwards.
func runAgainstFrozenOwner(_ arguments: [String], display: String) async throws -> (CommandResult, Duration) {
    let owner = try await Xclip.own(display, Data("frozen".utf8))
    owner.send(signal: SIGSTOP)
    let started = ContinuousClock.now
    let result = try await CLI.run(arguments, display: display)
    let elapsed = started.duration(to: .now)
    owner.send(signal: SIGCONT)
    await owner.stop()
    return (result, elapsed)
}

/// The newest server `detachedServers` finds, waiting for it: `copy` returns before its forked server has
/// made itself a session leader (the test that recognises it), by design.
func newestDetachedServer(display: String, selection: String = "CLIPBOARD") async throws -> pid_t? {
    _ = try await eventually(timeout: .seconds(5)) { !detachedServers(display: display, selection: selection).isEmpty }
    return detachedServers(display: display, selection: selection).last
}

/// Detached `clipbridge serve-detached` processes serving `selection` on `display` (the plan carries both),
/// oldest first, found through /proc.
func detachedServers(display: String, selection: String = "CLIPBOARD") -> [pid_t] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap(pid_t.init).sorted().filter { pid in
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
        let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        // The re-executed form: `clipbridge serve-detached PLAN`, the plan naming display and selection.
        if arguments.count >= 3 && arguments[1] == "serve-detached" {
            return arguments[2].contains("\"display\":\"\(display)\"")
                && arguments[2].contains("\"selection\":\"\(selection)\"")
        }
        // The forked form: the `clipbridge copy …` process itself, once it leads its own session (the
        // caller's copy never does), serving the display of its --display or its environment.
        guard arguments.count >= 2, arguments[0].hasSuffix("clipbridge"), arguments[1] == "copy",
            !arguments.contains("--foreground"), getsid(pid) == pid
        else { return false }
        return forkedServerDisplay(pid, arguments) == display && forkedServerSelection(arguments) == selection
    }
}

/// The display a forked `clipbridge copy` server uses: --display, else DISPLAY in its environment.
private func forkedServerDisplay(_ pid: pid_t, _ arguments: [String]) -> String? {
    if let index = arguments.firstIndex(of: "--display"), index + 1 < arguments.count { return arguments[index + 1] }
    if let joined = arguments.first(where: { $0.hasPrefix("--display=") }) { return String(joined.dropFirst(10)) }
    guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return nil }
    return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        .first { $0.hasPrefix("DISPLAY=") }.map { String($0.dropFirst(8)) }
}

/// The selection a forked `clipbridge copy` server owns, from -p / --selection.
private func forkedServerSelection(_ arguments: [String]) -> String {
    if arguments.contains("-p") || arguments.contains("--primary") { return "PRIMARY" }
    for (index, argument) in arguments.enumerated() {
        let value: String?
        if argument == "--selection" || argument == "-s" {
            value = index + 1 < arguments.count ? arguments[index + 1] : nil
        } else if argument.hasPrefix("--selection=") {
            value = String(argument.dropFirst(12))
        } else {
            value = nil
        }
        if let value { return value.uppercased() }
    }
    return "CLIPBOARD"
}

/// Fields of /proc/PID/stat after the command name: state, ppid, pgrp, session, tty, …
func statFields(_ pid: pid_t) -> [String] {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = text.lastIndex(of: ")") else { return [] }
    return text[text.index(after: close)...].split(separator: " ").map(String.init)
}

/// A field of /proc/PID/status ("VmHWM", "SigIgn", …), without the label.
func procStatus(_ pid: pid_t, _ field: String) -> String? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    return text.split(separator: "\n").first { $0.hasPrefix(field + ":") }
        .map { $0.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces) }
}

/// Peak resident set size of a live process in KiB (VmHWM).
func peakRSSKiB(_ pid: pid_t) -> Int? {
    procStatus(pid, "VmHWM").flatMap { Int($0.split(separator: " ").first ?? "") }
}
