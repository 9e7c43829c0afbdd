/* DTR: the theorem 3.1 setting of the DTR paper (linear graph, unit costs)
 * and reproducibility of the seeded heuristic. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "dtr.h"
#include "strategy.h"
#include "t.h"

/* Extra computations of dtr on Checkmate's linear graph with n layers. */
static double
extra(int n, long long budget, int heuristic, int banish)
{
	struct rp_graph *g = mklinear(n);
	struct rp_options opt;
	struct rp_problem pb;
	struct rp_result r;
	double e = -1;

	rp_options_init(&opt);
	opt.dtr_heuristic = heuristic;
	opt.dtr_banish = banish;
	opt.dtr_thrash = 0;
	mkproblem(&pb, g, budget);
	run_strategy(&rp_strategy_dtr, &pb, &opt, &r);
	CHECK(r.status == RP_FITS);
	if (r.status == RP_FITS)
		e = r.sim.cost - (2 * n + 1);
	rp_result_destroy(&r);
	rp_graph_free(g);
	return e;
}

int
main(void)
{
	int n, banish;

	t_case("dtr on linear graphs at 2 sqrt(n) memory: O(n) extra work");
	/* Budget ceil(2 sqrt(n)) plus the 3 units a gradient node needs (its
	 * forward value, the previous gradient, itself): O(n) extra work,
	 * about n as in the simrd thesis (measured 0.80n to 0.97n). */
	for (banish = 0; banish < 2; banish++)
		for (n = 64; n <= 1024; n *= 2) {
			long long b = (long long)ceil(2 * sqrt(n)) + 3;
			double e = extra(n, b, RP_DTR_FULL, banish);
			CHECK(e >= 0 && e <= 1.1 * n);
			if (e > 1.1 * n)
				printf("#   n=%d: %g extra computations\n", n, e);
		}
	t_case("dtr on linear graphs at log2(n) memory: O(n log n) extra work");
	/* Budget ceil(log2(n)) + 3: O(n log n), measured 0.27 to 0.43 n log2 n. */
	for (n = 64; n <= 1024; n *= 2) {
		long long b = (long long)ceil(log2(n)) + 3;
		double e = extra(n, b, RP_DTR_FULL, 0);
		CHECK(e >= 0 && e <= 0.5 * n * log2(n));
	}
	t_case("every heuristic fits a comfortable budget");
	/* Every heuristic finds a plan at a comfortable budget. */
	{
		int h;
		for (h = 0; h < RP_DTR_NHEURISTICS; h++)
			CHECK(extra(32, 20, h, 0) >= 0);
	}
	t_case("the random heuristic is reproducible for a seed");
	/* The random heuristic is reproducible for a seed. */
	{
		struct rp_graph *g = mklinear(64);
		struct rp_options opt;
		struct rp_problem pb;
		struct rp_result a, b;
		rp_options_init(&opt);
		opt.dtr_heuristic = RP_DTR_RANDOM;
		opt.seed = 7;
		mkproblem(&pb, g, 20);
		run_strategy(&rp_strategy_dtr, &pb, &opt, &a);
		run_strategy(&rp_strategy_dtr, &pb, &opt, &b);
		CHECK(a.status == RP_FITS && b.status == RP_FITS);
		CHECK(a.plan.len == b.plan.len && memcmp(a.plan.s, b.plan.s,
		    sizeof *a.plan.s * (size_t)a.plan.len) == 0);
		rp_result_destroy(&a);
		rp_result_destroy(&b);
		rp_graph_free(g);
	}
	t_case("heuristic names");
	CHECK(rp_dtr_heuristic_find("dtr-eqclass") == RP_DTR_EQCLASS);
	CHECK(rp_dtr_heuristic_find("belady") == -1);
	CHECK(strcmp(rp_dtr_heuristic_name(RP_DTR_MSPS), "msps") == 0);
	return t_done("test_dtr");
}
