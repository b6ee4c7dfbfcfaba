// ClipBridge test support: X clients that break the selection protocol on purpose.

import Foundation

/// The hostile owner and requestor of Tests/Peers (`hostile_owner.py`, `hostile_requestor.py`, python-xlib):
/// any local X client can do what they do — garbage atoms, decoy and stale notifies, owners that die
/// mid-transfer, peer-chosen sizes of millions of items — and the engine must answer with exact bytes, a
/// true error and a bounded time. Each script's docstring lists its modes.
public enum HostilePeer {
    /// Starts `hostile_owner.py MODE [options]` on `display` and returns once it owns the selection.
    /// `readyTimeout` is for modes that prepare a lot first (distinct-targets interns its atoms).
    public static func owner(_ arguments: [String], display: String, readyTimeout: Duration? = nil) async throws
        -> BackgroundPeer
    {
        let peer = try startPeer(command("hostile_owner.py", arguments), display: display)
        if let readyTimeout {
            try await peer.waitForOutput("READY", timeout: readyTimeout)
        } else {
            try await peer.waitForOutput("READY")
        }
        return peer
    }

    /// Runs `hostile_requestor.py MODE [options]` to its end and returns its JSON line, decoded.
    public static func request(_ arguments: [String], display: String, timeout: Duration = .seconds(30)) async throws
        -> [String: JSONValue]
    {
        let result = try await runPeer(command("hostile_requestor.py", arguments), display: display, timeout: timeout)
        let line = result.stdoutText.split(separator: "\n").last { $0.hasPrefix("{") } ?? ""
        return try JSONDecoder().decode([String: JSONValue].self, from: Data(line.utf8))
    }

    private static func command(_ script: String, _ arguments: [String]) -> [String] {
        [ToolkitPeer.python, ToolkitPeer.scriptsDirectory.appendingPathComponent(script).path] + arguments
    }
}

/// A JSON scalar as the hostile requestor prints them.
public enum JSONValue: Decodable, Sendable, Equatable {
    case bool(Bool)
    case number(Double)
    case string(String)
    case null

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    /// The value as a Bool (false unless it is `true`).
    public var isTrue: Bool { self == .bool(true) }

    /// The value as a number, or nil.
    public var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }
}
