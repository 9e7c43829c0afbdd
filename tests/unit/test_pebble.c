/* The proven smallest budget (pebble.c) against an exhaustive search over
 * every plan of small random graphs: it never exceeds the least peak of
 * any valid plan, never falls below the single working set, and on the
 * graphs where a node's inputs must be made around each other it proves
 * more than that working set; on nearly all it is the least peak itself. */
#include "common.h"
#include "pebble.h"
#include "sim.h"
#include "sweep.h"
#include "t.h"

/* The least peak of any valid plan of g (at most 7 nodes). */
static int64_t
exact_min_peak(const struct rp_graph *g)
{
	double p = exhaustive(g, 0, 0);

	return isinf(p) ? -1 : (int64_t)p;
}

int
main(void)
{
	int trial, stronger = 0, exact = 0, trials = 400;

	t_case("a node whose inputs are made from large values: more than "
	    "its working set");
	{
		/* x -> a, y -> b, (a, b) -> d; x and y 8 bytes, the others 1:
		 * whichever of a and b is made last, the other is held while
		 * its 8-byte input is live, so every plan peaks at 10. */
		static const int e[] = { 0, 2, 1, 3, 2, 4, 3, 4 };
		struct rp_graph *g = mkgraph(5, e, 4);
		int node, mn;
		g->mem[0] = 8;
		g->mem[1] = 8;
		g->output[4] = 1;
		CHECK(rp_min_budget(g, &mn) == 9);
		CHECK(rp_pebble_bound(g, rp_min_budget(g, &mn), RP_PEBBLE_WORK,
		    &node) == 10);
		CHECK(node == -1);	/* d held at the end, found first */
		CHECK(exact_min_peak(g) == 10);
		rp_graph_free(g);
	}

	t_case("never above the least peak of any plan (%d random graphs of "
	    "2 to 7 nodes)", trials);
	for (trial = 0; trial < trials; trial++) {
		int n, v, node, mn, dnode;
		int stopped;
		struct rp_graph *g;
		int64_t lo, pb, ex, dp;
		g = small_random_dag();
		n = g->n;
		for (v = 0; v < n; v++) {
			g->mem[v] = 1 + below(8);
			g->workspace[v] = below(3);
			g->output[v] = below(4) == 0;
		}
		g->output[n - 1] = 1;
		g->fixed_mem = below(2) * 5;
		lo = rp_min_budget(g, &mn);
		pb = rp_pebble_bound(g, lo, RP_PEBBLE_WORK, &node);
		ex = exact_min_peak(g);
		CHECK(pb >= lo);
		CHECK(ex >= 0 && pb <= ex);
		if (pb > ex)
			printf("# trial %d: bound %lld above the least peak %lld\n",
			    trial, (long long)pb, (long long)ex);
		CHECK((pb > lo) == (node != -2));
		/* the deeper search of a run near the smallest budget */
		dp = rp_pebble_bound_deep(g, lo, RP_PEBBLE_WORK_PROOF,
		    RP_PEBBLE_PROOF_ELEMS, 0, &dnode, &stopped);
		CHECK(dp >= pb && dp <= ex && !stopped);
		stronger += pb > lo;
		exact += pb == ex;
		rp_graph_free(g);
	}
	t_case("stronger than the working set on some of them, exact on "
	    "nearly all");
	printf("# %d of %d stronger, %d exact\n", stronger, trials, exact);
	CHECK(stronger > trials / 50);
	CHECK(exact >= trials * 9 / 10);

	t_case("searched deeper: never lower; stopped by its deadline: still "
	    "at least where it started, never above the full search");
	{
		struct rp_graph *g = mklocal(60);
		int n1, n2, n3, s1, s2, s3;
		int64_t lo = rp_min_budget(g, &n1), a, b, c;
		a = rp_pebble_bound_deep(g, lo, 1L << 16, 1L << 12, 0, &n1, &s1);
		b = rp_pebble_bound_deep(g, lo, 1L << 22, 1L << 20, 0, &n2, &s2);
		c = rp_pebble_bound_deep(g, lo, 1L << 22, 1L << 20, rp_now() - 1,
		    &n3, &s3);
		printf("# from %lld: %lld with little work, %lld with more, "
		    "%lld stopped at once (%d)\n", (long long)lo, (long long)a,
		    (long long)b, (long long)c, s3);
		CHECK(!s1 && !s2 && a >= lo && b >= a);
		CHECK(c >= lo && c <= b && (s3 || c == b));
		rp_graph_free(g);
	}

	t_case("the pebble strategy with recompute=false values: the least "
	    "cost of any plan, each such value made once (%d random graphs "
	    "of 4 to 7 nodes)", trials);
	{
		const struct rp_strategy *s = &rp_strategy_pebble;
		struct rp_options opt;
		int cases = 0, withrf = 0;

		rp_options_init(&opt);
		for (trial = 0; trial < trials; trial++) {
			struct rp_graph *g;
			struct rp_problem pb;
			struct rp_result r;
			struct rp_ctx ctx;
			int64_t lo, hi, budget;
			double best;
			int v, u, i, n = 4 + below(4), ne = 0, e[64];
			int once = 1, nrf = 0, made[8] = { 0 };

			/* dense: each edge there one time in two */
			for (v = 1; v < n; v++)
				for (u = 0; u < v; u++)
					if (below(2) == 0) {
						e[2 * ne] = u;
						e[2 * ne + 1] = v;
						ne++;
					}
			g = mkgraph(n, e, ne);

			/* no sinks (pebble makes those in execution order,
			 * which the exhaustive search need not) */
			for (v = 0; v < g->n; v++) {
				g->mem[v] = 1 + below(8);
				g->cost[v] = 1 + below(5);
				g->recompute[v] = below(3) != 0;
				nrf += !g->recompute[v];
				g->output[v] = g->succ_off[v + 1] ==
				    g->succ_off[v];
			}
			lo = (int64_t)exhaustive(g, 0, 0);
			mkproblem(&pb, g, lo);
			hi = pb.ckpt_all_peak;
			budget = lo + (hi > lo ?
			    below((int)(hi - lo) / 3 + 1) : 0);
			best = exhaustive(g, budget, 1);
			mkproblem(&pb, g, budget);
			memset(&ctx, 0, sizeof ctx);
			ctx.opt = &opt;
			rp_run_strategies(&pb, &s, 1, &ctx, NULL, NULL, NULL,
			    NULL, &r);
			CHECK(r.status == RP_FITS);
			if (r.status == RP_FITS) {
				for (i = 0; i < r.plan.len; i++)
					if (r.plan.s[i].op == RP_COMPUTE)
						made[r.plan.s[i].node]++;
				for (v = 0; v < g->n; v++)
					once &= g->recompute[v] || made[v] == 1;
				CHECK(once);
				CHECK(fabs(r.sim.cost - best) < 1e-9);
				if (fabs(r.sim.cost - best) >= 1e-9)
					printf("# trial %d: pebble %g, "
					    "exhaustive %g\n", trial,
					    r.sim.cost, best);
			}
			cases++;
			withrf += nrf > 0 && r.status == RP_FITS &&
			    r.sim.cost > pb.baseline + 1e-9;
			rp_result_destroy(&r);
			rp_graph_free(g);
		}
		printf("# %d graphs, %d of them with recompute=false values "
		    "and recomputation in the plan\n", cases, withrf);
		CHECK(withrf > trials / 10);
	}

	t_case("the same bound from the same graph");
	{
		int n1, n2;
		struct rp_graph *g = mklocal(60);
		CHECK(rp_pebble_bound(g, 0, RP_PEBBLE_WORK, &n1) ==
		    rp_pebble_bound(g, 0, RP_PEBBLE_WORK, &n2) && n1 == n2);
		rp_graph_free(g);
	}
	return t_done("test_pebble");
}
