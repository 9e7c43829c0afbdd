/* reorder.c: the reorder strategy: plans over execution orders chosen
 * for memory (order.h) instead of the graph's own.
 *
 * When checkpoint-all fits in a new order, that is the plan: it costs the
 * baseline, which no plan beats. Otherwise peak-split, lookahead,
 * chain-dp and lp-round plan over the order with the lowest peak, each
 * with an equal share of the time left (lp-round, last, has the rest: the
 * LP is what takes time), then peak-split, lookahead and chain-dp over
 * the other orders kept (up to RP_ORDER_MAX), with what time is left; the
 * cheapest plan that fits is kept. Plans are mapped back to the graph's
 * nodes and replayed on the graph itself, like every other plan. */
#include "config.h"

#include <math.h>
#include <stdio.h>
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

static const char *const rule_names[] = {
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

/* One order and what plans over it. */
struct ordered {
	int *order;		/* node i of h is node order[i] of the graph */
	struct rp_graph *h;
	struct rp_problem p0, p1;	/* h's problem, at the budget */
	char *what;		/* how the order was chosen, for notes */
};

/* Runs s over order o with deadline (<= 0: none) and offers its plan,
 * mapped back to the graph. Returns 0, or -1 with *cause set. */
static int
plan_over(const struct rp_problem *pb, const struct rp_ctx *ctx,
    const struct rp_strategy *s, struct ordered *o, double deadline,
    struct rp_best *best, char **cause)
{
	struct rp_ctx sub = *ctx;
	struct rp_plan pl;
	char *n2 = NULL, *c2 = NULL;
	double b2 = NAN;

	sub.deadline = deadline;
	sub.shared = NULL;
	rp_plan_init(&pl);
	if (s->run(&o->p1, &sub, &pl, &n2, &b2, &c2) != 0) {
		*cause = rp_xasprintf("%s over %s: %s", s->name, o->what,
		    c2 != NULL ? c2 : "failed");
		free(c2);
		free(n2);
		rp_plan_destroy(&pl);
		return -1;
	}
	if (pl.len == 0) {
		free(n2);
		rp_plan_destroy(&pl);
		return 0;
	}
	map_back(&pl, o->order);
	if (rp_best_offer(best, pb, &pl, rp_xasprintf("%s, then %s: %s",
	    o->what, s->name, n2 != NULL ? n2 : "-"), cause) != 0) {
		free(n2);
		return -1;
	}
	free(n2);
	return 0;
}

/* The orders: up to RP_ORDER_MAX that the ordering search ends with,
 * lowest checkpoint-all peak first (rp_order_memory_many). Orders of
 * about the same peak can need very different recomputation below it (a
 * random layered DAG of 500 nodes at 80%: 1.27x over one, 2.32x over the
 * one with the lowest peak), so after the first order has had the time a
 * single one had, peak-split, lookahead and chain-dp plan over the others
 * with what is left. */
static int
reorder_run(const struct rp_problem *pb, const struct rp_ctx *ctx,
    struct rp_plan *plan, char **note, double *bound, char **cause)
{
	const struct rp_graph *g = pb->g;
	struct ordered os[RP_ORDER_MAX];
	struct rp_best best;
	struct rp_plan pl;
	size_t sz = (size_t)(g->n ? g->n : 1);
	int *orders = rp_xmalloc(sizeof *orders * sz * RP_ORDER_MAX);
	int rules[RP_ORDER_MAX], no, j, k, rc = -1, cut = 0;
	int64_t peaks[RP_ORDER_MAX];

	(void)bound;
	rp_best_init(&best);
	memset(os, 0, sizeof os);
	no = rp_order_memory_many(g, ctx->deadline, ctx->opt != NULL ?
	    ctx->opt->seed : 1, RP_ORDER_MAX, orders, rules, peaks);
	if (no < 0) {
		*note = rp_xstrdup("stopped at the time limit (--time-limit) "
		    "while ordering");
		rc = 0;
		goto out;
	}
	while (no > 0 && peaks[no - 1] >= pb->ckpt_all_peak)
		no--;		/* sorted: only the lower ones are kept */
	if (no == 0) {
		*note = rp_xstrdup("no order found with a lower checkpoint-all "
		    "peak than the execution order's");
		rc = 0;
		goto out;
	}
	for (j = 0; j < no; j++) {
		struct ordered *o = &os[j];
		char of[48] = "";
		o->order = orders + (size_t)j * sz;
		o->h = rp_graph_reorder(g, o->order);
		if (rp_problem_init(&o->p0, o->h, NULL, cause) != 0)
			goto out;
		rp_problem_at(&o->p1, &o->p0, pb->budget);
		if (no > 1)
			snprintf(of, sizeof of, "; order %d of the %d kept", j + 1,
			    no);
		o->what = rp_xasprintf("an order by %s (checkpoint-all peak "
		    "%.1f%% of the execution order's%s)", rule_names[rules[j]],
		    100.0 * (double)peaks[j] / (double)pb->ckpt_all_peak, of);
		rp_log(ctx, 1, "reorder: %s", o->what);
		rp_plan_init(&pl);
		rp_plan_checkpoint_all(o->h, &pl);
		map_back(&pl, o->order);
		if (rp_best_offer(&best, pb, &pl, rp_xasprintf("%s, no "
		    "recomputation", o->what), cause) != 0)
			goto out;
	}
	/* Over the first order, as over a single one: each of peak-split,
	 * lookahead, chain-dp and lp-round with an equal share of the time
	 * left (lp-round, last, has the rest); then peak-split, lookahead
	 * and chain-dp over the other orders, in equal shares of what time
	 * is left after that (much on graphs too large for the LP). */
	for (j = 0; j < no; j++)
		for (k = 0; k < (int)NOVER - (j > 0); k++) {
			/* the runs left in this phase, this one included */
			int slots = j == 0 ? (int)NOVER - k :
			    (no - j) * (int)(NOVER - 1) - k;
			double deadline = 0;
			if (best.fits && best.cost <= pb->baseline)
				goto done;
			if (ctx->deadline > 0) {
				double left = ctx->deadline - rp_now();
				if (left <= 0) {
					cut = 1;
					goto done;
				}
				deadline = rp_now() + left / (double)slots;
			} else if (over[k]->solver)
				deadline = rp_now() + RP_SOLVER_DEFAULT_SECONDS;
			if (plan_over(pb, ctx, over[k], &os[j], deadline, &best,
			    cause) != 0)
				goto out;
		}
done:
	if (!best.fits && best.note != NULL) {
		char *t = rp_xasprintf("%s; %s found no plan that fits%s",
		    best.note, no == 1 ? "over it, peak-split, lookahead, "
		    "chain-dp and lp-round" : "over these orders, peak-split, "
		    "lookahead and chain-dp (and lp-round over the first)",
		    cut ? " (cut short by --time-limit)" : "");
		free(best.note);
		best.note = t;
	}
	rp_best_take(&best, plan, note);
	rc = 0;
out:
	for (j = 0; j < no; j++) {
		rp_graph_free(os[j].h);
		free(os[j].what);
	}
	rp_best_destroy(&best);
	free(orders);
	return rc;
}

const struct rp_strategy rp_strategy_reorder = {
	"reorder",
	"an execution order chosen for memory: checkpoint-all over it, or "
	    "peak-split, lookahead, chain-dp and lp-round over it",
	1,
	reorder_run,
};
