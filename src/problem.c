/* problem.c: planning problems and their figures (see problem.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "pebble.h"
#include "plan.h"
#include "problem.h"
#include "sim.h"
#include "strategy.h"
#include "util.h"

/* The search's work on g: from 1,000 nodes, 1000/n of `work`, so that it
 * stays a small part of the shortest time limits on large graphs. */
static long
pebble_work(const struct rp_graph *g, long work)
{
	return g->n > 1000 ? (long)((double)work * 1000 / g->n) : work;
}

/* Takes the pebble search's figure b (never below pb->min_budget, which it
 * started from) and its node (-2: it proved nothing more). */
static void
take_bound(struct rp_problem *pb, int64_t b, int node)
{
	pb->min_budget = b;
	if (node != -2) {
		pb->min_node = node;
		pb->min_searched = 1;
	}
}

/* Fills pb for g; the smallest budget is `like`'s where given (the same
 * graph in another order), else searched where `search` is set. */
static int
init(struct rp_problem *pb, const struct rp_graph *g,
    const struct rp_budget_spec *spec, const struct rp_problem *like,
    int search, char **cause)
{
	struct rp_plan p;
	struct rp_sim s;
	int node;
	int64_t b;

	memset(pb, 0, sizeof *pb);
	pb->g = g;
	pb->budget = INT64_MAX;
	pb->baseline = rp_graph_baseline_cost(g);
	pb->min_budget = rp_min_budget(g, &pb->min_node);
	if (like != NULL) {
		/* the tree plan is a plan of the graph, whatever its order */
		pb->tree_budget = like->tree_budget;
		pb->tree_cost = like->tree_cost;
		if (like->min_budget > pb->min_budget) {
			pb->min_budget = like->min_budget;
			pb->min_searched = like->min_searched;
			pb->min_node = -1;
			for (node = 0; like->min_node >= 0 && node < g->n; node++)
				if (strcmp(g->id[node],
				    like->g->id[like->min_node]) == 0)
					pb->min_node = node;
		}
	} else {
		pb->tree_budget = rp_tree_budget(g, &pb->tree_cost);
		if (search) {
			b = rp_pebble_bound(g, pb->min_budget, pebble_work(g,
			    RP_PEBBLE_WORK), &node);
			take_bound(pb, b, node);
		}
	}
	rp_plan_init(&p);
	rp_plan_checkpoint_all(g, &p);
	rp_simulate(g, &p, &s);
	pb->ckpt_all_peak = s.peak;
	rp_sim_destroy(&s);
	rp_plan_destroy(&p);
	if (spec == NULL)
		return 0;
	if (rp_budget_resolve(spec, pb->ckpt_all_peak, &pb->budget, cause) != 0)
		return -1;
	pb->has_budget = 1;
	return 0;
}

int
rp_problem_init(struct rp_problem *pb, const struct rp_graph *g,
    const struct rp_budget_spec *spec, char **cause)
{
	return init(pb, g, spec, NULL, 1, cause);
}

int
rp_problem_init_unsearched(struct rp_problem *pb, const struct rp_graph *g,
    const struct rp_budget_spec *spec, char **cause)
{
	return init(pb, g, spec, NULL, 0, cause);
}

int
rp_problem_init_like(struct rp_problem *pb, const struct rp_graph *g,
    const struct rp_problem *like, char **cause)
{
	return init(pb, g, NULL, like, 0, cause);
}

void
rp_problem_deepen(struct rp_problem *pb)
{
	int node;
	int64_t b = rp_pebble_bound(pb->g, pb->min_budget, pebble_work(pb->g,
	    RP_PEBBLE_WORK_DEEP), &node);

	take_bound(pb, b, node);
}

int
rp_problem_prove(struct rp_problem *pb, double deadline)
{
	int node, stopped;
	int64_t b = rp_pebble_bound_deep(pb->g, pb->min_budget,
	    pebble_work(pb->g, RP_PEBBLE_WORK_PROOF), RP_PEBBLE_PROOF_ELEMS,
	    deadline, &node, &stopped);

	take_bound(pb, b, node);
	return stopped;
}

void
rp_problem_at(struct rp_problem *dst, const struct rp_problem *src,
    int64_t budget)
{
	*dst = *src;
	dst->budget = budget;
	dst->has_budget = 1;
}
