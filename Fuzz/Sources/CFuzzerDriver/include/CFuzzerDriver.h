// ClipBridge fuzzing — libFuzzer's driver, called from each fuzz target's entry point.
#ifndef CFUZZERDRIVER_H
#define CFUZZERDRIVER_H

/// Runs libFuzzer (its `main`) on the process's arguments with the target's `LLVMFuzzerTestOneInput`.
///
/// Why: SwiftPM links every executable target with `--defsym main=<module>_main` (so tests can link
/// executables), and with `-parse-as-library` the module defines no `<module>_main`. Each fuzz target
/// therefore defines `<module>_main` itself (`@_cdecl`) and calls this, which hands over to libFuzzer exactly
/// as libFuzzer's own `main` does. Were SwiftPM to stop renaming `main`, libFuzzer's `main` would be used and
/// the target's `<module>_main` simply never called.
int clipbridge_fuzzer_main(int argc, char **argv);

#endif
