// ClipBridge fuzzing — see include/CFuzzerDriver.h.
#include "CFuzzerDriver.h"

#include <stddef.h>
#include <stdint.h>

// libFuzzer's entry points (compiler-rt FuzzerInterface.h / FuzzerDriver.cpp). The test function is the one
// the fuzz target defines with @_cdecl("LLVMFuzzerTestOneInput").
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int clipbridge_fuzzer_main(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
