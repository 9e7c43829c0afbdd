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
#include "strategy.h"
#include "util.h"

static int
ilp_run(const struct rp_problem *pb, struct rp_plan *plan, char **note,
    double *bound, char **cause)
{
	static const struct rp_strategy *const seeds[] = {
		&rp_strategy_checkpoint_all, &rp_strategy_chen_sqrtn,
		&rp_strategy_chen_greedy, &rp_strategy_dtr,
	};
	const struct rp_graph *g = pb->g;
	double limit = rp_solver_seconds(pb);
	double t0 = rp_now(), deadline = t0 + limit, lpb = NAN, search_s;
	double gap = pb->opt != NULL ? pb->opt->mip_gap : 0;
	struct rp_milp *m;
	struct rp_best best;
	struct rp_milp_solution sol;
	struct rp_seq seq = { 0 };
	const char *src = NULL;
	char *why = NULL, *what;
	int offered = 0, rc = -1;
	const char *engine = pb->opt != NULL && pb->opt->solver == RP_MILP_CBC ?
	    "MILP (CBC)" : "MILP";
	size_t k;

	rp_best_init(&best);
	m = rp_milp_build(g, pb->budget, &why);
	if (m != NULL && pb->opt != NULL)
		rp_milp_set_engine(m, pb->opt->solver, pb->opt->threads);
	/* LP relaxation, and the plans of LP rounding. */
	if (m != NULL && rp_lp_round(pb, m, deadline, &best, &lpb, NULL, cause) != 0)
		goto out;
	/* Every other strategy's plan, as a candidate and a starting point. */
	for (k = 0; k < sizeof seeds / sizeof seeds[0]; k++) {
		struct rp_result r;
		rp_strategy_run(seeds[k], pb, &r);
		if (r.has_plan) {
			if (m != NULL && r.status == RP_FITS &&
			    rp_milp_offer(m, &r.plan) == 0)
				offered++;
			if (rp_best_offer(&best, g, pb->budget, &r.plan,
			    rp_xasprintf("plan of %s", seeds[k]->name), cause) != 0) {
				rp_result_destroy(&r);
				goto out;
			}
		}
		rp_result_destroy(&r);
	}
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
	search_s = fmax(deadline - rp_now(), 1e-3);
	rp_milp_solve(m, search_s, gap, &sol, &seq);
	if (sol.result == RP_MILP_OPTIMAL || sol.result == RP_MILP_FEASIBLE) {
		struct rp_plan p;
		char *n;
		rp_plan_init(&p);
		rp_plan_from_seq(g, seq.node, seq.len, &p);
		n = rp_xstrdup("MILP solution");
		/* Prefer the MILP's own plan on ties. */
		if (best.have && best.fits && best.cost == sol.obj) {
			rp_best_destroy(&best);
			rp_best_init(&best);
		}
		if (rp_best_offer(&best, g, pb->budget, &p, n, cause) != 0)
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

	switch (sol.result) {
	case RP_MILP_OPTIMAL:
		what = rp_xstrdup("proved optimal among frontier-advancing plans");
		break;
	case RP_MILP_FEASIBLE:
		what = rp_xasprintf("stopped at the limit, gap %.1f%% "
		    "(bound %.6g)", sol.obj > 0 ? 100 * (sol.obj - sol.bound) /
		    sol.obj : 0, sol.bound);
		break;
	case RP_MILP_INFEASIBLE:
		what = rp_xstrdup("proved that no frontier-advancing plan fits");
		break;
	case RP_MILP_NOSOLUTION:
		/* Slow LPs can leave the search next to no time: say so. */
		what = search_s < 0.05 * limit ?
		    rp_xasprintf("had no time left to search (the LP relaxation "
		    "and its rounding took %.3g of %.3g s)", limit - search_s,
		    limit) :
		    rp_xasprintf("found no solution within %.3g s", limit);
		break;
	default:
		what = rp_xstrdup("failed in the solver");
		break;
	}
	if (best.have) {
		char *n;
		src = best.note != NULL ? best.note : "?";
		n = strcmp(src, "MILP solution") == 0 ?
		    rp_xasprintf("%s %s; %d starting plan%s offered", engine, what,
		    offered, offered == 1 ? "" : "s") :
		    rp_xasprintf("%s %s; the plan is the %s", engine, what, src);
		free(best.note);
		best.note = n;
		rp_best_take(&best, plan, note);
	} else
		*note = rp_xasprintf("%s %s", engine, what);
	free(what);
	rc = 0;
out:
	free(why);
	rp_seq_destroy(&seq);
	rp_best_destroy(&best);
	rp_milp_free(m);
	return rc;
}

const struct rp_strategy rp_strategy_ilp = {
	"ilp",
	"Checkmate MILP on GLPK (or --solver cbc), warm-started, within --time-limit (default 60 s)",
	ilp_run,
};
