/* fuzz_graphml.c: libFuzzer entry point for the GraphML loader. Any input
 * must either load (then the reference plan must replay cleanly) or fail
 * with a one-line cause; crashes, leaks, hangs and invalid plans are
 * findings.
 * Build and run with 'make fuzz' (needs clang). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "graphml.h"
#include "sim.h"
#include "strategy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rp_graph *g = NULL;
	char *cause = NULL;

	if (rp_graphml_read_memory((const char *)data, size, "fuzz.xml", &g,
	    &cause) != 0) {
		if (cause == NULL || strchr(cause, '\n') != NULL ||
		    strncmp(cause, "fuzz.xml", 8) != 0)
			abort();	/* every error is one line naming the file */
		free(cause);
		return 0;
	}
	if (g->n <= 2000) {
		struct rp_options opt;
		struct rp_problem pb, full, half;
		struct rp_result r;
		struct rp_ctx ctx;
		rp_options_init(&opt);
		memset(&ctx, 0, sizeof ctx);
		ctx.opt = &opt;
		rp_problem_init(&pb, g, NULL, &cause);
		rp_problem_at(&full, &pb, pb.ckpt_all_peak);
		rp_strategy_run(&rp_strategy_checkpoint_all, &full, &ctx, &r);
		if (r.status != RP_FITS)
			abort();	/* the reference fits its own peak */
		rp_result_destroy(&r);
		rp_strategy_run(&rp_strategy_chen_sqrtn, &full, &ctx, &r);
		if (r.status != RP_FITS && r.status != RP_OVER_BUDGET)
			abort();	/* every plan passes the simulator */
		rp_result_destroy(&r);
		/* DTR halfway to the minimum: out of memory or thrashing are
		 * answers, an invalid plan is a bug. */
		rp_problem_at(&half, &pb, pb.min_budget +
		    (pb.ckpt_all_peak - pb.min_budget) / 2);
		rp_strategy_run(&rp_strategy_dtr, &half, &ctx, &r);
		if (r.status == RP_FAILED || r.status == RP_OVER_BUDGET)
			abort();
		rp_result_destroy(&r);
	}
	rp_graph_free(g);
	return 0;
}
