/* problem.h: a planning problem under the memory model of remat-plan(5):
 * a graph, a budget in bytes, and the figures of the graph that every
 * strategy and report needs. rp_problem_init builds it complete, from a
 * budget given in bytes or as a percentage; nothing changes it after. */
#ifndef RP_PROBLEM_H
#define RP_PROBLEM_H

#include <stdint.h>

#include "graph.h"
#include "units.h"

struct rp_problem {
	const struct rp_graph *g;
	int64_t budget;		/* total device bytes, fixed_mem included;
				   INT64_MAX when none was given */
	int has_budget;
	double baseline;	/* cost of computing every node once */
	int64_t ckpt_all_peak;	/* peak of checkpoint-all: the 100% budget */
	int64_t min_budget;	/* no plan can need less */
	int min_node;		/* the node that needs it, -1 for the outputs */
	int min_searched;	/* min_budget is proved by rp_pebble_bound,
				   not by one working set */
	int64_t tree_budget;	/* a plan exists at every budget from here:
				   each value computed afresh from the
				   inputs (rp_tree_budget); -1: unknown */
	double tree_cost;	/* that plan's cost (may be +inf) */
};

/* Fills pb for g and the budget spec (NULL: no budget): works out the
 * graph's figures, then the budget in bytes (a percentage is of the
 * checkpoint-all peak). Returns 0, or -1 with *cause set (caller frees)
 * when the budget comes to less than a byte or more than int64_t holds.
 * Time: O(n + m log d) (d: the largest in-degree), and the bounded search
 * of rp_pebble_bound. */
int rp_problem_init(struct rp_problem *pb, const struct rp_graph *g,
    const struct rp_budget_spec *spec, char **cause);

/* rp_problem_init without the search: pb->min_budget is the largest
 * working set (rp_min_budget), min_searched 0. For what never shows or
 * uses the smallest budget (replaying a plan, writing the MILP's files).
 * Time: O(n + m log d). */
int rp_problem_init_unsearched(struct rp_problem *pb,
    const struct rp_graph *g, const struct rp_budget_spec *spec,
    char **cause);

/* rp_problem_init without a budget for g, the graph of `like` in another
 * execution order: the smallest budget and the tree plan's, which do not
 * depend on the order, are taken from `like` rather than worked out
 * again. */
int rp_problem_init_like(struct rp_problem *pb, const struct rp_graph *g,
    const struct rp_problem *like, char **cause);

/* Raises pb->min_budget with a deeper search (RP_PEBBLE_WORK_DEEP), where
 * the smallest budget is sought (--budget min). */
void rp_problem_deepen(struct rp_problem *pb);

/* Raises pb->min_budget with a search deeper still (RP_PEBBLE_WORK_PROOF,
 * with more room for its sets), for a run whose budget is just above it:
 * its figure may prove that no plan fits. Stops at deadline where that is
 * > 0 (rp_now() time), and returns 1 when it did (the figure is a proof
 * all the same, but the same work may reach more). */
int rp_problem_prove(struct rp_problem *pb, double deadline);

/* Makes dst the problem src at another budget (bytes), without working
 * the graph's figures out again. */
void rp_problem_at(struct rp_problem *dst, const struct rp_problem *src,
    int64_t budget);

/* Whether a plan of this peak fits the budget. */
static inline int
rp_fits(const struct rp_problem *pb, int64_t peak)
{
	return peak <= pb->budget;
}

#endif
