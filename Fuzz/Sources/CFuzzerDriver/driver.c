// The declaration in include/CFuzzerDriver.h is what matters; libFuzzer itself provides the function.
#include "CFuzzerDriver.h"

// AddressSanitizer's defaults for every fuzzer (ASAN_OPTIONS in the environment overrides them):
// - detect_leaks=0: LeakSanitizer reports the target's globals (set up before libFuzzer starts)
//   as leaks at exit, which wrote a bogus crash file at the end of every timed run.
// - malloc_context_size=8: ASan records the stack of every allocation for its reports; with the
//   default 30 frames, storing those stacks was a sixth of the file target's time. Detection is
//   the same; a report shows 8 frames of where the memory was allocated and freed (replay an input
//   with ASAN_OPTIONS=malloc_context_size=30 for more).
__attribute__((visibility("default"), used))
const char *__asan_default_options(void) {
    return "detect_leaks=0:malloc_context_size=8";
}
