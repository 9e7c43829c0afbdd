/* fuzz_plan.c: libFuzzer entry point for the plan reader. Each input is a
 * plan file for the graph tests/fuzz/graph.xml (FUZZ_GRAPH, its path):
 * it must either be read, then replay in the simulator or be rejected by
 * it with a cause, or fail with a one-line cause naming the file; crashes,
 * leaks and hangs are findings. Build and run with 'make fuzz'. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphml.h"
#include "plan.h"
#include "planxml.h"
#include "sim.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct rp_graph *graph;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rp_plan p;
	struct rp_sim s;
	char *cause = NULL;

	if (graph == NULL && rp_graphml_read(FUZZ_GRAPH, &graph, &cause) != 0) {
		fprintf(stderr, "%s\n", cause);
		abort();
	}
	rp_plan_init(&p);
	if (rp_planxml_read_memory((const char *)data, size, "fuzz.xml", graph,
	    &p, &cause) != 0) {
		if (cause == NULL || strchr(cause, '\n') != NULL ||
		    strncmp(cause, "fuzz.xml", 8) != 0)
			abort();	/* every error is one line naming the file */
		free(cause);
		rp_plan_destroy(&p);
		return 0;
	}
	if (rp_simulate(graph, &p, &s) != 0) {
		if (s.error == NULL || strchr(s.error, '\n') != NULL)
			abort();
	} else if (s.peak < graph->fixed_mem || s.cost < 0)
		abort();
	rp_sim_destroy(&s);
	rp_plan_destroy(&p);
	return 0;
}
