/* The bound for every plan (cutbound.c) against an exhaustive search over
 * every plan of small random graphs, in any order and with any
 * recomputation: it never exceeds the cost of the cheapest plan that fits,
 * says that nothing fits only where nothing does, and is above the
 * baseline on a fair share of them. */
#include <math.h>

#include "common.h"
#include "cutbound.h"
#include "t.h"

/* The bound of g at budget, and its node. */
static double
bound(const struct rp_graph *g, int64_t budget, int *node)
{
	struct rp_problem pb;
	double b;
	int stopped;

	mkproblem(&pb, g, budget);
	b = rp_cut_bound(&pb, 0, node, &stopped);
	CHECK(!stopped);	/* no deadline: every search to its end */
	return b;
}

/* g at budget once more with every size in GiB (g's bytes times 2^30)
 * and every cost in sevenths, where a large price times the room is
 * taken off a large cut: the bound is still at least the baseline and
 * at most the cheapest plan. g is as it was after. Returns whether the
 * bound is above the baseline. */
static int
check_scaled(struct rp_graph *g, int64_t budget)
{
	int n = g->n, v, node;
	double *cost = malloc(sizeof *cost * (size_t)n), ex, b, base;

	for (v = 0; v < n; v++) {
		cost[v] = g->cost[v];
		g->cost[v] /= 7;
		g->mem[v] <<= 30;
		g->workspace[v] <<= 30;
	}
	g->fixed_mem <<= 30;
	ex = exhaustive(g, budget << 30, 1);
	b = bound(g, budget << 30, &node);
	base = rp_graph_baseline_cost(g);
	CHECK(b >= base);
	CHECK(b <= ex);
	if (b > ex)
		printf("# in GiB at %lld: bound %.17g above the cheapest plan "
		    "%.17g\n", (long long)budget, b, ex);
	for (v = 0; v < n; v++) {
		g->cost[v] = cost[v];
		g->mem[v] >>= 30;
		g->workspace[v] >>= 30;
	}
	g->fixed_mem >>= 30;
	free(cost);
	return b > base;
}

int
main(void)
{
	int trial, stronger = 0, cases = 0, exact = 0, infinite = 0, trials = 300;
	int scaled = 0;

	t_case("a training step that cannot keep its activations: the "
	    "recomputation it needs, in any order");
	{
		/* f0 -> f1 -> f2 -> loss -> b2 -> b1 -> b0, each b_i also
		 * reading f_i; every value 4 bytes, costs 1, 2, 3 for the
		 * f's. With room for the loss, b2's inputs and one more
		 * value, one of f0 and f1 is computed again, and f1 needs
		 * f0: the cheapest is f0 again (1), which the bound proves. */
		static const int e[] = { 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6,
		    2, 4, 1, 5, 0, 6 };
		struct rp_graph *g = mkgraph(7, e, 9);
		int v, node;
		double b, ex;
		for (v = 0; v < 7; v++)
			g->mem[v] = 4;
		g->cost[0] = 1;
		g->cost[1] = 2;
		g->cost[2] = 3;
		g->output[6] = 1;
		ex = exhaustive(g, 16, 1);
		b = bound(g, 16, &node);
		printf("# bound %g, cheapest plan %g\n", b, ex);
		CHECK(ex == rp_graph_baseline_cost(g) + 1);
		CHECK(b == ex);
		CHECK(node >= 0);
		/* with room for all of them, the baseline */
		CHECK(bound(g, 28, &node) == rp_graph_baseline_cost(g));
		CHECK(node == -1);
		/* a deadline already past: the baseline, and says so */
		{
			struct rp_problem pb;
			int stopped = 0;
			mkproblem(&pb, g, 16);
			b = rp_cut_bound(&pb, 1e-9, &node, &stopped);
			CHECK(b == rp_graph_baseline_cost(g));
			CHECK(stopped);
		}
		rp_graph_free(g);
	}

	t_case("never above the cheapest plan that fits, infinite only where "
	    "none fits (%d random graphs of 2 to 7 nodes at every budget)",
	    trials);
	for (trial = 0; trial < trials; trial++) {
		int n, v, node;
		int64_t lo = 1, hi, budget;
		struct rp_graph *g;
		g = small_random_dag();
		n = g->n;
		for (v = 0; v < n; v++) {
			g->mem[v] = 1 + below(8);
			g->cost[v] = 1 + below(5);
			g->workspace[v] = below(3);
			g->output[v] = below(4) == 0;
			g->recompute[v] = below(6) != 0;
		}
		g->output[n - 1] = 1;
		g->fixed_mem = below(2) * 5;
		hi = g->fixed_mem;
		for (v = 0; v < n; v++)
			hi += g->mem[v] + g->workspace[v];
		for (budget = lo; budget <= hi; budget++) {
			double ex = exhaustive(g, budget, 1);
			double b = bound(g, budget, &node);
			CHECK(b >= rp_graph_baseline_cost(g));
			CHECK(b <= ex);
			if (b > ex)
				printf("# trial %d at %lld: bound %g above the "
				    "cheapest plan %g\n", trial,
				    (long long)budget, b, ex);
			/* cases where every plan that fits recomputes */
			if (isfinite(ex) && ex > rp_graph_baseline_cost(g)) {
				cases++;
				stronger += b > rp_graph_baseline_cost(g);
				exact += b == ex;
				scaled += check_scaled(g, budget);
			}
			infinite += isinf(b);
		}
		rp_graph_free(g);
	}
	t_case("above the baseline on a fair share of those that must "
	    "recompute");
	printf("# of %d cases that must recompute, %d above the baseline, "
	    "%d exact; %d proved to have no plan\n", cases, stronger, exact,
	    infinite);
	CHECK(stronger > cases / 4);
	printf("# the same %d in GiB with costs in sevenths: %d above the "
	    "baseline\n", cases, scaled);
	CHECK(scaled > cases / 4);

	t_case("the same bound from the same graph");
	{
		int v, n1, n2;
		struct rp_graph *g = mklocal(200);
		for (v = 0; v < g->n; v++)
			g->cost[v] = 1 + below(10);
		CHECK(bound(g, 40, &n1) == bound(g, 40, &n2) && n1 == n2);
		rp_graph_free(g);
	}
	return t_done("test_cutbound");
}
