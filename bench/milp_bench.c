/* milp_bench.c: the MILP's size and solving figures for one graph at one
 * budget. Prints one CSV line:
 * graph,nodes,budget_pct,model,rows,cols,nonzeros,eliminated,build_s,
 * lp_s,lp_bound,lpround_cost,lpround_s,best_heuristic, then for each
 * engine (GLPK, and CBC when built in) from the same LP basis and the same
 * starting plans: engine,first_s,solve_s,result,obj,bound,gap; with CBC
 * last, the time of the LP relaxation on Clp (">" when not solved within
 * SECONDS)
 * MODEL is the formulation (milp.h): default (reduced, a row per FREE
 * hazard, stage rows), noreduce, aggregate (Checkmate's one row per FREE),
 * nostage (no stage rows) or checkmate (none of the three).
 * With RP_BENCH_MALLOC_DEFAULT set in the environment it keeps glibc's
 * allocator defaults (rp_malloc_tune skipped), to measure what that does.
 * Usage: milp_bench GRAPH PERCENT SECONDS [MODEL] */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphml.h"
#include "lpround.h"
#include "milp.h"
#include "sched.h"
#include "strategy.h"
#include "util.h"

/* Searches with one engine and prints its figures (a leading comma). */
static void
search(struct rp_milp *m, enum rp_milp_engine engine, const char *name,
    double secs)
{
	static const char *const results[] = { "optimal", "feasible",
		"infeasible", "none", "error" };
	struct rp_milp_solution sol;
	struct rp_seq seq = { 0 };

	rp_milp_set_engine(m, engine, 1);
	rp_milp_solve(m, rp_now() + secs, 0, &sol, &seq);
	printf(",%s,%.2f,%.2f,%s,", name, sol.first_s, sol.solve_s,
	    results[sol.result]);
	if (sol.result == RP_MILP_OPTIMAL || sol.result == RP_MILP_FEASIBLE)
		printf("%.6g,%.6g,%.4f", sol.obj, sol.bound, sol.obj > 0 ?
		    (sol.obj - sol.bound) / sol.obj : 0);
	else
		printf(",%.6g,", sol.bound);
	rp_seq_destroy(&seq);
}

int
main(int argc, char **argv)
{
	static const struct rp_strategy *const heur[] = {
		&rp_strategy_checkpoint_all, &rp_strategy_chen_sqrtn,
		&rp_strategy_chen_greedy, &rp_strategy_dtr,
	};
	struct rp_graph *g;
	struct rp_options opt;
	struct rp_problem pb;
	struct rp_budget_spec spec;
	struct rp_ctx ctx;
	struct rp_milp *m;
	struct rp_milp_stats st;
	struct rp_best best;
	char *cause = NULL;
	double pct, secs, t0, lp_s, lpb = NAN, lpr_s, heur_best = HUGE_VAL, lpo;
	int flags, i;
	const char *model;

	if (getenv("RP_BENCH_MALLOC_DEFAULT") == NULL)
		rp_malloc_tune();
	if (argc < 4) {
		fprintf(stderr, "usage: milp_bench GRAPH PERCENT SECONDS "
		    "[default|noreduce|aggregate|nostage|checkmate]\n");
		return 2;
	}
	pct = atof(argv[2]);
	secs = atof(argv[3]);
	model = argc > 4 ? argv[4] : "default";
	flags = RP_MILP_REDUCE | RP_MILP_SPLIT_FREE | RP_MILP_STAGE_ROWS;
	if (strcmp(model, "default") == 0)
		;
	else if (strcmp(model, "noreduce") == 0)
		flags &= ~RP_MILP_REDUCE;
	else if (strcmp(model, "aggregate") == 0)
		flags &= ~RP_MILP_SPLIT_FREE;
	else if (strcmp(model, "nostage") == 0)
		flags &= ~RP_MILP_STAGE_ROWS;
	else if (strcmp(model, "checkmate") == 0)
		flags = 0;
	else {
		fprintf(stderr, "milp_bench: unknown model '%s'\n", model);
		return 2;
	}
	if (rp_graphml_read(argv[1], &g, &cause) != 0) {
		fprintf(stderr, "%s\n", cause);
		return 3;
	}
	rp_options_init(&opt);
	spec = rp_budget_percent(pct);
	if (rp_problem_init(&pb, g, &spec, &cause) != 0) {
		fprintf(stderr, "%s\n", cause);
		return 2;
	}
	memset(&ctx, 0, sizeof ctx);
	ctx.opt = &opt;
	m = rp_milp_build_ex(g, pb.budget, flags, &cause);
	if (m == NULL) {
		fprintf(stderr, "%s\n", cause);
		return 4;
	}
	/* LP rounding (which solves the LP relaxation first) */
	rp_best_init(&best);
	t0 = rp_now();
	ctx.deadline = t0 + secs;
	rp_lp_round(&pb, &ctx, m, &best, &lpb, NULL, &cause);
	lpr_s = rp_now() - t0;
	rp_milp_stats(m, &st);	/* build_s: formulation and loading into GLPK */
	lp_s = NAN;
	{
		/* the LP alone, on a fresh model, for its time */
		struct rp_milp *m2 = rp_milp_build_ex(g, pb.budget, flags, &cause);
		double o;
		t0 = rp_now();
		rp_milp_solve_lp(m2, pb.budget, t0 + secs, &o);
		lp_s = rp_now() - t0;
		rp_milp_free(m2);
	}
	for (i = 0; i < (int)(sizeof heur / sizeof heur[0]); i++) {
		struct rp_result r;
		ctx.deadline = 0;
		rp_strategy_run(heur[i], &pb, &ctx, &r);
		if (r.status == RP_FITS) {
			rp_milp_offer(m, &r.plan);
			if (r.sim.cost < heur_best)
				heur_best = r.sim.cost;
		}
		rp_result_destroy(&r);
	}
	if (best.have && best.fits)
		rp_milp_offer(m, &best.plan);
	/* Both engines start from the LP relaxation's basis. */
	rp_milp_solve_lp(m, pb.budget, rp_now() + secs, &lpo);
	printf("%s,%d,%g,%s,%d,%d,%ld,%d,%.3f,%.3f,%.6g,", g->name, g->n, pct,
	    model, st.rows, st.cols, st.nonzeros, st.eliminated, st.build_s,
	    lp_s, lpb);
	if (best.have && best.fits)
		printf("%.6g,", best.cost);
	else
		printf(",");
	printf("%.2f,", lpr_s);
	if (heur_best < HUGE_VAL)
		printf("%.6g", heur_best);
	fflush(stdout);
	search(m, RP_MILP_GLPK, "glpk", secs);
	if (rp_milp_have_cbc()) {
		struct rp_milp *m2 = rp_milp_build_ex(g, pb.budget, flags, &cause);
		double o;
		search(m, RP_MILP_CBC, "cbc", secs);
		/* the LP alone on Clp, on a fresh model, for its time */
		rp_milp_set_engine(m2, RP_MILP_CBC, 1);
		t0 = rp_now();
		printf(",%s", rp_milp_solve_lp(m2, pb.budget, t0 + secs, &o) ==
		    RP_MILP_OPTIMAL ?
		    "" : ">");
		printf("%.3f", rp_now() - t0);
		rp_milp_free(m2);
	}
	printf("\n");
	rp_best_destroy(&best);
	rp_milp_free(m);
	rp_graph_free(g);
	return 0;
}
