// SPDX-License-Identifier: Apache-2.0
// ClipBridgeTests — every advertised target is servable; xsel; PRIMARY; pasting our own copy; persistence
// results; the undeclared-type warning

import ClipBridge
import ClipBridgeTestSupport
import Foundation
import Logging
import Synchronization
import Testing
import TransferKit
import X11Selection

@Suite(.xvfb, .serialized, .timeLimit(.minutes(2)))
struct PeerAndLifecycleTests {
    /// One of each seed that can be copied.
    static func seeds() -> [(String, @Sendable (Clipboard) async throws -> Void)] {
        [
            ("Todo", { try await $0.copy(Todo(text: "t", isDone: true)) }),
            ("Profile", { try await $0.copy(Profile(name: "Zoë", phoneNumber: "9")) }),
            (
                "ProfilesArchive",
                { try await $0.copy(ProfilesArchive(profiles: [Profile(name: "A", phoneNumber: "1")])) }
            ),
            ("RichNote", { try await $0.copy(RichNote(title: "t", htmlContent: "<b>b</b>", plainText: "b")) }),
            ("PaletteColor", { try await $0.copy(PaletteColor(name: "n", hex: "#102030")) }),
            (
                "Profiles",
                { try await $0.copy([Profile(name: "A", phoneNumber: "1"), Profile(name: "B", phoneNumber: "2")]) }
            ),
        ]
    }

    @Test("xclip can read every target we advertise, for every seed", arguments: seeds().map(\.0))
    func everyAdvertisedTargetIsServable(seed: String) async throws {
        try await withTwoApps { apps in
            let copy = try #require(Self.seeds().first { $0.0 == seed }?.1)
            try await copy(apps.owner)
            let targets = contentTargets(try await apps.xclipTargets())
            #expect(!targets.isEmpty)
            for target in targets {
                let result = try await apps.xclip(target)
                #expect(result.succeeded, "\(seed): xclip -t \(target) → \(result.termination) \(result.stderrText)")
                if target != "x-kde-passwordManagerHint" {
                    let type = ClipboardType(
                        target: SelectionTarget(rawValue: target),
                        contentType: TargetMapping.contentType(for: SelectionTarget(rawValue: target)))
                    let ours = try await apps.reader.data(for: type)
                    if WireCodecProbe.isBinary(target) { #expect(ours == result.stdout, "\(seed): \(target)") }
                }
            }
        }
    }

    @Test("xsel pastes our text, and we paste xsel's")
    func xsel() async throws {
        try await withTwoApps { apps in
            try await apps.owner.copy("from ClipBridge ✓")
            let read = try await runPeer(["xsel", "--clipboard", "--output"], display: apps.server.display)
            #expect(read.stdoutText == "from ClipBridge ✓")
            let owner = try startPeer(
                ["xsel", "--clipboard", "--input", "--nodetach"], display: apps.server.display,
                stdin: Data("from xsel".utf8))
            defer { Task { _ = await owner.stop() } }
            #expect(await eventually { (try? await apps.reader.text()) == "from xsel" })
            #expect(try await apps.reader.paste(String.self) == ["from xsel"])
        }
    }

    @Test("PRIMARY works like CLIPBOARD")
    func primary() async throws {
        try await withTwoApps(.primary) { apps in
            try await apps.owner.copy(Profile(name: "selected words", phoneNumber: "0"))
            #expect(try await apps.xclip("UTF8_STRING", selection: "primary").stdoutText == "selected words")
            #expect(try await apps.reader.paste(Profile.self).first?.name == "selected words")
            #expect(try await apps.owner.handOverToClipboardManager() == .notOwner)
        }
    }

    @Test("a clipboard pastes its own copy, through the X server")
    func pasteOwnCopy() async throws {
        try await withTwoApps { apps in
            let note = RichNote(title: "self", htmlContent: "<i>s</i>", plainText: "s")
            try await apps.owner.copy(note)
            #expect(try await apps.owner.isOwner())
            #expect(try await !apps.reader.isOwner())
            #expect(try await apps.owner.paste(RichNote.self) == [note])
            #expect(try await apps.owner.text() == "s")
        }
    }

    @Test("persistence: no manager is reported as such; losing ownership ends the wait")
    func persistence() async throws {
        try await withTwoApps { apps in
            try await apps.owner.copy("keep me")
            #expect(try await apps.owner.handOverToClipboardManager(timeout: .seconds(2)) == .noManager)
            let waiter = Task { await apps.owner.waitUntilOwnershipLost() }
            try await apps.reader.copy("someone else")
            await waiter.value
            #expect(try await !apps.owner.isOwner())
            #expect(try await apps.reader.handOverToClipboardManager(timeout: .seconds(2)) == .noManager)
        }
    }

    @Test("one warning per undeclared exported custom type, none for declared ones")
    func undeclaredTypeWarning() async throws {
        let server = try #require(XvfbServer.current)
        let records = LogRecorder()
        var configuration = ClipboardConfiguration()
        configuration.logger = Logger(label: "bridge-tests") { _ in records }
        let clipboard = try await Clipboard.open(display: server.display, configuration: configuration)
        defer { Task { await clipboard.shutdown() } }
        try await clipboard.copy(Undeclared(value: 1))
        try await clipboard.copy(Undeclared(value: 2))
        try await clipboard.copy(RichNote(title: "", htmlContent: "", plainText: "x"))
        let warnings = records.messages.filter { $0.contains("com.example.bridge-tests.undeclared") }
        #expect(warnings.count == 1)
        #expect(records.messages.count == 1)
    }
}

/// A type exported with no declaration anywhere (the seeds' cross-app pitfall).
struct Undeclared: Codable, Transferable {
    var value: Int
    static let type = UTType(exportedAs: "com.example.bridge-tests.undeclared")
    static var transferRepresentation: some TransferRepresentation { CodableRepresentation(contentType: type) }
}

enum WireCodecProbe {
    /// Targets whose bytes ClipBridge hands over unchanged (not text, which is decoded to UTF-8).
    static func isBinary(_ target: String) -> Bool {
        !target.hasPrefix("text/") && !["UTF8_STRING", "STRING", "TEXT", "COMPOUND_TEXT"].contains(target)
    }
}

/// Collects log messages at warning level and above.
final class LogRecorder: LogHandler, Sendable {
    private let storage = Mutex<[String]>([])
    var messages: [String] { storage.withLock { $0 } }

    func log(event: LogEvent) {
        guard event.level >= .warning else { return }
        storage.withLock { $0.append("\(event.message)") }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }
    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }
    var logLevel: Logger.Level {
        get { .trace }
        set {}
    }
}

@Suite(.xvfb, .serialized, .timeLimit(.minutes(2)))
struct ClipboardManagerHandoverTests {
    @Test("shutdown hands the content to a running clipboard manager, which then serves every target")
    func shutdownHandsOver() async throws {
        let server = try #require(XvfbServer.current)
        let manager = try await ClipboardManagerPeer.start(display: server.display)
        defer { Task { _ = await manager.stop() } }
        let owner = try await Clipboard.open(display: server.display)
        let note = RichNote(title: "kept", htmlContent: "<b>kept</b>", plainText: "kept")
        try await owner.copy(note)
        await owner.shutdown(handOverTimeout: .seconds(10))
        try await manager.waitForOutput("SAVED", timeout: .seconds(5))
        let saved = String(decoding: manager.stdoutSoFar, as: UTF8.self)
        #expect(saved.contains("application/json"))
        #expect(saved.contains("text/html"))
        #expect(saved.contains("UTF8_STRING"))

        // The app is gone; the manager serves its content.
        let reader = try await Clipboard.open(display: server.display)
        defer { Task { await reader.shutdown() } }
        #expect(try await reader.paste(RichNote.self) == [note])
        #expect(try await reader.text() == "kept")
    }

    @Test("sensitive content is never handed over")
    func sensitiveIsNotHandedOver() async throws {
        let server = try #require(XvfbServer.current)
        let manager = try await ClipboardManagerPeer.start(display: server.display)
        defer { Task { _ = await manager.stop() } }
        let owner = try await Clipboard.open(display: server.display)
        try await owner.copy("hunter2", options: CopyOptions(isSensitive: true))
        #expect(try await owner.handOverToClipboardManager(timeout: .seconds(3)) == .skippedSensitive)
        await owner.shutdown(handOverTimeout: .seconds(3))
        #expect(!String(decoding: manager.stdoutSoFar, as: UTF8.self).contains("SAVED"))
    }
}
