// clipbridge daemon --rule: kept content converted on the fly when the daemon serves it — tracking
// parameters stripped, trailing whitespace trimmed, "paste as plain text", the offer widened through the
// converters — against real owners that leave (clipbridge copy killed, xclip killed, Qt 5 handing over),
// pasted by xclip, GTK 4 and Qt 5. And the configuration file: settings read from TOML and JSON, options
// winning over the file, a bad file refused with its line and key.

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

    @Test("a configuration file's rules and settings apply; an option given wins over the file")
    func configurationFile() async throws {
        let display = try CLI.server().display
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("daemon-config-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let toml = directory.appendingPathComponent("daemon.toml")
        try Data("""
            # clipbridge daemon settings
            selection = "clipboard"
            rule = ["strip-tracking"]   # clean links
            strip-parameter = ['si']
            keep-type = ["text", "image/*"]
            max-size = 64
            log-level = "notice"

            """.utf8).write(to: toml)
        let checked = try await CLI.run(["daemon", "--config", toml.path, "--check-config", "--max-size", "32"], display: display)
        #expect(checked.succeeded)
        #expect(checked.stdoutText.contains("rule = [\"strip-tracking\"]\n"))
        #expect(checked.stdoutText.contains("strip-parameter = [\"si\"]\n"))
        #expect(checked.stdoutText.contains("keep-type = [\"text\", \"image/*\"]\n"))
        #expect(checked.stdoutText.contains("max-size = 32\n"))
        #expect(checked.stdoutText.contains("log-level = \"notice\"\n"))

        let json = directory.appendingPathComponent("settings.json")
        try Data(#"{"rule": ["widen", "trim-whitespace"], "timeout": 1.5, "no-manager": true}"#.utf8).write(to: json)
        let fromJSON = try await CLI.run(["daemon", "--config", json.path, "--check-config"], display: display)
        #expect(fromJSON.stdoutText.contains("rule = [\"widen\", \"trim-whitespace\"]\n"))
        #expect(fromJSON.stdoutText.contains("timeout = 1.5\n"))
        #expect(fromJSON.stdoutText.contains("no-manager = true\n"))

        // The default file, found through XDG_CONFIG_HOME, with the rule it names applied.
        let home = directory.appendingPathComponent("xdg")
        try FileManager.default.createDirectory(at: home.appendingPathComponent("clipbridge"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: toml, to: home.appendingPathComponent("clipbridge/daemon.toml"))
        #expect(try await CLI.run(["copy", "--clear"], display: display).succeeded)
        let daemon = try CLI.start(["daemon", "--log-level", "info"], display: display, environment: ["XDG_CONFIG_HOME": home.path])
        try await daemon.waitForOutput("keeping CLIPBOARD; clipboard manager; rules: strip-tracking", in: .stderr)
        let owner = try await Xclip.own(display, Data("https://youtu.be/v?si=T&t=3".utf8))
        #expect(try await eventually { String(decoding: daemon.stderrSoFar, as: UTF8.self).contains("kept CLIPBOARD") })
        _ = await owner.kill()
        #expect(try await eventually { try await Xclip.paste(display).stdoutText == "https://youtu.be/v?t=3" })
        _ = await daemon.stop()
    }

    @Test("TOML's and JSON's forms read as the specifications say: multi-line, literal and escaped strings, integers, dotted keys")
    func configurationForms() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("daemon-config-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let toml = directory.appendingPathComponent("forms.toml")
        try Data(#"""
            validate = """
            grep -q \
                'x' && echo "ok\tdone\u00e9\""""
            "max-size" = 0x40
            max-flavour-size = 1_024
            strip-parameter = ['C:\path', "a\u0062c", """q"""]
            timeout = 2.5e0   # seconds
            """#.utf8).write(to: toml)
        let checked = try await CLI.run(["daemon", "--config", toml.path, "--check-config"], display: nil)
        #expect(checked.succeeded, "\(checked.stderrText)")
        #expect(checked.stdoutText.contains("validate = \"grep -q 'x' && echo \\\"ok\tdone\u{e9}\\\"\"\n"))
        #expect(checked.stdoutText.contains("max-size = 64\n"))
        #expect(checked.stdoutText.contains("max-flavour-size = 1024\n"))
        #expect(checked.stdoutText.contains(#"strip-parameter = ["C:\\path", "abc", "q"]"# + "\n"))
        #expect(checked.stdoutText.contains("timeout = 2.5\n"))

        let json = directory.appendingPathComponent("forms.json")
        try Data(#"{"strip-parameter": ["\ud83d\ude00", "a\/b"], "selection": ["primary", "clipboard"]}"#.utf8).write(to: json)
        let fromJSON = try await CLI.run(["daemon", "--config", json.path, "--check-config"], display: nil)
        #expect(fromJSON.stdoutText.contains("strip-parameter = [\"\u{1F600}\", \"a/b\"]\n"), "\(fromJSON.stdoutText)")
        #expect(fromJSON.stdoutText.contains("selection = [\"primary\", \"clipboard\"]\n"))
    }

    @Test("a bad configuration file is refused, naming the file, the line and the key; nothing starts",
          arguments: [
            ("daemon.toml", "selection = \"clipboard\"\n\nmax-size = \"big\"\n", "daemon.toml:3: key 'max-size': expected a size in MiB, found a string"),
            ("daemon.toml", "# settings\nrules = [\"widen\"]\nrule = [\"wide\"]\n", "daemon.toml:3: key 'rule': expected one of"),
            ("daemon.toml", "keep-type = [\"text\", \"no-such-type\"]\n", "daemon.toml:1: key 'keep-type': expected a type, found 'no-such-type'"),
            ("daemon.toml", "log-levle = \"debug\"\n", "daemon.toml:1: unknown key 'log-levle' (did you mean 'log-level'?)"),
            ("daemon.toml", "timeout = 2\ntimeout = 3\n", "daemon.toml:2: key 'timeout' is defined twice"),
            ("daemon.toml", "sync = both\n", "daemon.toml:1: 'both' is not a TOML value"),
            ("daemon.toml", "validate = \"unterminated\n", "daemon.toml:1: the string is not closed on its line"),
            ("daemon.json", "{\n  \"sync\": \"sideways\"\n}\n", "daemon.json:2: key 'sync': 'sideways' is not primary-to-clipboard"),
            ("daemon.json", "{\n  \"rule\": [\"widen\",]\n}\n", "daemon.json:2: expected a value, found ']'"),
            ("daemon.json", "{\"timeout\": null}", "daemon.json:1: null is not a value any setting takes"),
            ("daemon.toml", "a = " + String(repeating: "[", count: 100_000), "daemon.toml:1: nested more than 64 levels deep"),
            ("daemon.toml", "a = " + String(repeating: "{b = ", count: 100_000), "daemon.toml:1: nested more than 64 levels deep"),
            ("daemon.json", String(repeating: "[", count: 100_000), "daemon.json:1: the file must hold one JSON object"),
            ("daemon.json", "{\"a\":" + String(repeating: "[", count: 100_000), "daemon.json:1: nested more than 64 levels deep"),
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
