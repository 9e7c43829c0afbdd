/* checkmate.c: Checkmate's MILP as a solver-neutral model, and the
 * decoding between plans and its variables (see checkmate.h). */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkmate.h"
#include "files.h"
#include "util.h"

/* Counting stops once the model is known to be larger than counted
 * exactly: its size is then a lower bound, reached in bounded time. */
#define COUNT_OVER(p) ((p)->counting && (p)->nnz > RP_CHECKMATE_COUNT_LIMIT)

static long
tri(int t, int i)
{
	return (long)t * (t + 1) / 2 + i;
}

/* Column names, NAME_a_b, kept by column for exported models. */
struct names {
	char *var;
	int *a, *b;
	int cap;
};

static void
colname(const void *ctx, int c, char *buf, size_t len)
{
	const struct names *nm = ctx;
	snprintf(buf, len, "%c_%d_%d", nm->var[c], nm->a[c], nm->b[c]);
}

/* The builder's state. */
struct build {
	struct rp_checkmate *f;
	struct names *nm;
};

/* Adds a column named var_a_b; kind 'B' binary, 'C' continuous in
 * [lo, hi]. */
static int
add_col(struct build *b, char var, int a, int bb, int kind, double lo,
    double hi, double obj)
{
	struct rp_checkmate *f = b->f;
	struct names *nm = b->nm;
	int c = rp_mip_add_col(&f->mip, lo, hi, obj, kind == 'B'), cap;

	if (kind == 'B')
		f->nbin++;
	if (nm == NULL)
		return c;	/* counting */
	if (c >= nm->cap) {
		cap = nm->cap;
		rp_grow(&nm->var, &cap, c + 1, sizeof *nm->var);
		cap = nm->cap;
		rp_grow(&nm->a, &cap, c + 1, sizeof *nm->a);
		cap = nm->cap;
		rp_grow(&nm->b, &cap, c + 1, sizeof *nm->b);
		nm->cap = cap;
	}
	nm->var[c] = var;
	nm->a[c] = a;
	nm->b[c] = bb;
	return c;
}

/* A row bounded above by the budget, which moves with it. */
static int
add_budget_row(struct rp_checkmate *f, double units)
{
	int r = rp_mip_add_row(&f->mip, -HUGE_VAL, units);
	f->brow = rp_xreallocarray(f->brow, (size_t)f->nbrow + 1, sizeof *f->brow);
	f->brow[f->nbrow++] = r;
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

/* The starting basis: checkpoint-all's. Each U[t][k] is basic in the row
 * that defines it, every other row's slack is basic, and the binaries are
 * nonbasic at checkpoint-all's values: every R[t][i] below the diagonal at
 * 0, S[t][i] at 1 while i still has a reader at or after t (or is an
 * output), FREE at 1 after i's last reader. The U columns are unit lower
 * bidiagonal in their rows, so the basis is nonsingular; every basic column
 * costs nothing, so the row prices are 0 and the reduced costs are the
 * costs, which are >= 0 on R at 0 and 0 elsewhere: the basis is dual
 * feasible. Its only primal infeasibilities are the stages where
 * checkpoint-all is over the budget, so the dual simplex starts on the
 * trade-off itself. From an all-slack basis it first spends its
 * iterations, at the baseline objective, on the dependency rows that
 * keeping nothing violates (bench/lp-start.sh). */
static void
ckpt_basis(struct rp_checkmate *f)
{
	const struct rp_graph *g = f->g;
	struct rp_mip *p = &f->mip;
	int n = f->n, t, i, k, e, c;

	rp_mip_basis_init(p);
	memset(p->rstat, RP_MIP_BASIC, (size_t)p->nrows);
	for (t = 1; t < n; t++)
		for (i = 0; i < t; i++) {
			c = f->scol[tri(t, i)];
			if (c >= 0 && (rp_last_succ(g, i) >= t || g->output[i]))
				p->cstat[c] = RP_MIP_AT_UPPER;
		}
	for (t = 0; t < n; t++)
		for (e = g->pred_off[t]; e < g->pred_off[t + 1]; e++) {
			c = f->fcol[f->fbase[t] + e];
			i = g->pred[e];
			if (p->clo[c] != p->chi[c] && !g->output[i] &&
			    rp_last_succ(g, i) == t)
				p->cstat[c] = RP_MIP_AT_UPPER;
		}
	for (t = 0; t < n; t++)
		for (k = 0; k <= t; k++) {
			p->cstat[f->ucol[tri(t, k)]] = RP_MIP_BASIC;
			p->rstat[f->urow[tri(t, k)]] = RP_MIP_AT_LOWER;
		}
}

double
rp_checkmate_units(const struct rp_checkmate *f, int64_t budget)
{
	return (double)(budget - f->g->fixed_mem) / f->unit;
}

int
rp_checkmate_build(struct rp_checkmate *f, const struct rp_graph *g,
    int64_t budget, int flags, char **cause)
{
	int reduce = flags & RP_CHECKMATE_REDUCE;
	int split = flags & RP_CHECKMATE_SPLIT_FREE;
	int stage_rows = flags & RP_CHECKMATE_STAGE_ROWS;
	struct rp_mip *p = &f->mip;
	struct names *nm;
	struct build bd;
	int n = g->n, t, i, k, e, row;
	long sz = tri(n, 0);
	double big = 0, units;

	memset(f, 0, sizeof *f);
	if (n > RP_CHECKMATE_MAX_NODES) {
		*cause = rp_xasprintf("the graph has %d nodes; the MILP is built "
		    "for at most %d", n, RP_CHECKMATE_MAX_NODES);
		return -1;
	}
	if (flags & RP_CHECKMATE_COUNT)
		rp_mip_init_counting(p);
	else
		rp_mip_init(p);
	f->g = g;
	f->n = n;
	for (i = 0; i < n; i++)
		if ((double)(g->mem[i] + g->workspace[i]) > big)
			big = (double)(g->mem[i] + g->workspace[i]);
	f->unit = big > 0 ? big : 1;
	f->int_cost = rp_graph_int_cost(g);
	units = rp_checkmate_units(f, budget);
	f->rcol = rp_xmalloc(sizeof *f->rcol * (size_t)(sz ? sz : 1));
	f->scol = rp_xmalloc(sizeof *f->scol * (size_t)(sz ? sz : 1));
	f->ucol = rp_xmalloc(sizeof *f->ucol * (size_t)(sz ? sz : 1));
	f->urow = rp_xmalloc(sizeof *f->urow * (size_t)(sz ? sz : 1));
	memset(f->rcol, 0xff, sizeof *f->rcol * (size_t)sz);
	memset(f->scol, 0xff, sizeof *f->scol * (size_t)sz);
	memset(f->ucol, 0xff, sizeof *f->ucol * (size_t)sz);
	memset(f->urow, 0xff, sizeof *f->urow * (size_t)sz);
	f->fbase = rp_xcalloc((size_t)n + 1, sizeof *f->fbase);
	for (t = 0; t < n; t++)
		f->fbase[t + 1] = f->fbase[t] + g->pred_off[t + 1];
	/* The FREE columns alone (one per stage and edge into a node up to
	 * the stage), most of them in a U row each, may be too many to
	 * count, or to index: n m / 2 at most. */
	if (p->counting && f->fbase[n] - g->pred_off[n] >
	    RP_CHECKMATE_COUNT_LIMIT) {
		p->nnz = f->fbase[n] - g->pred_off[n];
		p->ncols = p->nnz < INT_MAX ? (int)p->nnz : INT_MAX;
		p->nrows = (int)sz;	/* the U rows, at least */
		f->count_partial = 1;
		return 0;
	}
	f->fcol = rp_xmalloc(sizeof *f->fcol *
	    (size_t)(f->fbase[n] ? f->fbase[n] : 1));
	nm = p->counting ? NULL : rp_xcalloc(1, sizeof *nm);
	bd.f = f;
	bd.nm = nm;

	/* Columns. R[t][i] is left out when i may not be recomputed, and when
	 * i is read by nothing and is no output (computing it again cannot
	 * serve anything); S[t][i] when no reader of i can run in stage t or
	 * later and it is no output. Both hold in every optimal solution. */
	for (t = 0; t < n; t++)
		for (i = 0; i <= t; i++) {
			if (i == t)
				f->rcol[tri(t, i)] = add_col(&bd, 'R', t, i, 'B', 1, 1,
				    g->cost[i]);
			else if (g->recompute[i] && (!reduce || rp_nsucc(g, i) > 0 ||
			    g->output[i]))
				f->rcol[tri(t, i)] = add_col(&bd, 'R', t, i, 'B', 0, 1,
				    g->cost[i]);
			else
				f->elim++;
			if (i < t) {
				if (!reduce || read_from(g, i, t) || g->output[i])
					f->scol[tri(t, i)] = add_col(&bd, 'S', t, i, 'B',
					    0, 1, 0);
				else
					f->elim++;
			}
		}
	for (t = 0; t < n; t++)
		for (e = 0; e < g->pred_off[t + 1]; e++)
			f->fcol[f->fbase[t] + e] = add_col(&bd, 'F', t, e, 'B', 0,
			    1, 0);
	for (t = 0; t < n; t++)
		for (k = 0; k <= t; k++)
			f->ucol[tri(t, k)] = add_col(&bd, 'U', t, k, 'C', 0,
			    units > 0 ? units : 0, 0);

#define R(t, i) f->rcol[tri(t, i)]
#define S(t, i) ((i) < (t) ? f->scol[tri(t, i)] : -1)
	/* (1b): an input of a computed value is computed earlier in the
	 * stage or kept from the last one. */
	for (t = 0; t < n; t++)
		for (k = 0; k <= t; k++) {
			if (COUNT_OVER(p))
				goto counted;
			if (R(t, k) < 0)
				continue;
			for (e = g->pred_off[k]; e < g->pred_off[k + 1]; e++) {
				i = g->pred[e];
				row = rp_mip_add_row(p, -HUGE_VAL, 0);
				rp_mip_add(p, row, R(t, k), 1);
				rp_mip_add(p, row, R(t, i), -1);
				rp_mip_add(p, row, S(t, i), -1);
			}
		}
	/* (1c): a kept value was computed or kept in the stage before. */
	for (t = 1; t < n; t++)
		for (i = 0; i < t; i++) {
			if (S(t, i) < 0)
				continue;
			row = rp_mip_add_row(p, -HUGE_VAL, 0);
			rp_mip_add(p, row, S(t, i), 1);
			rp_mip_add(p, row, R(t - 1, i), -1);
			rp_mip_add(p, row, S(t - 1, i), -1);
		}
	/* Outputs are resident when the last stage ends. */
	for (i = 0; i < n; i++)
		if (g->output[i] && i < n - 1) {
			row = rp_mip_add_row(p, 1, HUGE_VAL);
			rp_mip_add(p, row, R(n - 1, i), 1);
			rp_mip_add(p, row, S(n - 1, i), 1);
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
	for (t = 0; t < n; t++) {
		for (k = 0; k <= t; k++) {
			if (COUNT_OVER(p))
				goto counted;
			for (e = g->pred_off[k]; e < g->pred_off[k + 1]; e++) {
				int fc = f->fcol[f->fbase[t] + e], j, r1 = -1, r2 = -1;
				int kappa = 2;
				i = g->pred[e];
				if (R(t, k) < 0 || (t == n - 1 && g->output[i])) {
					/* k is not computed in stage t, or i must
					 * stay resident: never freed here */
					rp_mip_set_col_bounds(p, fc, 0, 0);
					continue;
				}
				/* r1: FREE - R[t][k] + S[t+1][i] + sum R[t][j] >= 0;
				 * r2: kappa FREE - R[t][k] + S[t+1][i] + sum R[t][j]
				 * <= kappa - 1, kappa = 2 + the number of readers j */
				if (!reduce) {
					r1 = rp_mip_add_row(p, 0, HUGE_VAL);
					rp_mip_add(p, r1, fc, 1);
					rp_mip_add(p, r1, R(t, k), -1);
				}
				if (!split) {
					for (j = g->succ_off[i]; j < g->succ_off[i + 1]; j++)
						if (g->succ[j] > k && g->succ[j] <= t)
							kappa++;
					r2 = rp_mip_add_row(p, -HUGE_VAL, kappa - 1);
					rp_mip_add(p, r2, fc, kappa);
					rp_mip_add(p, r2, R(t, k), -1);
				} else if (k < t) {	/* R[t][t] is 1 */
					row = rp_mip_add_row(p, -HUGE_VAL, 0);
					rp_mip_add(p, row, fc, 1);
					rp_mip_add(p, row, R(t, k), -1);
				}
				if (t + 1 < n && S(t + 1, i) >= 0) {
					if (split) {
						row = rp_mip_add_row(p, -HUGE_VAL, 1);
						rp_mip_add(p, row, fc, 1);
						rp_mip_add(p, row, S(t + 1, i), 1);
					}
					rp_mip_add(p, r1, S(t + 1, i), 1);
					rp_mip_add(p, r2, S(t + 1, i), 1);
				}
				for (j = g->succ_off[i]; j < g->succ_off[i + 1]; j++) {
					int u = g->succ[j];
					if (u <= k || u > t || R(t, u) < 0)
						continue;
					if (split) {
						row = rp_mip_add_row(p, -HUGE_VAL, 1);
						rp_mip_add(p, row, fc, 1);
						rp_mip_add(p, row, R(t, u), 1);
					}
					rp_mip_add(p, r1, R(t, u), 1);
					rp_mip_add(p, r2, R(t, u), 1);
				}
			}
		}
	}
	/* Memory: U[t][0] = sum of kept values + the first computed value;
	 * U[t][k] = U[t][k-1] - what is freed after k-1 + M_k R[t][k];
	 * and U[t][k] + workspace_k R[t][k] within the budget. */
	for (t = 0; t < n; t++) {
		if (COUNT_OVER(p))
			goto counted;
		for (k = 0; k <= t; k++) {
			int u = f->ucol[tri(t, k)];
			row = rp_mip_add_row(p, 0, 0);
			f->urow[tri(t, k)] = row;
			rp_mip_add(p, row, u, 1);
			rp_mip_add(p, row, R(t, k), -(double)g->mem[k] / f->unit);
			if (k == 0) {
				for (i = 0; i < t; i++)
					rp_mip_add(p, row, S(t, i),
					    -(double)g->mem[i] / f->unit);
			} else {
				rp_mip_add(p, row, f->ucol[tri(t, k - 1)], -1);
				for (e = g->pred_off[k - 1]; e < g->pred_off[k]; e++)
					rp_mip_add(p, row, f->fcol[f->fbase[t] + e],
					    (double)g->mem[g->pred[e]] / f->unit);
			}
			if (g->workspace[k] > 0 && R(t, k) >= 0) {
				row = add_budget_row(f, units);
				rp_mip_add(p, row, u, 1);
				rp_mip_add(p, row, R(t, k),
				    (double)g->workspace[k] / f->unit);
			}
		}
	}
	/* With stage rows: the memory while stage t computes node t, written
	 * out over S, R and FREE instead of through the U chain. The U rows
	 * imply it, so the LP relaxation is the same, but it is a row of
	 * binaries only, a knapsack the solvers' cover and MIR cuts can work
	 * on, where the chain's continuous U hides that structure. */
	for (t = 0; t < n && stage_rows; t++) {
		int j;
		if (COUNT_OVER(p))
			goto counted;
		row = add_budget_row(f, units);
		for (i = 0; i < t; i++)
			rp_mip_add(p, row, S(t, i), (double)g->mem[i] / f->unit);
		for (j = 0; j <= t; j++)
			rp_mip_add(p, row, R(t, j), (double)(g->mem[j] +
			    (j == t ? g->workspace[j] : 0)) / f->unit);
		for (j = 1; j <= t; j++)
			for (e = g->pred_off[j - 1]; e < g->pred_off[j]; e++)
				rp_mip_add(p, row, f->fcol[f->fbase[t] + e],
				    -(double)g->mem[g->pred[e]] / f->unit);
	}
	if (p->counting)
		return 0;
	if (0) {
counted:	/* a count past the limit, stopped: a lower bound */
		f->count_partial = 1;
		return 0;
	}
	/* The R columns, stage by stage: what an incumbent is read from. */
	f->watch = rp_xmalloc(sizeof *f->watch * (size_t)(sz ? sz : 1));
	f->watch_node = rp_xmalloc(sizeof *f->watch_node * (size_t)(sz ? sz : 1));
	for (t = 0; t < n; t++)
		for (i = 0; i <= t; i++)
			if (R(t, i) >= 0) {
				f->watch[f->nwatch] = R(t, i);
				f->watch_node[f->nwatch++] = i;
			}
#undef R
#undef S
	p->colname = colname;
	p->namectx = nm;
	if (!(flags & RP_CHECKMATE_SLACK_START))
		ckpt_basis(f);
	return 0;
}

void
rp_checkmate_destroy(struct rp_checkmate *f)
{
	struct names *nm = (struct names *)f->mip.namectx;

	if (nm != NULL) {
		free(nm->var);
		free(nm->a);
		free(nm->b);
		free(nm);
	}
	rp_mip_destroy(&f->mip);
	free(f->rcol);
	free(f->scol);
	free(f->ucol);
	free(f->urow);
	free(f->fcol);
	free(f->fbase);
	free(f->brow);
	free(f->watch);
	free(f->watch_node);
	memset(f, 0, sizeof *f);
}

void
rp_checkmate_size(const struct rp_graph *g, int flags,
    struct rp_checkmate_size *sz)
{
	struct rp_checkmate f;
	char *cause = NULL;
	double n = g->n;

	memset(sz, 0, sizeof *sz);
	/* Every U[t][k] has a column and a row of at least two nonzeros. */
	sz->nonzeros = (long)(n * (n + 1));
	sz->rows = sz->cols = (long)(n * (n + 1) / 2);
	sz->exact = 0;
	if (g->n > RP_CHECKMATE_MAX_NODES ||
	    sz->nonzeros > RP_CHECKMATE_COUNT_LIMIT)
		return;
	if (rp_checkmate_build(&f, g, 0, flags | RP_CHECKMATE_COUNT,
	    &cause) != 0) {
		free(cause);
		return;
	}
	sz->rows = f.mip.nrows;
	sz->cols = f.mip.ncols;
	sz->nonzeros = f.mip.nnz;
	sz->exact = !f.count_partial;
	rp_checkmate_destroy(&f);
}

void
rp_checkmate_budget_bounds(const struct rp_checkmate *f, double units,
    void (*set)(void *ctx, int row, int k, double lo, double hi), void *ctx)
{
	long k;
	int i;

	for (k = 0; k < tri(f->n, 0); k++)
		if (f->ucol[k] >= 0)
			set(ctx, 0, f->ucol[k], 0, units > 0 ? units : 0);
	for (i = 0; i < f->nbrow; i++)
		set(ctx, 1, f->brow[i], -HUGE_VAL, units);
}

int
rp_checkmate_scol(const struct rp_checkmate *f, int t, int i)
{
	if (i >= t || t >= f->n || i < 0)
		return -1;
	return f->scol[tri(t, i)];
}

void
rp_checkmate_decode(const struct rp_checkmate *f, const int *on, int n,
    struct rp_seq *seq)
{
	int k;

	for (k = 0; k < n; k++)
		if (on[k] >= 0 && on[k] < f->nwatch)
			rp_seq_push(seq, f->watch_node[on[k]]);
}

int
rp_checkmate_offer(const struct rp_checkmate *f, const struct rp_plan *p,
    double units, double *x, double *obj)
{
	const struct rp_graph *g = f->g;
	int n = g->n, t, i, k, e, j, ok = -1, front = 0;
	long sz = tri(n, 0);
	unsigned char *R = rp_xcalloc((size_t)(sz ? sz : 1), 1);
	unsigned char *S = rp_xcalloc((size_t)(sz ? sz : 1), 1);
	unsigned char *keep_next = rp_xcalloc((size_t)n, 1);
	unsigned char *used = rp_xcalloc((size_t)n, 1);
	int *live = rp_xcalloc((size_t)n, sizeof *live);
	int *regnode = rp_xmalloc(sizeof *regnode * (size_t)(p->nregs ? p->nregs : 1));
	double u;
	int s, pending = 0;

	memset(x, 0, sizeof *x * (size_t)f->mip.ncols);
	*obj = 0;
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
			if (R[tri(t, k)] && f->rcol[tri(t, k)] < 0)
				goto out;
			if (k < t && S[tri(t, k)] && f->scol[tri(t, k)] < 0)
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
				u += (double)g->mem[i] / f->unit;
				x[f->scol[tri(t, i)]] = 1;
			}
		for (k = 0; k <= t; k++) {
			if (k > 0)
				for (e = g->pred_off[k - 1]; e < g->pred_off[k]; e++) {
					int fc = f->fcol[f->fbase[t] + e];
					if (x[fc] > 0.5)
						u -= (double)g->mem[g->pred[e]] / f->unit;
				}
			if (R[tri(t, k)]) {
				x[f->rcol[tri(t, k)]] = 1;
				*obj += g->cost[k];
				u += (double)g->mem[k] / f->unit;
				if (u + (double)g->workspace[k] / f->unit >
				    units + 1e-9)
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
						x[f->fcol[f->fbase[t] + e]] = 1;
				}
			}
			if (u > units + 1e-9)
				goto out;
			x[f->ucol[tri(t, k)]] = u > 0 ? u : 0;
		}
	}
	ok = 0;
out:
	free(R);
	free(S);
	free(keep_next);
	free(used);
	free(live);
	free(regnode);
	return ok;
}

/* The next line of the buffer at *at (NUL-terminated in place, without
 * its newline), or NULL at the end. */
static char *
next_line(char *buf, size_t len, size_t *at)
{
	char *line, *nl;

	if (*at >= len)
		return NULL;
	line = buf + *at;
	nl = memchr(line, '\n', len - *at);
	if (nl != NULL) {
		*nl = '\0';
		*at = (size_t)(nl - buf) + 1;
	} else
		*at = len;
	return line;
}

/* A decimal number of at most 9 digits at *p (advanced past it) into *v;
 * -1 when there are no digits or too many for a variable index. */
static int
index_at(const char **p, int *v)
{
	const char *q = *p;
	long n = 0;

	if (*q < '0' || *q > '9')
		return -1;
	for (; *q >= '0' && *q <= '9'; q++) {
		if (q - *p >= 9)
			return -1;
		n = n * 10 + (*q - '0');
	}
	*p = q;
	*v = (int)n;
	return 0;
}

/* Marks the R variables at 1 of a solution in GLPK's own format
 * (glp_write_mip: "s mip ROWS COLS STATUS OBJ", then "j COL VALUE" by
 * 1-based column number). Returns 0, -1 when it is not a solution of
 * this model, -2 when it says it holds none (STATUS n: no integer
 * feasible solution, u: undefined). */
static int
read_glpk(const struct rp_checkmate *f, char *buf, size_t len,
    unsigned char *col_on)
{
	char *line, st = 0;
	size_t at = 0;
	int rows = -1, cols = -1, c;
	double v;

	while ((line = next_line(buf, len, &at)) != NULL) {
		if (sscanf(line, "s mip %d %d %c", &rows, &cols, &st) >= 2) {
			if (rows != f->mip.nrows || cols != f->mip.ncols)
				return -1;
			if (st == 'n' || st == 'u')
				return -2;
		} else if (line[0] == 'j') {
			if (cols < 0 || sscanf(line, "j %d %lf", &c, &v) != 2 ||
			    c < 1 || c > cols)
				return -1;
			if (v > 0.5)
				col_on[c - 1] = 1;
		}
	}
	return cols < 0 ? -1 : 0;
}

int
rp_checkmate_read_solution(const struct rp_checkmate *f, const char *path,
    struct rp_seq *seq, char **cause)
{
	char *buf;
	size_t len;
	int rc;

	if (rp_read_input(path, &buf, &len, cause) != 0)
		return -1;
	rc = rp_checkmate_read_solution_memory(f, buf, len, path, seq, cause);
	free(buf);
	return rc;
}

int
rp_checkmate_read_solution_memory(const struct rp_checkmate *f,
    const char *data, size_t len, const char *path, struct rp_seq *seq,
    char **cause)
{
	char *buf, *line;
	size_t at = 0;
	unsigned char *on;
	int t, i, lineno = 0, nvals = 0;

	if (memchr(data, '\0', len) != NULL) {
		*cause = rp_oneline(rp_xasprintf("%s: not a text file (it "
		    "contains a NUL byte)", path));
		return -1;
	}
	/* A copy, split into lines in place. */
	buf = rp_xmalloc(len + 1);
	memcpy(buf, data, len);
	buf[len] = '\0';
	on = rp_xcalloc((size_t)tri(f->n, 0) + 1, 1);
	if (strncmp(buf, "c ", 2) == 0 || strncmp(buf, "s mip", 5) == 0) {
		/* GLPK's own format, by column number */
		unsigned char *col_on = rp_xcalloc((size_t)f->mip.ncols + 1, 1);
		int rc = read_glpk(f, buf, len, col_on);
		if (rc != 0) {
			*cause = rp_oneline(rp_xasprintf(rc == -2 ? "%s: the "
			    "solver found no solution (GLPK's status: no "
			    "integer feasible solution)" : "%s: not a GLPK MIP "
			    "solution of this model", path));
			free(buf);
			free(col_on);
			free(on);
			return -1;
		}
		for (t = 0; t < f->n; t++)
			for (i = 0; i <= t; i++) {
				int c = f->rcol[tri(t, i)];
				if (c >= 0 && col_on[c])
					on[tri(t, i)] = 1;
			}
		free(col_on);
		nvals = 1;
	} else if (strncmp(buf, "Infeasible", 10) == 0 ||
	    strncmp(buf, "Integer infeasible", 18) == 0) {
		/* CBC's first line, where it found no solution */
		*cause = rp_oneline(rp_xasprintf("%s: the solver found no "
		    "solution (its first line: '%.*s')", path,
		    (int)strcspn(buf, "\n"), buf));
		free(buf);
		free(on);
		return -1;
	} else {
		/* "... R_t_i value ..." lines: CBC, Gurobi, SCIP, HiGHS */
		while ((line = next_line(buf, len, &at)) != NULL) {
			char *p = line, *end;
			lineno++;
			while ((p = strstr(p, "R_")) != NULL) {
				const char *q = p + 2;
				double v;
				int bad;
				if (p != line && p[-1] != ' ' && p[-1] != '\t') {
					p += 2;
					continue;
				}
				bad = index_at(&q, &t) != 0 || *q != '_';
				if (!bad) {
					q++;
					bad = index_at(&q, &i) != 0;
				}
				if (bad && (*q >= '0' && *q <= '9')) {
					/* digits too many for an index */
					while (*q >= '0' && *q <= '9')
						q++;
				} else if (bad) {
					p += 2;
					continue;	/* not a variable name */
				}
				if (bad || (*q != ' ' && *q != '\t' &&
				    *q != '\0' && *q != '\r') || t >= f->n || i > t) {
					while (*q && *q != ' ' && *q != '\t' &&
					    *q != '\r')
						q++;
					*cause = rp_oneline(rp_xasprintf("%s:%d: "
					    "'%.*s' is not a variable of this model",
					    path, lineno, (int)(q - p < 64 ? q - p :
					    64), p));
					free(buf);
					free(on);
					return -1;
				}
				/* glpsol -o marks integer columns with '*' */
				while (*q == ' ' || *q == '\t')
					q++;
				if (*q == '*')
					q++;
				v = strtod(q, &end);
				if (end == q || !isfinite(v)) {
					*cause = rp_oneline(rp_xasprintf("%s:%d: no "
					    "value after 'R_%d_%d'", path, lineno, t,
					    i));
					free(buf);
					free(on);
					return -1;
				}
				if (v > 0.5)
					on[tri(t, i)] = 1;
				nvals++;
				break;
			}
		}
	}
	free(buf);
	if (nvals == 0) {
		*cause = rp_oneline(rp_xasprintf("%s: no values of R variables "
		    "found", path));
		free(on);
		return -1;
	}
	for (t = 0; t < f->n; t++) {
		on[tri(t, t)] = 1;	/* fixed in the model */
		for (i = 0; i <= t; i++)
			if (on[tri(t, i)])
				rp_seq_push(seq, i);
	}
	free(on);
	return 0;
}
