/* milp.h: Checkmate's frontier-advancing rematerialization MILP (Jain et
 * al., MLSys 2020, problem (9) with constraints (8a-8c) and FREE over edges,
 * section 4.8), extended to remat-plan's memory model, built and solved with
 * GLPK. This is the only module that includes glpk.h.
 *
 * Stage t computes node t for the first time (R[t][t] = 1), after
 * recomputing, in index order, the nodes with R[t][i] = 1; S[t][i] = 1 keeps
 * value i resident from stage t-1 into stage t. FREE[t](i,k) frees input i
 * after computing k in stage t; U[t][k] is the memory in use after k. Memory
 * is counted in units of the largest node footprint so the matrix stays well
 * conditioned. The model's lower bound holds for frontier-advancing
 * schedules, the ones this model describes. */
#ifndef RP_MILP_H
#define RP_MILP_H

#include <stdint.h>

#include "graph.h"
#include "plan.h"
#include "sched.h"

struct rp_milp;

/* Figures of a built model, for reports and benchmarks. */
struct rp_milp_stats {
	int rows, cols, binaries;
	long nonzeros;
	int eliminated;		/* variables fixed to 0 before solving */
	double build_s;
	int lp_iterations;	/* GLPK's simplex iterations so far */
};

/* Largest graph the model is built for: it has O(n^2) stages x nodes. */
#define RP_MILP_MAX_NODES 2000

/* Builds the model of g at budget bytes, or returns NULL with *cause set.
 * The caller frees it with rp_milp_free. */
struct rp_milp *rp_milp_build(const struct rp_graph *g, int64_t budget,
    char **cause);
/* The same with a choice of formulation, to measure what each choice
 * gains (rp_milp_build uses all three): RP_MILP_REDUCE leaves out the
 * variables that cannot be nonzero in an optimal solution and FREE's lower
 * rows; RP_MILP_SPLIT_FREE gives each hazard that forbids a FREE its own
 * row instead of Checkmate's one row per FREE; RP_MILP_STAGE_ROWS adds, for
 * each stage, the memory while it computes its new node as one row over
 * the binaries (see milp.c). The optimum is the same with all of them. */
#define RP_MILP_REDUCE 1
#define RP_MILP_SPLIT_FREE 2
#define RP_MILP_STAGE_ROWS 4
/* Not a formulation: GLPK solves the LP relaxation from its standard
 * all-slack basis instead of checkpoint-all's (milp.c), for benchmarks. */
#define RP_MILP_SLACK_START 8
struct rp_milp *rp_milp_build_ex(const struct rp_graph *g, int64_t budget,
    int flags, char **cause);
void rp_milp_free(struct rp_milp *m);

/* Changes the model's budget (bytes); the LP relaxation must be solved
 * again (from the last basis) and offers made again, except that a Clp
 * solution at the budget the model was built for is kept and comes back
 * with that budget. */
void rp_milp_set_budget(struct rp_milp *m, int64_t budget);
void rp_milp_stats(const struct rp_milp *m, struct rp_milp_stats *st);

/* Where solver messages go: called with each chunk of GLPK's output. NULL
 * (the default) keeps GLPK quiet. */
void rp_milp_set_log(void (*log)(void *ctx, const char *msg), void *ctx);

enum rp_milp_result {
	RP_MILP_OPTIMAL,	/* solved and proven */
	RP_MILP_FEASIBLE,	/* a solution, not proven optimal (limit hit) */
	RP_MILP_INFEASIBLE,	/* proven: no frontier-advancing plan fits */
	RP_MILP_NOSOLUTION,	/* no solution found within the limits */
	RP_MILP_ERROR		/* the solver failed */
};

/* Solves the LP relaxation within seconds (<= 0: no limit). On success
 * sets *obj (a lower bound on every frontier-advancing plan's cost) and
 * keeps the fractional solution for rp_milp_lp_s. */
enum rp_milp_result rp_milp_solve_lp(struct rp_milp *m, double seconds,
    double *obj);

/* A lower bound from the last rp_milp_solve_lp: the optimum when it was
 * solved, else, when GLPK's dual simplex stopped at the time limit, the
 * bound its row prices prove by then (Lagrangian duality, see milp.c);
 * NaN when there is none. Where every node's cost is an integer, so is
 * every plan's, and this bound (like the search's) is rounded up. */
double rp_milp_lp_bound(const struct rp_milp *m);

/* The bound that the row prices of GLPK's current basis prove, optimal
 * or not (at an optimal basis: the LP optimum); for tests. */
double rp_milp_price_bound(const struct rp_milp *m);

/* S[t][i] of the last LP solution (0 when not in the model). */
double rp_milp_lp_s(const struct rp_milp *m, int t, int i);

/* Offers a plan as a starting solution: its stages are taken apart into R
 * and S (useless retentions dropped), FREE and U follow, and if the result
 * fits the model it is kept for the search. Returns 0 when accepted, -1 when
 * the plan is not frontier-advancing or does not fit the model's stricter
 * accounting. Keeps the cheapest accepted one. */
int rp_milp_offer(struct rp_milp *m, const struct rp_plan *p);

/* The engine that solves the LP relaxation and searches: GLPK (always
 * built) or COIN-OR CBC with its LP solver Clp (when configure found it).
 * threads: CBC's threads (GLPK has one). Returns -1 when the engine is not
 * built in. */
enum rp_milp_engine { RP_MILP_GLPK, RP_MILP_CBC };
int rp_milp_set_engine(struct rp_milp *m, enum rp_milp_engine engine,
    int threads);
int rp_milp_have_cbc(void);

struct rp_milp_solution {
	enum rp_milp_result result;
	double obj;		/* objective of the best solution */
	double bound;		/* best proven lower bound, NaN if unknown */
	double first_s;		/* seconds to the first incumbent, -1: none */
	double solve_s;		/* seconds in the search */
	int used_offer;		/* the offered plan was the starting incumbent */
};

/* Runs branch and bound within seconds (<= 0: no limit) and relative gap
 * mip_gap, from the LP relaxation (solved here if not yet). The search runs
 * in a child process killed when the time is up (worker.h), so the limit
 * is hard; what it found by then is kept. On a solution, appends its
 * compute sequence (stage by stage) to seq. */
void rp_milp_solve(struct rp_milp *m, double seconds, double mip_gap,
    struct rp_milp_solution *sol, struct rp_seq *seq);

/* Reads a solution of the model written by another solver: GLPK's own
 * format (glp_write_mip), or any text giving "R_t_i value" (CBC, Gurobi,
 * SCIP, HiGHS solution files). Appends the compute sequence to seq; the
 * caller validates the plan. Returns 0, or -1 with *cause set. */
int rp_milp_read_solution(struct rp_milp *m, const char *path,
    struct rp_seq *seq, char **cause);

/* Writes the model in MPS (free format) or CPLEX LP format. Columns are
 * named R_t_i, S_t_i (recompute, keep node i in stage t), F_t_e (free the
 * e-th edge's input in stage t) and U_t_k (memory after node k). */
int rp_milp_write(struct rp_milp *m, const char *path, int lp_format,
    char **cause);

#endif
