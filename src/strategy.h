/* strategy.h: the one interface every planning strategy implements.
 *
 * A strategy takes a problem (graph and budget, problem.h) and a context
 * (options, deadline, log, what the strategies of a run share) and hands
 * back a plan or none. The runner gives it its deadline, times it, replays
 * the plan in the simulator and sets the status; no plan reaches a user
 * without passing the simulator. */
#ifndef RP_STRATEGY_H
#define RP_STRATEGY_H

#include <stdint.h>

#include "graph.h"
#include "plan.h"
#include "problem.h"
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
struct rp_result;

/* What a strategy keeps from one budget to the next in a sweep: work
 * that depends on the graph but not on the budget, so that a sweep does
 * it once and still shows the figures of single runs. One slot per kind
 * of work, owned by the cache. */
enum rp_cache_slot {
	RP_CACHE_CHAIN_DP,	/* chain-dp's solved dynamic program */
	RP_CACHE_SLOTS
};
struct rp_cache {
	void *slot[RP_CACHE_SLOTS];
	void (*release[RP_CACHE_SLOTS])(void *);	/* frees slot[i] */
};
void rp_cache_init(struct rp_cache *c);
void rp_cache_destroy(struct rp_cache *c);
/* Replaces slot i's content with p, released by release when replaced or
 * destroyed. */
void rp_cache_put(struct rp_cache *c, enum rp_cache_slot i, void *p,
    void (*release)(void *));

/* What the strategies of one run share: LP rounding's outcome, so that
 * lp-round and ilp solve and round the LP relaxation once (lpround.h), and
 * the results so far, which ilp takes as its starting plans instead of
 * running those strategies again; in a sweep, the cache across budgets. */
struct rp_shared {
	struct rp_lp_memo *lp;		/* NULL: not kept */
	const struct rp_result *results; /* results[0..nresults) */
	int nresults;
	struct rp_cache *cache;		/* NULL: none */
	struct rp_stage_memo *stage;	/* a stage bound computed in full,
					   for the run's bound; NULL: none */
};

/* Where a strategy runs: its options, its deadline, its log and what it
 * shares with the others. rp_strategy_run gives each strategy its own. */
struct rp_ctx {
	const struct rp_options *opt;
	double deadline;	/* rp_now() time to be done by; <= 0: none */
	/* Progress and timings for people (-v): called with one line at a
	 * time when verbose is at least level; NULL: no log. */
	void (*log)(void *arg, const char *line);
	void *log_arg;
	struct rp_shared *shared;	/* NULL: nothing shared */
};

/* Sends a line to ctx's log when opt->verbose is at least level. */
void rp_log(const struct rp_ctx *ctx, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Seconds that a strategy built on an LP or MILP engine (lp-round, ilp)
 * may take: --time-limit, or RP_SOLVER_DEFAULT_SECONDS when it is not
 * given, since GLPK can take hours over a graph of a few hundred nodes. */
#define RP_SOLVER_DEFAULT_SECONDS 60.0

enum rp_status {
	RP_FITS,		/* valid plan with peak <= budget */
	RP_OVER_BUDGET,		/* valid plan, but peak > budget */
	RP_NO_PLAN,		/* the strategy found no plan */
	RP_FAILED		/* internal error, or a plan the simulator rejected */
};

struct rp_strategy {
	const char *name;
	const char *summary;
	/* 1: it searches with an LP or MILP engine, and so has a time limit
	 * even when none is given (RP_SOLVER_DEFAULT_SECONDS). */
	int solver;
	/* 1: it searches until its deadline where it can improve (restarts,
	 * searches, solvers), so that a run of several shares the time among
	 * these (rp_run_strategies). */
	int anytime;
	/* Puts a plan into plan (left empty when there is none) and may set
	 * *note (a short remark for the report, caller frees) and *bound (a
	 * lower bound on the cost of the plans it searched, left NaN when it
	 * has none, +inf when it proved that none of them fits). Stops by
	 * ctx->deadline. Returns 0, or -1 with *cause set on internal
	 * failure. */
	int (*run)(const struct rp_problem *pb, const struct rp_ctx *ctx,
	    struct rp_plan *plan, char **note, double *bound, char **cause);
	/* For an anytime strategy, may be NULL: 1 where it will end at once
	 * on pb with a limit of seconds (it does not run on such graphs, or
	 * its model would be too large), so that it takes no share. */
	int (*idle)(const struct rp_problem *pb, const struct rp_options *opt,
	    double seconds);
};

struct rp_result {
	const struct rp_strategy *strategy;
	enum rp_status status;
	int has_plan;
	struct rp_plan plan;
	struct rp_sim sim;
	double seconds;
	double deadline;	/* rp_now() time it was given to end by, or
				   0: none */
	char *note;		/* remark or failure reason, or NULL */
	double bound;		/* lower bound found by the strategy, or NaN;
				   +inf: it proved that none of the plans
				   it searches fits */
};

/* The best of a series of candidate plans: fitting beats not fitting, then
 * lower cost (when fitting) or lower peak (when not). With tie set, fitting
 * plans are compared as rp_pick compares them (rp_plan_better: costs equal
 * to RP_COST_TIE, the lower peak), so that a row made of other rows' plans
 * shows the one the run would pick among them. */
struct rp_best {
	struct rp_plan plan;
	int have, fits;
	double cost;
	int64_t peak;
	char *note;
	int tag;		/* the caller's label for where it came from */
	int tie;		/* set after rp_best_init, where wanted */
};
void rp_best_init(struct rp_best *b);
void rp_best_destroy(struct rp_best *b);
/* Replays plan (which it takes, with note) and keeps it if it is better
 * for problem pb. Returns 0, or -1 with *cause set when the simulator
 * rejects it. */
int rp_best_offer(struct rp_best *b, const struct rp_problem *pb,
    struct rp_plan *plan, char *note, char **cause);
/* The same, labelling the plan with tag (rp_best_offer's tag is 0). */
int rp_best_offer_tagged(struct rp_best *b, const struct rp_problem *pb,
    struct rp_plan *plan, char *note, int tag, char **cause);
/* Hands the kept plan and note over to the caller. */
void rp_best_take(struct rp_best *b, struct rp_plan *plan, char **note);

/* All available strategies, in report order; *n is set to their count. */
const struct rp_strategy *const *rp_strategy_list(int *n);
/* The strategy called name, or NULL. */
const struct rp_strategy *rp_strategy_find(const char *name);

/* Runs s on pb, filling res (destroy with rp_result_destroy). s runs in a
 * context of its own made from parent: the same options, log and shared
 * results, and a deadline from --time-limit (or the solver default), never
 * later than the parent's. */
void rp_strategy_run(const struct rp_strategy *s, const struct rp_problem *pb,
    const struct rp_ctx *parent, struct rp_result *res);
void rp_result_destroy(struct rp_result *res);

/* A run's lower bound and where it comes from. */
struct rp_bound {
	double value;	/* NaN: none; +inf: no frontier-advancing plan fits */
	int stage;	/* the stage whose memory gives it, or -1 where a
			   strategy's bound, the bound for every plan or the
			   baseline is as strong */
	int lp;		/* 1: that stage's LP gives it, 2: its search in
			   whole values (stagebound.h) */
	/* The bound for every plan, of any form (cutbound.h): at least the
	 * baseline, +inf where it proves that no plan fits; value is never
	 * below it. */
	double any;
	int any_node;	/* the node whose first computation gives it, -1 */
	int any_stopped;	/* its search was cut short by the deadline */
};

/* The strongest lower bound among res[0..n) and, where one of them has a
 * bound, the stage memory bound of pb (stagebound.h), strengthened by the
 * stages' LPs until deadline (rp_now() time; <= 0: none), in b; where sm
 * (may be NULL) holds that stage bound for pb's budget, computed in full
 * during the run, it is taken instead of solving the LPs again. Then the
 * bound for every plan (cutbound.h), in the time left, which raises
 * b->value where it is higher. Returns b->value. */
struct rp_stage_memo;
double rp_results_bound(const struct rp_problem *pb,
    const struct rp_result *res, int n, double deadline,
    const struct rp_stage_memo *sm, struct rp_bound *b);

/* Whether b->value (rp_results_bound's) holds for every plan: it is the
 * baseline, or the bound for every plan reaches it; else it holds for
 * frontier-advancing plans only. */
int rp_bound_for_all(const struct rp_problem *pb, const struct rp_bound *b);

/* The deadline of the strategies of a run that started at start (the
 * graph read): twice the limit from then, but never less than a tenth
 * of the limit from now (work that does not look at the clock, such as
 * the search for the smallest budget, may have taken the rest). */
double rp_run_deadline(const struct rp_options *o, double start);

/* The deadline of the bound's LPs after a run of n strategies that
 * started at start: what is left of the run's time (twice --time-limit,
 * or the limit itself for one strategy), at most 5 s, and never less
 * than a tenth of the limit (at most half a second) past it, so that a
 * run ends within its time and half a second or so (the limit:
 * rp_run_limit). */
double rp_bound_deadline(const struct rp_options *o, double start, int n);

/* The time limit that bounds a whole run: --time-limit, or
 * RP_SOLVER_DEFAULT_SECONDS when it is not given (a run of every strategy
 * then stops within twice that as well). */
double rp_run_limit(const struct rp_options *o);

/* Whether s uses all the time it is given on pb (anytime, and not idle
 * there with the run's limit): such strategies share a run's time. */
int rp_strategy_busy(const struct rp_strategy *s, const struct rp_problem *pb,
    const struct rp_options *o);

/* Whether cost a is below cost b by more than rounding: plans that make
 * the same computations in another order sum their costs in another
 * order, and are as cheap (RP_COST_TIE relative). */
#define RP_COST_TIE 1e-12
int rp_cost_less(double a, double b);

/* Whether a fitting plan of cost c and peak p is picked over one of cost
 * bc and peak bp: cheaper (rp_cost_less), or as cheap with a lower peak. */
int rp_plan_better(double c, int64_t p, double bc, int64_t bp);

/* The index of the cheapest result that fits (ties: lower peak, then
 * earlier; rp_plan_better), or -1 when none fits. */
int rp_pick(const struct rp_result *res, int n);

/* Whether r fits at the baseline cost (each node computed once, or only
 * recomputations of no cost), which no plan can beat. */
int rp_result_at_baseline(const struct rp_problem *pb,
    const struct rp_result *r);

const char *rp_status_name(enum rp_status st);

/* The checkpoint-all plan: every node once, in order, each value freed after
 * its last reader, outputs kept. Also the reference for percent budgets. */
void rp_plan_checkpoint_all(const struct rp_graph *g, struct rp_plan *out);

extern const struct rp_strategy rp_strategy_checkpoint_all;
extern const struct rp_strategy rp_strategy_chen_sqrtn;
extern const struct rp_strategy rp_strategy_chen_greedy;
extern const struct rp_strategy rp_strategy_dtr;
extern const struct rp_strategy rp_strategy_lookahead;
extern const struct rp_strategy rp_strategy_peak_split;
/* peak-split without its restarts (the descent from the covering cuts and
 * the two plain descents only), seeded, by deadline (<= 0: none): a plan
 * into plan (left empty where none fits) with *note. Returns 0, or -1
 * with *cause set. */
int rp_peak_split_quick(const struct rp_problem *pb, uint64_t seed,
    double deadline, struct rp_plan *plan, char **note, char **cause);
extern const struct rp_strategy rp_strategy_chain_dp;
extern const struct rp_strategy rp_strategy_reorder;
extern const struct rp_strategy rp_strategy_pebble;
extern const struct rp_strategy rp_strategy_lp_round;
extern const struct rp_strategy rp_strategy_ilp;

#endif
