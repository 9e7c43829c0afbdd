/* The solution fuzz target's entry point (tests/fuzz/fuzz_solution.c) under a
 * name of its own, so that test_corpus can link all three. */
#define LLVMFuzzerTestOneInput rp_fuzz_solution
#include "../fuzz/fuzz_solution.c"
