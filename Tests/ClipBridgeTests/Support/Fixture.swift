// SPDX-License-Identifier: Apache-2.0
// ClipBridgeTests — two connections to the suite's private Xvfb, and xclip as an independent peer

import ClipBridge
import ClipBridgeTestSupport
import Foundation
import Testing
import X11Selection

/// A copying app and a pasting app: two independent connections (two X clients) to the suite's server.
struct TwoApps {
    let server: XvfbServer
    let owner: Clipboard
    let reader: Clipboard

    init(_ selection: SelectionName = .clipboard) async throws {
        server = try #require(XvfbServer.current)
        owner = try await Clipboard.open(selection, display: server.display)
        reader = try await Clipboard.open(selection, display: server.display)
    }

    func close() async {
        await owner.shutdown()
        await reader.shutdown()
    }

    /// What xclip prints for `-o -t target` (xclip is the independent requestor).
    func xclip(_ target: String, selection: String = "clipboard") async throws -> CommandResult {
        try await runPeer(["xclip", "-selection", selection, "-o", "-t", target], display: server.display)
    }

    /// `xclip -o -t TARGETS`, one name per line.
    func xclipTargets(selection: String = "clipboard") async throws -> [String] {
        try await xclip("TARGETS", selection: selection).stdoutText.split(separator: "\n").map(String.init)
    }
}

/// The content targets of an xclip TARGETS list, in order (meta targets and the password hint removed).
func contentTargets(_ names: [String]) -> [String] {
    names.filter { !["TARGETS", "MULTIPLE", "TIMESTAMP", "SAVE_TARGETS", "DELETE", "TARGET_SIZES"].contains($0) }
}

/// Runs `body` with a fresh pair of apps and closes them afterwards.
func withTwoApps<R>(_ selection: SelectionName = .clipboard, _ body: (TwoApps) async throws -> R) async throws -> R {
    let apps = try await TwoApps(selection)
    do {
        let result = try await body(apps)
        await apps.close()
        return result
    } catch {
        await apps.close()
        throw error
    }
}

