/* milp.c: the Checkmate MILP on GLPK (see milp.h for the model). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glpk.h>

#include "milp.h"
#include "util.h"
#include "worker.h"
#ifdef HAVE_CBC
#include "cbc.h"
#endif

struct rp_milp {
	glp_prob *lp;
	const struct rp_graph *g;
	int n;
	double unit;		/* bytes per memory unit of the model */
	double budget;		/* in units */
	int *rcol, *scol, *ucol;	/* by tri(t, i); 0: fixed at 0 */
	int *urow;		/* by tri(t, k): the row defining U[t][k] */
	int *fcol;		/* by fbase[t] + edge; edges in pred CSR order */
	long *fbase;
	int ncols, nrows, nbin, elim;
	long nnz;
	double build_s;
	int lp_ok;		/* the LP relaxation is solved */
	int slack_start;	/* RP_MILP_SLACK_START */
	int int_cost;		/* every cost is an integer, so is every
				   plan's: bounds round up */
	int started;		/* the LP has had its starting basis */
	double *lpx;		/* its solution by column (1-based) when an
				   engine other than GLPK solved it, else NULL */
	double lpobj;		/* its optimum */
	double lpbound;		/* bound from an LP stopped early, or NaN */
	double budget0;		/* the budget the model was built for */
	double *lpx0, lpobj0;	/* the Clp solution at budget0, kept for when
				   LP rounding comes back to it */
	double *warm;		/* accepted offer, by column (1-based) */
	int *brow, nbrow;	/* rows whose upper bound is the budget: U +
				   workspace, and the stage rows */
	double warm_obj;
	enum rp_milp_engine engine;
	int threads;
};

static long
tri(int t, int i)
{
	return (long)t * (t + 1) / 2 + i;
}

/* A lower bound on the cost of every plan of the model, b, made as strong
 * as the costs allow: where they are all integers, so is every plan's
 * cost, and b rounds up. Only a fractional part of at least 0.001 (or
 * 1e-7 of b, for large b) is taken for real, as GLPK does for its node
 * bounds: a bound within the solvers' tolerances above an integer may be
 * that integer. */
static double
round_bound(const struct rp_milp *m, double b)
{
	if (!m->int_cost || !isfinite(b))
		return b;
	return b - floor(b) >= fmax(1e-3, 1e-7 * fabs(b)) ? ceil(b) : b;
}

/* Whether a lower bound b proves a plan of cost obj optimal, up to the
 * solvers' tolerance. */
static int
bound_reaches(double b, double obj)
{
	return obj <= b + 1e-9 * fmax(1, fabs(b));
}

static void (*log_fn)(void *, const char *);
static void *log_ctx;

static int
term_hook(void *info, const char *s)
{
	(void)info;
	if (log_fn != NULL)
		log_fn(log_ctx, s);
	return 1;	/* GLPK prints nothing itself */
}

void
rp_milp_set_log(void (*log)(void *ctx, const char *msg), void *ctx)
{
	log_fn = log;
	log_ctx = ctx;
}

/* Triplets of the constraint matrix, 1-based as GLPK wants them. */
struct trip {
	int *ia, *ja;
	double *ar;
	long len, cap;
};

static void
trip_add(struct trip *tr, int row, int col, double v)
{
	if (row == 0 || col == 0 || v == 0)
		return;
	if (tr->len + 1 >= tr->cap) {
		tr->cap = tr->cap ? tr->cap * 2 : 1 << 16;
		tr->ia = rp_xreallocarray(tr->ia, (size_t)tr->cap, sizeof *tr->ia);
		tr->ja = rp_xreallocarray(tr->ja, (size_t)tr->cap, sizeof *tr->ja);
		tr->ar = rp_xreallocarray(tr->ar, (size_t)tr->cap, sizeof *tr->ar);
	}
	tr->len++;
	tr->ia[tr->len] = row;
	tr->ja[tr->len] = col;
	tr->ar[tr->len] = v;
}

/* Adds a column named NAME_a_b (for exported models and solutions read
 * back); kind 'B' binary, 'C' continuous in [lo, hi]. */
static int
add_col(struct rp_milp *m, char var, int a, int b, int kind, double lo,
    double hi, double obj)
{
	int c = glp_add_cols(m->lp, 1);
	char name[48];

	snprintf(name, sizeof name, "%c_%d_%d", var, a, b);
	glp_set_col_name(m->lp, c, name);
	if (kind == 'B') {
		glp_set_col_kind(m->lp, c, GLP_BV);	/* resets the bounds */
		m->nbin++;
	}
	if (lo == hi)
		glp_set_col_bnds(m->lp, c, GLP_FX, lo, hi);
	else
		glp_set_col_bnds(m->lp, c, GLP_DB, lo, hi);
	glp_set_obj_coef(m->lp, c, obj);
	m->ncols = c;
	return c;
}

static int
add_row(struct rp_milp *m, int type, double lo, double hi)
{
	int r = glp_add_rows(m->lp, 1);
	glp_set_row_bnds(m->lp, r, type, lo, hi);
	m->nrows = r;
	return r;
}

/* Adds a row bounded above by the budget, which rp_milp_set_budget moves. */
static int
add_budget_row(struct rp_milp *m)
{
	int r = add_row(m, GLP_UP, 0, m->budget);
	m->brow = rp_xreallocarray(m->brow, (size_t)m->nbrow + 1, sizeof *m->brow);
	m->brow[m->nbrow++] = r;
	return r;
}

/* Can keeping i into stage t serve anything? Only if a reader of i can
 * run in stage t or later: one at or after t, or an earlier one that may
 * be recomputed there. */
static int
read_from(const struct rp_graph *g, int i, int t)
{
	int e;
	for (e = g->succ_off[i]; e < g->succ_off[i + 1]; e++)
		if (g->succ[e] >= t || g->recompute[g->succ[e]])
			return 1;
	return 0;
}

struct rp_milp *
rp_milp_build(const struct rp_graph *g, int64_t budget, char **cause)
{
	return rp_milp_build_ex(g, budget, RP_MILP_REDUCE | RP_MILP_SPLIT_FREE |
	    RP_MILP_STAGE_ROWS, cause);
}

struct rp_milp *
rp_milp_build_ex(const struct rp_graph *g, int64_t budget, int flags,
    char **cause)
{
	int reduce = flags & RP_MILP_REDUCE, split = flags & RP_MILP_SPLIT_FREE;
	int stage_rows = flags & RP_MILP_STAGE_ROWS;
	struct rp_milp *m;
	struct trip tr = { 0 };
	int n = g->n, t, i, k, e, row;
	long sz = tri(n, 0);
	double t0 = rp_now(), big = 0;

	if (n > RP_MILP_MAX_NODES) {
		*cause = rp_xasprintf("the graph has %d nodes; the MILP is built "
		    "for at most %d", n, RP_MILP_MAX_NODES);
		return NULL;
	}
	glp_term_hook(term_hook, NULL);
	m = rp_xcalloc(1, sizeof *m);
	m->lpbound = NAN;
	m->slack_start = (flags & RP_MILP_SLACK_START) != 0;
	m->g = g;
	m->n = n;
	for (i = 0; i < n; i++)
		if ((double)(g->mem[i] + g->workspace[i]) > big)
			big = (double)(g->mem[i] + g->workspace[i]);
	m->unit = big > 0 ? big : 1;
	m->int_cost = 1;
	for (i = 0; i < n; i++)
		if (g->cost[i] != floor(g->cost[i]) || fabs(g->cost[i]) > 0x1p50)
			m->int_cost = 0;
	m->budget = (double)(budget - g->fixed_mem) / m->unit;
	m->budget0 = m->budget;
	m->rcol = rp_xcalloc((size_t)sz, sizeof *m->rcol);
	m->scol = rp_xcalloc((size_t)sz, sizeof *m->scol);
	m->ucol = rp_xcalloc((size_t)sz, sizeof *m->ucol);
	m->urow = rp_xcalloc((size_t)sz, sizeof *m->urow);
	m->fbase = rp_xcalloc((size_t)n + 1, sizeof *m->fbase);
	for (t = 0; t < n; t++)
		m->fbase[t + 1] = m->fbase[t] + g->pred_off[t + 1];
	m->fcol = rp_xcalloc((size_t)(m->fbase[n] ? m->fbase[n] : 1),
	    sizeof *m->fcol);
	m->lp = glp_create_prob();
	glp_set_obj_dir(m->lp, GLP_MIN);

	/* Columns. R[t][i] is left out when i may not be recomputed, and when
	 * i is read by nothing and is no output (computing it again cannot
	 * serve anything); S[t][i] when no reader of i can run in stage t or
	 * later and it is no output. Both hold in every optimal solution. */
	for (t = 0; t < n; t++)
		for (i = 0; i <= t; i++) {
			if (i == t)
				m->rcol[tri(t, i)] = add_col(m, 'R', t, i, 'B', 1, 1,
				    g->cost[i]);
			else if (g->recompute[i] && (!reduce || rp_nsucc(g, i) > 0 ||
			    g->output[i]))
				m->rcol[tri(t, i)] = add_col(m, 'R', t, i, 'B', 0, 1,
				    g->cost[i]);
			else
				m->elim++;
			if (i < t) {
				if (!reduce || read_from(g, i, t) || g->output[i])
					m->scol[tri(t, i)] = add_col(m, 'S', t, i, 'B', 0,
					    1, 0);
				else
					m->elim++;
			}
		}
	for (t = 0; t < n; t++)
		for (e = 0; e < g->pred_off[t + 1]; e++)
			m->fcol[m->fbase[t] + e] = add_col(m, 'F', t, e, 'B', 0,
			    1, 0);
	for (t = 0; t < n; t++)
		for (k = 0; k <= t; k++)
			m->ucol[tri(t, k)] = add_col(m, 'U', t, k, 'C', 0,
			    m->budget > 0 ? m->budget : 0, 0);

#define R(t, i) m->rcol[tri(t, i)]
#define S(t, i) ((i) < (t) ? m->scol[tri(t, i)] : 0)
	/* (1b): an input of a computed value is computed earlier in the
	 * stage or kept from the last one. */
	for (t = 0; t < n; t++)
		for (k = 0; k <= t; k++) {
			if (R(t, k) == 0)
				continue;
			for (e = g->pred_off[k]; e < g->pred_off[k + 1]; e++) {
				i = g->pred[e];
				row = add_row(m, GLP_UP, 0, 0);
				trip_add(&tr, row, R(t, k), 1);
				trip_add(&tr, row, R(t, i), -1);
				trip_add(&tr, row, S(t, i), -1);
			}
		}
	/* (1c): a kept value was computed or kept in the stage before. */
	for (t = 1; t < n; t++)
		for (i = 0; i < t; i++) {
			if (S(t, i) == 0)
				continue;
			row = add_row(m, GLP_UP, 0, 0);
			trip_add(&tr, row, S(t, i), 1);
			trip_add(&tr, row, R(t - 1, i), -1);
			trip_add(&tr, row, S(t - 1, i), -1);
		}
	/* Outputs are resident when the last stage ends. */
	for (i = 0; i < n; i++)
		if (g->output[i] && i < n - 1) {
			row = add_row(m, GLP_LO, 1, 0);
			trip_add(&tr, row, R(n - 1, i), 1);
			trip_add(&tr, row, S(n - 1, i), 1);
		}
	/* FREE: input i of k may be freed after k in stage t only when k is
	 * computed, i is not kept into t+1 (at the last stage: i is no
	 * output) and no later reader j of i (k < j <= t) is computed in the
	 * stage. Checkmate (7b, 7c) bounds FREE by the number of these
	 * hazards, kappa FREE <= kappa - hazards, and pins it to 1 when there
	 * are none, FREE >= 1 - hazards. With split, each hazard has its own
	 * row (FREE <= R[t][k], FREE + S[t+1][i] <= 1, FREE + R[t][j] <= 1):
	 * their sum is Checkmate's row, so the LP relaxation is tighter
	 * (bench/milp-model.sh). With reduce, the lower row is left out: FREE
	 * appears only in these rows and as a release in U, so raising a FREE
	 * that could be 1 to 1 keeps a solution feasible at the same cost,
	 * and every optimum stays one. Plans are built from R alone. */
	for (t = 0; t < n; t++)
		for (k = 0; k <= t; k++)
			for (e = g->pred_off[k]; e < g->pred_off[k + 1]; e++) {
				int fc = m->fcol[m->fbase[t] + e], j, r1 = 0, r2 = 0;
				int kappa = 2;
				i = g->pred[e];
				if (R(t, k) == 0 || (t == n - 1 && g->output[i])) {
					/* k is not computed in stage t, or i must
					 * stay resident: never freed here */
					glp_set_col_bnds(m->lp, fc, GLP_FX, 0, 0);
					continue;
				}
				/* r1: FREE - R[t][k] + S[t+1][i] + sum R[t][j] >= 0;
				 * r2: kappa FREE - R[t][k] + S[t+1][i] + sum R[t][j]
				 * <= kappa - 1, kappa = 2 + the number of readers j */
				if (!reduce) {
					r1 = add_row(m, GLP_LO, 0, 0);
					trip_add(&tr, r1, fc, 1);
					trip_add(&tr, r1, R(t, k), -1);
				}
				if (!split) {
					for (j = g->succ_off[i]; j < g->succ_off[i + 1]; j++)
						if (g->succ[j] > k && g->succ[j] <= t)
							kappa++;
					r2 = add_row(m, GLP_UP, 0, kappa - 1);
					trip_add(&tr, r2, fc, kappa);
					trip_add(&tr, r2, R(t, k), -1);
				} else if (k < t) {	/* R[t][t] is 1 */
					row = add_row(m, GLP_UP, 0, 0);
					trip_add(&tr, row, fc, 1);
					trip_add(&tr, row, R(t, k), -1);
				}
				if (t + 1 < n && S(t + 1, i) != 0) {
					if (split) {
						row = add_row(m, GLP_UP, 0, 1);
						trip_add(&tr, row, fc, 1);
						trip_add(&tr, row, S(t + 1, i), 1);
					}
					trip_add(&tr, r1, S(t + 1, i), 1);
					trip_add(&tr, r2, S(t + 1, i), 1);
				}
				for (j = g->succ_off[i]; j < g->succ_off[i + 1]; j++) {
					int u = g->succ[j];
					if (u <= k || u > t || R(t, u) == 0)
						continue;
					if (split) {
						row = add_row(m, GLP_UP, 0, 1);
						trip_add(&tr, row, fc, 1);
						trip_add(&tr, row, R(t, u), 1);
					}
					trip_add(&tr, r1, R(t, u), 1);
					trip_add(&tr, r2, R(t, u), 1);
				}
			}
	/* Memory: U[t][0] = sum of kept values + the first computed value;
	 * U[t][k] = U[t][k-1] - what is freed after k-1 + M_k R[t][k];
	 * and U[t][k] + workspace_k R[t][k] within the budget. */
	for (t = 0; t < n; t++)
		for (k = 0; k <= t; k++) {
			int u = m->ucol[tri(t, k)];
			row = add_row(m, GLP_FX, 0, 0);
			m->urow[tri(t, k)] = row;
			trip_add(&tr, row, u, 1);
			trip_add(&tr, row, R(t, k), -(double)g->mem[k] / m->unit);
			if (k == 0) {
				for (i = 0; i < t; i++)
					trip_add(&tr, row, S(t, i),
					    -(double)g->mem[i] / m->unit);
			} else {
				trip_add(&tr, row, m->ucol[tri(t, k - 1)], -1);
				for (e = g->pred_off[k - 1]; e < g->pred_off[k]; e++)
					trip_add(&tr, row, m->fcol[m->fbase[t] + e],
					    (double)g->mem[g->pred[e]] / m->unit);
			}
			if (g->workspace[k] > 0 && R(t, k) != 0) {
				row = add_budget_row(m);
				trip_add(&tr, row, u, 1);
				trip_add(&tr, row, R(t, k),
				    (double)g->workspace[k] / m->unit);
			}
		}
	/* With stage rows: the memory while stage t computes node t, written
	 * out over S, R and FREE instead of through the U chain. The U rows
	 * imply it, so the LP relaxation is the same, but it is a row of
	 * binaries only, a knapsack the solvers' cover and MIR cuts can work
	 * on, where the chain's continuous U hides that structure. */
	for (t = 0; t < n && stage_rows; t++) {
		int j;
		row = add_budget_row(m);
		for (i = 0; i < t; i++)
			trip_add(&tr, row, S(t, i), (double)g->mem[i] / m->unit);
		for (j = 0; j <= t; j++)
			trip_add(&tr, row, R(t, j), (double)(g->mem[j] +
			    (j == t ? g->workspace[j] : 0)) / m->unit);
		for (j = 1; j <= t; j++)
			for (e = g->pred_off[j - 1]; e < g->pred_off[j]; e++)
				trip_add(&tr, row, m->fcol[m->fbase[t] + e],
				    -(double)g->mem[g->pred[e]] / m->unit);
	}
#undef R
#undef S
	glp_load_matrix(m->lp, (int)tr.len, tr.ia, tr.ja, tr.ar);
	m->nnz = tr.len;
	free(tr.ia);
	free(tr.ja);
	free(tr.ar);
	m->build_s = rp_now() - t0;
	return m;
}

void
rp_milp_free(struct rp_milp *m)
{
	if (m == NULL)
		return;
	glp_delete_prob(m->lp);
	free(m->rcol);
	free(m->scol);
	free(m->ucol);
	free(m->urow);
	free(m->fcol);
	free(m->fbase);
	free(m->warm);
	free(m->lpx);
	free(m->lpx0);
	free(m->brow);
	free(m);
}

void
rp_milp_set_budget(struct rp_milp *m, int64_t budget)
{
	long k;
	int i;

	m->budget = (double)(budget - m->g->fixed_mem) / m->unit;
	for (k = 0; k < tri(m->n, 0); k++)
		if (m->ucol[k] != 0) {
			if (m->budget > 0)
				glp_set_col_bnds(m->lp, m->ucol[k], GLP_DB, 0, m->budget);
			else
				glp_set_col_bnds(m->lp, m->ucol[k], GLP_FX, 0, 0);
		}
	for (i = 0; i < m->nbrow; i++)
		glp_set_row_bnds(m->lp, m->brow[i], GLP_UP, 0, m->budget);
	m->lp_ok = 0;
	m->lpbound = NAN;
	free(m->lpx);
	m->lpx = NULL;
	free(m->warm);
	m->warm = NULL;
	if (m->budget == m->budget0 && m->lpx0 != NULL) {
		/* back at the first budget: its Clp solution holds again */
		m->lpx = rp_xmalloc(sizeof *m->lpx * ((size_t)m->ncols + 1));
		memcpy(m->lpx, m->lpx0, sizeof *m->lpx * ((size_t)m->ncols + 1));
		m->lpobj = m->lpobj0;
		m->lp_ok = 1;
	}
}

void
rp_milp_stats(const struct rp_milp *m, struct rp_milp_stats *st)
{
	st->rows = m->nrows;
	st->cols = m->ncols;
	st->binaries = m->nbin;
	st->nonzeros = m->nnz;
	st->eliminated = m->elim;
	st->build_s = m->build_s;
	st->lp_iterations = glp_get_it_cnt(m->lp);
}

#ifdef HAVE_CBC
static enum rp_milp_result solve_lp_clp(struct rp_milp *m, double seconds,
    double *obj);
#endif

/* A lower bound on the LP relaxation (so on every plan of the model) from
 * row prices y, whatever state the simplex stopped in. Any y gives one:
 * c'x = (c - A'y)'x + y'Ax, and over the row bounds lo <= Ax <= hi and the
 * column bounds each term is at least its minimum, as long as y_r >= 0 only
 * where lo_r is finite and y_r <= 0 only where hi_r is (prices of the wrong
 * sign are taken as 0). At an optimal basis this is the LP optimum; from
 * the dual simplex stopped early it is the objective it had reached. All
 * columns of the model are bounded. */
static double
dual_bound(glp_prob *lp)
{
	int nr = glp_get_num_rows(lp), nc = glp_get_num_cols(lp), r, j, k, len;
	double *y = rp_xcalloc((size_t)nr + 1, sizeof *y);
	double *val = rp_xcalloc((size_t)nr + 1, sizeof *val);
	int *ind = rp_xcalloc((size_t)nr + 1, sizeof *ind);
	double b = glp_get_obj_coef(lp, 0);

	for (r = 1; r <= nr; r++) {
		int type = glp_get_row_type(lp, r);
		double v = glp_get_row_dual(lp, r);
		if ((v > 0 && (type == GLP_FR || type == GLP_UP)) ||
		    (v < 0 && (type == GLP_FR || type == GLP_LO)) || !isfinite(v))
			v = 0;
		y[r] = v;
		if (v > 0)
			b += v * glp_get_row_lb(lp, r);
		else if (v < 0)
			b += v * glp_get_row_ub(lp, r);
	}
	for (j = 1; j <= nc; j++) {
		double d = glp_get_obj_coef(lp, j);
		len = glp_get_mat_col(lp, j, ind, val);
		for (k = 1; k <= len; k++)
			d -= val[k] * y[ind[k]];
		b += d * (d > 0 ? glp_get_col_lb(lp, j) : glp_get_col_ub(lp, j));
	}
	free(y);
	free(val);
	free(ind);
	return isfinite(b) ? b : NAN;
}

/* The starting basis of the LP relaxation: checkpoint-all's. Each U[t][k]
 * is basic in the row that defines it, every other row's slack is basic,
 * and the binaries are nonbasic at checkpoint-all's values: every R[t][i]
 * below the diagonal at 0, S[t][i] at 1 while i still has a reader at or
 * after t (or is an output), FREE at 1 after i's last reader. The U columns
 * are unit lower bidiagonal in their rows, so the basis is nonsingular;
 * every basic column costs nothing, so the row prices are 0 and the
 * reduced costs are the costs, which are >= 0 on R at 0 and 0 elsewhere:
 * the basis is dual feasible. Its only primal infeasibilities are the
 * stages where checkpoint-all is over the budget, so the dual simplex
 * starts on the trade-off itself. From GLPK's all-slack basis it first
 * spends its iterations, at the baseline objective, on the dependency rows
 * that keeping nothing violates (bench/lp-start.sh). */
static void
ckpt_basis(struct rp_milp *m)
{
	const struct rp_graph *g = m->g;
	int n = m->n, t, i, k, e, c;

	for (k = 1; k <= m->nrows; k++)
		glp_set_row_stat(m->lp, k, GLP_BS);
	for (c = 1; c <= m->ncols; c++)
		glp_set_col_stat(m->lp, c, glp_get_col_type(m->lp, c) == GLP_FX ?
		    GLP_NS : GLP_NL);
	for (t = 1; t < n; t++)
		for (i = 0; i < t; i++) {
			c = m->scol[tri(t, i)];
			if (c != 0 && (rp_last_succ(g, i) >= t || g->output[i]))
				glp_set_col_stat(m->lp, c, GLP_NU);
		}
	for (t = 0; t < n; t++)
		for (e = g->pred_off[t]; e < g->pred_off[t + 1]; e++) {
			c = m->fcol[m->fbase[t] + e];
			i = g->pred[e];
			if (glp_get_col_type(m->lp, c) != GLP_FX && !g->output[i] &&
			    rp_last_succ(g, i) == t)
				glp_set_col_stat(m->lp, c, GLP_NU);
		}
	for (t = 0; t < n; t++)
		for (k = 0; k <= t; k++) {
			glp_set_col_stat(m->lp, m->ucol[tri(t, k)], GLP_BS);
			glp_set_row_stat(m->lp, m->urow[tri(t, k)], GLP_NS);
		}
}

enum rp_milp_result
rp_milp_solve_lp(struct rp_milp *m, double seconds, double *obj)
{
	glp_smcp parm;
	int rc, st;
	double t0;

	free(m->lpx);
	m->lpx = NULL;
	m->lp_ok = 0;
	m->lpbound = NAN;
	if (m->budget < 0)
		return RP_MILP_INFEASIBLE;
#ifdef HAVE_CBC
	if (m->engine == RP_MILP_CBC)
		return solve_lp_clp(m, seconds, obj);
#endif
	/* Later solves (other budgets) go on from the basis the last one
	 * left. */
	if (!m->started && !m->slack_start)
		ckpt_basis(m);
	m->started = 1;
	glp_init_smcp(&parm);
	parm.msg_lev = log_fn != NULL ? GLP_MSG_ON : GLP_MSG_OFF;
	parm.meth = GLP_DUALP;	/* dual simplex: far faster on this model */
	if (seconds > 0)
		parm.tm_lim = seconds * 1000 < 2e9 ? (int)(seconds * 1000) : 2000000000;
	t0 = rp_now();
	rc = glp_simplex(m->lp, &parm);
	if (rc == GLP_EBADB || rc == GLP_ESING || rc == GLP_ECOND) {
		/* cannot happen with the bases above; GLPK's own then, in the
		 * time left */
		glp_std_basis(m->lp);
		if (seconds > 0)
			parm.tm_lim = (int)fmin(fmax((seconds - (rp_now() - t0)) *
			    1000, 1), 2e9);
		rc = glp_simplex(m->lp, &parm);
	}
	st = glp_get_status(m->lp);
	if (rc == GLP_ETMLIM) {
		m->lpbound = dual_bound(m->lp);
		return RP_MILP_NOSOLUTION;
	}
	if (rc != 0 && st != GLP_NOFEAS)
		return RP_MILP_ERROR;
	if (st == GLP_NOFEAS || rc == GLP_ENOPFS)
		return RP_MILP_INFEASIBLE;
	if (st != GLP_OPT)
		return RP_MILP_ERROR;
	m->lp_ok = 1;
	*obj = m->lpobj = glp_get_obj_val(m->lp);
	return RP_MILP_OPTIMAL;
}

double
rp_milp_lp_bound(const struct rp_milp *m)
{
	return round_bound(m, m->lp_ok ? m->lpobj : m->lpbound);
}

double
rp_milp_price_bound(const struct rp_milp *m)
{
	return dual_bound(m->lp);
}

double
rp_milp_lp_s(const struct rp_milp *m, int t, int i)
{
	int c;
	if (!m->lp_ok || i >= t || t >= m->n)
		return 0;
	c = m->scol[tri(t, i)];
	if (c == 0)
		return 0;
	return m->lpx != NULL ? m->lpx[c] : glp_get_col_prim(m->lp, c);
}

/* ---- offers: plans as starting solutions ---- */

int
rp_milp_offer(struct rp_milp *m, const struct rp_plan *p)
{
	const struct rp_graph *g = m->g;
	int n = g->n, t, i, k, e, j, ok = -1, front = 0;
	long sz = tri(n, 0);
	unsigned char *R = rp_xcalloc((size_t)sz, 1), *S = rp_xcalloc((size_t)sz, 1);
	unsigned char *keep_next = rp_xcalloc((size_t)n, 1);
	unsigned char *used = rp_xcalloc((size_t)n, 1);
	int *live = rp_xcalloc((size_t)n, sizeof *live);
	int *regnode = rp_xmalloc(sizeof *regnode * (size_t)(p->nregs ? p->nregs : 1));
	double *x = rp_xcalloc((size_t)m->ncols + 1, sizeof *x), obj = 0, u;
	int s, pending = 0;

	for (s = 0; s < p->nregs; s++)
		regnode[s] = -1;

	/* Stages: the computations up to and including node t's first. */
	for (s = 0; s < p->len; s++) {
		const struct rp_stmt *st = &p->s[s];
		if (st->op == RP_FREE) {
			if (st->reg >= 0 && st->reg < p->nregs && regnode[st->reg] >= 0)
				live[regnode[st->reg]]--;
			continue;
		}
		if (front >= n)
			goto out;	/* computations after the last stage */
		if (pending) {
			/* what is live between stages is kept into stage front */
			for (i = 0; i < front; i++)
				if (live[i] > 0)
					S[tri(front, i)] = 1;
			pending = 0;
		}
		if (st->node > front)
			goto out;	/* not in execution order */
		R[tri(front, st->node)] = 1;
		regnode[st->reg] = st->node;
		live[st->node]++;
		if (st->node == front) {
			front++;
			pending = 1;
		}
	}
	if (front != n)
		goto out;
	/* Outputs are kept "into stage n". */
	for (i = 0; i < n; i++)
		keep_next[i] = g->output[i];
	/* Drop what the stage does not use, backwards, so that R and S are
	 * minimal: a kept value must be read in the stage or kept on, a
	 * recomputation must be read in the stage or kept on. */
	for (t = n - 1; t >= 0; t--) {
		memset(used, 0, (size_t)n);
		for (k = t; k >= 0; k--) {
			if (!R[tri(t, k)])
				continue;
			if (k < t && !keep_next[k] && !used[k]) {
				R[tri(t, k)] = 0;
				continue;
			}
			if (k < t && S[tri(t, k)]) {
				R[tri(t, k)] = 0;	/* kept already */
				continue;
			}
			for (e = g->pred_off[k]; e < g->pred_off[k + 1]; e++)
				used[g->pred[e]] = 1;
		}
		for (i = 0; i < t; i++)
			if (S[tri(t, i)] && !used[i] && !keep_next[i])
				S[tri(t, i)] = 0;
		for (i = 0; i < n; i++)
			keep_next[i] = i < t && S[tri(t, i)];
	}
	/* The constraints must hold, and the model must have the columns. */
	for (t = 0; t < n; t++)
		for (k = 0; k <= t; k++) {
			if (R[tri(t, k)] && !m->rcol[tri(t, k)])
				goto out;
			if (k < t && S[tri(t, k)] && !m->scol[tri(t, k)])
				goto out;
			if (k < t && S[tri(t, k)] && !(t > 0 && (R[tri(t - 1, k)] ||
			    (k < t - 1 && S[tri(t - 1, k)]))))
				goto out;
			if (R[tri(t, k)])
				for (e = g->pred_off[k]; e < g->pred_off[k + 1]; e++) {
					i = g->pred[e];
					if (!R[tri(t, i)] && !S[tri(t, i)])
						goto out;
				}
		}
	for (i = 0; i < n - 1; i++)
		if (g->output[i] && !R[tri(n - 1, i)] && !S[tri(n - 1, i)])
			goto out;
	/* FREE and U as the model defines them; U must fit. */
	for (t = 0; t < n; t++) {
		u = 0;
		for (i = 0; i < t; i++)
			if (S[tri(t, i)]) {
				u += (double)g->mem[i] / m->unit;
				x[m->scol[tri(t, i)]] = 1;
			}
		for (k = 0; k <= t; k++) {
			if (k > 0)
				for (e = g->pred_off[k - 1]; e < g->pred_off[k]; e++) {
					int fc = m->fcol[m->fbase[t] + e];
					if (x[fc] > 0.5)
						u -= (double)g->mem[g->pred[e]] / m->unit;
				}
			if (R[tri(t, k)]) {
				x[m->rcol[tri(t, k)]] = 1;
				obj += g->cost[k];
				u += (double)g->mem[k] / m->unit;
				if (u + (double)g->workspace[k] / m->unit >
				    m->budget + 1e-9)
					goto out;
				/* inputs freed after k */
				for (e = g->pred_off[k]; e < g->pred_off[k + 1]; e++) {
					int free_it = 1;
					i = g->pred[e];
					if (t + 1 < n ? (i < t + 1 && S[tri(t + 1, i)]) :
					    g->output[i])
						free_it = 0;
					for (j = g->succ_off[i]; j < g->succ_off[i + 1] &&
					    free_it; j++) {
						int w = g->succ[j];
						if (w > k && w <= t && R[tri(t, w)])
							free_it = 0;
					}
					if (free_it)
						x[m->fcol[m->fbase[t] + e]] = 1;
				}
			}
			if (u > m->budget + 1e-9)
				goto out;
			x[m->ucol[tri(t, k)]] = u > 0 ? u : 0;
		}
	}
	ok = 0;
	if (m->warm == NULL || obj < m->warm_obj) {
		free(m->warm);
		m->warm = x;
		m->warm_obj = obj;
		x = NULL;
	}
out:
	free(R);
	free(S);
	free(keep_next);
	free(used);
	free(live);
	free(regnode);
	free(x);
	return ok;
}

/* ---- branch and bound ---- */

/* The search runs in a worker child (worker.h): GLPK checks its clock only
 * between LP solves, and a node LP or a round of cuts on a model of a few
 * hundred nodes takes minutes. Bounds and incumbents are streamed to the
 * parent as they are found, incumbents as compute sequences. */
struct search {
	struct rp_milp *m;
	struct rp_worker *w;
	double deadline, mip_gap;
	double sent_bound, sent_obj;
	int injected, stopped;
	int proved;		/* the bound reached the incumbent */
	int *seq, nseq;
};

/* Sends a solution as a compute sequence, stage by stage: the problem's
 * own incumbent when x is NULL, else column values x (1-based). */
static void
send_incumbent(struct search *s, const double *x, double obj)
{
	struct rp_milp *m = s->m;
	int t, i;

	s->nseq = 0;
	for (t = 0; t < m->n; t++)
		for (i = 0; i <= t; i++) {
			int c = m->rcol[tri(t, i)];
			if (c != 0 && (x != NULL ? x[c] :
			    glp_mip_col_val(m->lp, c)) > 0.5)
				s->seq[s->nseq++] = i;
		}
	s->sent_obj = obj;
	rp_worker_incumbent(s->w, obj, s->seq, s->nseq);
}

static void
callback(glp_tree *T, void *info)
{
	struct search *s = info;
	int p;

	/* glp_ios_heur_sol does not check feasibility: offers were checked
	 * against the model when they were accepted. */
	if (glp_ios_reason(T) == GLP_IHEUR && !s->injected &&
	    s->m->warm != NULL) {
		glp_ios_heur_sol(T, s->m->warm);
		s->injected = 1;
	}
	/* Without presolve the search records incumbents in the problem
	 * itself, found or injected. */
	if (glp_mip_status(s->m->lp) == GLP_FEAS &&
	    glp_mip_obj_val(s->m->lp) < s->sent_obj)
		send_incumbent(s, NULL, glp_mip_obj_val(s->m->lp));
	p = glp_ios_best_node(T);
	if (p != 0) {
		double b = round_bound(s->m, glp_ios_node_bound(T, p));
		if (b > s->sent_bound + 1e-9 * fabs(b)) {
			s->sent_bound = b;
			rp_worker_bound(s->w, b);
		}
		/* GLPK rounds its node bounds up itself, but keeps searching
		 * until no node is left: a best bound that has reached the
		 * incumbent proves it. */
		if (glp_mip_status(s->m->lp) == GLP_FEAS &&
		    bound_reaches(b, glp_mip_obj_val(s->m->lp))) {
			s->proved = 1;
			glp_ios_terminate(T);
		}
	}
	/* The parent kills the search at the deadline; stopping here first
	 * lets it say how it ended. */
	if (s->deadline > 0 && rp_now() > s->deadline) {
		s->stopped = 1;
		glp_ios_terminate(T);
	}
}

/* The worker: glp_intopt from the LP relaxation's basis. */
static void
search_run(struct rp_worker *w, void *arg)
{
	struct search *s = arg;
	struct rp_milp *m = s->m;
	glp_iocp parm;
	int rc, st, result;

	s->w = w;
	s->seq = rp_xmalloc(sizeof *s->seq * (size_t)(tri(m->n, 0) + 1));
	glp_init_iocp(&parm);
	parm.msg_lev = log_fn != NULL ? GLP_MSG_ON : GLP_MSG_OFF;
	parm.presolve = GLP_OFF;	/* heuristic solutions index the original */
	/* No feasibility pump: GLPK runs it at the root without calling back;
	 * first solutions come from the offered plans. */
	parm.fp_heur = GLP_OFF;
	/* Gomory and MIR cuts help prove small models, but on large ones
	 * GLPK spends minutes in them without calling back. */
	parm.gmi_cuts = m->ncols <= 20000 ? GLP_ON : GLP_OFF;
	parm.mir_cuts = m->ncols <= 20000 ? GLP_ON : GLP_OFF;
	parm.cov_cuts = GLP_ON;
	parm.clq_cuts = GLP_ON;
	parm.br_tech = GLP_BR_PCH;
	parm.bt_tech = GLP_BT_BLB;
	parm.mip_gap = s->mip_gap;
	parm.cb_func = callback;
	parm.cb_info = s;
	if (s->deadline > 0) {
		double left = s->deadline - rp_now();
		parm.tm_lim = left > 0.001 ? (left * 1000 < 2e9 ?
		    (int)(left * 1000) : 2000000000) : 1;
	}
	rc = glp_intopt(m->lp, &parm);
	st = glp_mip_status(m->lp);
	if (st == GLP_NOFEAS)
		result = RP_MILP_INFEASIBLE;
	else if (st != GLP_OPT && st != GLP_FEAS)
		result = rc == 0 || rc == GLP_ETMLIM || rc == GLP_ESTOP ||
		    rc == GLP_EMIPGAP ? RP_MILP_NOSOLUTION : RP_MILP_ERROR;
	else {
		if (glp_mip_obj_val(m->lp) < s->sent_obj)
			send_incumbent(s, NULL, glp_mip_obj_val(m->lp));
		result = (st == GLP_OPT && rc == 0 && !s->stopped) || s->proved ?
		    RP_MILP_OPTIMAL : RP_MILP_FEASIBLE;
	}
	free(s->seq);
	rp_worker_end(w, result, s->injected);
}

#ifdef HAVE_CBC
/* The model as CBC takes it: column-major, 0-based. */
struct cbc_copy {
	struct rp_cbc_model md;
	int *start, *idx;
	double *val, *clo, *chi, *obj, *rlo, *rhi;
	char *integer;
};

static void
cbc_copy_init(struct rp_milp *m, struct cbc_copy *cc)
{
	int nr = m->nrows, nc = m->ncols, j, k, nz = 0, len, type;
	int *ind = rp_xmalloc(sizeof *ind * ((size_t)nr + 1));
	double *v = rp_xmalloc(sizeof *v * ((size_t)nr + 1));

	cc->start = rp_xmalloc(sizeof *cc->start * ((size_t)nc + 1));
	cc->idx = rp_xmalloc(sizeof *cc->idx * ((size_t)m->nnz + 1));
	cc->val = rp_xmalloc(sizeof *cc->val * ((size_t)m->nnz + 1));
	cc->clo = rp_xmalloc(sizeof *cc->clo * ((size_t)nc + 1));
	cc->chi = rp_xmalloc(sizeof *cc->chi * ((size_t)nc + 1));
	cc->obj = rp_xmalloc(sizeof *cc->obj * ((size_t)nc + 1));
	cc->integer = rp_xmalloc((size_t)nc + 1);
	cc->rlo = rp_xmalloc(sizeof *cc->rlo * ((size_t)nr + 1));
	cc->rhi = rp_xmalloc(sizeof *cc->rhi * ((size_t)nr + 1));
	for (j = 1; j <= nc; j++) {
		len = glp_get_mat_col(m->lp, j, ind, v);
		cc->start[j - 1] = nz;
		for (k = 1; k <= len; k++) {
			cc->idx[nz] = ind[k] - 1;
			cc->val[nz++] = v[k];
		}
		type = glp_get_col_type(m->lp, j);
		cc->clo[j - 1] = type == GLP_FR || type == GLP_UP ? -HUGE_VAL :
		    glp_get_col_lb(m->lp, j);
		cc->chi[j - 1] = type == GLP_FR || type == GLP_LO ? HUGE_VAL :
		    glp_get_col_ub(m->lp, j);
		cc->obj[j - 1] = glp_get_obj_coef(m->lp, j);
		cc->integer[j - 1] = glp_get_col_kind(m->lp, j) != GLP_CV;
	}
	cc->start[nc] = nz;
	for (j = 1; j <= nr; j++) {
		type = glp_get_row_type(m->lp, j);
		cc->rlo[j - 1] = type == GLP_FR || type == GLP_UP ? -HUGE_VAL :
		    glp_get_row_lb(m->lp, j);
		cc->rhi[j - 1] = type == GLP_FR || type == GLP_LO ? HUGE_VAL :
		    glp_get_row_ub(m->lp, j);
	}
	cc->md = (struct rp_cbc_model){ nr, nc, cc->start, cc->idx, cc->val,
	    cc->clo, cc->chi, cc->obj, cc->rlo, cc->rhi, cc->integer };
	free(ind);
	free(v);
}

static void
cbc_copy_destroy(struct cbc_copy *cc)
{
	free(cc->start);
	free(cc->idx);
	free(cc->val);
	free(cc->clo);
	free(cc->chi);
	free(cc->obj);
	free(cc->integer);
	free(cc->rlo);
	free(cc->rhi);
}

/* The worker on CBC. Its C interface reports no incumbents during the
 * search, so the offered plan is sent first and CBC is given a little
 * less than the time left, to end by itself before the kill. */
static void
cbc_run(struct rp_worker *w, void *arg)
{
	struct search *s = arg;
	struct rp_milp *m = s->m;
	struct cbc_copy cc;
	double *x = rp_xcalloc((size_t)m->ncols + 1, sizeof *x);
	double xobj = 0, bound, left = 0;
	enum rp_cbc_status r;
	int result;

	s->w = w;
	s->seq = rp_xmalloc(sizeof *s->seq * (size_t)(tri(m->n, 0) + 1));
	if (m->warm != NULL)
		send_incumbent(s, m->warm, m->warm_obj);
	cbc_copy_init(m, &cc);
	if (s->deadline > 0) {
		left = s->deadline - rp_now();
		left = fmax(fmin(left * 0.9, left - 0.5), 0.01);
	}
	r = rp_cbc_solve(&cc.md, m->warm != NULL ? m->warm + 1 : NULL, left,
	    s->mip_gap, m->threads, x + 1, &xobj, &bound);
	bound = round_bound(m, bound);
	if (bound > s->sent_bound)
		rp_worker_bound(w, bound);
	if ((r == RP_CBC_OPTIMAL || r == RP_CBC_FEASIBLE) && xobj < s->sent_obj)
		send_incumbent(s, x, xobj);
	switch (r) {
	case RP_CBC_OPTIMAL:
		result = RP_MILP_OPTIMAL;
		break;
	case RP_CBC_FEASIBLE:
		result = RP_MILP_FEASIBLE;
		break;
	case RP_CBC_INFEASIBLE:
		result = RP_MILP_INFEASIBLE;
		break;
	case RP_CBC_NOSOLUTION:
		result = m->warm != NULL ? RP_MILP_FEASIBLE : RP_MILP_NOSOLUTION;
		break;
	default:
		result = m->warm != NULL ? RP_MILP_FEASIBLE : RP_MILP_ERROR;
		break;
	}
	cbc_copy_destroy(&cc);
	free(x);
	free(s->seq);
	rp_worker_end(w, result, m->warm != NULL);
}

/* The LP relaxation on Clp, in a worker: Clp does not look at a clock. */
static void
clp_run(struct rp_worker *w, void *arg)
{
	struct rp_milp *m = arg;
	struct cbc_copy cc;
	double *x = rp_xcalloc((size_t)m->ncols + 1, sizeof *x), obj = 0;
	enum rp_cbc_status r;

	cbc_copy_init(m, &cc);
	r = rp_cbc_solve_lp(&cc.md, x, &obj);
	if (r == RP_CBC_OPTIMAL) {
		x[m->ncols] = obj;	/* the objective rides at the end */
		rp_worker_values(w, x, m->ncols + 1);
	}
	rp_worker_end(w, r == RP_CBC_OPTIMAL ? RP_MILP_OPTIMAL :
	    r == RP_CBC_INFEASIBLE ? RP_MILP_INFEASIBLE : RP_MILP_ERROR, 0);
	cbc_copy_destroy(&cc);
	free(x);
}

static enum rp_milp_result
solve_lp_clp(struct rp_milp *m, double seconds, double *obj)
{
	struct rp_worker_out out;
	enum rp_milp_result r;

	rp_worker_run(clp_run, m, seconds > 0 ? rp_now() + seconds : 0, &out);
	if (!out.ended)
		r = out.finished ? RP_MILP_ERROR : RP_MILP_NOSOLUTION;
	else if (out.status == RP_MILP_OPTIMAL &&
	    out.nvals != m->ncols + 1)
		r = RP_MILP_ERROR;
	else
		r = out.status;
	if (r == RP_MILP_OPTIMAL) {
		/* values by column, 1-based, as GLPK numbers them */
		free(m->lpx);
		m->lpx = rp_xmalloc(sizeof *m->lpx * ((size_t)m->ncols + 1));
		m->lpx[0] = 0;
		memcpy(m->lpx + 1, out.vals, sizeof *m->lpx * (size_t)m->ncols);
		*obj = m->lpobj = out.vals[m->ncols];
		m->lp_ok = 1;
		if (m->budget == m->budget0 && m->lpx0 == NULL) {
			m->lpx0 = rp_xmalloc(sizeof *m->lpx * ((size_t)m->ncols + 1));
			memcpy(m->lpx0, m->lpx, sizeof *m->lpx * ((size_t)m->ncols + 1));
			m->lpobj0 = m->lpobj;
		}
	}
	free(out.sol);
	free(out.vals);
	return r;
}
#endif

int
rp_milp_set_engine(struct rp_milp *m, enum rp_milp_engine engine, int threads)
{
#ifndef HAVE_CBC
	if (engine == RP_MILP_CBC)
		return -1;
#endif
	m->engine = engine;
	m->threads = threads > 0 ? threads : 1;
	return 0;
}

int
rp_milp_have_cbc(void)
{
#ifdef HAVE_CBC
	return 1;
#else
	return 0;
#endif
}

void
rp_milp_solve(struct rp_milp *m, double seconds, double mip_gap,
    struct rp_milp_solution *sol, struct rp_seq *seq)
{
	struct search s;
	struct rp_worker_out out;
	double t0 = rp_now(), lpobj;
	int k;

	memset(sol, 0, sizeof *sol);
	sol->first_s = -1;
	sol->bound = NAN;	/* unknown until the LP relaxation is solved */
	/* GLPK's search needs GLPK's optimal basis. */
	if (!m->lp_ok || (m->engine == RP_MILP_GLPK && m->lpx != NULL)) {
		enum rp_milp_result r = rp_milp_solve_lp(m, seconds, &lpobj);
		if (r != RP_MILP_OPTIMAL) {
			sol->result = r;
			sol->solve_s = rp_now() - t0;
			return;
		}
	}
	lpobj = round_bound(m, m->lpobj);
	memset(&s, 0, sizeof s);
	s.m = m;
	s.deadline = seconds > 0 ? t0 + seconds : 0;
	s.mip_gap = mip_gap > 0 ? mip_gap : 0;
	s.sent_bound = lpobj;
	s.sent_obj = HUGE_VAL;
#ifdef HAVE_CBC
	if (m->engine == RP_MILP_CBC)
		rp_worker_run(cbc_run, &s, s.deadline, &out);
	else
#endif
		rp_worker_run(search_run, &s, s.deadline, &out);
	sol->solve_s = rp_now() - t0;
	sol->first_s = out.first_s >= 0 ? out.first_s + (sol->solve_s -
	    out.run_s) : -1;
	sol->used_offer = out.ended ? out.aux : m->warm != NULL && out.has_sol;
	if (out.ended)
		sol->result = out.status;
	else if (out.has_sol)
		sol->result = RP_MILP_FEASIBLE;	/* killed at the deadline */
	else
		sol->result = out.finished ? RP_MILP_ERROR : RP_MILP_NOSOLUTION;
	if (sol->result == RP_MILP_OPTIMAL || sol->result == RP_MILP_FEASIBLE) {
		if (!out.has_sol) {
			sol->result = RP_MILP_ERROR;	/* cannot happen */
			free(out.sol);
			return;
		}
		sol->obj = out.obj;
		sol->bound = sol->result == RP_MILP_OPTIMAL ? out.obj :
		    fmin(fmax(out.bound, lpobj), out.obj);
		/* a search killed at the deadline may have proved it all
		 * the same */
		if (sol->result == RP_MILP_FEASIBLE &&
		    bound_reaches(sol->bound, sol->obj))
			sol->result = RP_MILP_OPTIMAL;
		for (k = 0; k < out.nsol; k++)
			rp_seq_push(seq, out.sol[k]);
	} else if (sol->result == RP_MILP_NOSOLUTION)
		sol->bound = fmax(out.bound, lpobj);
	free(out.sol);
}

int
rp_milp_read_solution(struct rp_milp *m, const char *path, struct rp_seq *seq,
    char **cause)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	unsigned char *on;
	int t, i, lineno = 0, nvals = 0;

	if (f == NULL) {
		*cause = rp_xasprintf("cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	on = rp_xcalloc((size_t)tri(m->n, 0), 1);
	if (fgets(line, sizeof line, f) != NULL && (strncmp(line, "c ", 2) == 0 ||
	    strncmp(line, "s mip", 5) == 0)) {
		/* GLPK's own format (glp_write_mip), by column number */
		fclose(f);
		if (glp_read_mip(m->lp, path) != 0) {
			*cause = rp_xasprintf("%s: not a GLPK MIP solution of this "
			    "model", path);
			free(on);
			return -1;
		}
		for (t = 0; t < m->n; t++)
			for (i = 0; i <= t; i++) {
				int c = m->rcol[tri(t, i)];
				if (c != 0 && glp_mip_col_val(m->lp, c) > 0.5)
					on[tri(t, i)] = 1;
			}
		nvals = 1;
	} else {
		/* "... R_t_i value ..." lines: CBC, Gurobi, SCIP, HiGHS */
		rewind(f);
		while (fgets(line, sizeof line, f) != NULL) {
			char *p = line, *end;
			lineno++;
			while ((p = strstr(p, "R_")) != NULL) {
				double v;
				if ((p == line || p[-1] == ' ' || p[-1] == '\t') &&
				    sscanf(p, "R_%d_%d", &t, &i) == 2) {
					char *q = p + 2;
					while (*q && *q != ' ' && *q != '\t')
						q++;
					/* glpsol -o marks integer columns with '*' */
					while (*q == ' ' || *q == '\t')
						q++;
					if (*q == '*')
						q++;
					v = strtod(q, &end);
					if (end == q) {
						*cause = rp_xasprintf("%s:%d: no value after "
						    "'R_%d_%d'", path, lineno, t, i);
						fclose(f);
						free(on);
						return -1;
					}
					if (t < 0 || t >= m->n || i < 0 || i > t) {
						*cause = rp_xasprintf("%s:%d: 'R_%d_%d' is not a "
						    "variable of this model", path, lineno, t, i);
						fclose(f);
						free(on);
						return -1;
					}
					if (v > 0.5)
						on[tri(t, i)] = 1;
					nvals++;
					break;
				}
				p += 2;
			}
		}
		fclose(f);
	}
	if (nvals == 0) {
		*cause = rp_xasprintf("%s: no values of R variables found", path);
		free(on);
		return -1;
	}
	for (t = 0; t < m->n; t++) {
		on[tri(t, t)] = 1;	/* fixed in the model */
		for (i = 0; i <= t; i++)
			if (on[tri(t, i)])
				rp_seq_push(seq, i);
	}
	free(on);
	return 0;
}

int
rp_milp_write(struct rp_milp *m, const char *path, int lp_format, char **cause)
{
	int rc = lp_format ? glp_write_lp(m->lp, NULL, path) :
	    glp_write_mps(m->lp, GLP_MPS_FILE, NULL, path);
	if (rc != 0) {
		*cause = rp_xasprintf("cannot write '%s'", path);
		return -1;
	}
	return 0;
}
