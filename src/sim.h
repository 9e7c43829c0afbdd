/* sim.h: the simulator, an independent validator of plans under the memory
 * model of remat-plan(5). Every plan is checked here before it is written or
 * reported, and the tests use it as their oracle. */
#ifndef RP_SIM_H
#define RP_SIM_H

#include <stdint.h>

#include "graph.h"
#include "plan.h"

struct rp_sim {
	int valid;
	char *error;		/* why the plan is invalid (caller frees), or NULL */
	int bad_stmt;		/* index of the offending statement, -1 if none */
	double cost;		/* sum of cost over compute statements */
	int64_t peak;		/* largest memory during any statement
				 * (INT64_MAX if it is larger still) */
	int peak_stmt;		/* statement where the peak is reached */
	int ncompute;		/* compute statements */
	int nrecompute;		/* compute statements beyond one per node */
};

/* Replays plan p against graph g. Returns 0 when valid, -1 when not (with
 * out->error and out->bad_stmt set). Cost and peak are filled for the
 * statements replayed. Call rp_sim_destroy(out) afterwards.
 * Time: O(statements + sum of in-degrees of computed nodes). */
int rp_simulate(const struct rp_graph *g, const struct rp_plan *p, struct rp_sim *out);
/* rp_simulate that also writes, when mem is not NULL, the memory in use
 * during each statement replayed into mem[0..p->len): for a compute, what
 * is live plus the node's output and workspace (saturating at INT64_MAX);
 * for a free, what is live after it. */
int rp_simulate_mem(const struct rp_graph *g, const struct rp_plan *p,
    struct rp_sim *out, int64_t *mem);
void rp_sim_destroy(struct rp_sim *s);

/* The smallest budget any plan can need: the largest working set of a single
 * node (fixed_mem + its inputs + its output + its workspace), or fixed_mem
 * plus all outputs held at the end when that is larger. *node is the node
 * that needs it, or -1 for the outputs. */
int64_t rp_min_budget(const struct rp_graph *g, int *node);

/* A budget at which a plan provably exists: the peak of the plan that
 * computes every value afresh from the graph's inputs, as an expression
 * tree (each input of a node made in turn, the one whose making needs the
 * most beyond its own size first, the others held meanwhile; nothing is
 * kept between two values but the outputs made so far): first each value
 * that is not an output, then the outputs in execution order. Its cost,
 * in the graph's unit, is stored in *cost; it grows exponentially with
 * the depth of shared inputs (+inf where a double cannot hold it), so
 * the plan is a proof, never one to run. Returns -1 where that plan is
 * not valid (a node with recompute=false that some node reads would be
 * computed again) or its peak reaches INT64_MAX. Time: O(n + m log d),
 * for the largest in-degree d. */
int64_t rp_tree_budget(const struct rp_graph *g, double *cost);

#endif
