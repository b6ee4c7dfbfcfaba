// ClipBridge test support: Tk and Java as clipboard readers (Tests/Peers/tk_paste.tcl, JavaPaste.java).

import Foundation

/// A toolkit that reads a reply in one property only up to a fixed size: Tk 8.6 (`wish8.6`, Debian's tk8.6) fails
/// past 400,000 bytes, Java 17's AWT (Debian's openjdk-17) cuts a reply at 4,000,000 bytes. Each reads CLIPBOARD
/// as its applications do and prints the text in UTF-8.
public enum LegacyTextReader: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Tk 8.6's `clipboard get`.
    case tk
    /// Java's `Toolkit.getSystemClipboard().getData(DataFlavor.stringFlavor)`, run as a single source file.
    case java

    public var description: String { self == .tk ? "Tk 8.6" : "Java 17" }

    /// The command line.
    public var command: [String] {
        let scripts = ToolkitPeer.scriptsDirectory
        switch self {
        case .tk: return ["wish8.6", scripts.appendingPathComponent("tk_paste.tcl").path]
        case .java:
            return Self.javaLauncher + ["-Xmx1g", scripts.appendingPathComponent("JavaPaste.java").path]
        }
    }

    /// Debian's Java 17 running a peer's single source file: AWT with a display (not headless); the source launcher
    /// compiles in memory (jdk.compiler).
    static let javaLauncher = ["/usr/lib/jvm/java-17-openjdk-amd64/bin/java", "-Djava.awt.headless=false"]

    /// Reads CLIPBOARD on `display`; the result's stdout is the text.
    public func paste(display: String, timeout: Duration = .seconds(60)) async throws(CommandError) -> CommandResult {
        try await PeerCommand(command, display: display, timeout: timeout).run()
    }
}
