/* The budget at which a plan provably exists (rp_tree_budget, sim.c): the
 * plan that computes every value afresh from the graph's inputs, as an
 * expression tree. This test writes that plan out, as the function
 * describes it, and replays it with the simulator: the plan is valid and
 * its peak and cost are the figures returned; on small random graphs the
 * figure is never below the least peak of any plan (the exhaustive
 * search), and on the in-trees among them it is that least peak. */
#include "common.h"
#include "sim.h"
#include "t.h"

struct emit {
	const struct rp_graph *g;
	int64_t *need;
	struct rp_plan *p;
	int reg;
};

/* need[] as rp_tree_budget works it out (the same rule, written apart). */
static void
needs(const struct rp_graph *g, int64_t *need)
{
	int v, j, k, i;

	for (v = 0; v < g->n; v++) {
		int u[64];
		int64_t held = 0, peak = 0;
		k = 0;
		for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++)
			u[k++] = g->pred[j];
		/* insertion sort: extra (need - mem) down, then node up */
		for (i = 1; i < k; i++) {
			int x = u[i], y = i;
			while (y > 0 && (need[u[y - 1]] - g->mem[u[y - 1]] <
			    need[x] - g->mem[x] || (need[u[y - 1]] -
			    g->mem[u[y - 1]] == need[x] - g->mem[x] &&
			    u[y - 1] > x))) {
				u[y] = u[y - 1];
				y--;
			}
			u[y] = x;
		}
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
	const struct rp_graph *g = e->g;
	int u[64], r[64], k = 0, i, j, reg;

	for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++)
		u[k++] = g->pred[j];
	for (i = 1; i < k; i++) {
		int x = u[i], y = i;
		while (y > 0 && (e->need[u[y - 1]] - g->mem[u[y - 1]] <
		    e->need[x] - g->mem[x] || (e->need[u[y - 1]] -
		    g->mem[u[y - 1]] == e->need[x] - g->mem[x] && u[y - 1] > x))) {
			u[y] = u[y - 1];
			y--;
		}
		u[y] = x;
	}
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
	int trial, trials = 400, exact = 0, trees = 0, tree_exact = 0;

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
		struct rp_graph *g = mkgraph(3, e, 2);
		double c;
		g->output[2] = 1;
		g->recompute[0] = 0;
		CHECK(rp_tree_budget(g, &c) == -1);
		/* with no reader it is made once, alone: a figure */
		g->recompute[0] = 1;
		g->recompute[2] = 0;
		CHECK(rp_tree_budget(g, &c) == 2);
		rp_graph_free(g);
	}

	t_case("the plan it describes replays to its figures, never below "
	    "the least peak of any plan (%d random graphs of 2 to 7 nodes)",
	    trials);
	for (trial = 0; trial < trials; trial++) {
		int n = 2 + below(6), ne = 0, e[64], v, u, tree = 1, deg[8] = { 0 };
		struct rp_graph *g;
		int64_t tb;
		double ex;
		for (v = 1; v < n; v++)
			for (u = 0; u < v; u++)
				if (below(3) == 0 && ne < 32) {
					e[2 * ne] = u;
					e[2 * ne + 1] = v;
					ne++;
					tree &= ++deg[u] == 1;
				}
		g = mkgraph(n, e, ne);
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
		/* a forest with one output, its last node: the figure is the
		 * least peak (Sethi and Ullman's order) */
		for (v = 0; v < n - 1; v++)
			tree &= !g->output[v] && deg[v] == 1;
		if (tree) {
			trees++;
			tree_exact += tb == (int64_t)ex;
		}
		rp_graph_free(g);
	}
	printf("# %d of %d at the least peak; trees: %d of %d\n", exact,
	    trials, tree_exact, trees);
	CHECK(trees > 10 && tree_exact == trees);
	return t_done("test_tree");
}
