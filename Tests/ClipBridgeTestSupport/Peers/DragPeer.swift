// ClipBridge test support: real GTK 4 and Qt 5 applications, and a scripted misbehaving target, as XDND peers,
// and the pointer driven through XTEST (Tests/Peers/gtk4_dnd.py, qt5_dnd.py, xdnd_target.py, pointer.py).

import Foundation
import X11Selection

/// A toplevel on the test's display: its XID and where it is on the root window.
public struct PeerWindow: Sendable, Equatable {
    public var id: X11Window
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    /// A point well inside it, in root coordinates.
    public var center: (x: Int, y: Int) { (x + width / 2, y + height / 2) }

    /// Parses "XID X Y W H" (decimal).
    init?(_ words: [Substring]) {
        guard words.count == 5, let id = UInt(words[0]), let x = Int(words[1]), let y = Int(words[2]),
            let width = Int(words[3]), let height = Int(words[4])
        else { return nil }
        self.init(id: X11Window(rawValue: id), x: x, y: y, width: width, height: height)
    }

    public init(id: X11Window, x: Int, y: Int, width: Int, height: Int) {
        self.id = id
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The mapped toplevel named `name` (WM_NAME or _NET_WM_NAME) on `display`, waiting for it to appear.
    public static func find(named name: String, display: String, timeout: Duration = .seconds(10)) async throws -> PeerWindow {
        let seconds = String(Double(timeout.components.seconds))
        let result = try await runPeer(
            [ToolkitPeer.python, ToolkitPeer.script("find_window.py"), name, "--timeout", seconds], display: display,
            timeout: timeout + .seconds(5))
        guard result.succeeded, let window = PeerWindow(result.stdoutText.split(whereSeparator: \.isWhitespace)) else {
            throw CommandError(kind: .failed, arguments: result.arguments, detail: "no window named \(name)", partialResult: result)
        }
        return window
    }
}

/// One JSON line a drag-and-drop peer printed.
public struct DragPeerEvent: Decodable, Sendable {
    public var event: String
    public var mime: String?
    public var offered: [String]?
    public var action: String?
    public var bytes: Int?
    public var file: String?
    public var text: String?
    public var elapsed_ms: Double?
    public var delete: Bool?
    public var reason: String?
    public var error: String?
}

/// A running drag-and-drop peer with its window.
public final class DragPeer: Sendable {
    /// The toolkit app, or the scripted target.
    public enum Kind: String, Sendable, CustomStringConvertible {
        case gtk4, qt5, scripted
        public var description: String { rawValue }
        var script: String {
            switch self {
            case .gtk4: "gtk4_dnd.py"
            case .qt5: "qt5_dnd.py"
            case .scripted: "xdnd_target.py"
            }
        }
    }

    public let process: BackgroundPeer
    public let window: PeerWindow
    public let kind: Kind

    private init(process: BackgroundPeer, window: PeerWindow, kind: Kind) {
        self.process = process
        self.window = window
        self.kind = kind
    }

    /// A GTK 4 or Qt 5 window that takes drops of `accept` (MIME types, in order) with `action`, saving each
    /// drop's bytes in `save` when given; with `refuse` it refuses every drag.
    public static func target(
        _ kind: Kind, display: String, accept: [String], action: String = "copy", refuse: Bool = false,
        save: URL? = nil, at geometry: (x: Int, y: Int, width: Int, height: Int) = (400, 300, 300, 200)
    ) async throws -> DragPeer {
        var arguments = ["--target", "--accept"] + accept + ["--action", action]
        if refuse { arguments.append("--refuse") }
        if let save { arguments += ["--save", save.path] }
        return try await launch(kind, arguments, display: display, geometry: geometry)
    }

    /// A GTK 4 or Qt 5 window whose whole area starts a drag of `offers` (MIME type, bytes), richest first.
    public static func source(
        _ kind: Kind, display: String, offers: [(String, Data)], actions: String = "copy,move",
        at geometry: (x: Int, y: Int, width: Int, height: Int) = (20, 20, 200, 150)
    ) async throws -> DragPeer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dragpeer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var arguments = ["--source", "--actions", actions]
        for (index, offer) in offers.enumerated() {
            let file = directory.appendingPathComponent("\(index)")
            try offer.1.write(to: file)
            arguments += ["--offer", offer.0, file.path]
        }
        // The files are read when the peer starts; it prints READY after.
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await launch(kind, arguments, display: display, geometry: geometry)
    }

    /// The scripted target (`xdnd_target.py --mode MODE`): silent, no-finish, die-on-drop or refuse-finish.
    public static func scriptedTarget(
        mode: String, display: String, at geometry: (x: Int, y: Int, width: Int, height: Int) = (400, 300, 300, 200)
    ) async throws -> DragPeer {
        try await launch(.scripted, ["--mode", mode], display: display, geometry: geometry)
    }

    private static func launch(
        _ kind: Kind, _ arguments: [String], display: String, geometry: (x: Int, y: Int, width: Int, height: Int)
    ) async throws -> DragPeer {
        let shape = "\(geometry.x),\(geometry.y),\(geometry.width),\(geometry.height)"
        let process = try startPeer(
            [ToolkitPeer.python, ToolkitPeer.script(kind.script)] + arguments + ["--geometry", shape, "--timeout", "90"],
            display: display)
        do {
            try await process.waitForOutput("READY", timeout: .seconds(20))
        } catch {
            _ = await process.kill()
            throw error
        }
        let line = String(decoding: process.stdoutSoFar, as: UTF8.self).split(separator: "\n")
            .first { $0.hasPrefix("READY") }
        guard let line, let window = PeerWindow(line.split(separator: " ").dropFirst().map { $0 }) else {
            _ = await process.kill()
            throw CommandError(kind: .failed, arguments: process.command.arguments, detail: "no READY geometry")
        }
        return DragPeer(process: process, window: window, kind: kind)
    }

    /// The JSON lines printed so far.
    public var events: [DragPeerEvent] {
        String(decoding: process.stdoutSoFar, as: UTF8.self).split(separator: "\n")
            .filter { $0.hasPrefix("{") }
            .compactMap { try? JSONDecoder().decode(DragPeerEvent.self, from: Data($0.utf8)) }
    }

    /// The lines that are not JSON (the scripted target's message names).
    public var lines: [String] {
        String(decoding: process.stdoutSoFar, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Waits for the first event named `name` (one of `names`), or throws after `timeout`.
    public func waitForEvent(_ names: String..., timeout: Duration = .seconds(20)) async throws -> DragPeerEvent {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let found = events.first(where: { names.contains($0.event) }) { return found }
            if process.hasExited, let found = events.first(where: { names.contains($0.event) }) { return found }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw CommandError(
            kind: .failed, arguments: process.command.arguments,
            detail: "no \(names) event within \(timeout); stdout: \(String(decoding: process.stdoutSoFar, as: UTF8.self)) "
                + "stderr: \(String(decoding: process.stderrSoFar, as: UTF8.self).suffix(2000))")
    }

    /// Stops the peer.
    public func stop() async { _ = await process.stop() }

    /// Drags from this peer's window (a toolkit drag source) to `point`, as a person does: press in the window,
    /// move past the drag threshold, and — once the toolkit said the drag began — glide to `point`, pause for
    /// the target's answer, release. A toolkit on a loaded machine may miss the first press (its window mapped
    /// but not yet taking input): the press is then let go and made again, up to three times.
    public func drag(to point: (x: Int, y: Int), display: String) async throws {
        let from = window.center
        for attempt in 1...3 {
            let began = events.filter { $0.event == "drag-begin" }.count
            try await Pointer.run(
                ["move", "\(from.x)", "\(from.y)", "sleep", "100", "press", "glide", "\(from.x + 30)", "\(from.y + 30)"],
                display: display)
            let deadline = ContinuousClock.now + .seconds(3)
            while ContinuousClock.now < deadline, events.filter({ $0.event == "drag-begin" }).count == began {
                try await Task.sleep(for: .milliseconds(20))
            }
            if events.filter({ $0.event == "drag-begin" }).count > began {
                try await Pointer.run(["glide", "\(point.x)", "\(point.y)", "sleep", "250", "release"], display: display)
                return
            }
            try await Pointer.run(["release"], display: display)
            if attempt < 3 { try await Task.sleep(for: .milliseconds(300)) }
        }
        throw CommandError(
            kind: .failed, arguments: process.command.arguments,
            detail: "the drag did not begin after three presses; stderr: \(String(decoding: process.stderrSoFar, as: UTF8.self).suffix(2000))")
    }
}

/// The pointer and keyboard, driven through XTEST as a user would (`pointer.py`).
public enum Pointer {
    /// Runs `steps` in order (move X Y, glide X Y, press, release, key NAME, keydown/keyup NAME, sleep MS).
    public static func run(_ steps: [String], display: String) async throws {
        let result = try await runPeer(
            [ToolkitPeer.python, ToolkitPeer.script("pointer.py")] + steps, display: display, timeout: .seconds(30))
        guard result.succeeded else {
            throw CommandError(kind: .failed, arguments: result.arguments, detail: result.stderrText, partialResult: result)
        }
    }

    /// The steps of a drag from `from` to `to` with button 1, as a person makes it: over the source, press,
    /// past the drag threshold, a glide to the target, a pause for its answer, release.
    public static func dragSteps(from: (x: Int, y: Int), to: (x: Int, y: Int)) -> [String] {
        ["move", "\(from.x)", "\(from.y)", "sleep", "100", "press", "glide", "\(from.x + 30)", "\(from.y + 30)",
         "glide", "\(to.x)", "\(to.y)", "sleep", "250", "release"]
    }
}
