/* cbc.h: COIN-OR CBC as a second MILP engine (--solver cbc), for the model
 * milp.c builds. The only module that includes CBC's header; built only
 * when configure finds CBC (HAVE_CBC). */
#ifndef RP_CBC_H
#define RP_CBC_H

/* A MILP in column-major form, 0-based; rows lo <= Ax <= hi (+-HUGE_VAL
 * for no bound). The arrays belong to the caller. */
struct rp_cbc_model {
	int nrows, ncols;
	const int *start;	/* ncols + 1 column starts into index/value */
	const int *index;	/* row of each nonzero */
	const double *value;
	const double *collo, *colhi, *obj;
	const double *rowlo, *rowhi;
	const char *integer;	/* 1: integer column */
};

enum rp_cbc_status {
	RP_CBC_OPTIMAL,		/* proven optimal (within the gap) */
	RP_CBC_FEASIBLE,	/* a solution, stopped at the time limit */
	RP_CBC_INFEASIBLE,	/* proven infeasible */
	RP_CBC_NOSOLUTION,	/* stopped with no solution */
	RP_CBC_ERROR
};

/* Solves md by branch and cut within seconds (<= 0: none) to relative gap
 * gap with threads threads, from the starting solution start (column
 * values, NULL: none). On a solution fills x (ncols values) and *obj;
 * *bound gets the best proven bound (-HUGE_VAL if none). CBC is quiet. */
enum rp_cbc_status rp_cbc_solve(const struct rp_cbc_model *md,
    const double *start, double seconds, double gap, int threads,
    double *x, double *obj, double *bound);

/* Solves the LP relaxation of md (every column continuous) with CBC's LP
 * solver, Clp. On success fills x and *obj and returns RP_CBC_OPTIMAL.
 * Clp does not look at a clock: run it where it can be stopped. */
enum rp_cbc_status rp_cbc_solve_lp(const struct rp_cbc_model *md, double *x,
    double *obj);

#endif
