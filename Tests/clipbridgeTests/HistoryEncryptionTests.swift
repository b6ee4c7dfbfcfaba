// clipbridge history encrypted at rest: the daemon records copies from xclip and GTK 4 with its key from a key
// command or from the Secret Service (gnome-keyring on a private D-Bus, reached through secret-tool); no byte of
// their text, HTML or large payloads is found in the database or its files; `history` with the key lists, searches,
// shows and restores them byte-exact (read back by xclip and Qt 5); without it, or with another, it says so.

import ClipBridgeTestSupport
import Foundation
import Glibc
import Testing

/// A settings directory of the test's own (`XDG_CONFIG_HOME`), holding `clipbridge/daemon.yaml`.
private struct TestSettings {
    let home: URL

    init(_ yaml: String) throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("history-settings-\(UUID())")
        try FileManager.default.createDirectory(
            at: home.appendingPathComponent("clipbridge"), withIntermediateDirectories: true)
        try Data(yaml.utf8).write(to: home.appendingPathComponent("clipbridge/daemon.yaml"))
    }

    var environment: [String: String] { ["XDG_CONFIG_HOME": home.path] }

    func remove() { try? FileManager.default.removeItem(at: home) }
}

/// A private D-Bus session bus with gnome-keyring's Secret Service on it, unlocked: what a desktop session has.
private struct PrivateKeyring {
    let directory: URL
    let bus: BackgroundPeer
    let keyring: BackgroundPeer
    let address: String

    static func start() async throws -> PrivateKeyring {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keyring-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // The bus has no service directories. With Debian's session.conf, the first secret-tool call has the bus
        // start a second gnome-keyring-daemon (org.freedesktop.secrets.service), without the password: when that
        // one wins the name (ours then logs "The Secret Service was already initialized"), there is no login
        // collection and every store fails with "Object does not exist at path …/collection/login". Seen in CI.
        let configuration = directory.appendingPathComponent("bus.conf")
        try Data("""
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(directory.path)/bus</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/>
              </policy>
            </busconfig>
            """.utf8).write(to: configuration)
        let bus = try startPeer(
            ["dbus-daemon", "--nofork", "--print-address=1", "--config-file=\(configuration.path)"], display: nil)
        try await bus.waitForOutput("unix:path=", in: .stdout, timeout: .seconds(10))
        let address = String(decoding: bus.stdoutSoFar, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        // A non-empty password creates the login keyring without a prompt (an empty one asks gcr-prompter).
        let keyring = try startPeer(
            ["gnome-keyring-daemon", "--foreground", "--unlock", "--components=secrets"], display: nil,
            stdin: Data("test-password".utf8), environment: environment(address, directory))
        // Ready when what the daemon will do works: a secret stored in the default (login) collection. (Debian's
        // session.conf policy, above, is what lets replies through: without it the bus drops them.)
        let ready = try await eventually(timeout: .seconds(15)) {
            try await runPeer(
                ["secret-tool", "store", "--label=probe", "application", "clipbridge-test-probe"], display: nil,
                stdin: Data("probe".utf8), environment: environment(address, directory)).succeeded
        }
        #expect(ready, "gnome-keyring did not come up: \(String(decoding: keyring.stderrSoFar, as: UTF8.self))")
        return PrivateKeyring(directory: directory, bus: bus, keyring: keyring, address: address)
    }

    static func environment(_ address: String, _ directory: URL) -> [String: String] {
        ["DBUS_SESSION_BUS_ADDRESS": address, "HOME": directory.path, "XDG_DATA_HOME": directory.path + "/data",
         "XDG_RUNTIME_DIR": directory.path]
    }

    /// What a process of the session sees: the bus (the history's own data home stays the suite's).
    var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }

    func stop() async {
        _ = await keyring.stop()
        _ = await bus.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

@Suite("clipbridge history encrypted at rest", .serialized, .xvfb, .timeLimit(.minutes(4)))
struct HistoryEncryptionTests {
    /// Text no encoder makes by chance: found on disk only if stored unsealed.
    static func marker(_ tag: String) -> String { "qz\(tag)vx-91c4-\(tag)-marker" }

    @Test("with a key command: copies from xclip and GTK 4 are sealed on disk, and read back byte-exact with the key only")
    func keyCommand() async throws {
        let display = try CLI.server().display
        let history = try TestHistory()
        defer { history.remove() }
        let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("history-key-\(UUID())")
        try Data("9f1c2e77a0b34d5e8c6f1a2b3c4d5e6f\n".utf8).write(to: keyFile)
        defer { try? FileManager.default.removeItem(at: keyFile) }
        let command = "cat '\(keyFile.path)'"
        let settings = try TestSettings("history-key-command: \"\(command)\"\nhistory-directory: \(history.directory.path)\n")
        defer { settings.remove() }
        let daemon = try await DaemonProcess.start(display, history.option + ["--history-key-command", command])
        defer { Task { await daemon.stop() } }
        try await daemon.waitFor("encrypted", timeout: .seconds(10))

        let text = "note \(Self.marker("xclip")) ünïcödé"
        var big = Data((0..<3_000_000).map { UInt8(ascii: "a") + UInt8(truncatingIfNeeded: $0 % 26) })
        big += Data(Self.marker("big").utf8)
        let html = Data("<p>\(Self.marker("html"))</p>".utf8)
        let owners: [() async throws -> BackgroundPeer] = [
            { try await Xclip.own(display, Data(text.utf8)) },
            { try await Xclip.own(display, big, target: "text/x-log") },
            {
                try await ToolkitPeer(.gtk4, display: display).own(
                    text: "gtk \(Self.marker("gtk"))", representations: [("text/html", html)])
            },
        ]
        for (index, start) in owners.enumerated() {
            let owner = try await start()
            try await daemon.waitFor("history: entry", count: index + 1, timeout: .seconds(30))
            _ = await owner.stop()
        }
        // Nothing of any copy on disk: database, WAL, blob files.
        let disk = try history.allBytes()
        for tag in ["xclip", "big", "html", "gtk"] {
            #expect(disk.range(of: Data(Self.marker(tag).utf8)) == nil, "\(tag) found unsealed on disk")
        }
        // With the key (the settings file's key command): listed, searched, shown byte-exact.
        let entries = try await history.entries(environment: settings.environment)
        #expect(entries.count == 3)
        #expect(entries.first?["summary"] as? String == "gtk \(Self.marker("gtk"))")
        #expect(entries.last?["summary"] as? String == text)
        let ids = entries.compactMap { $0["id"] as? Int }
        let found = try await history.run(["search", "ünïcödé"], environment: settings.environment)
        #expect(found.stdoutText.contains(Self.marker("xclip")), "search: \(found.stdoutText) \(found.stderrText)")
        #expect(try await history.run(["show", "\(ids[2])"], environment: settings.environment).stdout == Data(text.utf8))
        #expect(try await history.run(["show", "\(ids[1])", "-t", "text/x-log"], environment: settings.environment).stdout == big)
        #expect(try await history.run(["check"], environment: settings.environment).succeeded)
        // Restored: every flavour back, read by xclip and by Qt 5.
        let restored = try await history.run(["restore", "\(ids[1])"], display: display, environment: settings.environment)
        #expect(restored.succeeded, "restore: \(restored.stderrText)")
        #expect(try await Xclip.paste(display, target: "text/x-log").stdout == big)
        // Deleted while served: the restore opened its payloads (decrypted into files in memory) before serving.
        #expect(try await history.run(["delete", "\(ids[1])"], environment: settings.environment).succeeded)
        #expect(try await Xclip.paste(display, target: "text/x-log").stdout == big)
        #expect(try await history.run(["restore", "\(ids[0])"], display: display, environment: settings.environment).succeeded)
        #expect(try await ToolkitPeer(.qt5, display: display).read(mimeType: "text/html") == html)

        // Without the key, or with another: a clear error, nothing printed.
        let withoutKey = try await history.run(["list"])
        #expect(!withoutKey.succeeded && withoutKey.stdout.isEmpty)
        #expect(withoutKey.stderrText.contains("is encrypted"), "\(withoutKey.stderrText)")
        let wrong = try TestSettings("history-key-command: echo a-different-key-of-enough-length\n")
        defer { wrong.remove() }
        let withWrongKey = try await history.run(["show", "\(ids[2])"], environment: wrong.environment)
        #expect(!withWrongKey.succeeded && withWrongKey.stdout.isEmpty)
        #expect(withWrongKey.stderrText.contains("does not open"), "\(withWrongKey.stderrText)")
        let failing = try TestSettings("history-key-command: \"false\"\n")
        defer { failing.remove() }
        let failed = try await history.run(["list"], environment: failing.environment)
        #expect(!failed.succeeded && failed.stderrText.contains("key command"), "\(failed.stderrText)")
    }

    @Test("a daemon whose history key cannot be had still keeps the clipboard, records nothing, and says why")
    func keyUnavailable() async throws {
        let display = try CLI.server().display
        let history = try TestHistory()
        defer { history.remove() }
        let daemon = try await DaemonProcess.start(display, history.option + ["--history-key-command", "exit 3"])
        defer { Task { await daemon.stop() } }
        try await daemon.waitFor("history: not recorded", timeout: .seconds(10))
        let owner = try await Xclip.own(display, Data("kept without a history".utf8))
        try await daemon.waitFor("kept CLIPBOARD", timeout: .seconds(20))
        _ = await owner.stop()
        #expect(try await Xclip.paste(display).stdout == Data("kept without a history".utf8))
        #expect(!FileManager.default.fileExists(atPath: history.directory.appendingPathComponent("history.sqlite3").path))
    }

    @Test("with history-encrypt: the key is made in the Secret Service (gnome-keyring) on first use and found there again")
    func secretService() async throws {
        let display = try CLI.server().display
        let keyring = try await PrivateKeyring.start()
        let history = try TestHistory()
        defer { history.remove() }
        let settings = try TestSettings("history-encrypt: true\nhistory-directory: \(history.directory.path)\n")
        defer { settings.remove() }
        let session = keyring.environment.merging(settings.environment) { $1 }

        let daemon = try await DaemonProcess.start(
            display, history.option + ["--history-encrypt"], environment: keyring.environment)
        try await daemon.waitFor("encrypted", timeout: .seconds(20))
        let owner = try await Xclip.own(display, Data("keyring \(Self.marker("ss"))".utf8))
        try await daemon.waitFor("history: entry", timeout: .seconds(30))
        _ = await owner.stop()
        _ = await daemon.stop()

        let stored = try await runPeer(
            ["secret-tool", "lookup", "application", "clipbridge", "purpose", "history-key"], display: nil,
            environment: keyring.environment)
        #expect(stored.succeeded && stored.stdout.count >= 32, "the key in the keyring: \(stored.stderrText)")
        #expect(try history.allBytes().range(of: Data(Self.marker("ss").utf8)) == nil)
        let entries = try await history.entries(environment: session)
        #expect(entries.map { $0["summary"] as? String } == ["keyring \(Self.marker("ss"))"])
        // A session without the keyring cannot open it, and says why.
        let noKeyring = try await history.run(
            ["list"], environment: settings.environment.merging(["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"]) { $1 })
        #expect(!noKeyring.succeeded && noKeyring.stdout.isEmpty, "\(noKeyring.stdoutText)")
        #expect(noKeyring.stderrText.contains("Secret Service"), "\(noKeyring.stderrText)")
        await keyring.stop()
    }
}
