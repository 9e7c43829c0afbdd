/* The R-given-S solver, plan generation and the Chen strategies, against
 * hand-computed schedules and Checkmate's published reference values. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "sched.h"
#include "sim.h"
#include "strategy.h"
#include "t.h"
#include "util.h"

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* Runs strategy name on g at budget; returns the simulated figures. */
static void
run(struct rp_graph *g, const char *name, long long budget, struct rp_result *r)
{
	struct rp_options opt;
	struct rp_problem pb;
	rp_options_init(&opt);
	mkproblem(&pb, g, budget);
	run_strategy(rp_strategy_find(name), &pb, &opt, r);
}

int
main(void)
{
	struct rp_graph *g;
	struct rp_seq seq = { 0 };
	struct rp_plan p;
	struct rp_sim s;
	struct rp_result r;
	int n, i;

	t_case("R given S: the fewest recomputations for a retention");
	/* Chain 0 -> 1 -> 2 -> 3, and 0 -> 3. Retain only 0 through stage
	 * 1: stage 2 must recompute 1 from 0, stage 3 needs 0 and 2 again. */
	{
		static const int e[] = { 0, 1, 1, 2, 2, 3, 0, 3 };
		struct rp_retain ret[] = { { 0, 1, 1 } };
		static const int want[] = { 0, 1, 0, 1, 2, 0, 1, 2, 3 };
		g = mkgraph(4, e, 4);
		rp_solve_r(g, ret, 1, &seq);
		CHECK(seq.len == 9 && memcmp(seq.node, want, sizeof want) == 0);
		rp_plan_init(&p);
		rp_plan_from_seq(g, seq.node, seq.len, &p);
		CHECK(rp_simulate(g, &p, &s) == 0);
		/* Every computation is read, so all 9 stay. */
		CHECK(s.cost == 9 && s.nrecompute == 5);
		rp_sim_destroy(&s);

		t_case("the R solver's plans are frontier-advancing, others not");
		CHECK(rp_plan_frontier_advancing(&p, 4));
		rp_plan_destroy(&p);
		{
			/* 0 twice in stage 2; 1 first before 0; 1 before 0 in
			 * stage 2 (the model computes a stage in execution
			 * order); 3 again after the last stage; 0 once in each
			 * of stages 2 and 3 */
			static const int twice[] = { 0, 1, 0, 0, 2, 3 };
			static const int early[] = { 1, 0, 2, 3 };
			static const int unordered[] = { 0, 1, 1, 0, 2, 3 };
			static const int after[] = { 0, 1, 2, 3, 3 };
			static const int fa[] = { 0, 1, 0, 2, 0, 3 };
			static const struct {
				const int *q;
				int len, want;
			} c[] = { { twice, 6, 0 }, { early, 4, 0 },
			    { unordered, 6, 0 }, { after, 5, 0 }, { fa, 6, 1 } };
			for (i = 0; i < 5; i++) {
				int k;
				rp_plan_init(&p);
				for (k = 0; k < c[i].len; k++)
					rp_plan_add_compute(&p, c[i].q[k], k);
				CHECK(rp_plan_frontier_advancing(&p, 4) ==
				    c[i].want);
				rp_plan_destroy(&p);
			}
		}
		rp_seq_destroy(&seq);

		t_case("R given S: a recompute=false value is never recomputed");
		/* A recompute=false node is kept even though S drops it: the
		 * stages recompute 1 and 2 but never 0. */
		g->recompute[0] = 0;
		{
			static const int want3[] = { 0, 1, 1, 2, 1, 2, 3 };
			rp_solve_r(g, ret, 1, &seq);
			CHECK(seq.len == 7 && memcmp(seq.node, want3, sizeof want3) == 0);
		}
		rp_seq_destroy(&seq);
		rp_graph_free(g);
	}

	t_case("R given S: a value kept for a later stage is materialized");
	/* Materialization (constraint 1c): 1 is kept for stage 3 but stage
	 * 2 does not read it, so stage 2 computes it to be kept. */
	{
		static const int e[] = { 0, 1, 0, 2, 1, 3, 2, 3 };
		struct rp_retain r2[] = { { 0, 1, 2 }, { 1, 3, 3 }, { 2, 3, 3 } };
		static const int want2[] = { 0, 1, 1, 2, 3 };
		g = mkgraph(4, e, 4);
		rp_solve_r(g, r2, 3, &seq);
		CHECK(seq.len == 5 && memcmp(seq.node, want2, sizeof want2) == 0);
		rp_seq_destroy(&seq);
		rp_graph_free(g);
	}

	t_case("plan generation drops unread recomputations, keeps outputs");
	/* plan_from_seq drops reads-free recomputations but keeps the first
	 * computation of each node and the last of each output. */
	{
		static const int e[] = { 0, 1 };
		static const int q[] = { 0, 1, 0, 0, 1 };
		g = mkgraph(2, e, 1);
		g->output[1] = 1;
		rp_plan_init(&p);
		rp_plan_from_seq(g, q, 5, &p);
		/* The second 0 is overwritten by the third before anything
		 * reads it: dropped. Both 1s stay: the first is 1's first
		 * computation, the last is the output's. */
		CHECK(rp_simulate(g, &p, &s) == 0);
		CHECK(s.ncompute == 4 && s.valid);
		rp_sim_destroy(&s);
		rp_plan_destroy(&p);
		rp_graph_free(g);
	}

	t_case("checkpoint-all on linear graphs: cost 2n+1, peak n+2");
	/* Checkmate's linear graph: checkpoint-all costs 2n+1 at peak n+2. */
	for (n = 4; n <= 64; n *= 2) {
		g = mklinear(n);
		run(g, "checkpoint-all", 1LL << 40, &r);
		CHECK(r.status == RP_FITS && r.sim.cost == 2 * n + 1 &&
		    r.sim.peak == n + 2);
		rp_result_destroy(&r);
		rp_graph_free(g);
	}
	t_case("chen-sqrtn and chen-greedy match Checkmate's reference values");
	/* Chen sqrt(n) as Checkmate implements it reaches cost 21, 45, 89 at
	 * peak 7, 10, 14 for n = 8, 16, 32: ours must be no worse on both. */
	{
		static const int ns[] = { 8, 16, 32 }, cost[] = { 21, 45, 89 },
			peak[] = { 7, 10, 14 };
		for (i = 0; i < 3; i++) {
			g = mklinear(ns[i]);
			run(g, "chen-sqrtn", peak[i], &r);
			CHECK(r.status == RP_FITS);
			CHECK(r.sim.cost <= cost[i] && r.sim.peak <= peak[i]);
			if (r.sim.cost > cost[i] || r.sim.peak > peak[i])
				printf("#   n=%d: cost %g peak %lld\n", ns[i],
				    r.sim.cost, (long long)r.sim.peak);
			rp_result_destroy(&r);
			/* chen-greedy searches and must fit there too. */
			run(g, "chen-greedy", peak[i], &r);
			CHECK(r.status == RP_FITS && r.sim.cost <= cost[i]);
			rp_result_destroy(&r);
			rp_graph_free(g);
		}
	}
	t_case("rp_sort_ints sorts as qsort does: random, sorted, reversed, "
	    "few distinct values, every length to 300");
	{
		static int a[300], b[300];
		uint64_t st = 42;
		int len, kind, k, bad = 0;
		for (kind = 0; kind < 4; kind++)
			for (len = 0; len <= 300; len++) {
				for (k = 0; k < len; k++) {
					int x = (int)(rp_random_unit(&st) * 1e6);
					a[k] = kind == 0 ? x : kind == 1 ? k :
					    kind == 2 ? len - k : x % 3;
				}
				memcpy(b, a, sizeof a);
				rp_sort_ints(a, len);
				qsort(b, (size_t)len, sizeof *b, cmp_int);
				bad += memcmp(a, b, sizeof *a * (size_t)len) != 0;
			}
		CHECK(bad == 0);
	}
	return t_done("test_sched");
}
