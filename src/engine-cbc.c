/* engine-cbc.c: the MILP engine on COIN-OR CBC, with its LP solver Clp,
 * through CBC's C interface (see engine.h). The only module that includes
 * CBC; built only when configure finds it (HAVE_CBC).
 *
 * Neither Clp nor CBC looks at a clock often enough for a hard limit, so
 * both run in a worker child; an LP solution comes back to the parent as
 * values, and no basis is kept from one solve to the next. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <Cbc_C_Interface.h>

#include "engine.h"
#include "util.h"

/* The model as CBC takes it: column-major, 0-based, bounds in COIN's
 * spelling (an absent bound is COIN_DBL_MAX, which is DBL_MAX). */
struct rp_engine {
	int nrows, ncols;
	CoinBigIndex *start;
	int *index;
	double *value, *clo, *chi, *obj, *rlo, *rhi;
	char *integer;
	double *x;		/* the last optimal LP solution, or NULL */
};

static double
coin(double v)
{
	return isinf(v) ? (v > 0 ? DBL_MAX : -DBL_MAX) : v;
}

/* Column-major copy of p. Within a column the rows come in descending
 * order, as GLPK lists them, so that both engines see the same matrix. */
static struct rp_engine *
load(const struct rp_mip *p)
{
	struct rp_engine *e = rp_xcalloc(1, sizeof *e);
	int *roff = rp_xcalloc((size_t)p->nrows + 1, sizeof *roff);
	long *byrow = rp_xmalloc(sizeof *byrow * ((size_t)p->nnz + 1));
	CoinBigIndex *pos;
	long k;
	int c, r;

	e->nrows = p->nrows;
	e->ncols = p->ncols;
	e->start = rp_xcalloc((size_t)p->ncols + 1, sizeof *e->start);
	e->index = rp_xmalloc(sizeof *e->index * ((size_t)p->nnz + 1));
	e->value = rp_xmalloc(sizeof *e->value * ((size_t)p->nnz + 1));
	e->clo = rp_xmalloc(sizeof *e->clo * ((size_t)p->ncols + 1));
	e->chi = rp_xmalloc(sizeof *e->chi * ((size_t)p->ncols + 1));
	e->obj = rp_xmalloc(sizeof *e->obj * ((size_t)p->ncols + 1));
	e->integer = rp_xmalloc((size_t)p->ncols + 1);
	e->rlo = rp_xmalloc(sizeof *e->rlo * ((size_t)p->nrows + 1));
	e->rhi = rp_xmalloc(sizeof *e->rhi * ((size_t)p->nrows + 1));
	for (c = 0; c < p->ncols; c++) {
		e->clo[c] = coin(p->clo[c]);
		e->chi[c] = coin(p->chi[c]);
		e->obj[c] = p->obj[c];
		e->integer[c] = (char)p->integer[c];
	}
	for (r = 0; r < p->nrows; r++) {
		e->rlo[r] = coin(p->rlo[r]);
		e->rhi[r] = coin(p->rhi[r]);
	}
	/* Bucket the nonzeros by row, then deal them out to their columns
	 * from the last row to the first. */
	for (k = 0; k < p->nnz; k++) {
		roff[p->ia[k] + 1]++;
		e->start[p->ja[k] + 1]++;
	}
	for (r = 0; r < p->nrows; r++)
		roff[r + 1] += roff[r];
	for (c = 0; c < p->ncols; c++)
		e->start[c + 1] += e->start[c];
	{
		int *fill = rp_xmalloc(sizeof *fill * ((size_t)p->nrows + 1));
		memcpy(fill, roff, sizeof *fill * (size_t)p->nrows);
		for (k = 0; k < p->nnz; k++)
			byrow[fill[p->ia[k]]++] = k;
		free(fill);
	}
	pos = rp_xmalloc(sizeof *pos * ((size_t)p->ncols + 1));
	memcpy(pos, e->start, sizeof *pos * (size_t)p->ncols);
	for (r = p->nrows - 1; r >= 0; r--)
		for (k = roff[r]; k < roff[r + 1]; k++) {
			long z = byrow[k];
			CoinBigIndex at = pos[p->ja[z]]++;
			e->index[at] = r;
			e->value[at] = p->ar[z];
		}
	free(pos);
	free(roff);
	free(byrow);
	return e;
}

static void
engine_free(struct rp_engine *e)
{
	if (e == NULL)
		return;
	free(e->start);
	free(e->index);
	free(e->value);
	free(e->clo);
	free(e->chi);
	free(e->obj);
	free(e->integer);
	free(e->rlo);
	free(e->rhi);
	free(e->x);
	free(e);
}

static void
set_col_bounds(struct rp_engine *e, int c, double lo, double hi)
{
	e->clo[c] = coin(lo);
	e->chi[c] = coin(hi);
}

static void
set_row_bounds(struct rp_engine *e, int r, double lo, double hi)
{
	e->rlo[r] = coin(lo);
	e->rhi[r] = coin(hi);
}

/* A new quiet CBC model of e; integer columns only if ints. */
static Cbc_Model *
cbc_model(const struct rp_engine *e, int ints)
{
	Cbc_Model *c = Cbc_newModel();
	int j;

	Cbc_loadProblem(c, e->ncols, e->nrows, e->start, e->index, e->value,
	    e->clo, e->chi, e->obj, e->rlo, e->rhi);
	if (ints)
		for (j = 0; j < e->ncols; j++)
			if (e->integer[j])
				Cbc_setInteger(c, j);
	Cbc_setObjSense(c, 1);
	Cbc_setLogLevel(c, 0);
	return c;
}

/* The LP relaxation on Clp, in the worker: the solution's values, with
 * the objective riding at the end. */
static void
clp_run(struct rp_worker *w, void *arg)
{
	struct rp_engine *e = arg;
	Cbc_Model *c = cbc_model(e, 0);
	enum rp_milp_result r = RP_MILP_ERROR;

	Cbc_solve(c);
	if (Cbc_isProvenOptimal(c)) {
		double *x = rp_xmalloc(sizeof *x * ((size_t)e->ncols + 1));
		memcpy(x, Cbc_getColSolution(c), sizeof *x * (size_t)e->ncols);
		x[e->ncols] = Cbc_getObjValue(c);
		rp_worker_values(w, x, e->ncols + 1);
		free(x);
		r = RP_MILP_OPTIMAL;
	} else if (Cbc_isProvenInfeasible(c))
		r = RP_MILP_INFEASIBLE;
	Cbc_deleteModel(c);
	rp_worker_end(w, r, 0);
}

static enum rp_milp_result
solve_lp(struct rp_engine *e, double deadline, double *obj, double *bound)
{
	struct rp_worker_out out;
	enum rp_milp_result r;

	*bound = NAN;
	free(e->x);
	e->x = NULL;
	rp_worker_run(clp_run, e, deadline, &out);
	if (!out.ended)
		r = out.finished ? RP_MILP_ERROR : RP_MILP_NOSOLUTION;
	else if (out.status == RP_MILP_OPTIMAL && out.nvals != e->ncols + 1)
		r = RP_MILP_ERROR;
	else
		r = out.status;
	if (r == RP_MILP_OPTIMAL) {
		e->x = out.vals;
		out.vals = NULL;
		*obj = e->x[e->ncols];
	}
	free(out.sol);
	free(out.vals);
	return r;
}

static double
lp_value(const struct rp_engine *e, int c)
{
	return e->x != NULL ? e->x[c] : 0;
}

static double
price_bound(const struct rp_engine *e)
{
	(void)e;
	return NAN;
}

static int
lp_iterations(const struct rp_engine *e)
{
	(void)e;
	return 0;
}

/* The search, in the worker. CBC's C interface reports no incumbents
 * during the search, so the starting solution is sent first and CBC is
 * given a little less than the time left, to end by itself before the
 * kill. */
struct search {
	struct rp_engine *e;
	const struct rp_search *req;
};

static void
send_incumbent(struct rp_worker *w, const struct rp_search *q, const double *x,
    double obj)
{
	int *seq = rp_xmalloc(sizeof *seq * ((size_t)q->nwatch + 1));
	int k, n = 0;

	for (k = 0; k < q->nwatch; k++)
		if (x[q->watch[k]] > 0.5)
			seq[n++] = k;
	rp_worker_incumbent(w, obj, seq, n);
	free(seq);
}

static void
search_run(struct rp_worker *w, void *arg)
{
	struct search *s = arg;
	const struct rp_search *q = s->req;
	const struct rp_engine *e = s->e;
	Cbc_Model *c = cbc_model(e, 1);
	int *idx = NULL, nstart = 0, j, have;
	double *val = NULL, left = 0, bound, obj = 0;
	const double *sol;
	char buf[32];
	enum rp_milp_result r;

	if (q->start != NULL)
		send_incumbent(w, q, q->start, q->start_obj);
	if (q->deadline > 0) {
		left = q->deadline - rp_now();
		left = fmax(fmin(left * 0.9, left - 0.5), 0.01);
		Cbc_setMaximumSeconds(c, left);
		/* CBC counts CPU time by default: with threads, the clock */
		Cbc_setParameter(c, "timeMode", "elapsed");
	}
	Cbc_setAllowableFractionGap(c, q->gap > 0 ? q->gap : 0);
	Cbc_setAllowableGap(c, 0);
	if (q->threads > 1) {
		snprintf(buf, sizeof buf, "%d", q->threads);
		Cbc_setParameter(c, "threads", buf);
	}
	if (q->start != NULL) {
		/* CBC completes the continuous columns itself */
		idx = rp_xmalloc(sizeof *idx * ((size_t)e->ncols + 1));
		val = rp_xmalloc(sizeof *val * ((size_t)e->ncols + 1));
		for (j = 0; j < e->ncols; j++)
			if (e->integer[j] && q->start[j] > 0.5) {
				idx[nstart] = j;
				val[nstart++] = 1;
			}
		Cbc_setMIPStartI(c, nstart, idx, val);
	}
	Cbc_solve(c);
	bound = Cbc_getBestPossibleObjValue(c);
	if (!isfinite(bound) || fabs(bound) > 1e300)
		bound = -HUGE_VAL;
	bound = rp_mip_round_bound(q->int_obj, bound);
	if (bound > q->lp_bound)
		rp_worker_bound(w, bound);
	sol = Cbc_bestSolution(c);
	have = sol != NULL;
	if (have) {
		obj = Cbc_getObjValue(c);
		if (q->start == NULL || obj < q->start_obj)
			send_incumbent(w, q, sol, obj);
	}
	if (Cbc_isProvenInfeasible(c) && !have)
		r = RP_MILP_INFEASIBLE;
	else if (Cbc_status(c) == 2 || Cbc_isAbandoned(c))
		r = have ? RP_MILP_FEASIBLE : RP_MILP_ERROR;
	else if (have && Cbc_status(c) == 0 && Cbc_secondaryStatus(c) != 2 &&
	    Cbc_isProvenOptimal(c))
		r = RP_MILP_OPTIMAL;
	else
		r = have ? RP_MILP_FEASIBLE : RP_MILP_NOSOLUTION;
	/* Stopped with the starting solution alone: that is a solution. */
	if (q->start != NULL && (r == RP_MILP_NOSOLUTION || r == RP_MILP_ERROR))
		r = RP_MILP_FEASIBLE;
	Cbc_deleteModel(c);
	free(idx);
	free(val);
	rp_worker_end(w, r, q->start != NULL);
}

static void
search(struct rp_engine *e, const struct rp_search *req,
    struct rp_worker_out *out)
{
	struct search s = { e, req };

	rp_worker_run(search_run, &s, req->deadline, out);
}

const struct rp_engine_ops rp_engine_cbc = {
	"CBC",
	load,
	engine_free,
	set_col_bounds,
	set_row_bounds,
	solve_lp,
	lp_value,
	price_bound,
	lp_iterations,
	search,
	1,
};
