// Only the declaration in include/CFuzzerDriver.h matters; libFuzzer itself provides the function.
#include "CFuzzerDriver.h"
