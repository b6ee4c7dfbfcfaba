// clipbridge daemon --rule: kept content converted on the fly when the daemon serves it — tracking
// parameters stripped, trailing whitespace trimmed, "paste as plain text", the offer widened through the
// converters — against real owners that leave (clipbridge copy killed, xclip killed, Qt 5 handing over),
// pasted by xclip, GTK 4 and Qt 5. And the configuration file: settings read from YAML and JSON, options
// winning over the file, a bad file refused with its line and key.

import ClipBridgeOptions
import ClipBridgeTestSupport
import Foundation
import Testing

@Suite("clipbridge daemon converts on the fly and reads its configuration", .serialized, .xvfb, .timeLimit(.minutes(2)))
struct DaemonRulesTests {
    private static let meta: Set<String> = ["TARGETS", "MULTIPLE", "TIMESTAMP", "SAVE_TARGETS", "DELETE", "TARGET_SIZES"]

    @Test("strip-tracking and trim-whitespace: a killed copy's link pastes clean in xclip, GTK 4 and Qt 5")
    func stripAndTrim() async throws {
        let display = try CLI.server().display
        let daemon = try await DaemonProcess.start(display, ["--rule", "strip-tracking", "--rule", "trim-whitespace"])
        let copy = try CLI.start(
            ["copy", "--foreground", "read https://news.example/story?id=42&utm_source=feed&fbclid=Zx9   \n\n"],
            display: display)
        try await daemon.waitFor("kept CLIPBOARD")
        _ = await copy.kill()
        try await daemon.waitFor("restored CLIPBOARD")
        let clean = "read https://news.example/story?id=42"
        #expect(daemon.log.contains("rewrote CLIPBOARD: strip-tracking: removed utm_source, fbclid; trim-whitespace"))
        #expect(try await Xclip.paste(display, target: "UTF8_STRING").stdoutText == clean)
        #expect(try await Xclip.paste(display, target: "STRING").stdoutText == clean)
        #expect(try await ToolkitPeer(.gtk4, display: display).readText() == clean)
        #expect(try await ToolkitPeer(.qt5, display: display).readText() == clean)
        _ = await daemon.stop()
    }

    @Test("widen: xclip's uri-list, killed, is served byte-exact and also as gnome-copied-files and as a path")
    func widenURIList() async throws {
        let display = try CLI.server().display
        let daemon = try await DaemonProcess.start(display, ["--rule", "widen"])
        let list = Data("file:///tmp/report%20final.pdf\r\n".utf8)
        let owner = try await Xclip.own(display, list, target: "text/uri-list")
        try await daemon.waitFor("kept CLIPBOARD: 1 flavours")
        _ = await owner.kill()
        try await daemon.waitFor("restored CLIPBOARD")
        let targets = try await Xclip.targets(display).filter { !Self.meta.contains($0) }
        #expect(targets.first == "text/uri-list")
        #expect(targets.contains("x-special/gnome-copied-files"))
        #expect(try await Xclip.paste(display, target: "text/uri-list").stdout == list)
        #expect(try await Xclip.paste(display, target: "x-special/gnome-copied-files").stdoutText
            == "copy\nfile:///tmp/report%20final.pdf")
        #expect(try await ToolkitPeer(.gtk4, display: display).readText() == "/tmp/report final.pdf")
        #expect(daemon.log.contains("rewrote CLIPBOARD: widen: added"))
        _ = await daemon.stop()
    }

    @Test("widen: a killed xclip's JPEG is served as itself and converted to PNG, TIFF, WebP and BMP on request")
    func widenImage() async throws {
        let display = try CLI.server().display
        let daemon = try await DaemonProcess.start(display, ["--rule", "widen"])
        let jpeg = try await ImageTests.card("jpeg")
        let reference = try await Pixels.decode(jpeg)
        let owner = try await Xclip.own(display, jpeg, target: "image/jpeg")
        try await daemon.waitFor("kept CLIPBOARD: 1 flavours")
        _ = await owner.kill()
        try await daemon.waitFor("restored CLIPBOARD")
        #expect(daemon.log.contains("widen: added image/png image/tiff image/webp image/bmp (converted on request)"))
        let targets = try await Xclip.targets(display).filter { !Self.meta.contains($0) }
        #expect(Array(targets.prefix(2)) == ["image/jpeg", "image/png"], "\(targets)")
        #expect(try await Xclip.paste(display, target: "image/jpeg").stdout == jpeg)
        for target in ["image/png", "image/tiff", "image/webp", "image/bmp"] {
            let pixels = try await Pixels.decode(Xclip.paste(display, target: target).stdout)
            if target == "image/webp" {  // lossy
                #expect(pixels.meanDifference(reference) < 3, "\(target)")
            } else {
                #expect(pixels.difference(reference) <= 2, "\(target)")
            }
        }
        let gtk = try await ToolkitPeer(.gtk4, display: display).run(["--read-texture"])
        #expect(try await Pixels.decode(gtk.stdout).difference(reference) <= 2, "GTK 4")
        _ = await daemon.stop()
    }

    @Test("plain-text: Qt 5 hands HTML and text over; only the text is served, and Qt 5 and GTK 4 paste it")
    func plainTextAfterHandover() async throws {
        let display = try CLI.server().display
        let daemon = try await DaemonProcess.start(display, ["--rule", "plain-text"])
        let text = "Qt plain – ünïcode"
        let owner = try await ToolkitPeer(.qt5, display: display).own(
            text: text, representations: [("text/html", Data("<p>Qt <b>rich</b></p>".utf8))])
        _ = await owner.stop()
        try await daemon.waitFor("saved CLIPBOARD")
        let targets = try await Xclip.targets(display).filter { !Self.meta.contains($0) }
        #expect(!targets.contains("text/html"))
        #expect(targets.contains("UTF8_STRING"))
        #expect(try await Xclip.paste(display, target: "text/html").exitCode != 0)
        #expect(try await ToolkitPeer(.qt5, display: display).readText() == text)
        #expect(try await ToolkitPeer(.gtk4, display: display).readText() == text)
        _ = await daemon.stop()
    }

    @Test("--keep-type: only the chosen types are read and kept; the others are named as not kept")
    func keepTypes() async throws {
        let display = try CLI.server().display
        let daemon = try await DaemonProcess.start(display, ["--keep-type", "text", "--keep-type", "application/*"])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("daemon-types-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let png = directory.appendingPathComponent("shot.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]).write(to: png)
        let json = directory.appendingPathComponent("note.json")
        try Data(#"{"kept":true}"#.utf8).write(to: json)
        let copy = try CLI.start(["copy", "--foreground", "--add", "image/png=\(png.path)",
                                  "--add", "application/json=\(json.path)", "--add", "text/plain=\(json.path)"],
                                 display: display)
        try await daemon.waitFor("kept CLIPBOARD")
        #expect(daemon.log.contains("not kept: image/png"))
        _ = await copy.kill()
        try await daemon.waitFor("restored CLIPBOARD")
        let targets = try await Xclip.targets(display).filter { !Self.meta.contains($0) }
        #expect(!targets.contains("image/png"))
        #expect(targets.contains("application/json") && targets.contains("UTF8_STRING"))
        #expect(try await Xclip.paste(display, target: "application/json").stdout == Data(#"{"kept":true}"#.utf8))
        #expect(try await Xclip.paste(display, target: "UTF8_STRING").stdout == Data(#"{"kept":true}"#.utf8))
        _ = await daemon.stop()
    }

    @Test("no rule: the kept content is served exactly as the owner offered it")
    func noRuleServesAsKept() async throws {
        let display = try CLI.server().display
        let daemon = try await DaemonProcess.start(display)
        let text = Data("https://x.example/?utm_source=kept  ".utf8)
        let owner = try await Xclip.own(display, text)
        try await daemon.waitFor("kept CLIPBOARD")
        _ = await owner.kill()
        try await daemon.waitFor("restored CLIPBOARD")
        #expect(try await Xclip.paste(display).stdout == text)
        #expect(!daemon.log.contains("rewrote"))
        _ = await daemon.stop()
    }

    @Test("a settings file's rules and settings apply; an option given wins over the file")
    func configurationFile() async throws {
        let display = try CLI.server().display
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("daemon-config-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let yaml = directory.appendingPathComponent("daemon.yaml")
        try Data("""
            # clipbridge daemon settings
            selection: clipboard
            rule: [strip-tracking]   # clean links
            strip-parameter: ['si']
            keep-type: [text, "image/*"]
            max-size: 64
            log-level: notice

            """.utf8).write(to: yaml)
        let checked = try await CLI.run(["daemon", "--config", yaml.path, "--check-config", "--max-size", "32"], display: display)
        #expect(checked.succeeded)
        #expect(checked.stdoutText.contains("rule: [strip-tracking]\n"))
        #expect(checked.stdoutText.contains("strip-parameter: [si]\n"))
        #expect(checked.stdoutText.contains("keep-type: [text, \"image/*\"]\n"))
        #expect(checked.stdoutText.contains("max-size: 32\n"))
        #expect(checked.stdoutText.contains("log-level: notice\n"))

        // --check-config prints a settings file: given back, it gives the same output.
        let printed = directory.appendingPathComponent("printed.yaml")
        try checked.stdout.write(to: printed)
        let again = try await CLI.run(["daemon", "--config", printed.path, "--check-config"], display: display)
        #expect(again.stdoutText == checked.stdoutText)

        let json = directory.appendingPathComponent("settings.json")
        try Data(#"{"rule": ["widen", "trim-whitespace"], "timeout": 1.5, "no-manager": true}"#.utf8).write(to: json)
        let fromJSON = try await CLI.run(["daemon", "--config", json.path, "--check-config"], display: display)
        #expect(fromJSON.stdoutText.contains("rule: [widen, trim-whitespace]\n"))
        #expect(fromJSON.stdoutText.contains("timeout: 1.5\n"))
        #expect(fromJSON.stdoutText.contains("no-manager: true\n"))

        // The default file, found through XDG_CONFIG_HOME, with the rule it names applied.
        let home = directory.appendingPathComponent("xdg")
        try FileManager.default.createDirectory(at: home.appendingPathComponent("clipbridge"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: yaml, to: home.appendingPathComponent("clipbridge/daemon.yaml"))
        #expect(try await CLI.run(["copy", "--clear"], display: display).succeeded)
        let daemon = try CLI.start(["daemon", "--log-level", "info"], display: display, environment: ["XDG_CONFIG_HOME": home.path])
        try await daemon.waitForOutput("keeping CLIPBOARD; clipboard manager; rules: strip-tracking", in: .stderr)
        let owner = try await Xclip.own(display, Data("https://youtu.be/v?si=T&t=3".utf8))
        #expect(try await eventually { String(decoding: daemon.stderrSoFar, as: UTF8.self).contains("kept CLIPBOARD") })
        _ = await owner.kill()
        #expect(try await eventually { try await Xclip.paste(display).stdoutText == "https://youtu.be/v?t=3" })
        _ = await daemon.stop()
    }

    @Test("an old daemon.toml at the default place stops the daemon with the command that converts it")
    func oldTOMLFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("daemon-config-\(UUID())")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("clipbridge"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let toml = directory.appendingPathComponent("clipbridge/daemon.toml")
        try Data("rule = [\"widen\"]\nmax-size = 64   # MiB\n".utf8).write(to: toml)
        let refused = try await CLI.run(["daemon", "--check-config"], display: nil, environment: ["XDG_CONFIG_HOME": directory.path])
        #expect(refused.exitCode == 64)
        #expect(refused.stderrText.contains("daemon.toml: settings files are YAML now, and TOML is no longer read"), "\(refused.stderrText)")
        // The command it gives, run as given, makes the YAML file; with the old one gone, the daemon reads it.
        let command = try #require(refused.stderrText.range(of: "sed -E ").map { String(refused.stderrText[$0.lowerBound...]) })
        let shell = command.trimmingCharacters(in: .whitespacesAndNewlines) + " && rm " + toml.path
        #expect(try await PeerCommand(["/bin/sh", "-c", shell], display: nil, timeout: .seconds(10)).run().succeeded)
        let read = try await CLI.run(["daemon", "--check-config"], display: nil, environment: ["XDG_CONFIG_HOME": directory.path])
        #expect(read.succeeded, "\(read.stderrText)")
        #expect(read.stdoutText.contains("rule: [widen]\n"))
        #expect(read.stdoutText.contains("max-size: 64\n"))
    }

    @Test("every setting is an option of clipbridge daemon, and a bad option value is refused as the file's is")
    func optionsFromSettings() async throws {
        let help = try await CLI.run(["daemon", "--help"], display: nil)
        // Every key the settings declare (DaemonSettings.all), not a list written here.
        let keys = DaemonSettings.all.map(\.key)
        #expect(keys.count >= 23 && Set(keys).count == keys.count)
        for key in keys {
            #expect(help.stdoutText.contains("--\(key)"), "--\(key)")
        }
        #expect(help.stdoutText.contains("(default: 512)"))
        for (option, value, message) in [("--validate", "  ", "the command is empty"),
                                         ("--strip-parameter", "a=b", "without = or &"),
                                         ("--timeout", "0", "is not a positive number of seconds"),
                                         ("--max-size", "0", "0 MiB is not a size between 1 and 1048576")] {
            let refused = try await CLI.run(["daemon", "--check-config", option, value], display: nil)
            #expect(refused.exitCode == 64)
            #expect(refused.stderrText.contains(message), "\(option) \(value): \(refused.stderrText)")
        }
    }

    /// Each key of the settings file, given a value of no kind it takes (a mapping), is refused naming that key and
    /// its line; and what `--check-config` writes reads back as the same settings.
    @Test("every key is read from the file and checked there; --check-config's output reads back unchanged")
    func everyKeyOfTheFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("daemon-keys-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("daemon.yaml")
        for key in DaemonSettings.all.map(\.key) {
            try Data("# every key\n\(key): {nested: 1}\n".utf8).write(to: file)
            let refused = try await CLI.run(["daemon", "--check-config", "--config", file.path], display: nil)
            #expect(refused.exitCode == 64, "\(key): \(refused)")
            #expect(refused.stderrText.contains("daemon.yaml:2: key '\(key)'"), "\(key): \(refused.stderrText)")
        }
        let written = try await CLI.run(["daemon", "--check-config", "--max-size", "64", "--rule", "widen",
                                         "--validate", "true", "--sync", "both"], display: nil)
        #expect(written.succeeded, "\(written.stderrText)")
        try Data(written.stdout).write(to: file)
        let again = try await CLI.run(["daemon", "--check-config", "--config", file.path], display: nil)
        #expect(again.succeeded, "\(again.stderrText)")
        #expect(again.stdoutText == written.stdoutText)
    }

    @Test("a bad settings file is refused, naming the file, the line and the key; nothing starts",
          arguments: [
            ("daemon.yaml", "selection: clipboard\n\nmax-size: big\n", "daemon.yaml:3: key 'max-size': expected a size in MiB, found a string"),
            ("daemon.yaml", "# settings\nrules: [widen]\nrule: [wide]\n", "daemon.yaml:3: key 'rule': expected strip-tracking, trim-whitespace, plain-text or widen, found 'wide'"),
            ("daemon.yaml", "keep-type: [text, no-such-type]\n", "daemon.yaml:1: key 'keep-type': expected a type"),
            ("daemon.yaml", "log-levle: debug\n", "daemon.yaml:1: unknown key 'log-levle' (did you mean 'log-level'?)"),
            ("daemon.yaml", "timeout: 2\ntimeout: 3\n", "daemon.yaml:2: key 'timeout' is given twice (first on line 1)"),
            ("daemon.yaml", "validate: \"unterminated\n", "daemon.yaml:2: found unexpected end of stream"),
            ("daemon.yaml", "validate: ''\n", "daemon.yaml:1: key 'validate': the command is empty"),
            ("daemon.yaml", "strip-parameter: [a=b]\n", "daemon.yaml:1: key 'strip-parameter': expected a query parameter name"),
            ("daemon.json", "{\n  \"sync\": \"sideways\"\n}\n", "daemon.json:2: key 'sync': expected primary-to-clipboard"),
            ("daemon.json", "{\"timeout\": null}", "daemon.json:1: key 'timeout': expected seconds, found null"),
            ("daemon.yaml", "a: " + String(repeating: "[", count: 100_000), "daemon.yaml:1: "),
            ("daemon.json", String(repeating: "[", count: 100_000), "daemon.json:1: "),
            ("old.toml", "max-size = 64\n", "old.toml: settings files are YAML now"),
          ])
    func badConfigurationFile(name: String, content: String, message: String) async throws {
        let display = try CLI.server().display
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("daemon-config-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent(name)
        try Data(content.utf8).write(to: file)
        let result = try await CLI.run(["daemon", "--config", file.path], display: display, timeout: .seconds(10))
        #expect(result.exitCode == 64)
        #expect(result.stderrText.contains(message), "stderr: \(result.stderrText)")
        #expect(!result.stderrText.contains("keeping"))
    }
}
