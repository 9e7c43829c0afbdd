/* lpround.h: Checkmate's two-phase LP rounding (section 5.2, algorithm 2),
 * shared by the lp-round and ilp strategies. */
#ifndef RP_LPROUND_H
#define RP_LPROUND_H

#include "milp.h"
#include "strategy.h"

/* Rounds the LP relaxation of model m (built for pb's budget) into plans
 * and offers each to best: S is rounded at a sweep of thresholds (0.5 first)
 * and by seeded randomized rounding, R is the minimal completion (the shared
 * R solver), and the allowance epsilon is searched by solving the LP again
 * at (1 - epsilon) of the budget; plans are judged at the real budget.
 * Unless ctx->opt->round_plain, the trim pass then brings the cheapest
 * roundings over the budget within it, and the fill pass, from every
 * rounding that fits, keeps recomputed values resident where that fits
 * and is cheaper (remat-plan(1)). Stops at ctx->deadline. Sets *bound to
 * the LP optimum at the real budget (NaN when the LP was not solved) and,
 * if lp is not NULL, *lp to the outcome of that LP solve (RP_MILP_OPTIMAL,
 * RP_MILP_INFEASIBLE, RP_MILP_NOSOLUTION when time ran out, ...), and
 * returns 0, or -1 with *cause set. With a memo in ctx->shared, a result
 * kept there is offered instead (m is then left unsolved, and may be
 * NULL), and a new one is kept there. */
int rp_lp_round(const struct rp_problem *pb, const struct rp_ctx *ctx,
    struct rp_milp *m, struct rp_best *best, double *bound,
    enum rp_milp_result *lp, char **cause);

/* LP rounding's outcome for one problem, reused by rp_lp_round when the
 * run shares it (rp_shared.lp). */
struct rp_lp_memo {
	int done;
	int have;		/* rounding gave a plan */
	struct rp_plan plan;
	char *note;
	double bound;
	enum rp_milp_result lp;
};
void rp_lp_memo_init(struct rp_lp_memo *mm);
void rp_lp_memo_destroy(struct rp_lp_memo *mm);

#endif
