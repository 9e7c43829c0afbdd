/* The simulator: figures of valid plans, one case per rejection. */
#include "config.h"

#include <stdlib.h>

#include "common.h"
#include "plan.h"
#include "sim.h"
#include "strategy.h"
#include "t.h"

/* Builds a plan from a compact program: c NODE REG | f REG, -1 ends. */
static void
prog(struct rp_plan *p, const int *code)
{
	rp_plan_init(p);
	for (; code[0] >= 0; code += code[0] == 0 ? 3 : 2) {
		if (code[0] == 0)
			rp_plan_add_compute(p, code[1], code[2]);
		else
			rp_plan_add_free(p, code[1]);
	}
}

#define C 0
#define F 1
#define END -1

static void
rejects(const struct rp_graph *g, const int *code, int stmt, const char *want)
{
	struct rp_plan p;
	struct rp_sim s;
	prog(&p, code);
	CHECK(rp_simulate(g, &p, &s) == -1);
	CHECK(!s.valid);
	CHECK(s.bad_stmt == stmt);
	CHECK_STR(s.error, want);
	rp_sim_destroy(&s);
	rp_plan_destroy(&p);
}

int
main(void)
{
	/* a -> b -> c, a -> c; sizes 10, 20, 40; workspace on b. */
	static const int e[] = { 0, 1, 1, 2, 0, 2 };
	struct rp_graph *g = mkgraph(3, e, 3);
	struct rp_plan p;
	struct rp_sim s;

	g->mem[0] = 10;
	g->mem[1] = 20;
	g->mem[2] = 40;
	g->workspace[1] = 5;
	g->cost[2] = 2.5;
	g->fixed_mem = 100;

	t_case("checkpoint-all replays with its cost, peak and counts");
	/* Checkpoint-all: a, b (a live: 100+10+20+5), c (100+10+20+40). */
	rp_plan_init(&p);
	rp_plan_checkpoint_all(g, &p);
	CHECK(rp_simulate(g, &p, &s) == 0);
	CHECK(s.valid && s.cost == 4.5 && s.peak == 170 && s.ncompute == 3 &&
	    s.nrecompute == 0);
	CHECK(p.len == 6);	/* 3 computes; a, b freed after c; c unread */
	rp_sim_destroy(&s);
	rp_plan_destroy(&p);

	t_case("a recomputation is counted and its peak located");
	/* Recomputing a before c, with a freed early. */
	{
		static const int code[] = { C, 0, 0, C, 1, 1, F, 0, C, 0, 2,
			C, 2, 3, F, 1, F, 2, F, 3, END };
		prog(&p, code);
		CHECK(rp_simulate(g, &p, &s) == 0);
		CHECK(s.cost == 5.5 && s.nrecompute == 1);
		/* peaks: a 110, b 135, a again 100+20+10=130, c 170 */
		CHECK(s.peak == 170 && s.peak_stmt == 4);
		rp_sim_destroy(&s);
		rp_plan_destroy(&p);
	}

	t_case("each invalid statement is rejected with its message and index");
	{
		static const int c1[] = { C, 1, 0, END };
		static const int c2[] = { C, 0, 0, F, 0, F, 0, END };
		static const int c3[] = { C, 0, 0, C, 1, 0, END };
		static const int c4[] = { C, 0, 0, C, 1, 1, END };
		static const int c5[] = { F, 7, END };
		rejects(g, c1, 0, "compute 'v1' reads 'v0', which is not live");
		rejects(g, c2, 2, "free of register '0', which is not live");
		rejects(g, c3, 1, "compute 'v1' into register '0', which is "
		    "still live (holding 'v0')");
		rejects(g, c4, -1, "node 'v2' is never computed");
		rejects(g, c5, 0, "free of register '7', which is not live");
	}
	t_case("an output freed before the end is rejected");
	g->output[2] = 1;
	{
		static const int c6[] = { C, 0, 0, C, 1, 1, C, 2, 2, F, 2, END };
		rejects(g, c6, -1, "output node 'v2' is not live at the end of "
		    "the plan");
	}
	t_case("recomputing a recompute=false node is rejected");
	g->recompute[0] = 0;
	{
		static const int c7[] = { C, 0, 0, C, 1, 1, F, 0, C, 0, 2,
			C, 2, 3, END };
		rejects(g, c7, 3, "node 'v0' is computed again, but it has "
		    "recompute=false");
	}
	t_case("the smallest possible budget: a node's working set or the outputs");
	{
		int node;
		/* c's working set: 100 + 10 + 20 + 40 = 170. */
		CHECK(rp_min_budget(g, &node) == 170 && node == 2);
		g->fixed_mem = 0;
		g->mem[0] = 1000;
		g->output[0] = 1;
		/* now the outputs (1000 + 40) outweigh c (1060)? 1060 wins. */
		CHECK(rp_min_budget(g, &node) == 1060 && node == 2);
		g->mem[1] = 0;
		g->output[1] = 1;
		g->mem[2] = 0;
		g->workspace[1] = 0;
		g->mem[1] = 1;
		/* b, c and the outputs all need 1001: the first node wins. */
		CHECK(rp_min_budget(g, &node) == 1001 && node == 1);
	}
	rp_graph_free(g);
	return t_done("test_sim");
}
