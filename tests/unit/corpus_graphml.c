/* The graphml fuzz target's entry point (tests/fuzz/fuzz_graphml.c) under a
 * name of its own, so that test_corpus can link all three. */
#define LLVMFuzzerTestOneInput rp_fuzz_graphml
#include "../fuzz/fuzz_graphml.c"
