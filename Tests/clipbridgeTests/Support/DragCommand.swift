import ClipBridgeTestSupport
import Foundation

/// `clipbridge drag` and `drop` as the drag-and-drop suites run them.
enum DragCommand {
    /// Starts `clipbridge drag --from-pointer --json …` and waits until it holds the pointer.
    static func fromPointer(_ arguments: [String], display: String) async throws -> BackgroundPeer {
        try await Pointer.run(["move", "5", "5"], display: display)
        let command = try CLI.start(["drag", "--from-pointer", "--json"] + arguments, display: display)
        try await command.waitForOutput("dragging from the pointer", in: .stderr, timeout: .seconds(15))
        return command
    }

    /// The JSON objects a `--json` command printed, one per line.
    static func jsonLines(_ result: CommandResult) -> [[String: Any]] {
        result.stdoutText.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }
}
