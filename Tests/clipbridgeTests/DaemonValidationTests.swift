// clipbridge daemon --validate: a user command vets each new clipboard content — a crypto address swapped behind
// the user's back is replaced by the previous content, a leaked token is cleared, a hook that hangs is killed
// and changes nothing — against real owners (xclip, clipbridge copy).

import ClipBridgeTestSupport
import Foundation
import Testing

@Suite("clipbridge daemon --validate", .serialized, .xvfb, .timeLimit(.minutes(2)))
struct DaemonValidationTests {
    @Test("exit 1 restores the previous content (the swapped address), exit 0 accepts, and the hook sees the change")
    func vetoRestoresThePreviousContent() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let seen = scratch.url.appendingPathComponent("seen")
        let hook = #"text=$(cat); printf '%s|%s|%s\n' "$CLIPBRIDGE_TYPES" "$CLIPBRIDGE_SENSITIVE" "$text" >> "#
            + seen.path + #"; case "$text" in bc1attacker*) exit 1;; esac; exit 0"#
        let daemon = try await DaemonProcess.start(display, ["--validate", hook, "--validate-timeout", "10"])  // a hook's run, not its bound
        let user = try await Xclip.own(display, Data("bc1qUSERADDRESS".utf8))
        try await daemon.waitFor("kept CLIPBOARD")
        _ = await user.stop()
        try await daemon.waitFor("restored CLIPBOARD")

        let attacker = try await Xclip.own(display, Data("bc1attackerADDRESS".utf8))
        try await daemon.waitFor("vetoed CLIPBOARD: previous content restored")
        #expect(try await Xclip.paste(display).stdoutText == "bc1qUSERADDRESS")
        #expect(try await attacker.waitForExit().exitCode == 0, "xclip exits once it lost the selection")
        let log = try String(contentsOf: seen, encoding: .utf8)
        #expect(log.contains("UTF8_STRING|0|bc1qUSERADDRESS"), "\(log)")
        #expect(log.contains("|0|bc1attackerADDRESS"), "\(log)")
        await daemon.stop()
    }

    /// The owner leaves before the hook's verdict on its content comes (a slow hook): the daemon restores that
    /// content, the late "accept" still makes it the one a later veto brings back (it used to be forgotten, and
    /// the veto cleared the clipboard).
    @Test("a verdict that comes after its owner left still counts: a later veto restores that content")
    func lateVerdictAfterTheOwnerLeft() async throws {
        let display = try CLI.server().display
        let hook = #"text=$(cat); case "$text" in bc1attacker*) exit 1;; esac; sleep 1; exit 0"#
        let daemon = try await DaemonProcess.start(display, ["--validate", hook, "--validate-timeout", "10"])
        let user = try await Xclip.own(display, Data("bc1qSLOWLYACCEPTED".utf8))
        try await daemon.waitFor("kept CLIPBOARD")
        _ = await user.stop()
        try await daemon.waitFor("restored CLIPBOARD")
        try await Task.sleep(for: .milliseconds(1500))  // the verdict on the restored content comes meanwhile
        let attacker = try await Xclip.own(display, Data("bc1attackerADDRESS".utf8))
        try await daemon.waitFor("vetoed CLIPBOARD: previous content restored")
        #expect(try await Xclip.paste(display).stdoutText == "bc1qSLOWLYACCEPTED")
        _ = await attacker.stop()
        _ = await daemon.stop()
    }

    @Test("exit 2 clears the selection; a sensitive copy is vetted without its text")
    func vetoClears() async throws {
        let display = try CLI.server().display
        let daemon = try await DaemonProcess.start(
            display, ["--validate", #"[ "$CLIPBRIDGE_SENSITIVE" = 1 ] && exit 2; grep -q token && exit 2; exit 0"#,
                      "--validate-timeout", "10"])
        let leak = try CLI.start(["copy", "--foreground", "api-token-1234"], display: display)
        try await daemon.waitFor("vetoed CLIPBOARD: cleared")
        let pasted = try await Xclip.paste(display)
        #expect(!pasted.succeeded, "\(pasted)")
        #expect(try await leak.waitForExit().exitCode == 0)

        let secret = try CLI.start(["copy", "--foreground", "--sensitive", "hunter2"], display: display)
        try await daemon.waitFor("vetoed CLIPBOARD: cleared", count: 2)
        #expect(!(try await Xclip.paste(display).succeeded))
        _ = await secret.stop()
        await daemon.stop()
    }

    @Test("a hook that hangs is killed after --validate-timeout and the change stands")
    func hangingHookAccepts() async throws {
        let display = try CLI.server().display
        let daemon = try await DaemonProcess.start(display, ["--validate", "sleep 30", "--validate-timeout", "0.3"])
        let owner = try await Xclip.own(display, Data("stays".utf8))
        try await daemon.waitFor("validate CLIPBOARD: the hook ran longer than")
        #expect(try await Xclip.paste(display).stdoutText == "stays")
        #expect(!owner.hasExited)
        _ = await owner.stop()
        await daemon.stop()
    }

    @Test("the hook reads the text as paste gives it: UTF-8, also from a Latin-1 STRING owner")
    func hookGetsCanonicalText() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let seen = scratch.url.appendingPathComponent("seen")
        let daemon = try await DaemonProcess.start(display, ["--validate", "cat > \(seen.path)", "--validate-timeout", "10"])
        let owner = try await Xclip.own(display, Data([0x63, 0x61, 0x66, 0xE9]), target: "STRING")  // "café", Latin-1
        #expect(try await eventually { (try? Data(contentsOf: seen)) == Data("café".utf8) })
        _ = await owner.stop()
        await daemon.stop()
    }
}
