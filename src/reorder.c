/* reorder.c: the reorder strategy: plans over an execution order chosen
 * for memory (order.h) instead of the graph's own.
 *
 * When checkpoint-all fits in the new order, that is the plan: it costs
 * the baseline, which no plan beats. Otherwise peak-split, lookahead,
 * chain-dp and lp-round plan over the new order, each with an equal share
 * of the time left (lp-round, last, has the rest: the LP is what takes
 * time), and the cheapest plan that fits is kept. Their plans are mapped
 * back to the graph's nodes and replayed on the graph itself, like every
 * other plan. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "order.h"
#include "strategy.h"
#include "util.h"

static const struct rp_strategy *const over[] = {
	&rp_strategy_peak_split, &rp_strategy_lookahead, &rp_strategy_chain_dp,
	&rp_strategy_lp_round,
};
#define NOVER (sizeof over / sizeof over[0])

static const char *const rules[] = {
	"the least memory added", "the most memory freed",
	"the least memory added, randomized"
};

/* Maps the nodes of a plan over the reordered graph back to the graph's. */
static void
map_back(struct rp_plan *p, const int *order)
{
	int k;
	for (k = 0; k < p->len; k++)
		if (p->s[k].op == RP_COMPUTE)
			p->s[k].node = order[p->s[k].node];
}

static int
reorder_run(const struct rp_problem *pb, const struct rp_ctx *ctx,
    struct rp_plan *plan, char **note, double *bound, char **cause)
{
	const struct rp_graph *g = pb->g;
	struct rp_graph *h = NULL;
	struct rp_problem p0, p1;
	struct rp_best best;
	struct rp_plan pl;
	int *order = rp_xmalloc(sizeof *order * (size_t)(g->n ? g->n : 1));
	int rule = 0, rc = -1, cut = 0;
	size_t k;
	int64_t peak;
	char *what;

	(void)bound;
	rp_best_init(&best);
	peak = rp_order_memory(g, ctx->deadline, ctx->opt != NULL ?
	    ctx->opt->seed : 1, order, &rule);
	if (peak < 0) {
		*note = rp_xstrdup("stopped at the time limit (--time-limit) "
		    "while ordering");
		rc = 0;
		goto out;
	}
	if (peak >= pb->ckpt_all_peak) {
		*note = rp_xstrdup("no order found with a lower checkpoint-all "
		    "peak than the execution order's");
		rc = 0;
		goto out;
	}
	h = rp_graph_reorder(g, order);
	if (rp_problem_init(&p0, h, NULL, cause) != 0)
		goto out;
	rp_problem_at(&p1, &p0, pb->budget);
	what = rp_xasprintf("an order by %s (checkpoint-all peak %.1f%% of "
	    "the execution order's)", rules[rule],
	    100.0 * (double)peak / (double)pb->ckpt_all_peak);
	rp_log(ctx, 1, "reorder: %s", what);

	rp_plan_init(&pl);
	rp_plan_checkpoint_all(h, &pl);
	map_back(&pl, order);
	if (rp_best_offer(&best, pb, &pl, rp_xasprintf("%s, no recomputation",
	    what), cause) != 0) {
		free(what);
		goto out;
	}
	for (k = 0; k < NOVER && !(best.fits && best.cost <= pb->baseline); k++) {
		struct rp_ctx sub = *ctx;
		char *n2 = NULL, *c2 = NULL;
		double b2 = NAN;

		if (ctx->deadline > 0) {
			double left = ctx->deadline - rp_now();
			if (left <= 0) {
				cut = 1;
				break;
			}
			sub.deadline = rp_now() + left / (double)(NOVER - k);
		} else if (over[k]->solver)
			sub.deadline = rp_now() + RP_SOLVER_DEFAULT_SECONDS;
		sub.shared = NULL;
		rp_plan_init(&pl);
		if (over[k]->run(&p1, &sub, &pl, &n2, &b2, &c2) != 0) {
			*cause = rp_xasprintf("%s over %s: %s", over[k]->name,
			    what, c2 != NULL ? c2 : "failed");
			free(c2);
			free(n2);
			free(what);
			rp_plan_destroy(&pl);
			goto out;
		}
		if (pl.len == 0) {
			free(n2);
			rp_plan_destroy(&pl);
			continue;
		}
		map_back(&pl, order);
		if (rp_best_offer(&best, pb, &pl, rp_xasprintf("%s, then %s: %s",
		    what, over[k]->name, n2 != NULL ? n2 : "-"), cause) != 0) {
			free(n2);
			free(what);
			goto out;
		}
		free(n2);
	}
	if (!best.fits && best.note != NULL) {
		char *t = rp_xasprintf("%s; over it, peak-split, lookahead, "
		    "chain-dp and lp-round found no plan that fits%s", best.note,
		    cut ? " (cut short by --time-limit)" : "");
		free(best.note);
		best.note = t;
	}
	free(what);
	rp_best_take(&best, plan, note);
	rc = 0;
out:
	rp_best_destroy(&best);
	rp_graph_free(h);
	free(order);
	return rc;
}

const struct rp_strategy rp_strategy_reorder = {
	"reorder",
	"an execution order chosen for memory: checkpoint-all over it, or "
	    "peak-split, lookahead, chain-dp and lp-round over it",
	1,
	reorder_run,
};
