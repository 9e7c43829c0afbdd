/* ilp.c: the ilp strategy. Checkmate's MILP on GLPK, warm-started with the
 * best plan of every other strategy and of LP rounding, searched within the
 * time limit; the cheapest plan found by any of them is returned, so the
 * ilp row is never worse than another row that fits. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lpround.h"
#include "milp.h"
#include "sched.h"
#include "stagebound.h"
#include "strategy.h"
#include "units.h"
#include "util.h"

/* Where the kept plan came from (rp_best.tag): FROM_SEED + k is the plan
 * of seeds[k]. */
enum source { FROM_OTHER, FROM_MILP, FROM_SEED };

/* The strategies whose plans start the search, quick ones first: peak-split
 * restarts its descents until the deadline, so a seed run after it would
 * get only what is left (and, under load, nothing), and its plan could be
 * worse than in a run of its own. reorder has an LP of its own and a share
 * of the time (seeds_run), as has pebble's search. */
static const struct rp_strategy *const seeds[] = {
	&rp_strategy_checkpoint_all, &rp_strategy_chen_sqrtn,
	&rp_strategy_chen_greedy, &rp_strategy_dtr, &rp_strategy_lookahead,
	&rp_strategy_chain_dp, &rp_strategy_peak_split, &rp_strategy_reorder,
	&rp_strategy_pebble,
};

#define NSEEDS (sizeof seeds / sizeof seeds[0])

/* The seeds' results: this run's where they ran already, else their own,
 * run first, while ilp's time is fresh. */
struct seed_results {
	const struct rp_result *r[NSEEDS];
	struct rp_result own[NSEEDS];
	int ran[NSEEDS];
};

static void
seeds_run(const struct rp_problem *pb, const struct rp_ctx *ctx,
    struct seed_results *sr)
{
	size_t k;
	int i;

	memset(sr, 0, sizeof *sr);
	for (k = 0; k < NSEEDS; k++) {
		for (i = 0; ctx->shared != NULL && i < ctx->shared->nresults; i++)
			if (ctx->shared->results[i].strategy == seeds[k])
				sr->r[k] = &ctx->shared->results[i];
		if (sr->r[k] == NULL) {
			/* a seed with an LP of its own (reorder) or a search
			 * that takes the time it is given (pebble) has a
			 * quarter of the time left, the MILP the rest */
			struct rp_ctx sub = *ctx;
			if ((seeds[k]->solver || seeds[k] == &rp_strategy_pebble)
			    && ctx->deadline > 0)
				sub.deadline = rp_now() +
				    (ctx->deadline - rp_now()) / 4;
			rp_strategy_run(seeds[k], pb, &sub, &sr->own[k]);
			sr->ran[k] = 1;
			sr->r[k] = &sr->own[k];
		}
	}
}

static void
seeds_destroy(struct seed_results *sr)
{
	size_t k;

	for (k = 0; k < NSEEDS; k++)
		if (sr->ran[k])
			rp_result_destroy(&sr->own[k]);
}

/* Offers the plan of every seed strategy to the model (as a starting
 * point, when it fits) and to best. Returns the number the model took, or
 * -1 with *cause set. */
static int
offer_seeds(const struct rp_problem *pb, const struct seed_results *sr,
    struct rp_milp *m, struct rp_best *best, char **cause)
{
	size_t k;
	int offered = 0;

	for (k = 0; k < NSEEDS; k++) {
		const struct rp_result *r = sr->r[k];
		struct rp_plan p;

		if (r == NULL || !r->has_plan)
			continue;
		if (m != NULL && r->status == RP_FITS &&
		    rp_milp_offer(m, &r->plan) == 0)
			offered++;
		rp_plan_init(&p);
		rp_plan_copy(&p, &r->plan);
		if (rp_best_offer_tagged(best, pb, &p, rp_xasprintf("plan of "
		    "%s", seeds[k]->name), FROM_SEED + (int)k, cause) != 0)
			return -1;
	}
	return offered;
}

/* What the search came to, for the note; gap: the relative gap asked
 * for (--mip-gap), 0 where none was. */
static char *
search_outcome(const struct rp_milp_solution *sol, double search_s,
    double limit, double gap)
{
	double got = sol->obj > 0 ? (sol->obj - sol->bound) / sol->obj : 0;

	switch (sol->result) {
	case RP_MILP_OPTIMAL:
		return rp_xstrdup("proved optimal among frontier-advancing plans");
	case RP_MILP_FEASIBLE:
		/* the gap asked for, or the clock (which the reader must tell
		 * apart: a search the clock stopped may differ run to run) */
		return gap > 0 && got <= gap * (1 + 1e-9) ?
		    rp_xasprintf("stopped within the gap asked for (%g%%), gap "
		    "%.1f%% (bound %.6g)", 100 * gap, 100 * got, sol->bound) :
		    rp_xasprintf("stopped at the time limit, gap %.1f%% (bound "
		    "%.6g)", 100 * got, sol->bound);
	case RP_MILP_INFEASIBLE:
		return rp_xstrdup("proved that no frontier-advancing plan fits");
	case RP_MILP_NOSOLUTION:
		/* Slow LPs can leave the search next to no time: say so. */
		return search_s < 0.05 * limit ?
		    rp_xasprintf("had no time left to search (the LP relaxation "
		    "and its rounding took %.3g of %.3g s)", limit - search_s,
		    limit) :
		    rp_xasprintf("found no solution within %.3g s", limit);
	default:
		return rp_xstrdup("failed in the solver");
	}
}

/* Whether the plan of a seed already costs the baseline, which no plan
 * can beat, or no more than the stage memory bound (stagebound.h): then
 * the MILP, which has only frontier-advancing plans, cannot find a
 * cheaper one, and neither the model nor its LP need be built. Sets *sb
 * to the bound and *from to that seed. The stage bound (at most a tenth
 * of ilp's time, a second) is kept in sm (may be NULL) for the run's own
 * bound, or taken from there where lp-round computed it. */
static int
seeds_reach_bound(const struct rp_problem *pb, const struct seed_results *sr,
    double deadline, struct rp_stage_memo *sm, double *sb,
    const struct rp_strategy **from)
{
	const struct rp_result *best = NULL;
	int k;

	*sb = pb->baseline;
	*from = NULL;
	/* the cheapest, by rp_pick's rule (on a tie in cost, the lower
	 * peak, then the earlier) */
	for (k = 0; k < (int)NSEEDS; k++)
		if (sr->r[k]->status == RP_FITS && (best == NULL ||
		    rp_plan_better(sr->r[k]->sim.cost, sr->r[k]->sim.peak,
		    best->sim.cost, best->sim.peak))) {
			best = sr->r[k];
			*from = seeds[k];
		}
	if (best == NULL)
		return 0;
	if (rp_result_at_baseline(pb, best))
		return 1;	/* no plan is cheaper */
	*sb = rp_stage_bound_kept(pb, deadline, sm);
	return isfinite(*sb) && *sb > pb->baseline &&
	    rp_stage_bound_reached(*sb, best->sim.cost);
}

static int
ilp_run(const struct rp_problem *pb, const struct rp_ctx *ctx,
    struct rp_plan *plan, char **note, double *bound, char **cause)
{
	const struct rp_graph *g = pb->g;
	const struct rp_options *o = ctx->opt;
	double t0 = rp_now(), deadline = ctx->deadline, lpb = NAN, search_s;
	double limit = deadline > 0 ? deadline - t0 : RP_SOLVER_DEFAULT_SECONDS;
	double gap = o != NULL ? o->mip_gap : 0;
	struct rp_milp *m = NULL;
	const struct rp_strategy *from;
	struct rp_best best;
	struct rp_milp_solution sol;
	struct rp_seq seq = { 0 };
	struct seed_results sr;
	char *why = NULL, *what;
	int offered, rc = -1;
	int64_t over = 0;	/* bytes the MILP's solution is over budget */
	const char *engine = o != NULL && o->solver == RP_MILP_CBC ?
	    "MILP (CBC)" : "MILP";

	rp_best_init(&best);
	best.tie = 1;	/* its row: the plan the run would pick of those */
	seeds_run(pb, ctx, &sr);
	if (seeds_reach_bound(pb, &sr, deadline, ctx->shared != NULL ?
	    ctx->shared->stage : NULL, &lpb, &from)) {
		if (offer_seeds(pb, &sr, NULL, &best, cause) < 0)
			goto out;
		rp_log(ctx, 1, "ilp: the plan of %s costs the lower bound at "
		    "%.2f s", from->name, rp_now() - t0);
		*bound = lpb;
		if (best.have) {
			const char *reached = lpb <= pb->baseline ?
			    "the baseline" : "the stage memory bound";
			char *n = best.tag >= FROM_SEED &&
			    seeds[best.tag - FROM_SEED] == from ?
			    rp_xasprintf("the plan is the %s, which costs %s, so "
			    "the MILP cannot do better and was not built",
			    best.note, reached) :
			    rp_xasprintf("the plan is the %s; the plan of %s "
			    "costs %s, so the MILP cannot do better and was not "
			    "built", best.note, from->name, reached);
			free(best.note);
			best.note = n;
			rp_best_take(&best, plan, note);
		}
		rc = 0;
		goto out;
	}
	m = rp_milp_build_within(g, pb->budget, o != NULL ? o->solver :
	    RP_MILP_GLPK, deadline > 0 ? fmax(deadline - rp_now(), 1e-3) : 0,
	    &why);	/* no time left is not "no limit" (<= 0) */
	if (m != NULL && o != NULL)
		rp_milp_set_engine(m, o->solver, o->threads);
	if (m != NULL) {
		struct rp_milp_stats st;
		rp_milp_stats(m, &st);
		rp_log(ctx, 1, "ilp: MILP formulated in %.2f s: %d rows, %d "
		    "columns, %ld nonzeros", st.build_s, st.rows, st.cols,
		    st.nonzeros);
	}
	/* LP relaxation, and the plans of LP rounding. */
	if (m != NULL && rp_lp_round(pb, ctx, m, &best, &lpb, NULL, cause) != 0)
		goto out;
	/* Every other strategy's plan, as a candidate and a starting point. */
	if ((offered = offer_seeds(pb, &sr, m, &best, cause)) < 0)
		goto out;
	rp_log(ctx, 1, "ilp: LP rounding and starting plans done at %.2f s",
	    rp_now() - t0);
	if (m == NULL) {
		/* Too large for the model: the fallback chain's best plan, and
		 * the baseline as the bound (see below). */
		*bound = pb->baseline;
		if (best.have) {
			char *n = rp_xasprintf("%s; the plan is the %s", why, best.note);
			free(best.note);
			best.note = n;
			rp_best_take(&best, plan, note);
		} else
			*note = rp_xstrdup(why);
		rc = 0;
		goto out;
	}
	if (best.have && best.fits && rp_milp_offer(m, &best.plan) == 0)
		offered++;

	/* A spent deadline still gets a token search (0 would mean none). */
	search_s = deadline > 0 ? fmax(deadline - rp_now(), 1e-3) : 0;
	rp_log(ctx, 1, "ilp: searching%s with %d starting plan%s", search_s >
	    0 ? "" : " without a time limit", offered, offered == 1 ? "" : "s");
	rp_milp_solve(m, search_s > 0 ? rp_now() + search_s : 0, gap, &sol,
	    &seq);
	rp_log(ctx, 1, "ilp: search ended at %.2f s", rp_now() - t0);
	if (sol.result == RP_MILP_OPTIMAL || sol.result == RP_MILP_FEASIBLE) {
		struct rp_plan p;
		struct rp_sim s;
		rp_plan_init(&p);
		rp_plan_from_seq(g, seq.node, seq.len, &p);
		/* The solver's tolerances take memory rows a few bytes over
		 * the budget as met (a byte is 1e-7 of a budget of 10 MB):
		 * then its solution, optimal or not, proves nothing. */
		if (rp_simulate(g, &p, &s) == 0 && !rp_fits(pb, s.peak))
			over = s.peak - pb->budget;
		rp_sim_destroy(&s);
		/* Prefer the MILP's own plan on ties. */
		if (best.have && best.fits && best.cost == sol.obj) {
			rp_best_destroy(&best);
			rp_best_init(&best);
			best.tie = 1;
		}
		if (rp_best_offer_tagged(&best, pb, &p, rp_xstrdup("MILP solution"),
		    FROM_MILP, cause) != 0)
			goto out;
	}
	/* fmax ignores an unknown (NaN) side. Every node is computed at
	 * least once, so the baseline bounds any plan too: the bound that is
	 * left when neither the LP nor the search gave one. A proof that no
	 * plan of the model fits is an infinite bound. */
	if (sol.result == RP_MILP_INFEASIBLE)
		*bound = INFINITY;
	else
		*bound = fmax(sol.result == RP_MILP_ERROR ? lpb :
		    fmax(sol.bound, lpb), pb->baseline);

	what = over > 0 ? rp_xasprintf("found a solution %lld %s over "
	    "the budget (within the solver's tolerance), which proves nothing",
	    (long long)over, rp_bytes_word(over)) :
	    search_outcome(&sol, search_s, limit, gap);
	if (best.have) {
		char *n = best.tag == FROM_MILP ?
		    rp_xasprintf("%s %s; %d starting plan%s offered", engine, what,
		    offered, offered == 1 ? "" : "s") :
		    rp_xasprintf("%s %s; the plan is the %s", engine, what,
		    best.note != NULL ? best.note : "?");
		free(best.note);
		best.note = n;
		rp_best_take(&best, plan, note);
	} else
		*note = rp_xasprintf("%s %s", engine, what);
	free(what);
	rc = 0;
out:
	seeds_destroy(&sr);
	free(why);
	rp_seq_destroy(&seq);
	rp_best_destroy(&best);
	rp_milp_free(m);
	return rc;
}

/* ilp ends soon where its model is not built (its seeds, where they did
 * not run before it, run within its limit). */
static int
ilp_idle(const struct rp_problem *pb, const struct rp_options *opt,
    double seconds)
{
	return !rp_milp_would_build(pb->g, opt != NULL ? opt->solver :
	    RP_MILP_GLPK, seconds);
}

const struct rp_strategy rp_strategy_ilp = {
	"ilp",
	"Checkmate MILP on GLPK (or --solver cbc), warm-started, within --time-limit (default 60 s)",
	1,
	1,
	ilp_run,
	ilp_idle,
};
