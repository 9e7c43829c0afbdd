/* sweep.h: planning at many budgets.
 *
 * rp_run_strategies runs a set of strategies at one budget, as a plain run
 * does; every point of a sweep runs through it, so a sweep shows the
 * figures of single runs. rp_sweep_run plans at a list of budgets, in
 * increasing order, and keeps the figures monotone: a plan found at a
 * tighter budget also fits every looser one, so a strategy is never shown
 * costing more at a looser budget than at a tighter one (the cheaper plan
 * is carried forward, and marked so). rp_budget_min finds, by bisection,
 * the smallest budget at which a strategy finds a plan. */
#ifndef RP_SWEEP_H
#define RP_SWEEP_H

#include <stdint.h>

#include "problem.h"
#include "stagebound.h"
#include "strategy.h"

/* Called before strategy i of n starts; arg is the caller's. */
typedef void (*rp_progress_fn)(void *arg, int i, int n);

/* Runs strats[0..n) on pb in order: lp-round and ilp share the LP
 * rounding, ilp starts from the plans found before it, each strategy has
 * the time limit of base->opt and all of them together at most twice it,
 * and never past base->deadline where that is set (> 0);
 * those that use all of their time (anytime, not idle on pb) may each
 * take the limit but leave half of it to each of them after it, or where
 * that leaves less, have an equal share with them.
 * cache (may be NULL) keeps budget-free work for later runs on the same
 * graph. sm (may be NULL) receives a stage bound that a strategy computed
 * in full (stagebound.h), for rp_results_bound. progress may be NULL.
 * Fills res[0..n) (caller destroys each with rp_result_destroy). */
void rp_run_strategies(const struct rp_problem *pb,
    const struct rp_strategy *const *strats, int n, const struct rp_ctx *base,
    struct rp_cache *cache, struct rp_stage_memo *sm, rp_progress_fn progress,
    void *arg, struct rp_result *res);

/* One strategy at one budget of a sweep. */
struct rp_sweep_cell {
	enum rp_status status;	/* of the strategy's own run at this budget */
	int shown;		/* a fitting plan is shown */
	int from;		/* the row whose run found the plan shown: this
				   row, or a tighter budget's when that plan
				   is cheaper */
	int over;		/* not shown: the own run's plan, over the
				   budget, has the figures below */
	double cost;		/* of the plan shown (or over the budget) */
	int64_t peak;
	int nrecompute;
	double seconds;		/* of the own run */
	char *note;		/* the own run's note, or NULL */
};

struct rp_sweep_row {
	int64_t budget;
	int below_min;		/* under the smallest budget any plan can
				   need: nothing was run */
	double bound;		/* the strongest lower bound found at this
				   budget (NaN: none; +inf: no frontier-
				   advancing plan fits) */
	int bound_every;	/* it holds for every plan, not only the
				   frontier-advancing ones (rp_bound_for_all) */
	int none_fits;		/* proved: no plan of any form fits (below
				   the smallest budget, or by the bound for
				   every plan) */
	int picked;		/* the strategy whose plan is the cheapest
				   shown, or -1 */
	int failed;		/* a strategy failed here */
	char *plan_file;	/* where its plan was written, or NULL */
	struct rp_sweep_cell *cell;	/* one per strategy */
};

struct rp_sweep {
	const struct rp_strategy *const *strats;	/* borrowed */
	int nstrat;
	struct rp_sweep_row *rows;
	int nrows;
};

/* Hooks of a sweep, any of them NULL. row_start: before the strategies of
 * a row run. progress: before each strategy. row_done: after a row, with
 * the plan shown for its picked strategy and that plan's replay (NULL
 * when none fits); it may set row->plan_file (malloc'd), and returns 0 to
 * go on or -1 to stop the sweep with *cause set. */
struct rp_sweep_hooks {
	void *arg;
	void (*row_start)(void *arg, const struct rp_sweep *sw, int row);
	rp_progress_fn progress;
	int (*row_done)(void *arg, const struct rp_problem *pb,
	    struct rp_sweep *sw, int row, const struct rp_plan *plan,
	    const struct rp_sim *sim, const char *strategy, char **cause);
};

/* Plans pb's graph at budgets[0..nb) (increasing, distinct) with
 * strats[0..n), each budget as rp_run_strategies does, all within twice
 * the limit per budget (row r by (r + 1) times that from started, the
 * rp_now() time the count starts at, <= 0: now; a lower bound's little
 * time past it taken from the rows after; but each row's strategies
 * get at least a tenth of the limit, as a single run's). Budgets
 * below pb->min_budget are rows with below_min set. Fills out (destroy with
 * rp_sweep_destroy, also after a failure). Returns 0, or -1 with *cause
 * set when row_done stopped it. Memory: one plan per strategy beyond a
 * single run's. */
int rp_sweep_run(const struct rp_problem *pb, const int64_t *budgets, int nb,
    const struct rp_strategy *const *strats, int n, const struct rp_ctx *base,
    double started, const struct rp_sweep_hooks *hooks, struct rp_sweep *out,
    char **cause);
void rp_sweep_destroy(struct rp_sweep *sw);

/* The smallest budget at which one strategy finds a plan. */
struct rp_budget_min {
	int found;		/* a plan that fits was found */
	int64_t budget;		/* the smallest budget it was found at */
	int64_t no_plan_at;	/* budget - ceil(budget / 100): the strategy
				   found no plan there (or no plan can fit
				   there at all) */
	int runs;		/* runs of the strategy */
	int cut_short;		/* a run that found no plan ended at its
				   deadline: with more time the strategy
				   might fit lower */
	struct rp_result res;	/* its run at budget (or, when none was
				   found, at the checkpoint-all peak) */
};

/* Finds the smallest budget at which s finds a plan, by bisection between
 * pb->min_budget (no plan needs less) and the checkpoint-all peak, to 1%:
 * it ends with a run at 1% below the budget it reports that found no plan.
 * progress, when not NULL, is called before each run with the run's
 * number (n is 0). Fills out (destroy out->res). Time: about
 * log2(peak / (1% of the budget)) runs of s, each within its limit, and
 * all of them by base->deadline where that is set (> 0): each run has an
 * equal share of the time left over the runs the bisection may still
 * need. */
void rp_budget_min_find(const struct rp_problem *pb,
    const struct rp_strategy *s, const struct rp_ctx *base,
    rp_progress_fn progress, void *arg, struct rp_budget_min *out);

#endif
