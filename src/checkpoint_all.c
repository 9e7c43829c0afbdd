/* checkpoint_all.c: the no-rematerialization reference plan. */
#include "config.h"

#include <stdlib.h>

#include "sched.h"
#include "strategy.h"
#include "util.h"

void
rp_plan_checkpoint_all(const struct rp_graph *g, struct rp_plan *out)
{
	int *seq = rp_xmalloc(sizeof *seq * (size_t)g->n);
	int v;

	for (v = 0; v < g->n; v++)
		seq[v] = v;
	rp_plan_from_seq(g, seq, g->n, out);
	free(seq);
}

static int
checkpoint_all_run(const struct rp_problem *pb, const struct rp_ctx *ctx,
    struct rp_plan *plan, char **note, double *bound, char **cause)
{
	rp_plan_checkpoint_all(pb->g, plan);
	return 0;
}

const struct rp_strategy rp_strategy_checkpoint_all = {
	"checkpoint-all",
	"keep every value until its last reader: no recomputation (the 100% reference)",
	0,
	0,
	checkpoint_all_run,
	NULL,
};
