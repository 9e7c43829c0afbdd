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
 * memory, so it is there at every size.
 *
 * rp_stage_bound_lp adds what the knapsack ignores, at the few stages that
 * must leave out the most bytes: a value computed again after stage t
 * needs each of its inputs then, so each input is either held at t (its
 * bytes count there) or computed again after t as well, back to t's own
 * inputs, which are resident at t anyway. The least cost of that, by the
 * LP relaxation (values held or computed again in part), bounds the extra
 * cost of every frontier-advancing plan from below too, and is at least
 * the knapsack's at that stage: where a cheap value can only be
 * recomputed from dear ones that are gone, it is much more. The LP has two
 * columns per value read after t and per ancestor it may need, so it is
 * solved at up to 8 stages spread over the graph, within a deadline, and
 * its bound is what GLPK's row prices prove. Plans hold or recompute
 * whole values: where an LP's optimum does not, the same model is then
 * searched by branch and bound at the few stages with the highest such
 * LPs, which closes the gap the fractions leave (a stage that must leave
 * out 2.08 blocks of equal size leaves out 3). */
#ifndef RP_STAGEBOUND_H
#define RP_STAGEBOUND_H

#include "problem.h"

/* The bound for pb's graph at pb's budget: at least the baseline,
 * INFINITY when no frontier-advancing plan fits. *stage is the stage that
 * gives it, -1 when it is the baseline. Where every cost is an integer,
 * so is every plan's, and the bound is rounded up. */
double rp_stage_bound(const struct rp_problem *pb, int *stage);

/* The same, raised by the LPs of the stages over the budget solved by
 * deadline (rp_now() time; <= 0: none), and where an LP's optimum is
 * fractional, by its search in whole values; *lp is 1 where an LP gives
 * the bound returned, 2 where the search in whole values does, else 0.
 * *complete (when not NULL) is 1 where the deadline cut nothing short, so
 * that a later call with more time would give the same bound. */
double rp_stage_bound_lp(const struct rp_problem *pb, double deadline,
    int *stage, int *lp, int *complete);

/* A stage bound computed during a run (by lp-round or ilp) and kept for
 * the run's own bound, which then need not solve the same LPs again:
 * valid for budget, and only where it was complete. */
struct rp_stage_memo {
	int have;
	int64_t budget;
	double value;
	int stage, lp;
};

/* rp_stage_bound_lp by a tenth of the time to deadline (<= 0: none), at
 * most a second, for a strategy that looks whether a plan already costs
 * what no frontier-advancing plan can beat (lp-round, ilp); the bound
 * kept in sm (may be NULL) for pb's budget where there is one, and a
 * bound computed in full kept there. */
double rp_stage_bound_kept(const struct rp_problem *pb, double deadline,
    struct rp_stage_memo *sm);

/* The stages t in 0..n with bytes[t] > 0, most bytes first (the earlier
 * at a tie), into out (n entries); returns their count. The bounds try
 * their stages in this order. Time: O(n log n). */
int rp_stages_by_bytes(const int64_t *bytes, int n, int *out);

/* Whether a plan of cost reaches the lower bound b: within what the
 * searches in whole values take off their bounds for GLPK's tolerances
 * (twice it, 2e-6 of b), so that a plan the search proves optimal
 * reaches the bound it gives. */
int rp_stage_bound_reached(double b, double cost);

#endif
