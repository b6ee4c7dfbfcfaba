// ClipBridge test support: real GTK 4 and Qt 5 applications as clipboard peers.

import Foundation
import Glibc

/// A real GTK 4 or Qt 5 application (the scripts in Tests/Peers, run by Debian's /usr/bin/python3) acting as
/// a clipboard peer on one display: it reads what we own, or owns content we read.
///
/// The scripts use only public toolkit API, so the X11 side (target names, INCR, timeouts) is the toolkit's
/// own, as in any desktop app. Reads fail with `CommandError` kind `.failed` (and the script's stderr) when
/// the peer gets nothing.
///
/// ```swift
/// let gtk = ToolkitPeer(.gtk4, display: server.display)
/// #expect(try await gtk.readText() == "hello")
/// let owner = try await ToolkitPeer(.qt5, display: server.display).own(text: "from Qt")
/// defer { Task { await owner.stop() } }
/// ```
public struct ToolkitPeer: Sendable {
    /// Which toolkit the peer application uses.
    public enum Toolkit: String, Sendable, CaseIterable, CustomStringConvertible {
        /// GTK 4 through PyGObject (Tests/Peers/gtk4_clipboard.py).
        case gtk4
        /// Qt 5 through PyQt5 (Tests/Peers/qt5_clipboard.py).
        case qt5

        /// The script's file name in Tests/Peers.
        var scriptName: String { self == .gtk4 ? "gtk4_clipboard.py" : "qt5_clipboard.py" }

        /// True when Debian's python3 and this toolkit's Python bindings are installed. Tests do not skip on it: a
        /// missing peer fails the test with a clear error (`make test` installs every peer).
        public var isInstalled: Bool {
            guard access(ToolkitPeer.python, X_OK) == 0 else { return false }
            switch self {
            case .gtk4:
                let libraries = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib")) ?? []
                let typelib = libraries.contains {
                    access("/usr/lib/\($0)/girepository-1.0/Gtk-4.0.typelib", R_OK) == 0
                }
                return typelib && access("/usr/lib/python3/dist-packages/gi/__init__.py", R_OK) == 0
            case .qt5:
                return access("/usr/lib/python3/dist-packages/PyQt5/QtGui.abi3.so", R_OK) == 0
            }
        }

        /// "GTK 4" or "Qt 5".
        public var description: String { self == .gtk4 ? "GTK 4" : "Qt 5" }
    }

    /// Debian's interpreter, which has python3-gi and python3-pyqt5 (a pyenv python3 first in PATH has not).
    public static let python = "/usr/bin/python3"

    /// The folder holding the peer scripts (Tests/Peers in the source tree).
    public static let scriptsDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Peers
        .deletingLastPathComponent()  // ClipBridgeTestSupport
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Peers", isDirectory: true)

    /// The path of the peer script `name` in Tests/Peers.
    public static func script(_ name: String) -> String {
        scriptsDirectory.appendingPathComponent(name).path
    }

    /// The toolkit.
    public var toolkit: Toolkit
    /// The X display the peer connects to.
    public var display: String
    /// The selection: "clipboard" or "primary" (the toolkits expose only these two).
    public var selection: String
    /// For a Wayland client (GTK's Wayland backend, Qt's `wayland` platform): the compositor's client environment
    /// (`SwayServer.waylandEnvironment`); nil for an X client of `display`.
    public var waylandEnvironment: [String: String]?

    /// A peer of `toolkit` on `display`, working on `selection` ("clipboard" or "primary").
    public init(_ toolkit: Toolkit, display: String, selection: String = "clipboard") {
        self.toolkit = toolkit
        self.display = display
        self.selection = selection
    }

    /// A peer of `toolkit` as a Wayland client of the compositor whose client environment is `environment`. It shows a
    /// window (a Wayland client sees the clipboard only with focus); as an owner it takes the selection when a key
    /// is typed into that window (``own(text:representations:programName:timeout:)`` types one with wtype), since
    /// the compositor accepts a claim only with the serial of an input event.
    public init(_ toolkit: Toolkit, waylandEnvironment environment: [String: String], selection: String = "clipboard") {
        self.toolkit = toolkit
        self.display = ""
        self.selection = selection
        waylandEnvironment = environment
    }

    /// The script's command line for `arguments` (the verb and its operands).
    public func commandLine(_ arguments: [String], timeout: Duration) -> [String] {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        return [
            Self.python, Self.scriptsDirectory.appendingPathComponent(toolkit.scriptName).path,
            "--selection", selection, "--timeout", String(seconds),
        ] + (waylandEnvironment == nil ? [] : ["--wayland"]) + arguments
    }

    /// The X display for the peer's `DISPLAY`, or nil for a Wayland client.
    private var xDisplay: String? { waylandEnvironment == nil ? display : nil }

    /// Runs the script with `arguments` and returns whatever happened (no exit-status check).
    ///
    /// The script gives up by itself after `timeout`; the runner's own deadline is a few seconds later, so a
    /// wedged interpreter is killed too.
    public func run(_ arguments: [String], timeout: Duration = .seconds(10)) async throws(CommandError)
        -> CommandResult
    {
        let command = commandLine(arguments, timeout: timeout)
        return try await PeerCommand(
            command, display: xDisplay, environment: waylandEnvironment ?? [:], timeout: timeout + .seconds(5)
        ).run()
    }

    /// The clipboard's text, as the toolkit's own text API returns it.
    public func readText(timeout: Duration = .seconds(10)) async throws(CommandError) -> String {
        try await runExpectingSuccess(["--read-text"], timeout: timeout).stdoutText
    }

    /// The bytes offered as `mimeType` (GTK streams them; Qt reads them through QMimeData).
    public func read(mimeType: String, timeout: Duration = .seconds(10)) async throws(CommandError) -> Data {
        try await runExpectingSuccess(["--read-mime", mimeType], timeout: timeout).stdout
    }

    /// The MIME types the toolkit says are offered (GTK: `GdkContentFormats`; Qt: `QMimeData.formats()`,
    /// which also lists X target names it cannot map, such as TARGETS).
    public func formats(timeout: Duration = .seconds(10)) async throws(CommandError) -> [String] {
        try await runExpectingSuccess(["--formats"], timeout: timeout).stdoutText
            .split(separator: "\n").map(String.init)
    }

    /// Makes the toolkit app own the selection with `text` and/or `representations` (MIME type, bytes; in
    /// order), and returns once it has claimed it (it printed "READY").
    ///
    /// It serves until it loses ownership (then prints "LOST" and exits 0), until `timeout`, or until
    /// `stop()`. Stop it at the end of the test.
    /// `programName` (GTK 4) names the application as a C program's `argv[0]` would: GDK writes it into the
    /// client's `WM_CLASS`.
    public func own(
        text: String? = nil,
        representations: [(mimeType: String, data: Data)] = [],
        programName: String? = nil,
        timeout: Duration = .seconds(30)
    ) async throws(CommandError) -> BackgroundPeer {
        var arguments: [String] = programName.map { ["--program-name", $0] } ?? []
        if let text { arguments += ["--set-text", text] }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("clipbridge-peer-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        if !representations.isEmpty {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                for (index, representation) in representations.enumerated() {
                    let file = directory.appendingPathComponent("\(index)")
                    try representation.data.write(to: file)
                    arguments += ["--set-mime", representation.mimeType, file.path]
                }
            } catch {
                throw CommandError(kind: .spawnFailed, arguments: arguments, detail: "staging data: \(error)")
            }
        }
        let peer = try PeerCommand(
            commandLine(arguments, timeout: timeout), display: xDisplay, environment: waylandEnvironment ?? [:]
        ).start()
        do throws(CommandError) {
            if let waylandEnvironment {
                // Its window is up: a key typed into it (the newest window has the focus) gives the claim its serial.
                try await peer.waitForOutput("WAITING\n", timeout: .seconds(20))
                // Typed again if the first key came before the window had the keyboard focus.
                for _ in 0..<5 where !String(decoding: peer.stdoutSoFar, as: UTF8.self).contains("READY\n") {
                    let typed = try await runPeer(["wtype", "x"], display: nil, environment: waylandEnvironment)
                    guard typed.succeeded else {
                        throw CommandError(kind: .failed, arguments: typed.arguments, detail: "wtype: \(typed.stderrText)")
                    }
                    try? await peer.waitForOutput("READY\n", timeout: .seconds(2))
                }
            }
            // The script reads its files before printing READY, so they can go once it has.
            try await peer.waitForOutput("READY\n", timeout: .seconds(20))
        } catch {
            await peer.kill()
            throw error
        }
        return peer
    }

    private func runExpectingSuccess(_ arguments: [String], timeout: Duration) async throws(CommandError)
        -> CommandResult
    {
        let result = try await run(arguments, timeout: timeout)
        guard result.succeeded else {
            throw CommandError(
                kind: .failed, arguments: result.arguments, detail: "\(toolkit) peer: \(result.termination)",
                partialResult: result
            )
        }
        return result
    }
}
