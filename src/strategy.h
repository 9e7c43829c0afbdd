/* strategy.h: the one interface every planning strategy implements.
 *
 * A strategy takes a problem (graph, budget, options) and hands back a plan
 * or none. The runner times it, replays the plan in the simulator and sets
 * the status; no plan reaches a user without passing the simulator. */
#ifndef RP_STRATEGY_H
#define RP_STRATEGY_H

#include <stdint.h>

#include "graph.h"
#include "plan.h"
#include "sim.h"

struct rp_options {
	double time_limit;	/* seconds per strategy, <= 0: none */
	int verbose;
	int dtr_heuristic;	/* enum rp_dtr_heuristic */
	int dtr_banish;		/* 1: banish dead values, 0: eager eviction,
				 * -1: both, keeping the cheaper plan */
	double dtr_thrash;	/* give up past this multiple of the baseline, <= 0: never */
	unsigned long long seed; /* for randomized choices */
	double mip_gap;		/* relative gap at which the MILP stops, 0: prove */
	int solver;		/* ilp's engine: enum rp_milp_engine */
	int threads;		/* threads for an engine that has them */
	int round_plain;	/* LP rounding without the trim and fill passes */
};

/* Fills opt with the defaults documented in remat-plan(1). */
void rp_options_init(struct rp_options *opt);

struct rp_lp_memo;

struct rp_problem {
	const struct rp_graph *g;
	int64_t budget;		/* total device bytes, fixed_mem included */
	const struct rp_options *opt;
	double baseline;	/* cost of computing every node once */
	int64_t ckpt_all_peak;	/* peak of checkpoint-all: the 100% budget */
	int64_t min_budget;	/* no plan can need less */
	int min_node;		/* the node that needs it, -1 for the outputs */
	/* Where LP rounding keeps its result so that lp-round and ilp in one
	 * run solve and round the LP relaxation once (lpround.h); NULL: not
	 * kept. Set by the caller. */
	struct rp_lp_memo *lp_memo;
};

/* Fills the derived figures of a problem. */
void rp_problem_init(struct rp_problem *pb, const struct rp_graph *g,
    int64_t budget, const struct rp_options *opt);

/* Seconds that a strategy built on an LP or MILP engine (lp-round, ilp)
 * may take: --time-limit, or RP_SOLVER_DEFAULT_SECONDS when it is not
 * given, since GLPK can take hours over a graph of a few hundred nodes. */
#define RP_SOLVER_DEFAULT_SECONDS 60.0
double rp_solver_seconds(const struct rp_problem *pb);

enum rp_status {
	RP_FITS,		/* valid plan with peak <= budget */
	RP_OVER_BUDGET,		/* valid plan, but peak > budget */
	RP_NO_PLAN,		/* the strategy found no plan */
	RP_FAILED		/* internal error, or a plan the simulator rejected */
};

struct rp_strategy {
	const char *name;
	const char *summary;
	/* Puts a plan into plan (left empty when there is none) and may set
	 * *note (a short remark for the report, caller frees) and *bound (a
	 * lower bound on the cost of the plans it searched, left NaN when it
	 * has none, +inf when it proved that none of them fits). Returns 0, or -1 with *cause set on internal failure. */
	int (*run)(const struct rp_problem *pb, struct rp_plan *plan,
	    char **note, double *bound, char **cause);
};

struct rp_result {
	const struct rp_strategy *strategy;
	enum rp_status status;
	int has_plan;
	struct rp_plan plan;
	struct rp_sim sim;
	double seconds;
	char *note;		/* remark or failure reason, or NULL */
	double bound;		/* lower bound found by the strategy, or NaN;
				   +inf: it proved that none of the plans
				   it searches fits */
};

/* The best of a series of candidate plans: fitting beats not fitting, then
 * lower cost (when fitting) or lower peak (when not). */
struct rp_best {
	struct rp_plan plan;
	int have, fits;
	double cost;
	int64_t peak;
	char *note;
};
void rp_best_init(struct rp_best *b);
void rp_best_destroy(struct rp_best *b);
/* Replays plan (which it takes, with note) and keeps it if it is better.
 * Returns 0, or -1 with *cause set when the simulator rejects it. */
int rp_best_offer(struct rp_best *b, const struct rp_graph *g, int64_t budget,
    struct rp_plan *plan, char *note, char **cause);
/* Hands the kept plan and note over to the caller. */
void rp_best_take(struct rp_best *b, struct rp_plan *plan, char **note);

/* All available strategies, in report order; *n is set to their count. */
const struct rp_strategy *const *rp_strategy_list(int *n);
/* The strategy called name, or NULL. */
const struct rp_strategy *rp_strategy_find(const char *name);

/* Runs s on pb, filling res (destroy with rp_result_destroy). */
void rp_strategy_run(const struct rp_strategy *s, const struct rp_problem *pb,
    struct rp_result *res);
void rp_result_destroy(struct rp_result *res);

/* The index of the cheapest result that fits (ties: lower peak, then
 * earlier), or -1 when none fits. */
int rp_pick(const struct rp_result *res, int n);

const char *rp_status_name(enum rp_status st);

/* The checkpoint-all plan: every node once, in order, each value freed after
 * its last reader, outputs kept. Also the reference for percent budgets. */
void rp_plan_checkpoint_all(const struct rp_graph *g, struct rp_plan *out);

extern const struct rp_strategy rp_strategy_checkpoint_all;
extern const struct rp_strategy rp_strategy_chen_sqrtn;
extern const struct rp_strategy rp_strategy_chen_greedy;
extern const struct rp_strategy rp_strategy_dtr;
extern const struct rp_strategy rp_strategy_lp_round;
extern const struct rp_strategy rp_strategy_ilp;

#endif
