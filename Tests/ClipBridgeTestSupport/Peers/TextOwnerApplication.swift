// ClipBridge test support: Java and Emacs as owners of CLIPBOARD (Tests/Peers/JavaCopy.java, `emacs -Q`).

import Foundation

/// An application that owns CLIPBOARD with text the way it does when its user copies, offering the targets only it
/// offers: Java 17's AWT (`StringSelection`: UTF8_STRING, STRING, TEXT, COMPOUND_TEXT and `text/plain` in a dozen
/// charsets, `unicode` among them) and Emacs 28 (Lucid: `gui-set-selection`, whose COMPOUND_TEXT and STRING are its
/// own encoders').
public enum TextOwnerApplication: String, Sendable, CaseIterable, CustomStringConvertible {
    case java
    case emacs

    public var description: String { self == .java ? "Java 17" : "Emacs 28" }

    /// Starts the application owning CLIPBOARD on `display` with `text`; it serves until stopped.
    public func own(_ text: String, display: String) async throws -> BackgroundPeer {
        let arguments: [String]
        let readyStream: BackgroundPeer.Stream
        switch self {
        case .java:
            arguments = LegacyTextReader.javaLauncher + [ToolkitPeer.scriptsDirectory.appendingPathComponent("JavaCopy.java").path, text]
            readyStream = .stdout
        case .emacs:
            let literal = "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            // external-debugging-output is Emacs's standard error, written at once.
            arguments = ["emacs", "-Q", "--eval",
                         "(progn (gui-set-selection 'CLIPBOARD \(literal)) (princ \"ready\\n\" #'external-debugging-output))"]
            readyStream = .stderr
        }
        let peer = try PeerCommand(arguments, display: display, timeout: .seconds(600)).start()
        do {
            try await peer.waitForOutput("ready", in: readyStream, timeout: .seconds(60))
        } catch {
            _ = await peer.kill()
            throw error
        }
        return peer
    }
}
