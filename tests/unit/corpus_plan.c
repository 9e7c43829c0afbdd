/* The plan fuzz target's entry point (tests/fuzz/fuzz_plan.c) under a
 * name of its own, so that test_corpus can link all three. */
#define LLVMFuzzerTestOneInput rp_fuzz_plan
#include "../fuzz/fuzz_plan.c"
