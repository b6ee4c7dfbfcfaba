// ClipBridge test support: the scripted XDND drag source (Tests/Peers/xdnd_source.py).

import Foundation
import X11Selection

/// Runs `xdnd_source.py`, a python-xlib drag source that speaks XDND to one window directly (no pointer), and
/// decodes the one JSON line it prints.
public enum XdndSourcePeer {
    /// What the source saw: the status, the finish, the targets it was asked to convert.
    public struct Outcome: Decodable, Sendable {
        public var version: Int?
        public var accepted: Bool?
        public var statusAction: String?
        public var finished: Bool?
        public var finishedAccepted: Bool?
        public var finishedAction: String?
        public var requests: [String]?
        public var error: String?
        /// With `--direct-save`: the file URI the target wrote into the source's property.
        public var directSaveURI: String?
    }

    /// Drags `offers` (MIME type or target name, bytes) onto `window`; `extra` are more of the script's options
    /// (`--action move`, `--extra-types N`, `--die-after-drop`).
    public static func drag(
        onto window: X11Window, display: String, offering offers: [(String, Data)], extra: [String] = []
    ) async throws -> Outcome {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("xdnd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var arguments = [ToolkitPeer.python, ToolkitPeer.script("xdnd_source.py"), "--target", "\(window.rawValue)"]
        for (index, offer) in offers.enumerated() {
            let file = directory.appendingPathComponent("\(index)")
            try offer.1.write(to: file)
            arguments += ["--offer", offer.0, file.path]
        }
        let result = try await runPeer(arguments + extra, display: display, timeout: .seconds(20))
        return try JSONDecoder().decode(Outcome.self, from: result.stdout)
    }
}
