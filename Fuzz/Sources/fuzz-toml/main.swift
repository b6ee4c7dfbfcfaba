// fuzz-toml: TOMLReader.read (Sources/clipbridge/Config/TOMLReader.swift, with ConfigScanning.swift and
// ConfigValue.swift), the reader of `clipbridge daemon`'s configuration file.
//
// The reader lives in the `clipbridge` executable target, which another package cannot import: its three
// source files are symbolic links in this directory, compiled into this fuzzer (with ../../Shared/ConfigChecks.swift,
// the checks it shares with its sibling).
//
// Input: the file's bytes; like DaemonConfigFile.read, only valid UTF-8 reaches the reader (DaemonConfigFile
// refuses anything else before parsing).
// Checked: no trap, no other error than ConfigError (typed throws), every value's line within the file.

import CFuzzerDriver
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    checkConfigReader(fuzzBytes(start, count), finiteFloats: false) { text throws(ConfigError) in
        try TOMLReader.read(text, path: "fuzz.toml")
    }
    return 0
}

// libFuzzer's main, under the name SwiftPM links as `main` (see CFuzzerDriver.h).
@_cdecl("fuzz_toml_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    clipbridge_fuzzer_main(argc, argv)
}
