/* mip.c: the solver-neutral MIP (see mip.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mip.h"
#include "util.h"

void
rp_mip_init(struct rp_mip *p)
{
	memset(p, 0, sizeof *p);
}

void
rp_mip_init_counting(struct rp_mip *p)
{
	rp_mip_init(p);
	p->counting = 1;
}

void
rp_mip_destroy(struct rp_mip *p)
{
	free(p->clo);
	free(p->chi);
	free(p->obj);
	free(p->integer);
	free(p->rlo);
	free(p->rhi);
	free(p->ia);
	free(p->ja);
	free(p->ar);
	free(p->cstat);
	free(p->rstat);
	rp_mip_init(p);
}

int
rp_mip_add_col(struct rp_mip *p, double lo, double hi, double obj, int integer)
{
	int c = p->ncols, cap;

	if (p->counting)
		return p->ncols++;
	if (c == p->ccap) {
		cap = p->ccap;
		rp_grow(&p->clo, &cap, c + 1, sizeof *p->clo);
		cap = p->ccap;
		rp_grow(&p->chi, &cap, c + 1, sizeof *p->chi);
		cap = p->ccap;
		rp_grow(&p->obj, &cap, c + 1, sizeof *p->obj);
		cap = p->ccap;
		rp_grow(&p->integer, &cap, c + 1, sizeof *p->integer);
		p->ccap = cap;
	}
	p->clo[c] = lo;
	p->chi[c] = hi;
	p->obj[c] = obj;
	p->integer[c] = integer != 0;
	return p->ncols++;
}

int
rp_mip_add_row(struct rp_mip *p, double lo, double hi)
{
	int r = p->nrows, cap;

	if (p->counting)
		return p->nrows++;
	if (r == p->rcap) {
		cap = p->rcap;
		rp_grow(&p->rlo, &cap, r + 1, sizeof *p->rlo);
		cap = p->rcap;
		rp_grow(&p->rhi, &cap, r + 1, sizeof *p->rhi);
		p->rcap = cap;
	}
	p->rlo[r] = lo;
	p->rhi[r] = hi;
	return p->nrows++;
}

void
rp_mip_add(struct rp_mip *p, int row, int col, double v)
{
	if (row < 0 || col < 0 || v == 0)
		return;
	if (p->counting) {
		p->nnz++;
		return;
	}
	if (p->nnz == p->zcap) {
		p->zcap = p->zcap ? p->zcap * 2 : 1 << 16;
		p->ia = rp_xreallocarray(p->ia, (size_t)p->zcap, sizeof *p->ia);
		p->ja = rp_xreallocarray(p->ja, (size_t)p->zcap, sizeof *p->ja);
		p->ar = rp_xreallocarray(p->ar, (size_t)p->zcap, sizeof *p->ar);
	}
	p->ia[p->nnz] = row;
	p->ja[p->nnz] = col;
	p->ar[p->nnz] = v;
	p->nnz++;
}

void
rp_mip_set_col_bounds(struct rp_mip *p, int c, double lo, double hi)
{
	if (p->counting)
		return;
	p->clo[c] = lo;
	p->chi[c] = hi;
}

void
rp_mip_basis_init(struct rp_mip *p)
{
	free(p->cstat);
	free(p->rstat);
	p->cstat = rp_xmalloc((size_t)p->ncols + 1);
	p->rstat = rp_xmalloc((size_t)p->nrows + 1);
	memset(p->cstat, RP_MIP_AT_LOWER, (size_t)p->ncols);
	memset(p->rstat, RP_MIP_AT_LOWER, (size_t)p->nrows);
}

double
rp_mip_round_bound(int int_obj, double b)
{
	if (!int_obj || !isfinite(b))
		return b;
	return b - floor(b) >= fmax(1e-3, 1e-7 * fabs(b)) ? ceil(b) : b;
}

int
rp_mip_bound_reaches(double b, double obj)
{
	return obj <= b + 1e-9 * fmax(1, fabs(b));
}
