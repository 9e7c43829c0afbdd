/* cbc.c: the MILP on COIN-OR CBC through its C interface (see cbc.h). */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <Cbc_C_Interface.h>

#include "cbc.h"
#include "util.h"

/* Loads md into a new quiet CBC model; integer columns only if ints. */
static Cbc_Model *
load(const struct rp_cbc_model *md, int ints)
{
	Cbc_Model *c = Cbc_newModel();
	CoinBigIndex *st = rp_xmalloc(sizeof *st * ((size_t)md->ncols + 1));
	double *rlo = rp_xmalloc(sizeof *rlo * ((size_t)md->nrows + 1));
	double *rhi = rp_xmalloc(sizeof *rhi * ((size_t)md->nrows + 1));
	double *clo = rp_xmalloc(sizeof *clo * ((size_t)md->ncols + 1));
	double *chi = rp_xmalloc(sizeof *chi * ((size_t)md->ncols + 1));
	int j;

	for (j = 0; j <= md->ncols; j++)
		st[j] = md->start[j];
	/* COIN spells an absent bound COIN_DBL_MAX, which is DBL_MAX */
	for (j = 0; j < md->nrows; j++) {
		rlo[j] = isinf(md->rowlo[j]) ? -DBL_MAX : md->rowlo[j];
		rhi[j] = isinf(md->rowhi[j]) ? DBL_MAX : md->rowhi[j];
	}
	for (j = 0; j < md->ncols; j++) {
		clo[j] = isinf(md->collo[j]) ? -DBL_MAX : md->collo[j];
		chi[j] = isinf(md->colhi[j]) ? DBL_MAX : md->colhi[j];
	}
	Cbc_loadProblem(c, md->ncols, md->nrows, st, md->index, md->value,
	    clo, chi, md->obj, rlo, rhi);
	if (ints)
		for (j = 0; j < md->ncols; j++)
			if (md->integer[j])
				Cbc_setInteger(c, j);
	Cbc_setObjSense(c, 1);
	Cbc_setLogLevel(c, 0);
	free(st);
	free(rlo);
	free(rhi);
	free(clo);
	free(chi);
	return c;
}

enum rp_cbc_status
rp_cbc_solve_lp(const struct rp_cbc_model *md, double *x, double *obj)
{
	Cbc_Model *c = load(md, 0);
	enum rp_cbc_status r = RP_CBC_ERROR;

	Cbc_solve(c);
	if (Cbc_isProvenOptimal(c)) {
		memcpy(x, Cbc_getColSolution(c), sizeof *x * (size_t)md->ncols);
		*obj = Cbc_getObjValue(c);
		r = RP_CBC_OPTIMAL;
	} else if (Cbc_isProvenInfeasible(c))
		r = RP_CBC_INFEASIBLE;
	Cbc_deleteModel(c);
	return r;
}

enum rp_cbc_status
rp_cbc_solve(const struct rp_cbc_model *md, const double *start,
    double seconds, double gap, int threads, double *x, double *obj,
    double *bound)
{
	Cbc_Model *c = load(md, 1);
	int *idx = NULL, nstart = 0, j, ok;
	double *val = NULL;
	const double *sol;
	char buf[32];
	enum rp_cbc_status r;

	if (seconds > 0)
		Cbc_setMaximumSeconds(c, seconds);
	Cbc_setAllowableFractionGap(c, gap > 0 ? gap : 0);
	Cbc_setAllowableGap(c, 0);
	if (threads > 1) {
		snprintf(buf, sizeof buf, "%d", threads);
		Cbc_setParameter(c, "threads", buf);
	}
	if (start != NULL) {
		/* CBC completes the continuous columns itself */
		idx = rp_xmalloc(sizeof *idx * ((size_t)md->ncols + 1));
		val = rp_xmalloc(sizeof *val * ((size_t)md->ncols + 1));
		for (j = 0; j < md->ncols; j++)
			if (md->integer[j] && start[j] > 0.5) {
				idx[nstart] = j;
				val[nstart++] = 1;
			}
		Cbc_setMIPStartI(c, nstart, idx, val);
	}
	Cbc_solve(c);
	*bound = Cbc_getBestPossibleObjValue(c);
	if (!isfinite(*bound) || fabs(*bound) > 1e300)
		*bound = -HUGE_VAL;
	sol = Cbc_bestSolution(c);
	ok = sol != NULL;
	if (ok) {
		memcpy(x, sol, sizeof *x * (size_t)md->ncols);
		*obj = Cbc_getObjValue(c);
	}
	if (Cbc_isProvenInfeasible(c) && !ok)
		r = RP_CBC_INFEASIBLE;
	else if (Cbc_status(c) == 2 || Cbc_isAbandoned(c))
		r = ok ? RP_CBC_FEASIBLE : RP_CBC_ERROR;
	else if (ok && Cbc_status(c) == 0 && Cbc_secondaryStatus(c) != 2 &&
	    Cbc_isProvenOptimal(c))
		r = RP_CBC_OPTIMAL;
	else
		r = ok ? RP_CBC_FEASIBLE : RP_CBC_NOSOLUTION;
	Cbc_deleteModel(c);
	free(idx);
	free(val);
	return r;
}
