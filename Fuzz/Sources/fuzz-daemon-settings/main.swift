// fuzz-daemon-settings: SettingsFile.layer(fromYAML:path:) (ClipBridgeOptions), the reader of `clipbridge
// daemon`'s settings file — YAML or JSON, through libyaml — and the settings it gives.
//
// Input: the file's bytes; like DaemonConfigFile.read, only valid UTF-8 reaches the reader (DaemonConfigFile
// refuses anything else before parsing).
// Checked: no trap, no other error than ConfigError (typed throws); an error names a line of the file; the
// settings a file gives pass every check a setting makes (sizes and counts in range, positive finite
// seconds, a non-empty selection list and validate command, parameter names without = or &); written back
// as `--check-config` writes them, they read again as the same settings. Time: libFuzzer's -timeout (the
// reader refuses aliases first, so a "billion laughs" file cannot take exponential time).

import CFuzzerDriver
import ClipBridgeOptions
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    guard let text = String(validating: bytes, as: UTF8.self) else { return 0 }
    let settings: DaemonSettings
    do {
        settings = try SettingsFile.layer(fromYAML: text, path: "fuzz.yaml").applied(to: DaemonSettings())
    } catch {
        fuzzCheck(error.path == "fuzz.yaml", "error path \(error.path)")
        fuzzCheck(error.line >= 0 && error.line <= lineCount(text), "error line \(error.line) of \(lineCount(text)): \(error)")
        return 0
    }
    check(settings)
    let written = settings.yamlLines.joined(separator: "\n") + "\n"
    do {
        let again = try SettingsFile.layer(fromYAML: written, path: "again.yaml").applied(to: DaemonSettings())
        fuzzCheck(again == settings, "written back as\n\(written)\nthe settings read differently")
    } catch {
        fuzzCheck(false, "written back as\n\(written)\nthe settings do not read: \(error)")
    }
    return 0
}

/// Every check a setting makes held.
func check(_ settings: DaemonSettings) {
    fuzzCheck(!settings.selection.isEmpty, "no selection")
    for size in [settings.maxSize, settings.maxFlavourSize] {
        fuzzCheck(DaemonSettings.sizes.contains(size), "size \(size)")
    }
    fuzzCheck(DaemonSettings.flavourCounts.contains(settings.maxFlavours), "flavours \(settings.maxFlavours)")
    for seconds in [settings.timeout, settings.validateTimeout] {
        fuzzCheck(seconds.value > 0 && seconds.value.isFinite, "seconds \(seconds.value)")
        fuzzCheck(seconds.milliseconds >= 1, "milliseconds \(seconds.milliseconds)")
    }
    if let validate = settings.validate { fuzzCheck(!validate.allSatisfy(\.isWhitespace), "empty validate") }
    for name in settings.stripParameter {
        fuzzCheck(!name.isEmpty && !name.contains("=") && !name.contains("&"), "parameter \(name)")
    }
}

/// The lines of the text as libyaml counts them: LF, CR, CR LF, NEL, LS and PS each end one; one more for
/// the end of the file (an error there is on the line after the last break).
func lineCount(_ text: String) -> Int {
    var lines = 1
    var afterCR = false
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\n": if !afterCR { lines += 1 }
        case "\r", "\u{85}", "\u{2028}", "\u{2029}": lines += 1
        default: break
        }
        afterCR = scalar == "\r"
    }
    return lines + 1
}

// libFuzzer's main, under the name SwiftPM links as `main` (see CFuzzerDriver.h).
@_cdecl("fuzz_daemon_settings_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    clipbridge_fuzzer_main(argc, argv)
}
