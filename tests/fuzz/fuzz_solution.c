/* fuzz_solution.c: libFuzzer entry point for the reader of MILP solution
 * files (--read-solution), in both of its formats (GLPK's own, and lines
 * naming R_t_i). Each input is a solution of the model of the graph
 * tests/fuzz/graph.xml (FUZZ_GRAPH, its path) at a budget of 11 bytes:
 * it must either be read, and its plan then replays in the simulator or is
 * rejected by it with a cause, or fail with a one-line cause naming the
 * file; crashes, leaks and hangs are findings. Build and run with
 * 'make fuzz'. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkmate.h"
#include "graphml.h"
#include "plan.h"
#include "sched.h"
#include "sim.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct rp_graph *graph;
static struct rp_checkmate model;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rp_seq seq = { 0 };
	struct rp_plan p;
	struct rp_sim s;
	char *cause = NULL;

	if (graph == NULL) {
		if (rp_graphml_read(FUZZ_GRAPH, &graph, &cause) != 0 ||
		    rp_checkmate_build(&model, graph, 11, RP_CHECKMATE_REDUCE |
		    RP_CHECKMATE_SPLIT_FREE | RP_CHECKMATE_STAGE_ROWS,
		    &cause) != 0) {
			fprintf(stderr, "%s\n", cause);
			abort();
		}
	}
	if (rp_checkmate_read_solution_memory(&model, (const char *)data, size,
	    "fuzz.sol", &seq, &cause) != 0) {
		if (cause == NULL || strchr(cause, '\n') != NULL ||
		    strncmp(cause, "fuzz.sol", 8) != 0)
			abort();	/* every error is one line naming the file */
		free(cause);
		rp_seq_destroy(&seq);
		return 0;
	}
	rp_plan_init(&p);
	rp_plan_from_seq(graph, seq.node, seq.len, &p);
	rp_seq_destroy(&seq);
	if (rp_simulate(graph, &p, &s) != 0) {
		if (s.error == NULL || strchr(s.error, '\n') != NULL)
			abort();
	}
	rp_sim_destroy(&s);
	rp_plan_destroy(&p);
	return 0;
}
