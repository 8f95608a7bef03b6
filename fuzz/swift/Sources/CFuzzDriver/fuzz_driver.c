/* Empty: the module exists for its header; LLVMFuzzerRunDriver comes from libFuzzer. */
#include "fuzz_driver.h"
