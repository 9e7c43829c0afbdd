/* milp.h: the rematerialization MILP as the strategies use it: a
 * formulation (checkmate.h) loaded into an engine (engine.h), its LP
 * relaxation, starting plans and the search.
 *
 * A model is built for one budget, its own; an LP relaxation can be solved
 * at another budget (LP rounding's allowances), and the model keeps the
 * solution and bound of the last one. Offers and the search are always at
 * the model's own budget. */
#ifndef RP_MILP_H
#define RP_MILP_H

#include <stdint.h>

#include "checkmate.h"
#include "engine.h"
#include "graph.h"
#include "plan.h"
#include "sched.h"

struct rp_milp;

/* Figures of a built model, for reports and benchmarks. */
struct rp_milp_stats {
	int rows, cols, binaries;
	long nonzeros;
	int eliminated;		/* variables fixed to 0 before solving */
	double build_s;		/* formulation, and loading into the engine
				   once the first solve has done it */
	int lp_iterations;	/* the engine's simplex iterations so far */
};

/* Formulation choices, to measure what each gains (rp_milp_build uses the
 * first three): see checkmate.h. The optimum is the same with all of
 * them. RP_MILP_SLACK_START is no formulation: GLPK then solves the LP
 * relaxation from its all-slack basis instead of checkpoint-all's. */
#define RP_MILP_REDUCE RP_CHECKMATE_REDUCE
#define RP_MILP_SPLIT_FREE RP_CHECKMATE_SPLIT_FREE
#define RP_MILP_STAGE_ROWS RP_CHECKMATE_STAGE_ROWS
#define RP_MILP_SLACK_START RP_CHECKMATE_SLACK_START

/* Builds the model of g at budget bytes, for GLPK unless
 * rp_milp_set_engine says otherwise (the engine takes it at the first
 * solve), or returns NULL with *cause set. The caller frees it with
 * rp_milp_free. */
struct rp_milp *rp_milp_build(const struct rp_graph *g, int64_t budget,
    char **cause);
struct rp_milp *rp_milp_build_ex(const struct rp_graph *g, int64_t budget,
    int flags, char **cause);

/* rp_milp_build for a search of seconds (<= 0: no limit) on the engine:
 * the model's size is counted first (rp_checkmate_size), and where its LP
 * relaxation would take the engine far longer than that (rp_milp_lp_guess)
 * or the model would not fit in memory, it is not built: NULL, with
 * *cause saying why. */
struct rp_milp *rp_milp_build_within(const struct rp_graph *g, int64_t budget,
    enum rp_milp_engine engine, double seconds, char **cause);
/* Whether rp_milp_build_within would build the model for seconds (it
 * may still fail for memory). */
int rp_milp_would_build(const struct rp_graph *g, enum rp_milp_engine engine,
    double seconds);

/* A rough guess of the seconds the engine takes for the LP relaxation of
 * a model with this many nonzeros, from measurements on the 2-core
 * development machine (GLPK's dual simplex from checkpoint-all's basis:
 * 0.3-2 s at 70k nonzeros, 5-15 s at 330k, 256 s to over 900 s at 1.8M;
 * Clp about 4 times faster): 15 s x (nonzeros / 330k)^2.2 for GLPK. */
double rp_milp_lp_guess(enum rp_milp_engine engine, long nonzeros);
/* rp_milp_lp_guess for the model of g (its size counted, O(n^2)) where
 * rp_milp_would_build would build it for seconds, else -1. */
double rp_milp_lp_seconds(const struct rp_graph *g, enum rp_milp_engine engine,
    double seconds);
void rp_milp_free(struct rp_milp *m);

void rp_milp_stats(const struct rp_milp *m, struct rp_milp_stats *st);

/* Where solver messages go: called with each chunk of GLPK's output. NULL
 * (the default) keeps GLPK quiet. */
void rp_milp_set_log(void (*log)(void *ctx, const char *msg), void *ctx);

/* The engine that solves the LP relaxation and searches: GLPK (always
 * built) or COIN-OR CBC with its LP solver Clp (when configure found it).
 * threads: CBC's threads (GLPK has one). Returns -1 when the engine is not
 * built in. */
int rp_milp_set_engine(struct rp_milp *m, enum rp_milp_engine engine,
    int threads);
int rp_milp_have_cbc(void);

/* Solves the LP relaxation at budget bytes by deadline (rp_now() time,
 * <= 0: none). On success sets *obj (a lower bound on the cost of every
 * frontier-advancing plan within that budget) and keeps the fractional
 * solution for rp_milp_lp_s. */
enum rp_milp_result rp_milp_solve_lp(struct rp_milp *m, int64_t budget,
    double deadline, double *obj);

/* A lower bound from the last rp_milp_solve_lp: the optimum when it was
 * solved, else, when the engine stopped at the deadline, the bound its row
 * prices prove by then (Lagrangian duality, see engine-glpk.c); NaN when
 * there is none. Where every node's cost is an integer, so is every
 * plan's, and this bound (like the search's) is rounded up. */
double rp_milp_lp_bound(const struct rp_milp *m);

/* The bound that the row prices of the engine's current basis prove,
 * optimal or not (at an optimal basis: the LP optimum); for tests. */
double rp_milp_price_bound(const struct rp_milp *m);

/* S[t][i] of the last LP solution (0 when not in the model). */
double rp_milp_lp_s(const struct rp_milp *m, int t, int i);

/* Offers a plan as a starting solution (rp_checkmate_offer at the model's
 * budget). Returns 0 when accepted, -1 when the plan is not
 * frontier-advancing or does not fit the model's stricter accounting.
 * Keeps the cheapest accepted one. */
int rp_milp_offer(struct rp_milp *m, const struct rp_plan *p);

struct rp_milp_solution {
	enum rp_milp_result result;
	double obj;		/* objective of the best solution */
	double bound;		/* best proven lower bound, NaN if unknown */
	double first_s;		/* seconds to the first incumbent, -1: none */
	double solve_s;		/* seconds in the search */
	int used_offer;		/* the offered plan was the starting incumbent */
};

/* Runs branch and bound at the model's budget by deadline (rp_now() time,
 * <= 0: none) and to relative gap mip_gap, from the LP relaxation (solved
 * here if it is not solved at that budget). The search runs in a child
 * process killed at the deadline (worker.h), so the limit is hard; what it
 * found by then is kept. On a solution, appends its compute sequence
 * (stage by stage) to seq. */
void rp_milp_solve(struct rp_milp *m, double deadline, double mip_gap,
    struct rp_milp_solution *sol, struct rp_seq *seq);

/* Reads a solution of the model written by another solver (see
 * rp_checkmate_read_solution). */
int rp_milp_read_solution(struct rp_milp *m, const char *path,
    struct rp_seq *seq, char **cause);

/* Writes the model at its budget in MPS (free format) or CPLEX LP format.
 * Columns are named R_t_i, S_t_i (recompute, keep node i in stage t),
 * F_t_e (free the e-th edge's input in stage t) and U_t_k (memory after
 * node k). The file is written as rp_write_output writes (files.h), never
 * over refuse. Returns 0, or -1 with *cause set. */
int rp_milp_write(struct rp_milp *m, const char *path, int lp_format,
    const char *refuse, char **cause);

#endif
