// fuzz-json-config: JSONReader.read (Sources/clipbridge/Config/JSONReader.swift, with ConfigScanning.swift and
// ConfigValue.swift), the reader of `clipbridge daemon`'s configuration file when it is JSON (daemon.json).
//
// The reader lives in the `clipbridge` executable target, which another package cannot import: its three
// source files are symbolic links in this directory, compiled into this fuzzer (with ../../Shared/ConfigChecks.swift,
// the checks it shares with its sibling).
//
// Input: the file's bytes; like DaemonConfigFile.read, only valid UTF-8 reaches the reader (DaemonConfigFile
// refuses anything else before parsing).
// Checked: no trap; an error names a line of the file; every value's line is within the file; a table holds
// each key once; nesting stays within maximumConfigDepth; no float is infinite or NaN (JSON has neither).

import CFuzzerDriver
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    checkConfigReader(fuzzBytes(start, count), finiteFloats: true) { text throws(ConfigError) in
        try JSONReader.read(text, path: "fuzz.json")
    }
    return 0
}

// libFuzzer's main, under the name SwiftPM links as `main` (see CFuzzerDriver.h).
@_cdecl("fuzz_json_config_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    clipbridge_fuzzer_main(argc, argv)
}
