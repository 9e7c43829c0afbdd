/* The budget at which a plan provably exists (rp_tree_budget, sim.c): the
 * plan that computes every value afresh from the graph's inputs, as an
 * expression tree. This test writes that plan out, as the function
 * describes it, and replays it with the simulator: the plan is valid and
 * its peak and cost are the figures returned; on small random graphs the
 * figure is never below the least peak of any plan (the exhaustive
 * search). It is not always that least peak, even on trees: a plan that
 * interleaves two subtrees can hold less. */
#include "common.h"
#include "sim.h"
#include "t.h"

struct emit {
	const struct rp_graph *g;
	int64_t *need;
	struct rp_plan *p;
	int reg;
};

/* v's inputs into u[] (at most 64), in the order the tree makes them:
 * what making one needs beyond its own size, largest first, then by
 * node. Returns their count. */
static int
sort_inputs(const struct rp_graph *g, const int64_t *need, int v, int *u)
{
	int j, k = 0, i;

	for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++)
		u[k++] = g->pred[j];
	for (i = 1; i < k; i++) {
		int x = u[i], y = i;
		while (y > 0 && (need[u[y - 1]] - g->mem[u[y - 1]] <
		    need[x] - g->mem[x] || (need[u[y - 1]] - g->mem[u[y - 1]] ==
		    need[x] - g->mem[x] && u[y - 1] > x))) {
			u[y] = u[y - 1];
			y--;
		}
		u[y] = x;
	}
	return k;
}

/* need[] as rp_tree_budget works it out (the same rule, written apart):
 * the peak of making v from nothing, v held at the end. */
static void
needs(const struct rp_graph *g, int64_t *need)
{
	int v, k, i, u[64];

	for (v = 0; v < g->n; v++) {
		int64_t held = 0, peak = 0;
		k = sort_inputs(g, need, v, u);
		for (i = 0; i < k; i++) {
			if (held + need[u[i]] > peak)
				peak = held + need[u[i]];
			held += g->mem[u[i]];
		}
		held += g->mem[v] + g->workspace[v];
		need[v] = held > peak ? held : peak;
	}
}

/* Computes v from nothing; returns its register. */
static int
make(struct emit *e, int v)
{
	int u[64], r[64], k, i, reg;

	k = sort_inputs(e->g, e->need, v, u);
	for (i = 0; i < k; i++)
		r[i] = make(e, u[i]);
	reg = e->reg++;
	rp_plan_add_compute(e->p, v, reg);
	for (i = 0; i < k; i++)
		rp_plan_add_free(e->p, r[i]);
	return reg;
}

/* The whole plan: the values that are not outputs, each freed at once,
 * then the outputs, kept. */
static void
tree_plan(const struct rp_graph *g, struct rp_plan *p)
{
	struct emit e;
	int v;

	e.g = g;
	e.p = p;
	e.reg = 0;
	e.need = calloc((size_t)g->n, sizeof *e.need);
	needs(g, e.need);
	for (v = 0; v < g->n; v++)
		if (!g->output[v])
			rp_plan_add_free(p, make(&e, v));
	for (v = 0; v < g->n; v++)
		if (g->output[v])
			make(&e, v);
	free(e.need);
}

/* rp_tree_budget against the plan it describes, replayed. */
static int
agrees(const struct rp_graph *g, int64_t *tb)
{
	struct rp_plan p;
	struct rp_sim s;
	double c;
	int ok;

	*tb = rp_tree_budget(g, &c);
	rp_plan_init(&p);
	tree_plan(g, &p);
	ok = rp_simulate(g, &p, &s) == 0 && s.peak == *tb &&
	    fabs(s.cost - c) <= 1e-9 * fabs(c);
	if (!ok)
		printf("# replayed: peak %lld cost %g (%s); returned %lld, %g\n",
		    (long long)s.peak, s.cost, s.error ? s.error : "valid",
		    (long long)*tb, c);
	rp_sim_destroy(&s);
	rp_plan_destroy(&p);
	return ok;
}

int
main(void)
{
	int trial, trials = 400, exact = 0;

	t_case("a chain: two values at a time, each link made again from "
	    "the start");
	{
		static const int e[] = { 0, 1, 1, 2, 2, 3 };
		struct rp_graph *g = mkgraph(4, e, 3);
		double c;
		int64_t tb;
		g->output[3] = 1;
		CHECK(agrees(g, &tb));
		CHECK(tb == 2);
		CHECK(rp_tree_budget(g, &c) == 2 && c == 1 + 2 + 3 + 4);
		rp_graph_free(g);
	}

	t_case("a node read by another with recompute=false: no figure");
	{
		static const int e[] = { 0, 1, 1, 2 };
		struct rp_graph *g = mkgraph(4, e, 2);
		double c;
		int64_t tb;
		g->output[2] = 1;
		g->recompute[0] = 0;
		CHECK(rp_tree_budget(g, &c) == -1);
		/* one that no node reads is made once, alone: a figure */
		g->recompute[0] = 1;
		g->recompute[3] = 0;
		g->mem[3] = 3;
		CHECK(agrees(g, &tb) && tb == 3);
		rp_graph_free(g);
	}

	t_case("two subtrees interleaved hold less than the tree plan");
	{
		/* x -> z -> a -> r, y -> w -> b -> r; x and y 8 bytes, a and
		 * b 2, the rest 1: making x, z, then y, w before a and b peaks
		 * at 10, the tree plan (one subtree, then the other) at 11. */
		static const int e[] = { 0, 2, 2, 4, 4, 6, 1, 3, 3, 5, 5, 6 };
		struct rp_graph *g = mkgraph(7, e, 6);
		int64_t tb;
		g->mem[0] = g->mem[1] = 8;
		g->mem[4] = g->mem[5] = 2;
		g->output[6] = 1;
		CHECK(agrees(g, &tb) && tb == 11);
		CHECK((int64_t)exhaustive(g, 0, 0) == 10);
		rp_graph_free(g);
	}

	t_case("the plan it describes replays to its figures, never below "
	    "the least peak of any plan (%d random graphs of 2 to 7 nodes)",
	    trials);
	for (trial = 0; trial < trials; trial++) {
		int n, v;
		struct rp_graph *g;
		int64_t tb;
		double ex;
		g = small_random_dag();
		n = g->n;
		for (v = 0; v < n; v++) {
			g->mem[v] = 1 + below(8);
			g->workspace[v] = below(3);
			g->cost[v] = 1 + below(5);
			g->output[v] = below(4) == 0;
		}
		g->output[n - 1] = 1;
		g->fixed_mem = below(2) * 5;
		CHECK(agrees(g, &tb));
		ex = exhaustive(g, 0, 0);
		CHECK(!isinf(ex) && tb >= (int64_t)ex);
		exact += tb == (int64_t)ex;
		rp_graph_free(g);
	}
	printf("# %d of %d at the least peak\n", exact, trials);
	return t_done("test_tree");
}
