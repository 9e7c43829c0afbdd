/* engine.h: the interface in front of each MILP engine.
 *
 * An engine loads a solver-neutral model (mip.h), changes its bounds,
 * solves its LP relaxation and searches it by branch and bound. One file
 * per engine: engine-glpk.c (always built, the only module that includes
 * glpk.h) and engine-cbc.c (COIN-OR CBC with its LP solver Clp, built when
 * configure finds it; the only module that includes CBC). The searches run
 * in a worker child (worker.h), so their deadlines are hard. Columns and
 * rows are numbered as in the model. */
#ifndef RP_ENGINE_H
#define RP_ENGINE_H

#include "mip.h"
#include "worker.h"

enum rp_milp_engine { RP_MILP_GLPK, RP_MILP_CBC };

enum rp_milp_result {
	RP_MILP_OPTIMAL,	/* solved and proven */
	RP_MILP_FEASIBLE,	/* a solution, not proven optimal (limit hit) */
	RP_MILP_INFEASIBLE,	/* proven: no solution exists */
	RP_MILP_NOSOLUTION,	/* no solution found within the limits */
	RP_MILP_ERROR		/* the solver failed */
};

/* A model loaded into one engine. */
struct rp_engine;

/* What a branch-and-bound search is asked to do. */
struct rp_search {
	double deadline;	/* rp_now() time to stop by; <= 0: none */
	double gap;		/* relative gap to stop at; 0: prove */
	const double *start;	/* a starting solution by column, or NULL */
	double start_obj;	/* its objective */
	/* The columns an incumbent is reported by: the payload of each
	 * incumbent is the positions in watch of those at 1, ascending. */
	const int *watch;
	int nwatch;
	int int_obj;		/* every objective coefficient is an integer */
	double lp_bound;	/* the LP relaxation's optimum, rounded */
	int threads;		/* for an engine that has them */
	/* GLPK: stop after this many subproblems (0: no limit), a limit
	 * that, unlike a deadline, ends the search at the same place on
	 * every machine. */
	long node_limit;
};

struct rp_engine_ops {
	const char *name;
	/* Loads p (which the engine copies: p may go afterwards). */
	struct rp_engine *(*load)(const struct rp_mip *p);
	void (*free)(struct rp_engine *e);
	/* Changes bounds (-HUGE_VAL, HUGE_VAL: none). */
	void (*set_col_bounds)(struct rp_engine *e, int c, double lo, double hi);
	void (*set_row_bounds)(struct rp_engine *e, int r, double lo, double hi);
	/* Solves the LP relaxation by deadline (rp_now() time; <= 0: none).
	 * RP_MILP_OPTIMAL: *obj is its optimum, and lp_value reads the
	 * solution. RP_MILP_NOSOLUTION: time ran out, and *bound is a lower
	 * bound proven by then, or NaN. */
	enum rp_milp_result (*solve_lp)(struct rp_engine *e, double deadline,
	    double *obj, double *bound);
	/* Column c's value in the last optimal LP solution. */
	double (*lp_value)(const struct rp_engine *e, int c);
	/* A lower bound that the row prices of the engine's current basis
	 * prove, optimal or not (NaN when it keeps none); for tests. */
	double (*price_bound)(const struct rp_engine *e);
	/* Simplex iterations so far. */
	int (*lp_iterations)(const struct rp_engine *e);
	/* Searches, from the LP relaxation solved last, in a worker killed
	 * at s->deadline. out is the worker's report (worker.h): status an
	 * enum rp_milp_result, aux 1 when the starting solution was the
	 * first incumbent, each incumbent's payload as s->watch says. */
	void (*search)(struct rp_engine *e, const struct rp_search *s,
	    struct rp_worker_out *out);
	/* Whether an LP solve starts afresh (no basis is kept from the last
	 * one): then a solution worth reusing is worth keeping. */
	int cold_lp;
};

extern const struct rp_engine_ops rp_engine_glpk;
#ifdef HAVE_CBC
extern const struct rp_engine_ops rp_engine_cbc;
#endif

/* The engine, or NULL when it is not built in. */
const struct rp_engine_ops *rp_engine_get(enum rp_milp_engine which);

/* GLPK's model files and its own log, which only it has. */
/* Writes e (a GLPK model) as MPS (free format) or CPLEX LP. Returns 0, or
 * -1 with *cause set. */
int rp_engine_glpk_write(struct rp_engine *e, const char *path, int lp_format,
    const char *refuse, char **cause);
/* Where GLPK's messages go: called with each chunk of its output. NULL
 * (the default) keeps GLPK quiet. */
void rp_engine_glpk_log(void (*log)(void *ctx, const char *msg), void *ctx);

#endif
