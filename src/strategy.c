/* strategy.c: the strategy registry, the runner and the pick rule. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutbound.h"
#include "dtr.h"
#include "stagebound.h"
#include "strategy.h"
#include "util.h"

static const struct rp_strategy *const strategies[] = {
	&rp_strategy_checkpoint_all,
	&rp_strategy_chen_sqrtn,
	&rp_strategy_chen_greedy,
	&rp_strategy_dtr,
	&rp_strategy_lookahead,
	&rp_strategy_peak_split,
	&rp_strategy_chain_dp,
	&rp_strategy_reorder,
	&rp_strategy_pebble,
	&rp_strategy_lp_round,
	&rp_strategy_ilp,
};

const struct rp_strategy *const *
rp_strategy_list(int *n)
{
	*n = (int)(sizeof strategies / sizeof strategies[0]);
	return strategies;
}

const struct rp_strategy *
rp_strategy_find(const char *name)
{
	size_t i;
	for (i = 0; i < sizeof strategies / sizeof strategies[0]; i++)
		if (strcmp(strategies[i]->name, name) == 0)
			return strategies[i];
	return NULL;
}

void
rp_options_init(struct rp_options *opt)
{
	memset(opt, 0, sizeof *opt);
	opt->dtr_heuristic = RP_DTR_DEFAULT;
	opt->dtr_banish = -1;
	opt->dtr_thrash = 3.0;
	opt->seed = 1;
	opt->solver = 0;	/* RP_MILP_GLPK */
	opt->threads = 1;
}

void
rp_log(const struct rp_ctx *ctx, int level, const char *fmt, ...)
{
	va_list ap;
	char *line;

	if (ctx == NULL || ctx->log == NULL || ctx->opt == NULL ||
	    ctx->opt->verbose < level)
		return;
	va_start(ap, fmt);
	line = rp_xvasprintf(fmt, ap);
	va_end(ap);
	ctx->log(ctx->log_arg, line);
	free(line);
}

/* The deadline of s run now under parent: its time limit (--time-limit,
 * or the solver default), and never later than the parent's. */
static double
strategy_deadline(const struct rp_strategy *s, const struct rp_ctx *parent)
{
	const struct rp_options *o = parent->opt;
	double limit = o != NULL && o->time_limit > 0 ? o->time_limit :
	    s->solver ? RP_SOLVER_DEFAULT_SECONDS : 0;
	double d = limit > 0 ? rp_now() + limit : 0;

	if (parent->deadline > 0 && (d <= 0 || parent->deadline < d))
		d = parent->deadline;
	return d;
}

void
rp_strategy_run(const struct rp_strategy *s, const struct rp_problem *pb,
    const struct rp_ctx *parent, struct rp_result *res)
{
	struct rp_ctx ctx = *parent;
	char *cause = NULL;
	double t0;

	memset(res, 0, sizeof *res);
	res->strategy = s;
	rp_plan_init(&res->plan);
	res->bound = NAN;
	t0 = rp_now();
	ctx.deadline = strategy_deadline(s, parent);
	res->deadline = ctx.deadline;
	if (s->run(pb, &ctx, &res->plan, &res->note, &res->bound, &cause) != 0) {
		res->seconds = rp_now() - t0;
		res->status = RP_FAILED;
		free(res->note);
		res->note = cause;
		rp_plan_destroy(&res->plan);
		return;
	}
	res->seconds = rp_now() - t0;
	if (res->plan.len == 0) {
		res->status = RP_NO_PLAN;
		return;
	}
	res->has_plan = 1;
	if (rp_simulate(pb->g, &res->plan, &res->sim) != 0) {
		char *msg = rp_xasprintf("internal error: plan rejected by the "
		    "validator at statement %d: %s", res->sim.bad_stmt + 1,
		    res->sim.error);
		free(res->note);
		res->note = msg;
		res->status = RP_FAILED;
		res->has_plan = 0;
		return;
	}
	res->status = rp_fits(pb, res->sim.peak) ? RP_FITS : RP_OVER_BUDGET;
}

void
rp_result_destroy(struct rp_result *res)
{
	rp_plan_destroy(&res->plan);
	rp_sim_destroy(&res->sim);
	free(res->note);
	memset(res, 0, sizeof *res);
}

void
rp_best_init(struct rp_best *b)
{
	memset(b, 0, sizeof *b);
	rp_plan_init(&b->plan);
}

void
rp_best_destroy(struct rp_best *b)
{
	rp_plan_destroy(&b->plan);
	free(b->note);
	memset(b, 0, sizeof *b);
}

int
rp_best_offer(struct rp_best *b, const struct rp_problem *pb,
    struct rp_plan *plan, char *note, char **cause)
{
	return rp_best_offer_tagged(b, pb, plan, note, 0, cause);
}

int
rp_best_offer_tagged(struct rp_best *b, const struct rp_problem *pb,
    struct rp_plan *plan, char *note, int tag, char **cause)
{
	struct rp_sim sim;
	int fits, better;

	if (rp_simulate(pb->g, plan, &sim) != 0) {
		*cause = rp_xasprintf("generated plan is invalid: %s", sim.error);
		rp_sim_destroy(&sim);
		rp_plan_destroy(plan);
		free(note);
		return -1;
	}
	fits = rp_fits(pb, sim.peak);
	if (!b->have)
		better = 1;
	else if (fits != b->fits)
		better = fits;
	else if (fits && b->tie)
		better = rp_plan_better(sim.cost, sim.peak, b->cost, b->peak);
	else if (fits)
		better = sim.cost < b->cost ||
		    (sim.cost == b->cost && sim.peak < b->peak);
	else
		better = sim.peak < b->peak ||
		    (sim.peak == b->peak && sim.cost < b->cost);
	if (better) {
		rp_plan_move(&b->plan, plan);
		b->have = 1;
		b->fits = fits;
		b->cost = sim.cost;
		b->peak = sim.peak;
		free(b->note);
		b->note = note;
		b->tag = tag;
	} else {
		rp_plan_destroy(plan);
		free(note);
	}
	rp_sim_destroy(&sim);
	return 0;
}

void
rp_best_take(struct rp_best *b, struct rp_plan *plan, char **note)
{
	rp_plan_move(plan, &b->plan);
	*note = b->note;
	b->note = NULL;
}

double
rp_results_bound(const struct rp_problem *pb, const struct rp_result *res,
    int n, double deadline, const struct rp_stage_memo *sm, struct rp_bound *b)
{
	double lb = NAN, sb, now;
	int i, st, lp;

	b->stage = -1;
	b->lp = 0;
	b->any = NAN;
	b->any_node = -1;
	b->any_stopped = 0;
	for (i = 0; i < n; i++)
		if (!isnan(res[i].bound) && (isnan(lb) || res[i].bound > lb))
			lb = res[i].bound;
	/* The stage bound first, with half of the time left at most, then
	 * the bound for every plan (also where no strategy bounded the cost:
	 * a run of heuristics only) with the rest: it needs no LP, it holds
	 * for frontier-advancing plans too, and its work is counted, so it
	 * often takes a fraction of a second where the stage bound's MILP
	 * can take all the time left (DeepLabV3-ResNet50 at 30%, batch 4:
	 * 0.13 s against 0.57 s; after the MILP it had nothing left of the
	 * half second that follows a run that used its whole limit). Where
	 * the stage bound is quick (it skips the LPs of large graphs), the
	 * cuts have nearly all of it (on 10,000 nodes they take seconds). */
	if (!isnan(lb) && !isinf(lb)) {
		if (sm != NULL && sm->have && sm->budget == pb->budget) {
			sb = sm->value;
			st = sm->stage;
			lp = sm->lp;
		} else {
			now = rp_now();
			sb = rp_stage_bound_lp(pb, deadline > now ? now +
			    (deadline - now) / 2 : deadline, &st, &lp, NULL);
		}
		if (sb > lb && st >= 0) {
			lb = sb;
			b->stage = st;
			b->lp = lp;
		}
	}
	b->any = rp_cut_bound(pb, deadline, &b->any_node, &b->any_stopped);
	/* Where the two agree but for rounding (the cut bound takes 1e-9 of
	 * the total off for its doubles' sake), the bound for every plan
	 * stands for both: lowering a bound keeps it one, and the report
	 * then does not show one figure as two that hold for different
	 * plans. */
	if (isnan(lb) || b->any > lb || (isfinite(b->any) && isfinite(lb) &&
	    b->any >= lb - 1e-8 * fabs(lb))) {
		lb = b->any;
		b->stage = -1;
		b->lp = 0;
	}
	return b->value = lb;
}

int
rp_bound_for_all(const struct rp_problem *pb, const struct rp_bound *b)
{
	return b->value <= pb->baseline || (!isnan(b->any) &&
	    b->any >= b->value);
}

#define BOUND_LP_SECONDS 5.0

double
rp_run_limit(const struct rp_options *o)
{
	return o != NULL && o->time_limit > 0 ? o->time_limit :
	    RP_SOLVER_DEFAULT_SECONDS;
}

int
rp_strategy_busy(const struct rp_strategy *s, const struct rp_problem *pb,
    const struct rp_options *o)
{
	return s->anytime && (s->idle == NULL || !s->idle(pb, o,
	    rp_run_limit(o)));
}

double
rp_run_deadline(const struct rp_options *o, double start)
{
	double t = rp_run_limit(o);

	return fmax(start + 2 * t, rp_now() + t / 10);
}

double
rp_bound_deadline(const struct rp_options *o, double start, int n)
{
	double now = rp_now(), t = rp_run_limit(o);

	return fmin(now + BOUND_LP_SECONDS, fmax(start + (n > 1 ? 2 : 1) * t,
	    now + fmin(t / 10, 0.5)));
}

int
rp_cost_less(double a, double b)
{
	return a < b && b - a > RP_COST_TIE * fabs(b);
}

int
rp_plan_better(double c, int64_t p, double bc, int64_t bp)
{
	return rp_cost_less(c, bc) || (!rp_cost_less(bc, c) && p < bp);
}

int
rp_pick(const struct rp_result *res, int n)
{
	int i, best = -1;

	for (i = 0; i < n; i++) {
		if (res[i].status != RP_FITS)
			continue;
		if (best < 0 || rp_plan_better(res[i].sim.cost,
		    res[i].sim.peak, res[best].sim.cost, res[best].sim.peak))
			best = i;
	}
	return best;
}

int
rp_result_at_baseline(const struct rp_problem *pb, const struct rp_result *r)
{
	return r->status == RP_FITS && !rp_cost_less(pb->baseline, r->sim.cost);
}

const char *
rp_status_name(enum rp_status st)
{
	switch (st) {
	case RP_FITS:
		return "fits";
	case RP_OVER_BUDGET:
		return "over budget";
	case RP_NO_PLAN:
		return "no plan";
	default:
		return "failed";
	}
}

void
rp_cache_init(struct rp_cache *c)
{
	memset(c, 0, sizeof *c);
}

void
rp_cache_put(struct rp_cache *c, enum rp_cache_slot i, void *p,
    void (*release)(void *))
{
	if (c->slot[i] != NULL && c->release[i] != NULL)
		c->release[i](c->slot[i]);
	c->slot[i] = p;
	c->release[i] = release;
}

void
rp_cache_destroy(struct rp_cache *c)
{
	int i;

	for (i = 0; i < RP_CACHE_SLOTS; i++)
		rp_cache_put(c, (enum rp_cache_slot)i, NULL, NULL);
}
