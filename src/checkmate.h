/* checkmate.h: Checkmate's frontier-advancing rematerialization MILP (Jain
 * et al., MLSys 2020, problem (9) with constraints (8a-8c) and FREE over
 * edges, section 4.8), extended to remat-plan's memory model, as a
 * solver-neutral model (mip.h), and the decoding between plans and its
 * variables.
 *
 * Stage t computes node t for the first time (R[t][t] = 1), after
 * recomputing, in index order, the nodes with R[t][i] = 1; S[t][i] = 1 keeps
 * value i resident from stage t-1 into stage t. FREE[t](i,k) frees input i
 * after computing k in stage t; U[t][k] is the memory in use after k. Memory
 * is counted in units of the largest node footprint so the matrix stays well
 * conditioned. The model's lower bound holds for frontier-advancing
 * schedules, the ones this model describes. Size: O(n^2) columns and
 * O(n^2 + n m) rows and nonzeros for n nodes and m edges. */
#ifndef RP_CHECKMATE_H
#define RP_CHECKMATE_H

#include <stdint.h>

#include "graph.h"
#include "mip.h"
#include "plan.h"
#include "sched.h"

/* Formulation choices (rp_checkmate_build uses all three by default, see
 * RP_MILP_* in milp.h): leave out the variables that cannot be nonzero in an
 * optimal solution and FREE's lower rows; a row per hazard that forbids a
 * FREE instead of Checkmate's one row per FREE; a stage row per stage. */
#define RP_CHECKMATE_REDUCE 1
#define RP_CHECKMATE_SPLIT_FREE 2
#define RP_CHECKMATE_STAGE_ROWS 4
/* Not a formulation: no starting basis (the engine's own), for benchmarks. */
#define RP_CHECKMATE_SLACK_START 8
/* Counts the model instead of building it (rp_checkmate_size). */
#define RP_CHECKMATE_COUNT 16

struct rp_checkmate {
	const struct rp_graph *g;
	int n;
	struct rp_mip mip;	/* the model, at the budget it was built for */
	double unit;		/* bytes per memory unit of the model */
	int int_cost;		/* every cost is an integer, so is every
				   plan's: bounds round up */
	/* Columns by tri(t, i) = t(t+1)/2 + i, -1 where not in the model:
	 * R, S, U, and the row that defines each U. */
	int *rcol, *scol, *ucol, *urow;
	int *fcol;		/* FREE by fbase[t] + edge, edges in pred CSR order */
	long *fbase;
	int *brow, nbrow;	/* rows bounded above by the budget */
	int *watch, nwatch;	/* the R columns, stage by stage */
	int *watch_node;	/* the node of each */
	int elim, nbin;
	int count_partial;	/* RP_CHECKMATE_COUNT stopped past
				   RP_CHECKMATE_COUNT_LIMIT nonzeros */
};

/* Builds the model of g at budget bytes with the given RP_CHECKMATE_*
 * flags. Returns 0, or -1 with *cause set when the graph is too large for
 * the model. Destroy f with rp_checkmate_destroy. */
int rp_checkmate_build(struct rp_checkmate *f, const struct rp_graph *g,
    int64_t budget, int flags, char **cause);
void rp_checkmate_destroy(struct rp_checkmate *f);

/* Largest graph the model is built for: it has O(n^2) stages x nodes. */
#define RP_CHECKMATE_MAX_NODES 2000

/* How large the model of g would be. */
struct rp_checkmate_size {
	long rows, cols, nonzeros;
	int exact;	/* 0: a lower bound (too large to count) */
};
/* Above this many nonzeros the model is not counted exactly: just above
 * the most that is built (milp.c). */
#define RP_CHECKMATE_COUNT_LIMIT 8000000L
/* Counts the rows, columns and nonzeros of the model of g with the given
 * flags, without holding it: the index arrays alone, O(n^2) ints. The
 * count stops past RP_CHECKMATE_COUNT_LIMIT nonzeros (exact 0: a lower
 * bound), so the time is O(n^2 + RP_CHECKMATE_COUNT_LIMIT) whatever the
 * graph's degrees. */
void rp_checkmate_size(const struct rp_graph *g, int flags,
    struct rp_checkmate_size *sz);

/* The budget bytes in the model's memory units, above fixed memory. */
double rp_checkmate_units(const struct rp_checkmate *f, int64_t budget);

/* The bounds that change with the budget: calls set(ctx, 0, c, lo, hi)
 * for every U column c and set(ctx, 1, r, lo, hi) for every budget row r,
 * for a budget of units (rp_checkmate_units). */
void rp_checkmate_budget_bounds(const struct rp_checkmate *f, double units,
    void (*set)(void *ctx, int row, int k, double lo, double hi), void *ctx);

/* The column of S[t][i], or -1 when it is not in the model. */
int rp_checkmate_scol(const struct rp_checkmate *f, int t, int i);

/* Turns the positions in f->watch of the R columns at 1 (ascending, as an
 * engine reports an incumbent) into the compute sequence, stage by stage,
 * appended to seq. */
void rp_checkmate_decode(const struct rp_checkmate *f, const int *on, int n,
    struct rp_seq *seq);

/* Takes plan p apart into R and S by stage (useless retentions dropped),
 * sets FREE and U as the model defines them, and checks the result
 * against the model at a budget of units. On success fills x (one value
 * per column), sets *obj and returns 0; returns -1 when the plan is not
 * frontier-advancing or does not fit the model's stricter accounting. */
int rp_checkmate_offer(const struct rp_checkmate *f, const struct rp_plan *p,
    double units, double *x, double *obj);

/* Reads a solution of the model written by another solver: GLPK's own
 * format (glp_write_mip), or any text giving "R_t_i value" (CBC, Gurobi,
 * SCIP, HiGHS solution files). Appends the compute sequence to seq; the
 * caller validates the plan. Returns 0, or -1 with *cause set. */
int rp_checkmate_read_solution(const struct rp_checkmate *f, const char *path,
    struct rp_seq *seq, char **cause);
/* The same for the len bytes at data, named path in messages. */
int rp_checkmate_read_solution_memory(const struct rp_checkmate *f,
    const char *data, size_t len, const char *path, struct rp_seq *seq,
    char **cause);

#endif
