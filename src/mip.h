/* mip.h: a mixed-integer program in a form no solver owns.
 *
 * Formulations (checkmate.c) build one; engines (engine.h) load it. Columns
 * and rows are numbered from 0 in the order they are added; a bound of
 * -HUGE_VAL or HUGE_VAL is no bound. The coefficients are kept as triplets
 * in the order they were added, which is the order an engine is handed
 * them in, so that the same model always gives the same solver state.
 * Memory: 16 bytes per nonzero, 26 per column and 16 per row, plus what
 * the starting basis takes (2 bytes per column and row). */
#ifndef RP_MIP_H
#define RP_MIP_H

#include <stddef.h>

/* Where a column or row starts in a basis: basic, or nonbasic at its lower
 * or upper bound (at its value, when both are equal). */
enum rp_mip_stat { RP_MIP_BASIC = 1, RP_MIP_AT_LOWER, RP_MIP_AT_UPPER };

struct rp_mip {
	int ncols, nrows;
	double *clo, *chi, *obj;	/* by column */
	unsigned char *integer;		/* by column: 1 integer, 0 continuous */
	double *rlo, *rhi;		/* by row */
	int *ia, *ja;			/* nonzeros: row, column, value */
	double *ar;
	long nnz;
	/* A starting basis (enum rp_mip_stat by column and by row), or NULL
	 * when the engine should choose. */
	unsigned char *cstat, *rstat;
	/* Writes the name of column c into buf (for exported models and
	 * solutions read back); NULL: columns are unnamed. */
	void (*colname)(const void *ctx, int c, char *buf, size_t len);
	const void *namectx;
	int ccap, rcap;
	long zcap;
	int counting;		/* 1: only counts columns, rows and nonzeros */
};

void rp_mip_init(struct rp_mip *p);
/* Starts a model that only counts what is added (ncols, nrows, nnz), so
 * that a formulation can say how large a model would be without the
 * memory to hold it. */
void rp_mip_init_counting(struct rp_mip *p);
void rp_mip_destroy(struct rp_mip *p);
/* Adds a column; returns its number. */
int rp_mip_add_col(struct rp_mip *p, double lo, double hi, double obj,
    int integer);
/* Adds a row lo <= a'x <= hi; returns its number. */
int rp_mip_add_row(struct rp_mip *p, double lo, double hi);
/* Adds coefficient v at (row, col); a negative row or column (a variable
 * or row the formulation left out) or a zero v adds nothing. */
void rp_mip_add(struct rp_mip *p, int row, int col, double v);
/* Changes column c's bounds. */
void rp_mip_set_col_bounds(struct rp_mip *p, int c, double lo, double hi);
/* Allocates the starting basis, every column and row at RP_MIP_AT_LOWER;
 * call once all columns and rows are added. */
void rp_mip_basis_init(struct rp_mip *p);

/* A lower bound b on every solution's objective, made as strong as
 * integer objective coefficients allow (int_obj: every coefficient is an
 * integer, so is every solution's objective, and b rounds up). Only a
 * fractional part of at least 0.001 (or 1e-7 of b, for large b) is taken
 * for real, as GLPK does for its node bounds: a bound within the solvers'
 * tolerances above an integer may be that integer. */
double rp_mip_round_bound(int int_obj, double b);
/* Whether a lower bound b proves a solution of objective obj optimal, up
 * to the solvers' tolerance. */
int rp_mip_bound_reaches(double b, double obj);

#endif
