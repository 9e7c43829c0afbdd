/* reorder.c: the reorder strategy: plans over execution orders chosen
 * for memory (order.h) instead of the graph's own.
 *
 * When checkpoint-all fits in a new order, that is the plan: it costs the
 * baseline, which no plan beats. Otherwise peak-split, lookahead,
 * chain-dp and lp-round plan over the order with the lowest peak, each
 * with an equal share of the time left (lp-round, last, has half of what
 * is left: the LP is what takes time), then peak-split, lookahead and
 * chain-dp over the other orders kept (up to RP_ORDER_MAX), with what time
 * is left; the cheapest plan that fits is kept. Where none fits, the
 * orders are drawn again from the next seed while there is time
 * (REORDER_DRAWS), and planned the same way but for lp-round. Then a
 * local search moves single nodes in the order of the cheapest plan,
 * guided by that plan's cost rather than by the checkpoint-all peak
 * (search_orders), with the rest. Plans are mapped back to the graph's
 * nodes and replayed on the graph itself, like every other plan. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "order.h"
#include "sim.h"
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
	rp_order_map_plan(&pl, o->order);
	if (rp_best_offer(best, pb, &pl, rp_xasprintf("%s, then %s: %s",
	    o->what, s->name, n2 != NULL ? n2 : "-"), cause) != 0) {
		free(n2);
		return -1;
	}
	free(n2);
	return 0;
}

/* The search over orders guided by the plan: stops after SEARCH_PATIENCE
 * evaluations in a row that find no plan cheaper than the current order's
 * (both by peak-split without restarts), after SEARCH_MAX in all,
 * or at the deadline. MOVE_TRIES: picks of a node with room to move. */
#define SEARCH_PATIENCE 500
#define SEARCH_MAX 5000
#define MOVE_TRIES 64

/* An order being searched, and the move tried on it. */
struct mover {
	const struct rp_graph *g;
	int *cur, *cand;	/* the order, and the order with the move */
	int *pos;		/* pos[v]: v's place in cur */
	int i, j;		/* the move: cur[i] to place j of cand */
	uint64_t rng;
};

static void
mover_init(struct mover *m, const struct rp_graph *g, const int *order,
    uint64_t seed)
{
	size_t sz = sizeof *m->cur * (size_t)(g->n ? g->n : 1);
	int i;

	m->g = g;
	m->cur = rp_xmalloc(sz);
	m->cand = rp_xmalloc(sz);
	m->pos = rp_xmalloc(sz);
	memcpy(m->cur, order, sizeof *m->cur * (size_t)g->n);
	for (i = 0; i < g->n; i++)
		m->pos[m->cur[i]] = i;
	m->rng = seed ^ 0x9e3779b97f4a7c15ULL;
}

static void
mover_destroy(struct mover *m)
{
	free(m->cur);
	free(m->cand);
	free(m->pos);
}

/* Into m->cand: cur with one node, picked at random, moved to a random
 * place between its last input and its first reader. Returns 0, or -1
 * where MOVE_TRIES picks found no node with room to move. */
static int
mover_propose(struct mover *m)
{
	const struct rp_graph *g = m->g;
	int n = g->n, i = 0, j, lo = 0, hi = -1, v = -1, t, e;

	for (t = 0; t < MOVE_TRIES && hi <= lo; t++) {
		i = (int)(rp_random_unit(&m->rng) * n);
		v = m->cur[i];
		lo = 0;
		hi = n - 1;
		for (e = g->pred_off[v]; e < g->pred_off[v + 1]; e++)
			if (m->pos[g->pred[e]] + 1 > lo)
				lo = m->pos[g->pred[e]] + 1;
		for (e = g->succ_off[v]; e < g->succ_off[v + 1]; e++)
			if (m->pos[g->succ[e]] - 1 < hi)
				hi = m->pos[g->succ[e]] - 1;
	}
	if (hi <= lo)
		return -1;
	j = lo + (int)(rp_random_unit(&m->rng) * (hi - lo));
	if (j >= i)
		j++;		/* any place in [lo, hi] but i */
	rp_order_move(m->cur, n, i, j, m->cand);
	m->i = i;
	m->j = j;
	return 0;
}

/* Makes the move proposed the order. */
static void
mover_accept(struct mover *m)
{
	int a = m->i < m->j ? m->i : m->j, z = m->i < m->j ? m->j : m->i, t;

	memcpy(m->cur + a, m->cand + a, sizeof *m->cur * (size_t)(z - a + 1));
	for (t = a; t <= z; t++)
		m->pos[m->cur[t]] = t;
}

/* Into order: the nodes of g in the order of their first computation in
 * plan p (a topological order: a valid plan computes every node, each
 * after its inputs). */
static void
first_order(const struct rp_plan *p, int n, int *order)
{
	unsigned char *seen = rp_xcalloc((size_t)(n ? n : 1), 1);
	int k, m = 0;

	for (k = 0; k < p->len && m < n; k++)
		if (p->s[k].op == RP_COMPUTE && !seen[p->s[k].node]) {
			seen[p->s[k].node] = 1;
			order[m++] = p->s[k].node;
		}
	free(seen);
}

/* peak-split without its restarts (rp_peak_split_quick: many more moves
 * in the time, which finds cheaper plans than fewer, better planned
 * moves) over the graph in order, by deadline: its plan mapped back to
 * pb's graph in *pl and replayed into *sim. Returns 1 with a plan, 0
 * without one (pl empty, sim untouched), -1 with *cause set. */
static int
eval_order(const struct rp_problem *pb, const struct rp_ctx *ctx,
    const int *order, double deadline, struct rp_plan *pl, struct rp_sim *sim,
    char **note, char **cause)
{
	struct rp_graph *h = rp_graph_reorder(pb->g, order);
	struct rp_problem p0, p1;
	char *c2 = NULL;
	int rc;

	rp_plan_init(pl);
	*note = NULL;
	if (rp_problem_init_like(&p0, h, pb, cause) != 0) {
		rp_graph_free(h);
		return -1;
	}
	rp_problem_at(&p1, &p0, pb->budget);
	rc = rp_peak_split_quick(&p1, ctx->opt != NULL ? ctx->opt->seed : 1,
	    deadline, pl, note, &c2);
	rp_graph_free(h);
	if (rc != 0) {
		*cause = rp_xasprintf("peak-split over a searched order: %s",
		    c2 != NULL ? c2 : "failed");
		free(c2);
		return -1;
	}
	if (pl->len == 0)
		return 0;
	rp_order_map_plan(pl, order);
	if (rp_simulate(pb->g, pl, sim) != 0) {
		*cause = rp_xasprintf("generated plan is invalid: %s", sim->error);
		rp_sim_destroy(sim);
		return -1;
	}
	return 1;
}

/* A local search over execution orders, from the order of best's plan
 * (which fits): moves single nodes (mover_propose), plans over each new
 * order with peak-split (no restarts), and keeps the move where that plan
 * fits at no more cost than the same run's plan over the order before it
 * (equal cost, no higher peak, lets it cross plateaus). The walk compares
 * like with like: best's plan came from peak-split's restarts, and
 * against its cost the moves from an order where they were lucky are
 * never kept (ResNeXt-50's 502 nodes at 45%: 81 moves tried, none kept,
 * 1.556x, where 44% gave 1.297x; now 1.339x). The orders that the
 * ordering search keeps are chosen by their checkpoint-all peak, but
 * below that peak the recomputation they need differs widely, and small
 * moves (where a copy or a pooling index is made, which of two branches
 * goes first) change it. Plans cheaper than best's go to best. Seeded,
 * and bounded by work as well as by deadline (and, where the deadline
 * comes first, by the time it goes without keeping a move; started: when
 * the draw of orders that gave the plans it starts from began). Returns
 * 0, or -1 with *cause. */
static int
search_orders(const struct rp_problem *pb, const struct rp_ctx *ctx,
    double started, double deadline, struct rp_best *best, char **cause)
{
	const struct rp_graph *g = pb->g;
	struct mover m;
	int *order = rp_xmalloc(sizeof *order * (size_t)(g->n ? g->n : 1));
	int evals = 0, since = 0, kept = 0, rc = 0, improved = 0, cut = 0, e;
	int idle = 0;
	char *from = rp_xstrdup(best->note != NULL ? best->note : "-");
	/* Where the deadline would end the search before its patience
	 * does (its end then depends on the clock anyway: on large graphs,
	 * where each move is a run of peak-split), a search that has kept no
	 * move for as long as the plans it starts from took ends there, its
	 * time going to the strategies after it. Elsewhere it ends by its
	 * counts, the same from run to run. */
	double t1, before, last;
	/* the cost and peak of the current order's plan, by the same
	 * peak-split run as each move's (INFINITY: none that fits) */
	double ref = INFINITY;
	int64_t refpeak = INT64_MAX;

	first_order(&best->plan, g->n, order);
	mover_init(&m, g, order, ctx->opt != NULL ? ctx->opt->seed : 1);
	free(order);
	if (deadline > 0 && rp_now() >= deadline)
		cut = 1;
	else {
		/* the run that plans each move, over the order it starts
		 * from (none that fits: any move whose plan fits is kept) */
		struct rp_plan pl;
		struct rp_sim sim;
		char *pn = NULL;
		e = eval_order(pb, ctx, m.cur, deadline, &pl, &sim, &pn, cause);
		free(pn);
		if (e < 0)
			rc = -1;
		if (e > 0) {
			if (rp_fits(pb, sim.peak)) {
				ref = sim.cost;
				refpeak = sim.peak;
			}
			rp_sim_destroy(&sim);
			rp_plan_destroy(&pl);
		}
	}
	t1 = rp_now();
	before = t1 - started;
	last = t1;
	while (rc == 0 && !cut && evals < SEARCH_MAX &&
	    since < SEARCH_PATIENCE &&
	    best->cost > pb->baseline) {
		struct rp_plan pl;
		struct rp_sim sim;
		double cost;
		int64_t peak;
		char *pn = NULL;

		if (deadline > 0 && rp_now() >= deadline) {
			cut = 1;
			break;
		}
		if (deadline > 0 && evals > 0 && rp_now() - last > before) {
			int left = SEARCH_PATIENCE - since;
			double per = (rp_now() - t1) / evals;
			if (SEARCH_MAX - evals < left)
				left = SEARCH_MAX - evals;
			if (rp_now() + left * per > deadline) {
				idle = 1;
				break;
			}
		}
		if (mover_propose(&m) != 0)
			break;		/* (almost) no node can move */
		evals++;
		since++;
		e = eval_order(pb, ctx, m.cand, deadline, &pl, &sim, &pn, cause);
		if (e < 0) {
			rc = -1;
			break;
		}
		if (e == 0) {
			free(pn);
			continue;
		}
		cost = sim.cost;
		peak = sim.peak;
		rp_sim_destroy(&sim);
		if (!rp_fits(pb, peak) || cost > ref || (cost == ref &&
		    peak > refpeak)) {
			rp_plan_destroy(&pl);
			free(pn);
			continue;
		}
		mover_accept(&m);
		kept++;
		last = rp_now();
		if (cost < ref)
			since = 0;
		ref = cost;
		refpeak = peak;
		/* each plan cheaper than best's (at equal cost, each lower
		 * one) goes to best */
		if (cost > best->cost || (cost == best->cost &&
		    peak >= best->peak)) {
			rp_plan_destroy(&pl);
			free(pn);
			continue;
		}
		improved = 1;
		rc = rp_best_offer(best, pb, &pl, rp_xasprintf("%s; then a search "
		    "over orders from it: %d moves of a single node kept (of %d "
		    "tried), each where peak-split's plan over the new order, "
		    "without restarts, costs no more than over the order before "
		    "it; peak-split: %s", from, kept, evals, pn != NULL ? pn :
		    "-"), cause);
		free(pn);
		if (rc != 0)
			break;
	}
	if (rc == 0 && improved && cut) {
		/* the plan is the search's: say that the clock ended it */
		char *t = rp_xasprintf("%s (the search over orders cut short by "
		    "--time-limit)", best->note);
		free(best->note);
		best->note = t;
	}
	rp_log(ctx, 1, "reorder: order search: %d moves tried, %d kept%s%s",
	    evals, kept, improved ? ", a better plan" : "",
	    cut ? " (stopped at the deadline)" : idle ? " (stopped: none kept "
	    "for as long as the plans before it took)" : "");
	free(from);
	mover_destroy(&m);
	return rc;
}

/* Draws of orders at most: where no plan over a draw fits, the orders
 * again from the next seed, while the time left is at least what the
 * draw before took (on a random layered DAG of 500 nodes at 75%, seeds 1
 * and 2 give orders over which nothing fits and seed 3 one that does;
 * bench/layered-results.md). */
#define REORDER_DRAWS 16

/* One draw: up to RP_ORDER_MAX orders that the ordering search ends
 * with, lowest checkpoint-all peak first (rp_order_memory_many), from
 * seed, those of earlier draws left out (their hashes in seen, *nseen of
 * them); checkpoint-all over each offered to best, then the plans over
 * them (below). Sets *no_out to the orders kept (0: none new, none with
 * a lower peak, or the ordering stopped), *cut where the time limit cut
 * the plans short, and *stopped where it stopped the ordering; adds to
 * *quick the time of the ordering and of the plans but lp-round's.
 * Returns 0, or -1 with *cause set. */
static int
reorder_draw(const struct rp_problem *pb, const struct rp_ctx *ctx,
    uint64_t seed, int draw, uint64_t *seen, int *nseen,
    struct rp_best *best, int *no_out, int *cut, int *stopped, double *quick,
    char **cause)
{
	const struct rp_graph *g = pb->g;
	struct ordered os[RP_ORDER_MAX];
	size_t sz = (size_t)(g->n ? g->n : 1);
	int *orders = rp_xmalloc(sizeof *orders * sz * RP_ORDER_MAX);
	int rules[RP_ORDER_MAX], no, j, k, i, rc = -1;
	int64_t peaks[RP_ORDER_MAX];
	double t0;

	memset(os, 0, sizeof os);
	*no_out = 0;
	t0 = rp_now();
	no = rp_order_memory_many(g, ctx->deadline, seed, RP_ORDER_MAX,
	    orders, rules, peaks);
	*quick += rp_now() - t0;
	if (no < 0) {
		*stopped = 1;
		no = 0;
		rc = 0;
		goto out;
	}
	while (no > 0 && peaks[no - 1] >= pb->ckpt_all_peak)
		no--;		/* sorted: only the lower ones are kept */
	/* each order once over the draws (the two greedy rules give the
	 * same orders from every seed), told apart by hash: a collision
	 * only leaves out an order */
	for (j = 0; j < no; ) {
		uint64_t h = rp_hash_ints(orders + (size_t)j * sz, g->n);
		for (i = 0; i < *nseen && seen[i] != h; i++)
			;
		if (i < *nseen) {
			memmove(orders + (size_t)j * sz, orders + (size_t)(j +
			    1) * sz, sizeof *orders * sz * (size_t)(no - j -
			    1));
			memmove(rules + j, rules + j + 1, sizeof *rules *
			    (size_t)(no - j - 1));
			memmove(peaks + j, peaks + j + 1, sizeof *peaks *
			    (size_t)(no - j - 1));
			no--;
			continue;
		}
		seen[(*nseen)++] = h;
		j++;
	}
	for (j = 0; j < no; j++) {
		struct ordered *o = &os[j];
		struct rp_plan pl;
		char of[48] = "", dr[96] = "";
		o->order = orders + (size_t)j * sz;
		o->h = rp_graph_reorder(g, o->order);
		if (rp_problem_init_like(&o->p0, o->h, pb, cause) != 0)
			goto out;
		rp_problem_at(&o->p1, &o->p0, pb->budget);
		if (no > 1)
			snprintf(of, sizeof of, "; order %d of the %d kept", j + 1,
			    no);
		if (draw > 0)
			snprintf(dr, sizeof dr, "; draw %d, the %d before it "
			    "without a plan that fits", draw + 1, draw);
		o->what = rp_xasprintf("an order by %s (checkpoint-all peak "
		    "%.1f%% of the execution order's%s%s)",
		    rule_names[rules[j]], 100.0 * (double)peaks[j] /
		    (double)pb->ckpt_all_peak, of, dr);
		rp_log(ctx, 1, "reorder: %s", o->what);
		rp_plan_init(&pl);
		rp_plan_checkpoint_all(o->h, &pl);
		rp_order_map_plan(&pl, o->order);
		if (rp_best_offer(best, pb, &pl, rp_xasprintf("%s, no "
		    "recomputation", o->what), cause) != 0)
			goto out;
	}
	*no_out = no;
	/* Over the first order of the first draw, as over a single one:
	 * each of peak-split, lookahead, chain-dp and lp-round with an equal
	 * share of the time left (lp-round: half of what is left); then
	 * peak-split, lookahead and chain-dp over the other orders, in equal
	 * shares of what time is left after that (much on graphs too large
	 * for the LP); then the search over orders from the cheapest plan,
	 * with the rest. Draws after the first leave lp-round out (it takes
	 * its whole share where it is built), and *quick counts the time of
	 * the runs of the others. */
	for (j = 0; j < no; j++) {
		int lp = draw == 0 && j == 0;
		for (k = 0; k < (int)NOVER - !lp; k++) {
			/* the runs left in this phase, this one included;
			 * lp-round, last over the first order, has half of
			 * what is left, the other half being for the other
			 * orders and the search over orders */
			int slots = lp ? (int)NOVER - k +
			    (k == (int)NOVER - 1) : (no - j) *
			    (int)(NOVER - 1) - k;
			double deadline = 0, t1;
			if (best->fits && best->cost <= pb->baseline) {
				rc = 0;
				goto out;
			}
			if (ctx->deadline > 0) {
				double left = ctx->deadline - rp_now();
				if (left <= 0) {
					*cut = 1;
					rc = 0;
					goto out;
				}
				deadline = rp_now() + left / (double)slots;
			} else if (over[k]->solver)
				deadline = rp_now() + RP_SOLVER_DEFAULT_SECONDS;
			t1 = rp_now();
			if (plan_over(pb, ctx, over[k], &os[j], deadline, best,
			    cause) != 0)
				goto out;
			if (!over[k]->solver)
				*quick += rp_now() - t1;
		}
	}
	rc = 0;
out:
	for (j = 0; j < RP_ORDER_MAX; j++) {
		rp_graph_free(os[j].h);
		free(os[j].what);
	}
	free(orders);
	return rc;
}

/* Outputs left to the end. A training step's outputs, the weights'
 * gradients, are made as the backward pass goes and held from then to
 * the end, while the activations of the layers before still wait for
 * theirs: at a tight budget the gradients of the last layers (the largest
 * in most networks) and the first layers' activations may not fit
 * together while each gradient is made where the backward pass reaches
 * it (ResNet-18 at batch 8, 128x128, at 70%: no strategy fitted). So,
 * where no plan over the orders fits (nor any strategy's before this
 * one), the outputs made first in execution order, up to a quarter, a
 * half and three quarters of the outputs' memory (DEFER_PARTS), are
 * left out: a plan over the rest of the graph (the ancestors of every
 * node that does not lead to them), then a plan that makes the outputs
 * left out afresh from the graph's inputs, with the first part's outputs
 * held meanwhile. Values both parts need that must not be made twice
 * (recompute=false) or are outputs are kept from the first part to the
 * end. Each part is planned by checkpoint-all where it fits, else by
 * peak-split, lookahead and chain-dp, else split so again (DEFER_LEVELS
 * times at most: the operator-level ResNet-50 at batch 8, 224x224, fits
 * 235 MiB so, where a single split fits 250 MiB, not 245 MiB); the cheapest
 * whole plan that fits is offered. */
#define DEFER_PARTS 4
/* How many times a part may be split so again where nothing else fits
 * it. */
#define DEFER_LEVELS 1

static int defer_outputs(const struct rp_problem *pb,
    const struct rp_ctx *ctx, double deadline, int levels,
    struct rp_best *best, char **cause);

/* Plans the graph h within budget by checkpoint-all where it fits, else
 * by peak-split, lookahead and chain-dp in equal shares of the time to
 * deadline (of half of it where levels > 0, and where none of them fits,
 * h with its own outputs made first left to the end, levels - 1 further
 * times at most, in the rest): the cheapest plan that fits into plan
 * (left empty where none does), its note into *note. Returns 0, or -1
 * with *cause set. */
static int
defer_part(const struct rp_graph *h, int64_t budget, const struct rp_ctx *ctx,
    double deadline, int levels, struct rp_plan *plan, char **note,
    char **cause)
{
	double split = deadline > 0 && levels > 0 ? rp_now() + (deadline -
	    rp_now()) / 2 : deadline;
	struct rp_budget_spec spec = rp_budget_bytes(budget);
	struct rp_problem p;
	struct rp_best b;
	struct rp_ctx sub = *ctx;
	int k, rc = -1;

	*note = NULL;
	if (rp_problem_init_unsearched(&p, h, &spec, cause) != 0)
		return -1;
	if (p.min_budget > budget)
		return 0;
	rp_best_init(&b);
	if (rp_fits(&p, p.ckpt_all_peak)) {
		rp_plan_checkpoint_all(h, plan);
		*note = rp_xstrdup("checkpoint-all");
		rp_best_destroy(&b);
		return 0;
	}
	sub.shared = NULL;
	for (k = 0; k < (int)NOVER - 1; k++) {
		struct rp_plan pl;
		char *n2 = NULL, *c2 = NULL;
		double b2 = NAN, now = rp_now();
		if (split > 0 && now >= split)
			break;
		sub.deadline = split > 0 ? now + (split - now) /
		    (double)(NOVER - 1 - (size_t)k) : 0;
		rp_plan_init(&pl);
		if (over[k]->run(&p, &sub, &pl, &n2, &b2, &c2) != 0) {
			*cause = rp_xasprintf("%s: %s", over[k]->name,
			    c2 != NULL ? c2 : "failed");
			free(c2);
			free(n2);
			rp_plan_destroy(&pl);
			goto out;
		}
		if (pl.len == 0) {
			free(n2);
			rp_plan_destroy(&pl);
			continue;
		}
		if (rp_best_offer(&b, &p, &pl, rp_xasprintf("%s (%s)",
		    over[k]->name, n2 != NULL ? n2 : "-"), cause) != 0) {
			free(n2);
			goto out;
		}
		free(n2);
	}
	if (!b.fits && levels > 0 && defer_outputs(&p, ctx, deadline,
	    levels - 1, &b, cause) < 0)
		goto out;
	if (b.fits)
		rp_best_take(&b, plan, note);
	rc = 0;
out:
	rp_best_destroy(&b);
	return rc;
}

/* Marks in `in` (zeroed) every node from which one with mark[v] set is
 * reached, those included; stack: room for n nodes. */
static void
defer_closure(const struct rp_graph *g, const unsigned char *mark,
    unsigned char *in, int *stack)
{
	int v, u, j, top = 0;

	for (v = 0; v < g->n; v++)
		if (mark[v]) {
			in[v] = 1;
			stack[top++] = v;
		}
	while (top > 0) {
		v = stack[--top];
		for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++)
			if (!in[u = g->pred[j]]) {
				in[u] = 1;
				stack[top++] = u;
			}
	}
}

/* Appends plan q of a part (over the nodes keep[] of the graph) to p, its
 * registers numbered from p's; where `last` is 0, the values it leaves
 * held that are not among its outputs (out, of the graph's nodes) are
 * freed after it. */
static void
defer_append(struct rp_plan *p, const struct rp_plan *q, const int *keep,
    const unsigned char *out, int last)
{
	int base = p->nregs, i, *node = rp_xmalloc(sizeof *node *
	    (size_t)(q->nregs ? q->nregs : 1));

	for (i = 0; i < q->nregs; i++)
		node[i] = -1;
	for (i = 0; i < q->len; i++)
		if (q->s[i].op == RP_COMPUTE) {
			node[q->s[i].reg] = keep[q->s[i].node];
			rp_plan_add_compute(p, keep[q->s[i].node],
			    base + q->s[i].reg);
		} else {
			node[q->s[i].reg] = -1;
			rp_plan_add_free(p, base + q->s[i].reg);
		}
	for (i = 0; !last && i < q->nregs; i++)
		if (node[i] >= 0 && !out[node[i]])
			rp_plan_add_free(p, base + i);
	if (p->nregs < base + q->nregs)
		p->nregs = base + q->nregs;
	free(node);
}

/* Where no plan fits: the outputs made first left to the end (above), in
 * the time to deadline, each part split so again up to `levels` times
 * where nothing else fits it; the cheapest whole plan that fits is
 * offered to best. Returns the splits planned (0 where the graph has
 * fewer than two outputs or no time was left), or -1 with *cause set. */
static int
defer_outputs(const struct rp_problem *pb, const struct rp_ctx *ctx,
    double deadline, int levels, struct rp_best *best, char **cause)
{
	const struct rp_graph *g = pb->g;
	size_t sz = (size_t)(g->n ? g->n : 1);
	unsigned char *dmark = rp_xmalloc(sz), *in2 = rp_xmalloc(sz);
	unsigned char *in1 = rp_xmalloc(sz), *out1 = rp_xmalloc(sz);
	unsigned char *out2 = rp_xmalloc(sz);
	int *stack = rp_xmalloc(sizeof *stack * sz);
	int *keep1 = rp_xmalloc(sizeof *keep1 * sz);
	int *keep2 = rp_xmalloc(sizeof *keep2 * sz);
	int part, v, nout = 0, last = 0, tried = 0, rc = -1;
	int64_t all = 0;

	for (v = 0; v < g->n; v++)
		if (g->output[v]) {
			nout++;
			all = rp_size_add(all, g->mem[v]);
		}
	for (part = 1; nout >= 2 && part < DEFER_PARTS; part++) {
		struct rp_graph *h1 = NULL, *h2 = NULL;
		struct rp_plan p1, p2, whole;
		char *n1 = NULL, *n2 = NULL;
		int64_t acc = 0, fixed2 = g->fixed_mem;
		int nd = 0, k1 = 0, k2 = 0, ok = 1, parts_left;
		double now = rp_now(), dl;

		if (deadline > 0 && now >= deadline)
			break;
		parts_left = DEFER_PARTS - part;
		dl = deadline > 0 ? now + (deadline - now) / parts_left : 0;
		memset(dmark, 0, sz);
		memset(in1, 0, sz);
		memset(in2, 0, sz);
		for (v = 0; v < g->n && nd < nout - 1; v++)
			if (g->output[v]) {
				if (nd > 0 && acc >= all / DEFER_PARTS * part)
					break;
				dmark[v] = 1;
				nd++;
				acc = rp_size_add(acc, g->mem[v]);
			}
		defer_closure(g, dmark, in2, stack);
		for (v = 0; v < g->n; v++)
			out1[v] = !in2[v];	/* the first part's roots */
		defer_closure(g, out1, in1, stack);
		nd = 0;
		acc = 0;
		for (v = 0; v < g->n; v++) {
			/* kept from the first part to the end: its outputs
			 * (those left out that it reads too), and what the
			 * second needs that must not be made twice */
			out1[v] = in1[v] && (g->output[v] || (in2[v] &&
			    !g->recompute[v]));
			out2[v] = g->output[v];
			if (in1[v])
				keep1[k1++] = v;
			if (in2[v] && !out1[v])
				keep2[k2++] = v;
			if (out1[v])
				fixed2 = rp_size_add(fixed2, g->mem[v]);
			if (dmark[v] && !out1[v]) {
				nd++;
				acc = rp_size_add(acc, g->mem[v]);
			}
		}
		/* none left out, no first part (every node leads to them),
		 * or the same outputs as the share before */
		if (nd == 0 || k1 == 0 || nd == last)
			continue;
		last = nd;
		tried++;
		h1 = rp_graph_sub(g, keep1, k1, out1, g->fixed_mem);
		h2 = rp_graph_sub(g, keep2, k2, out2, fixed2);
		rp_plan_init(&p1);
		rp_plan_init(&p2);
		rp_plan_init(&whole);
		/* the part left to the end first, in half of this share:
		 * where it fits nothing, the first part is not planned */
		if (defer_part(h2, pb->budget, ctx, dl > 0 ? now + (dl -
		    now) / 2 : 0, levels, &p2, &n2, cause) != 0 || (p2.len > 0 &&
		    defer_part(h1, pb->budget, ctx, dl, levels, &p1, &n1,
		    cause) != 0))
			ok = -1;
		else if (p1.len > 0 && p2.len > 0) {
			defer_append(&whole, &p1, keep1, out1, 0);
			defer_append(&whole, &p2, keep2, out2, 1);
			if (rp_best_offer(best, pb, &whole,
			    rp_xasprintf("the %d outputs made first in execution "
			    "order (%.0f%% of the outputs' memory) left to the "
			    "end: the other %d outputs' ancestors planned by %s, "
			    "then those %d made afresh from the graph's inputs by "
			    "%s, the others held meanwhile", nd, 100.0 *
			    (double)acc / (double)(all > 0 ? all : 1), nout - nd,
			    n1, nd, n2), cause) != 0)
				ok = -1;
		}
		rp_log(ctx, 1, "reorder: the first %d of %d outputs left to "
		    "the end: %s", nd, nout, ok < 0 ? "failed" : p1.len > 0 &&
		    p2.len > 0 ? "a plan" : p2.len > 0 ? "no plan for the rest" :
		    "no plan for them");
		free(n1);
		free(n2);
		rp_plan_destroy(&p1);
		rp_plan_destroy(&p2);
		rp_plan_destroy(&whole);
		rp_graph_free(h1);
		rp_graph_free(h2);
		if (ok < 0)
			goto out;
	}
	rc = tried;
out:
	free(dmark);
	free(in1);
	free(in2);
	free(out1);
	free(out2);
	free(stack);
	free(keep1);
	free(keep2);
	return rc;
}

/* Whether a strategy run before this one fits (the run's results so
 * far). */
static int
others_fit(const struct rp_ctx *ctx)
{
	int j;

	for (j = 0; ctx->shared != NULL && j < ctx->shared->nresults; j++)
		if (ctx->shared->results[j].status == RP_FITS)
			return 1;
	return 0;
}

/* The orders, drawn again from the next seed while none fits and there
 * is time (REORDER_DRAWS). Orders of about the same peak can need very
 * different recomputation below it (a random layered DAG of 500 nodes at
 * 80%: 1.27x over one, 2.32x over the one with the lowest peak), so after
 * the first order has had the time a single one had, peak-split,
 * lookahead and chain-dp plan over the others with what is left. */
static int
reorder_run(const struct rp_problem *pb, const struct rp_ctx *ctx,
    struct rp_plan *plan, char **note, double *bound, char **cause)
{
	const struct rp_graph *g = pb->g;
	struct rp_best best;
	uint64_t seed = ctx->opt != NULL ? ctx->opt->seed : 1;
	uint64_t seen[REORDER_DRAWS * RP_ORDER_MAX];
	struct rp_best dbest;	/* outputs left to the end (defer_outputs) */
	int draw, no = 0, nall = 0, nseen = 0, rc = -1, cut = 0, stopped = 0;
	int deferred = 0;	/* the splits defer_outputs planned */
	double td = 0, quick;

	(void)bound;
	if (rp_fits(pb, pb->ckpt_all_peak)) {
		/* the execution order is one of the orders, and nothing
		 * beats its plan */
		rp_plan_checkpoint_all(g, plan);
		*note = rp_xstrdup("checkpoint-all fits over the execution "
		    "order: no recomputation");
		return 0;
	}
	rp_best_init(&best);
	rp_best_init(&dbest);
	for (draw = 0; draw < REORDER_DRAWS; draw++) {
		td = rp_now();
		quick = 0;
		if (reorder_draw(pb, ctx, seed + (uint64_t)draw, draw, seen,
		    &nseen, &best, &no, &cut, &stopped, &quick, cause) != 0)
			goto out;
		nall += no;
		/* where the first draw's orders fit nothing, nor any
		 * strategy before this one, the outputs made first left to
		 * the end, in half of the time left (kept apart: the draws
		 * and the search over orders go on as they would without
		 * it) */
		if (draw == 0 && !best.fits && !cut && !stopped &&
		    !others_fit(ctx) && (deferred = defer_outputs(pb, ctx,
		    ctx->deadline > 0 ? rp_now() + (ctx->deadline -
		    rp_now()) / 2 : 0, DEFER_LEVELS, &dbest, cause)) < 0)
			goto out;
		/* another draw only where orders were found but no plan over
		 * them fits, the time was not cut short, and what is left is
		 * at least what this draw took (lp-round's run left out: the
		 * draws after the first do not run it) */
		if (best.fits || nall == 0 || cut || stopped ||
		    ctx->deadline <= 0 || ctx->deadline - rp_now() < quick)
			break;
	}
	if (nall == 0 && !dbest.fits) {
		*note = rp_xasprintf("%s%s", stopped ? "stopped at the time "
		    "limit (--time-limit) while ordering" : "no order found "
		    "with a lower checkpoint-all peak than the execution "
		    "order's", deferred > 0 ? "; no plan with the outputs made "
		    "first left to the end fits either" : "");
		rc = 0;
		goto out;
	}
	/* the search's patience counts from the draw whose orders gave the
	 * plans it starts from */
	if (!cut && best.fits && best.cost > pb->baseline &&
	    search_orders(pb, ctx, td, ctx->deadline > 0 ? ctx->deadline :
	    rp_now() + RP_SOLVER_DEFAULT_SECONDS, &best, cause) != 0)
		goto out;
	if (dbest.fits) {
		struct rp_plan pl;
		char *n2;
		rp_plan_init(&pl);
		rp_best_take(&dbest, &pl, &n2);
		if (rp_best_offer(&best, pb, &pl, n2, cause) != 0)
			goto out;
	}
	if (!best.fits && best.note != NULL) {
		char *d = draw > 0 ? rp_xasprintf(" (%d draws of orders, "
		    "seeds %llu to %llu)", draw + (draw < REORDER_DRAWS),
		    (unsigned long long)seed, (unsigned long long)(seed +
		    (uint64_t)draw - (draw == REORDER_DRAWS))) : rp_xstrdup("");
		char *t = rp_xasprintf("%s; %s found no plan that fits%s%s%s",
		    best.note, nall == 1 ? "over it, peak-split, lookahead, "
		    "chain-dp and lp-round" : "over these orders, peak-split, "
		    "lookahead and chain-dp (and lp-round over the first)", d,
		    deferred > 0 ? ", nor with the outputs made first left to "
		    "the end" : "", cut || stopped ? " (cut short by "
		    "--time-limit)" : "");
		free(d);
		free(best.note);
		best.note = t;
	}
	rp_best_take(&best, plan, note);
	rc = 0;
out:
	rp_best_destroy(&best);
	rp_best_destroy(&dbest);
	return rc;
}

const struct rp_strategy rp_strategy_reorder = {
	"reorder",
	"an execution order chosen for memory: checkpoint-all over it, or "
	    "peak-split, lookahead, chain-dp and lp-round over it, then "
	    "single nodes moved where the plan costs no more",
	1,
	1,
	reorder_run,
	NULL,
};
