/* stagebound.h: a lower bound on the cost of frontier-advancing plans
 * that scales to any graph, from the memory of each stage alone.
 *
 * In a frontier-advancing plan, stage t computes node t for the first
 * time, last in the stage. When it does, t's inputs, t itself and its
 * workspace are resident, and so is every value computed before that is
 * read by a later node (or is an output) unless it is computed again
 * after this point: each such value left out costs its own computation
 * again, at least. Where those values do not all fit beside the
 * necessary ones, the cheapest set to leave out, by the fractional
 * knapsack (cost per byte), bounds the extra cost from below; the bound
 * is the baseline plus the largest of these over the stages. Values that
 * may not be recomputed cannot be left out; where they and the necessary
 * ones alone are over the budget, no frontier-advancing plan fits.
 *
 * Weaker than the LP relaxation of the MILP (milp.h), which it does not
 * need: it ignores that a recomputation needs its own inputs, and counts
 * each stage apart. But it takes O((n + m) log n) time and O(n + m)
 * memory, so it is there at every size. */
#ifndef RP_STAGEBOUND_H
#define RP_STAGEBOUND_H

#include "problem.h"

/* The bound for pb's graph at pb's budget: at least the baseline,
 * INFINITY when no frontier-advancing plan fits. *stage is the stage that
 * gives it, -1 when it is the baseline. Where every cost is an integer,
 * so is every plan's, and the bound is rounded up. */
double rp_stage_bound(const struct rp_problem *pb, int *stage);

#endif
