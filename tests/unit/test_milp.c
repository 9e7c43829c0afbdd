/* The MILP against an exhaustive search over frontier-advancing schedules,
 * written here independently of milp.c, on random DAGs of up to 7 nodes
 * with random costs, sizes, workspace, outputs and recompute=false: the
 * MILP's optimum equals the search's, its plan replays at that cost within
 * budget, the LP bound and the stage memory bound are never above it, and
 * the frontier-advancing heuristics are never cheaper. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "milp.h"
#include "sched.h"
#include "sim.h"
#include "stagebound.h"
#include "sweep.h"
#include "strategy.h"
#include "t.h"
#include "worker.h"

#define MAXN 7
static const struct rp_graph *G;
static int64_t B;			/* budget above fixed memory */
static double memo[MAXN + 1][1 << MAXN];
static unsigned char seen[MAXN + 1][1 << MAXN];

/* Does stage t, holding the set kept (bits) and computing the set run in
 * index order, keeping next into stage t+1, stay within budget under the
 * model's accounting? Values are freed after the last reader computed in
 * the stage unless kept; kept values count for the whole stage. */
static int
stage_fits(int t, unsigned kept, unsigned run, unsigned next)
{
	int64_t u = 0;
	int k, i, e, j;

	for (i = 0; i < t; i++)
		if (kept >> i & 1)
			u += G->mem[i];
	for (k = 0; k <= t; k++) {
		if (!(run >> k & 1))
			continue;
		u += G->mem[k];
		if (u + G->workspace[k] > B)
			return 0;
		for (e = G->pred_off[k]; e < G->pred_off[k + 1]; e++) {
			int later = 0;
			i = G->pred[e];
			if (next >> i & 1)
				continue;
			for (j = G->succ_off[i]; j < G->succ_off[i + 1]; j++) {
				int w = G->succ[j];
				if (w > k && w <= t && (run >> w & 1))
					later = 1;
			}
			if (!later)
				u -= G->mem[i];
		}
	}
	return 1;
}

/* Cheapest completion from stage t holding kept; HUGE_VAL: none. */
static double
best(int t, unsigned kept)
{
	int n = G->n, i, k, e;
	unsigned run, next, avail, outs = 0;
	double b = HUGE_VAL;

	if (t == n)
		return 0;
	if (seen[t][kept])
		return memo[t][kept];
	for (i = 0; i < n; i++)
		if (G->output[i])
			outs |= 1u << i;
	for (run = 0; run < (1u << (t + 1)); run++) {
		double c = 0, r;
		int ok = run >> t & 1;
		for (k = 0; k <= t && ok; k++) {
			if (!(run >> k & 1))
				continue;
			if (k < t && (!G->recompute[k] || (kept >> k & 1)))
				ok = 0;	/* may not, or need not, recompute */
			for (e = G->pred_off[k]; e < G->pred_off[k + 1]; e++)
				if (!((run | kept) >> G->pred[e] & 1))
					ok = 0;
			c += G->cost[k];
		}
		if (!ok)
			continue;
		avail = (run | kept) & ((1u << (t + 1)) - 1);
		/* every subset of what is there may be kept */
		for (next = avail;; next = (next - 1) & avail) {
			if (t + 1 < n || (next & outs) == outs) {
				unsigned keep = t + 1 < n ? next : outs;
				if (stage_fits(t, kept, run, keep)) {
					r = t + 1 < n ? best(t + 1, next) : 0;
					if (c + r < b)
						b = c + r;
				}
			}
			if (next == 0)
				break;
		}
	}
	seen[t][kept] = 1;
	memo[t][kept] = b;
	return b;
}

/* A random DAG with n (at most BIGN) nodes from seed. */
#define BIGN 14
static struct rp_graph *
random_graph(int n, uint64_t *st)
{
	int e[2 * BIGN * BIGN], ne = 0, i, j;
	struct rp_graph *g;
#define RND(m) ((int)((*st = *st * 6364136223846793005ULL + 1442695040888963407ULL) >> 33) % (m))
	for (j = 1; j < n; j++) {
		e[2 * ne] = RND(j);	/* connected: one earlier input */
		e[2 * ne + 1] = j;
		ne++;
		for (i = 0; i < j; i++)
			if (i != e[2 * ne - 2] && RND(100) < 30) {
				e[2 * ne] = i;
				e[2 * ne + 1] = j;
				ne++;
			}
	}
	g = mkgraph(n, e, ne);
	for (i = 0; i < n; i++) {
		g->cost[i] = 1 + RND(9);
		g->mem[i] = 1 + RND(8);
		g->workspace[i] = RND(4) == 0 ? RND(4) : 0;
		g->recompute[i] = RND(7) != 0;
		g->output[i] = RND(6) == 0;
		g->kind[i] = i < n / 2 ? RP_FORWARD : RP_BACKWARD;
	}
	g->output[n - 1] = 1;
	g->fixed_mem = RND(4);
	return g;
#undef RND
}

/* The MILP of g at budget bytes proves the optimum expect. */
static void
check_milp_optimum(const struct rp_graph *g, int64_t budget, double expect)
{
	char *cause = NULL;
	struct rp_milp *m = rp_milp_build(g, budget, &cause);
	struct rp_milp_solution sol;
	struct rp_seq seq = { 0 };

	CHECK(m != NULL);
	if (m == NULL) {
		free(cause);
		return;
	}
	rp_milp_solve(m, 0, 0, &sol, &seq);
	CHECK(sol.result == RP_MILP_OPTIMAL && fabs(sol.obj - expect) < 1e-9);
	rp_seq_destroy(&seq);
	rp_milp_free(m);
}

/* A strategy that only records the deadline it was given: the last in
 * seen_deadline, the first four of a run of several in seen_any[]. */
static double seen_deadline, seen_any[4];
static int nseen_any;

static int
deadline_run(const struct rp_problem *pb, const struct rp_ctx *ctx,
    struct rp_plan *plan, char **note, double *bound, char **cause)
{
	(void)pb;
	(void)plan;
	(void)note;
	(void)bound;
	(void)cause;
	seen_deadline = ctx->deadline;
	if (nseen_any < 4)
		seen_any[nseen_any++] = ctx->deadline;
	return 0;
}

static const struct rp_strategy deadline_strategy = {
	"deadline", "records its deadline", 0, 0, deadline_run, NULL,
};

/* The same, taking the time it is given (anytime). */
static const struct rp_strategy anytime_strategy = {
	"anytime", "records its deadline", 0, 1, deadline_run, NULL,
};

static int
never_runs(const struct rp_problem *pb, const struct rp_options *opt,
    double seconds)
{
	(void)pb;
	(void)opt;
	(void)seconds;
	return 1;
}

/* An anytime strategy that says it ends at once on every graph. */
static const struct rp_strategy idle_strategy = {
	"idle", "records its deadline", 0, 1, deadline_run, never_runs,
};

int
main(void)
{
	uint64_t st = 12345;
	int trial, feasible = 0, infeasible = 0, dtr_cheaper = 0;
	int stage_above = 0, stage_inf = 0, stage_lp_above = 0;

	/* Some 1,700 solves of a few variables each: in this process, not a
	 * forked child apiece (test_worker and the suites run the child), so
	 * that the sanitizers also see the solver calls' memory. */
	rp_worker_in_process(1);
	for (trial = 0; trial < 120; trial++) {
		int n = 3 + trial % (MAXN - 2);
		struct rp_graph *g = random_graph(n, &st);
		struct rp_options opt;
		struct rp_problem pb;
		struct rp_milp *m;
		struct rp_milp_solution sol;
		struct rp_seq seq = { 0 };
		double opt_cost, lpobj;
		int64_t budget;
		char *cause = NULL;


		rp_options_init(&opt);
		mkproblem(&pb, g, 1);
		budget = pb.min_budget + (int64_t)((trial * 7919) %
		    (pb.ckpt_all_peak - pb.min_budget + 1));
		rp_problem_at(&pb, &pb, budget);
		t_case("random DAG %d: %d nodes, budget %lld", trial, n,
		    (long long)budget);
		G = g;
		B = budget - g->fixed_mem;
		memset(seen, 0, sizeof seen);
		opt_cost = best(0, 0);

		/* The stage memory bound is never above the optimum, and
		 * proves that nothing fits only where nothing does; its LPs
		 * only raise it, and stay below the optimum too. */
		{
			int sst, lst, lp;
			double sb = rp_stage_bound(&pb, &sst);
			double lb = rp_stage_bound_lp(&pb, 0, &lst, &lp, NULL);
			CHECK(sb >= pb.baseline);
			CHECK(lb >= sb && (lp ? lst >= 0 : lst == sst));
			if (isinf(sb)) {
				stage_inf++;
				CHECK(opt_cost == HUGE_VAL && sst >= 0);
			} else if (opt_cost != HUGE_VAL) {
				CHECK(sb <= opt_cost + 1e-6 * fmax(1, opt_cost));
				CHECK(lb <= opt_cost + 1e-6 * fmax(1, opt_cost));
				if (lb > opt_cost + 1e-6 * fmax(1, opt_cost))
					printf("#   trial %d: stage LP bound %g "
					    "above the optimum %g\n", trial, lb,
					    opt_cost);
				if (sb > pb.baseline)
					stage_above++;
				if (lb > sb)
					stage_lp_above++;
			}
		}

		m = rp_milp_build(g, budget, &cause);
		CHECK(m != NULL);
		if (m == NULL)
			continue;
		/* The model's size, counted without building it, is its size. */
		{
			struct rp_checkmate_size sz;
			struct rp_milp_stats ms;
			rp_checkmate_size(g, RP_MILP_REDUCE | RP_MILP_SPLIT_FREE |
			    RP_MILP_STAGE_ROWS, &sz);
			rp_milp_stats(m, &ms);
			CHECK(sz.exact && sz.rows == ms.rows && sz.cols == ms.cols &&
			    sz.nonzeros == ms.nonzeros);
		}
		rp_milp_solve(m, 0, 0, &sol, &seq);
		if (opt_cost == HUGE_VAL) {
			infeasible++;
			CHECK(sol.result == RP_MILP_INFEASIBLE);
		} else {
			struct rp_plan p;
			struct rp_sim s;
			feasible++;
			CHECK(sol.result == RP_MILP_OPTIMAL);
			CHECK(fabs(sol.obj - opt_cost) < 1e-6);
			if (fabs(sol.obj - opt_cost) >= 1e-6)
				printf("#   trial %d (n=%d, budget %lld): MILP "
				    "%g, exhaustive %g\n", trial, n, (long long)budget,
				    sol.obj, opt_cost);
			rp_plan_init(&p);
			rp_plan_from_seq(g, seq.node, seq.len, &p);
			CHECK(rp_simulate(g, &p, &s) == 0);
			CHECK(s.peak <= budget && fabs(s.cost - opt_cost) < 1e-6);
			rp_sim_destroy(&s);
			rp_plan_destroy(&p);
			/* A fresh model's LP relaxation is a lower bound. */
			rp_milp_free(m);
			m = rp_milp_build(g, budget, &cause);
			CHECK(rp_milp_solve_lp(m, budget, 0, &lpobj) ==
			    RP_MILP_OPTIMAL && lpobj <= opt_cost + 1e-6);
			/* The row prices of the optimal basis prove it. */
			CHECK(fabs(rp_milp_price_bound(m) - lpobj) <
			    1e-6 * fmax(1, lpobj));
			/* From GLPK's all-slack basis the LP has the same
			 * optimum as from checkpoint-all's. */
			{
				struct rp_milp *ms = rp_milp_build_ex(g, budget,
				    RP_MILP_REDUCE | RP_MILP_SPLIT_FREE |
				    RP_MILP_STAGE_ROWS | RP_MILP_SLACK_START, &cause);
				double slack;
				CHECK(rp_milp_solve_lp(ms, budget, 0, &slack) ==
				    RP_MILP_OPTIMAL && fabs(slack - lpobj) <
				    1e-6 * fmax(1, lpobj));
				rp_milp_free(ms);
			}
			/* The other formulations (without the reductions, with
			 * Checkmate's FREE rows, without the stage rows, or
			 * Checkmate's own) have the same optimum. */
			if (trial % 2 == 0) {
				static const int variants[] = { 0,
				    RP_MILP_REDUCE | RP_MILP_SPLIT_FREE,
				    RP_MILP_SPLIT_FREE | RP_MILP_STAGE_ROWS,
				    RP_MILP_REDUCE | RP_MILP_STAGE_ROWS,
				    RP_MILP_STAGE_ROWS };
				struct rp_milp *mf = rp_milp_build_ex(g, budget,
				    variants[trial / 2 % 5], &cause);
				struct rp_milp_solution sf;
				struct rp_seq sq = { 0 };
				rp_milp_solve(mf, 0, 0, &sf, &sq);
				CHECK(sf.result == RP_MILP_OPTIMAL &&
				    fabs(sf.obj - opt_cost) < 1e-6);
				rp_seq_destroy(&sq);
				rp_milp_free(mf);
			}
		}
		/* The CBC engine, where built in, agrees with the oracle. */
		if (rp_milp_have_cbc()) {
			struct rp_milp *mc = rp_milp_build(g, budget, &cause);
			struct rp_seq sc = { 0 };
			CHECK(rp_milp_set_engine(mc, RP_MILP_CBC, 1) == 0);
			rp_milp_solve(mc, 0, 0, &sol, &sc);
			if (opt_cost == HUGE_VAL)
				CHECK(sol.result == RP_MILP_INFEASIBLE);
			else {
				struct rp_plan p;
				struct rp_sim s;
				CHECK(sol.result == RP_MILP_OPTIMAL &&
				    fabs(sol.obj - opt_cost) < 1e-6);
				rp_plan_init(&p);
				rp_plan_from_seq(g, sc.node, sc.len, &p);
				CHECK(rp_simulate(g, &p, &s) == 0);
				CHECK(s.peak <= budget && fabs(s.cost - opt_cost) < 1e-6);
				rp_sim_destroy(&s);
				rp_plan_destroy(&p);
			}
			rp_seq_destroy(&sc);
			rp_milp_free(mc);
			/* Clp's LP optimum is GLPK's. */
			if (opt_cost != HUGE_VAL) {
				double clp;
				mc = rp_milp_build(g, budget, &cause);
				rp_milp_set_engine(mc, RP_MILP_CBC, 1);
				CHECK(rp_milp_solve_lp(mc, budget, 0, &clp) ==
				    RP_MILP_OPTIMAL &&
				    fabs(clp - lpobj) < 1e-6 * fmax(1, fabs(lpobj)));
				rp_milp_free(mc);
			}
		}
		rp_milp_free(m);
		rp_seq_destroy(&seq);
		/* At the checkpoint-all peak, checkpoint-all's basis, where the
		 * LP starts, is optimal: no iterations, the baseline cost. */
		{
			struct rp_milp_stats ms;
			m = rp_milp_build(g, pb.ckpt_all_peak, &cause);
			CHECK(rp_milp_solve_lp(m, pb.ckpt_all_peak, 0, &lpobj) ==
			    RP_MILP_OPTIMAL && fabs(lpobj - pb.baseline) < 1e-9 * fmax(1, pb.baseline));
			rp_milp_stats(m, &ms);
			CHECK(ms.lp_iterations == 0);
			rp_milp_free(m);
		}

		/* Strategies: frontier-advancing ones never beat the optimum;
		 * ilp never loses to any of them. The plans of the DTR
		 * simulations (dtr, lookahead), of chain-dp (which computes
		 * large outputs at the end), of reorder (another order) and of
		 * pebble (any order) are not always frontier-advancing and may
		 * be cheaper. */
		{
			const struct rp_strategy *const *all;
			int ns, i;
			double ilp = HUGE_VAL, others = HUGE_VAL;
			int at_base = 0;	/* a seed of ilp fits at the
						 * baseline */
			all = rp_strategy_list(&ns);
			for (i = 0; i < ns; i++) {
				struct rp_result r;
				run_strategy(all[i], &pb, &opt, &r);
				CHECK(r.status != RP_FAILED);
				if (all[i] != &rp_strategy_ilp &&
				    all[i] != &rp_strategy_lp_round)
					at_base |= rp_result_at_baseline(&pb, &r);
				if (r.status == RP_FITS) {
					if (all[i] == &rp_strategy_ilp)
						ilp = r.sim.cost;
					else
						others = fmin(others, r.sim.cost);
					if (all[i] == &rp_strategy_dtr ||
					    all[i] == &rp_strategy_lookahead ||
					    all[i] == &rp_strategy_chain_dp ||
					    all[i] == &rp_strategy_reorder ||
					    all[i] == &rp_strategy_pebble)
						dtr_cheaper += r.sim.cost < opt_cost - 1e-6;
					else if (all[i] != &rp_strategy_ilp)
						CHECK(r.sim.cost >= opt_cost - 1e-6);
				}
				/* ilp's and lp-round's bounds hold, and ilp's
				 * is infinite only where no frontier-advancing
				 * plan fits; where another plan fits at the
				 * baseline, ilp builds no model and its bound
				 * is the baseline; where none fits, it is
				 * infinite unless a plan of another form fits
				 * at no more than the stage memory bound, and
				 * ilp built no model */
				if (!isnan(r.bound))
					CHECK(r.bound <= opt_cost + 1e-6 ||
					    opt_cost == HUGE_VAL);
				if (all[i] == &rp_strategy_ilp && at_base)
					CHECK(r.bound == pb.baseline);
				else if (all[i] == &rp_strategy_ilp) {
					CHECK(!isinf(r.bound) ||
					    opt_cost == HUGE_VAL);
					CHECK(isinf(r.bound) ||
					    opt_cost != HUGE_VAL ||
					    (r.note != NULL && strstr(r.note,
					    "MILP cannot do better and was not "
					    "built") != NULL));
				}
				rp_result_destroy(&r);
			}
			CHECK(ilp <= others + 1e-9 || others == HUGE_VAL);
			if (opt_cost != HUGE_VAL)
				CHECK(ilp <= opt_cost + 1e-6);

		}
		rp_graph_free(g);
	}
	t_case("the stage LP counts the inputs a recomputation needs");
	/* x (dear) -> y (cheap) -> z -> w (workspace) -> v (output, reads y
	 * and w). Computing w leaves no room for y, which is computed again
	 * before v; x went after y read it, so it is computed again too: 101
	 * more, where the knapsack counts only y's 1. At 30 bytes that plan
	 * fits, so the bound is the optimum. */
	{
		static const int e[] = { 0, 1, 1, 2, 2, 3, 3, 4, 1, 4 };
		struct rp_graph *g = mkgraph(5, e, 5);
		struct rp_problem pb;
		int kst, lst, lp, i;
		for (i = 0; i < 5; i++)
			g->mem[i] = 10;
		g->cost[0] = 100;
		g->workspace[3] = 10;
		g->output[4] = 1;
		mkproblem(&pb, g, 30);
		CHECK(rp_stage_bound(&pb, &kst) == pb.baseline + 1 && kst == 3);
		CHECK(rp_stage_bound_lp(&pb, 0, &lst, &lp, NULL) ==
		    pb.baseline + 101 && lst == 3 && lp == 1);
		check_milp_optimum(g, 30, pb.baseline + 101);
		rp_graph_free(g);
	}

	t_case("the stage bound counts whole values where its LP splits one");
	/* s -> x1, x2, x3 (10 bytes, cost 5 each) -> z (output, reads all);
	 * w (reads s, 20 bytes of workspace) leaves room for one x and a
	 * half. The LP (and the knapsack) recompute one and a half x after
	 * w, 7.5; a plan recomputes two, and the search in whole values
	 * proves it: the bound is the optimum. */
	{
		static const int e[] = { 0, 1, 0, 2, 0, 3, 0, 4, 1, 5, 2, 5,
		    3, 5, 0, 5, 4, 5 };
		struct rp_graph *g = mkgraph(6, e, 9);
		struct rp_problem pb;
		struct rp_result r;
		struct rp_bound b;
		struct rp_stage_memo sm;
		int kst, lst, lp, i, done = -1;
		for (i = 1; i <= 3; i++) {
			g->mem[i] = 10;
			g->cost[i] = 5;
		}
		g->workspace[4] = 20;
		g->output[5] = 1;
		mkproblem(&pb, g, 37);
		CHECK(rp_stage_bound(&pb, &kst) == pb.baseline + 8 && kst == 4);
		CHECK(rp_stage_bound_lp(&pb, 0, &lst, &lp, &done) ==
		    pb.baseline + 10 && lst == 4 && lp == 2 && done == 1);
		check_milp_optimum(g, 37, pb.baseline + 10);
		/* a deadline already past cuts it short, and it says so */
		rp_stage_bound_lp(&pb, rp_now() - 1, &lst, &lp, &done);
		CHECK(done == 0);
		/* the run's bound takes a memo of its budget as it is (here
		 * one unit lower, to tell them apart), and solves again for
		 * another budget */
		memset(&r, 0, sizeof r);
		r.bound = pb.baseline;
		sm = (struct rp_stage_memo){ 1, 37, pb.baseline + 9, 4, 1 };
		CHECK(rp_results_bound(&pb, &r, 1, 0, &sm, &b) ==
		    pb.baseline + 9 && b.stage == 4 && b.lp == 1);
		sm.budget = 36;
		CHECK(rp_results_bound(&pb, &r, 1, 0, &sm, &b) ==
		    pb.baseline + 10 && b.stage == 4 && b.lp == 2);
		rp_graph_free(g);
	}

	/* Beyond the exhaustive search: the MILP proves the optimum. */
	t_case("the stage LPs stay below the optimum on DAGs of 10 to 14 nodes");
	{
		uint64_t rs = 777;
		int k, proved = 0, raised = 0;
		for (k = 0; k < 50; k++) {
			int n = 10 + k % 5, lst, lp;
			struct rp_graph *g = random_graph(n, &rs);
			struct rp_problem pb;
			struct rp_milp *m;
			struct rp_milp_solution sol;
			struct rp_seq seq = { 0 };
			char *cause = NULL;
			double kb, lb;
			mkproblem(&pb, g, 1);
			rp_problem_at(&pb, &pb, pb.min_budget + (pb.ckpt_all_peak -
			    pb.min_budget) * (k % 5) / 5);
			kb = rp_stage_bound(&pb, &lst);
			lb = rp_stage_bound_lp(&pb, 0, &lst, &lp, NULL);
			CHECK(lb >= kb);
			m = rp_milp_build(g, pb.budget, &cause);
			CHECK(m != NULL);
			if (m == NULL)
				continue;
			/* most take under 0.1 s; a few, minutes */
			rp_milp_solve(m, rp_now() + 1, 0, &sol, &seq);
			if (sol.result == RP_MILP_OPTIMAL) {
				proved++;
				raised += lb > kb;
				CHECK(lb <= sol.obj + 1e-6 * fmax(1, sol.obj));
			} else if (sol.result == RP_MILP_INFEASIBLE)
				proved++;
			rp_seq_destroy(&seq);
			rp_milp_free(m);
			rp_graph_free(g);
		}
		printf("# %d of 50 solved; the stage LPs raised the bound on "
		    "%d\n", proved, raised);
		CHECK(proved >= 30 && raised >= 3);
	}

	t_case("an LP stopped early still has a bound, at most the optimum");
	/* An LP stopped early still has a bound: at most the optimum. */
	{
		struct rp_graph *g = mklinear(40);
		struct rp_options opt;
		struct rp_problem pb;
		struct rp_milp *m;
		double lpobj, early;
		char *cause = NULL;
		rp_options_init(&opt);
		mkproblem(&pb, g, 1);
		m = rp_milp_build(g, pb.ckpt_all_peak * 6 / 10, &cause);
		if (rp_milp_solve_lp(m, pb.ckpt_all_peak * 6 / 10, rp_now() + 1e-4,
		    &lpobj) == RP_MILP_NOSOLUTION)
			early = rp_milp_lp_bound(m);
		else
			early = rp_milp_price_bound(m);
		CHECK(!isnan(early));
		CHECK(rp_milp_solve_lp(m, pb.ckpt_all_peak * 6 / 10, 0, &lpobj) ==
		    RP_MILP_OPTIMAL);
		/* unit costs: every plan costs an integer, so the bound is
		 * the LP optimum rounded up, where it is fractional */
		CHECK(early <= rp_milp_lp_bound(m));
		CHECK(rp_milp_lp_bound(m) >= lpobj - 1e-9 * lpobj &&
		    rp_milp_lp_bound(m) < lpobj + 1);
		CHECK(rp_milp_lp_bound(m) == floor(rp_milp_lp_bound(m)) ||
		    lpobj - floor(lpobj) < 1e-3);
		rp_milp_free(m);
		rp_graph_free(g);
	}
	t_case("a run without --time-limit still ends within twice the default");
	/* A strategy without a limit of its own (not a solver) still gets the
	 * run's deadline, twice the default limit, where none is given; with
	 * a limit, its own. */
	{
		struct rp_graph *g = mklinear(4);
		const struct rp_strategy *s = &deadline_strategy;
		struct rp_options opt;
		struct rp_problem pb;
		struct rp_result r;
		struct rp_ctx ctx;
		double t0;
		rp_options_init(&opt);
		mkproblem(&pb, g, 1);
		memset(&ctx, 0, sizeof ctx);
		ctx.opt = &opt;
		t0 = rp_now();
		rp_run_strategies(&pb, &s, 1, &ctx, NULL, NULL, NULL, NULL, &r);
		CHECK(r.status == RP_NO_PLAN);
		CHECK(seen_deadline >= t0 + 2 * RP_SOLVER_DEFAULT_SECONDS &&
		    seen_deadline <= rp_now() + 2 * RP_SOLVER_DEFAULT_SECONDS);
		rp_result_destroy(&r);
		opt.time_limit = 3;
		t0 = rp_now();
		rp_run_strategies(&pb, &s, 1, &ctx, NULL, NULL, NULL, NULL, &r);
		CHECK(seen_deadline >= t0 + 3 && seen_deadline <= rp_now() + 3);
		rp_result_destroy(&r);
		rp_graph_free(g);
	}
	t_case("strategies that take their time share what is left of the run");
	/* Four anytime strategies in a run of twice 3 s: the first has a
	 * quarter of it (as much as leaving half of the limit to each of the
	 * three others leaves it), the others their limits (leaving 1.5 s to
	 * each after them leaves more). */
	{
		struct rp_graph *g = mklinear(4);
		const struct rp_strategy *s[4] = { &anytime_strategy,
		    &anytime_strategy, &anytime_strategy, &anytime_strategy };
		struct rp_options opt;
		struct rp_problem pb;
		struct rp_result r[4];
		struct rp_ctx ctx;
		double t0;
		int k;
		rp_options_init(&opt);
		opt.time_limit = 3;
		mkproblem(&pb, g, 1);
		memset(&ctx, 0, sizeof ctx);
		ctx.opt = &opt;
		nseen_any = 0;
		t0 = rp_now();
		rp_run_strategies(&pb, s, 4, &ctx, NULL, NULL, NULL, NULL, r);
		CHECK(nseen_any == 4);
		CHECK(seen_any[0] >= t0 + 1.5 && seen_any[0] <= rp_now() + 1.5);
		CHECK(seen_any[1] >= t0 + 3 - 0.01 && seen_any[1] <= rp_now() + 3);
		CHECK(seen_any[2] >= t0 + 3 - 0.01 && seen_any[2] <= rp_now() + 3);
		CHECK(seen_any[3] >= t0 + 3 - 0.01 && seen_any[3] <= rp_now() + 3);
		for (k = 0; k < 4; k++)
			rp_result_destroy(&r[k]);
		/* one that ends at once and a quick one take no share: with
		 * them between two, the first has its limit */
		s[1] = &idle_strategy;
		s[2] = &deadline_strategy;
		nseen_any = 0;
		t0 = rp_now();
		rp_run_strategies(&pb, s, 4, &ctx, NULL, NULL, NULL, NULL, r);
		CHECK(nseen_any == 4);
		CHECK(seen_any[0] >= t0 + 3 - 0.01 && seen_any[0] <= rp_now() + 3);
		CHECK(seen_any[2] >= t0 + 3 - 0.01 && seen_any[2] <= rp_now() + 3);
		for (k = 0; k < 4; k++)
			rp_result_destroy(&r[k]);
		rp_graph_free(g);
	}
	t_case("enough feasible instances among the random DAGs");
	printf("# %d feasible, %d infeasible instances; dtr cheaper than the "
	    "frontier-advancing optimum on %d\n", feasible, infeasible, dtr_cheaper);
	CHECK(feasible >= 60);
	t_case("the stage memory bound is above the baseline on some DAGs");
	printf("# stage memory bound above the baseline on %d, infinite on %d\n",
	    stage_above, stage_inf);
	CHECK(stage_above >= 5);
	t_case("the stage LPs raise the stage memory bound on some DAGs");
	printf("# stage LP bound above the knapsack's on %d\n", stage_lp_above);
	CHECK(stage_lp_above >= 1);
	return t_done("test_milp");
}
