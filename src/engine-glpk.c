/* engine-glpk.c: the MILP engine on GLPK (see engine.h). The only module
 * that includes glpk.h. */
#include "config.h"

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glpk.h>

#include "engine.h"
#include "files.h"
#include "util.h"

struct rp_engine {
	glp_prob *lp;
	int ncols, nrows;
};

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
rp_engine_glpk_log(void (*log)(void *ctx, const char *msg), void *ctx)
{
	log_fn = log;
	log_ctx = ctx;
}

/* GLPK's bound type for lo <= x <= hi. */
static int
bound_type(double lo, double hi)
{
	if (lo == hi)
		return GLP_FX;
	if (isinf(lo) && isinf(hi))
		return GLP_FR;
	if (isinf(lo))
		return GLP_UP;
	if (isinf(hi))
		return GLP_LO;
	return GLP_DB;
}

static void
set_col_bounds(struct rp_engine *e, int c, double lo, double hi)
{
	glp_set_col_bnds(e->lp, c + 1, bound_type(lo, hi), isinf(lo) ? 0 : lo,
	    isinf(hi) ? 0 : hi);
}

static void
set_row_bounds(struct rp_engine *e, int r, double lo, double hi)
{
	glp_set_row_bnds(e->lp, r + 1, bound_type(lo, hi), isinf(lo) ? 0 : lo,
	    isinf(hi) ? 0 : hi);
}

/* GLPK's status for a basis entry of the model: a nonbasic variable whose
 * bounds are equal is GLP_NS. */
static int
glp_stat(int stat, int fixed)
{
	if (stat == RP_MIP_BASIC)
		return GLP_BS;
	if (fixed)
		return GLP_NS;
	return stat == RP_MIP_AT_UPPER ? GLP_NU : GLP_NL;
}

/* GLPK ends the process with abort() after an error of its own, most
 * often that it ran out of memory: say so and end with status 4 instead
 * (in a search's worker child, the parent then reports the search as
 * failed). */
static void
error_hook(void *info)
{
	(void)info;
	fputs("remat-plan: GLPK failed (out of memory, or an internal error "
	    "in GLPK)\n", stderr);
	exit(4);	/* atexit: a file being written is removed */
}

static struct rp_engine *
load(const struct rp_mip *p)
{
	struct rp_engine *e = rp_xcalloc(1, sizeof *e);
	int *ia = rp_xmalloc(sizeof *ia * ((size_t)p->nnz + 1));
	int *ja = rp_xmalloc(sizeof *ja * ((size_t)p->nnz + 1));
	double *ar = rp_xmalloc(sizeof *ar * ((size_t)p->nnz + 1));
	char name[64];
	long k;
	int c, r;

	glp_term_hook(term_hook, NULL);
	glp_error_hook(error_hook, NULL);
	e->lp = glp_create_prob();
	e->ncols = p->ncols;
	e->nrows = p->nrows;
	glp_set_obj_dir(e->lp, GLP_MIN);
	if (p->ncols > 0)
		glp_add_cols(e->lp, p->ncols);
	for (c = 0; c < p->ncols; c++) {
		if (p->colname != NULL) {
			p->colname(p->namectx, c, name, sizeof name);
			glp_set_col_name(e->lp, c + 1, name);
		}
		if (p->integer[c])
			glp_set_col_kind(e->lp, c + 1, GLP_IV);
		set_col_bounds(e, c, p->clo[c], p->chi[c]);
		glp_set_obj_coef(e->lp, c + 1, p->obj[c]);
	}
	if (p->nrows > 0)
		glp_add_rows(e->lp, p->nrows);
	for (r = 0; r < p->nrows; r++)
		set_row_bounds(e, r, p->rlo[r], p->rhi[r]);
	for (k = 0; k < p->nnz; k++) {
		ia[k + 1] = p->ia[k] + 1;
		ja[k + 1] = p->ja[k] + 1;
		ar[k + 1] = p->ar[k];
	}
	glp_load_matrix(e->lp, (int)p->nnz, ia, ja, ar);
	free(ia);
	free(ja);
	free(ar);
	if (p->cstat != NULL) {
		for (r = 0; r < p->nrows; r++)
			glp_set_row_stat(e->lp, r + 1, glp_stat(p->rstat[r],
			    p->rlo[r] == p->rhi[r]));
		for (c = 0; c < p->ncols; c++)
			glp_set_col_stat(e->lp, c + 1, glp_stat(p->cstat[c],
			    p->clo[c] == p->chi[c]));
	}
	return e;
}

static void
engine_free(struct rp_engine *e)
{
	if (e == NULL)
		return;
	glp_delete_prob(e->lp);
	free(e);
}

/* A lower bound on the LP relaxation (so on every solution of the model)
 * from row prices y, whatever state the simplex stopped in. Any y gives
 * one: c'x = (c - A'y)'x + y'Ax, and over the row bounds lo <= Ax <= hi
 * and the column bounds each term is at least its minimum, as long as
 * y_r >= 0 only where lo_r is finite and y_r <= 0 only where hi_r is
 * (prices of the wrong sign are taken as 0). At an optimal basis this is
 * the LP optimum; from the dual simplex stopped early it is the objective
 * it had reached. Every column of the models built here is bounded. */
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

/* GLPK's time limit in ms for the time left to deadline (<= 0: none),
 * less margin seconds. */
static int
tm_lim(double deadline, double margin)
{
	double left;

	if (deadline <= 0)
		return INT_MAX;
	left = (deadline - rp_now() - margin) * 1000;
	return left < 1 ? 1 : left < 2e9 ? (int)left : 2000000000;
}

/* What glp_simplex spends outside its iterations, where it does not look
 * at the clock: copying the model in, factorizing the starting basis and
 * storing the solution back, linear in the nonzeros (0.47 s for 2.6M on
 * the 2-core development machine; this allows for a machine half as
 * fast). */
static double
simplex_overhead(const struct rp_engine *e)
{
	return 0.005 + 0.35e-6 * (double)glp_get_num_nz(e->lp);
}

/* The dual simplex, from the basis the model has: the starting basis it
 * was loaded with, then the one the last solve left (later solves at other
 * budgets go on from it). Where the time left would not even cover
 * GLPK's overhead, it does not start, and the bound is what the row
 * prices of the current basis prove. */
static enum rp_milp_result
solve_lp(struct rp_engine *e, double deadline, double *obj, double *bound)
{
	glp_smcp parm;
	int rc, st;
	double margin = simplex_overhead(e);

	*bound = NAN;
	if (deadline > 0 && rp_now() + margin >= deadline) {
		*bound = dual_bound(e->lp);
		return RP_MILP_NOSOLUTION;
	}
	glp_init_smcp(&parm);
	parm.msg_lev = log_fn != NULL ? GLP_MSG_ON : GLP_MSG_OFF;
	parm.meth = GLP_DUALP;	/* dual simplex: far faster on this model */
	parm.tm_lim = tm_lim(deadline, margin);
	rc = glp_simplex(e->lp, &parm);
	if (rc == GLP_EBADB || rc == GLP_ESING || rc == GLP_ECOND) {
		/* cannot happen with the bases given; GLPK's own then, in the
		 * time left */
		glp_std_basis(e->lp);
		parm.tm_lim = tm_lim(deadline, margin);
		rc = glp_simplex(e->lp, &parm);
	}
	st = glp_get_status(e->lp);
	if (rc == GLP_ETMLIM) {
		*bound = dual_bound(e->lp);
		return RP_MILP_NOSOLUTION;
	}
	if (rc != 0 && st != GLP_NOFEAS)
		return RP_MILP_ERROR;
	if (st == GLP_NOFEAS || rc == GLP_ENOPFS)
		return RP_MILP_INFEASIBLE;
	if (st != GLP_OPT)
		return RP_MILP_ERROR;
	*obj = glp_get_obj_val(e->lp);
	return RP_MILP_OPTIMAL;
}

static double
lp_value(const struct rp_engine *e, int c)
{
	return glp_get_col_prim(e->lp, c + 1);
}

static double
price_bound(const struct rp_engine *e)
{
	return dual_bound(e->lp);
}

static int
lp_iterations(const struct rp_engine *e)
{
	return glp_get_it_cnt(e->lp);
}

/* ---- branch and bound ---- */

/* The search runs in a worker child (worker.h): GLPK checks its clock only
 * between LP solves, and a node LP or a round of cuts on a model of a few
 * hundred nodes takes minutes. Bounds and incumbents are streamed to the
 * parent as they are found. */
struct search {
	struct rp_engine *e;
	const struct rp_search *req;
	struct rp_worker *w;
	double sent_bound, sent_obj;
	int injected, stopped;
	long nodes;		/* subproblems selected so far */
	int proved;		/* the bound reached the incumbent */
	int *seq;		/* scratch for an incumbent's payload */
	double *start;		/* the starting solution, 1-based as GLPK
				   takes it */
};

/* Sends a solution: the problem's own incumbent when x is NULL, else
 * column values x (by column, 0-based). */
static void
send_incumbent(struct search *s, const double *x, double obj)
{
	const struct rp_search *q = s->req;
	int k, n = 0;

	for (k = 0; k < q->nwatch; k++)
		if ((x != NULL ? x[q->watch[k]] :
		    glp_mip_col_val(s->e->lp, q->watch[k] + 1)) > 0.5)
			s->seq[n++] = k;
	s->sent_obj = obj;
	rp_worker_incumbent(s->w, obj, s->seq, n);
}

static void
callback(glp_tree *T, void *info)
{
	struct search *s = info;
	glp_prob *lp = s->e->lp;
	int p;

	/* glp_ios_heur_sol does not check feasibility: the caller checked
	 * the starting solution against the model. */
	if (glp_ios_reason(T) == GLP_IHEUR && !s->injected &&
	    s->req->start != NULL) {
		glp_ios_heur_sol(T, s->start);
		s->injected = 1;
	}
	/* Without presolve the search records incumbents in the problem
	 * itself, found or injected. */
	if (glp_mip_status(lp) == GLP_FEAS &&
	    glp_mip_obj_val(lp) < s->sent_obj)
		send_incumbent(s, NULL, glp_mip_obj_val(lp));
	p = glp_ios_best_node(T);
	if (p != 0) {
		double b = rp_mip_round_bound(s->req->int_obj,
		    glp_ios_node_bound(T, p));
		if (b > s->sent_bound + 1e-9 * fabs(b)) {
			s->sent_bound = b;
			rp_worker_bound(s->w, b);
		}
		/* GLPK rounds its node bounds up itself, but keeps searching
		 * until no node is left: a best bound that has reached the
		 * incumbent proves it. */
		if (glp_mip_status(lp) == GLP_FEAS &&
		    rp_mip_bound_reaches(b, glp_mip_obj_val(lp))) {
			s->proved = 1;
			glp_ios_terminate(T);
		}
	}
	/* The node limit counts the subproblems GLPK selects. */
	if (glp_ios_reason(T) == GLP_ISELECT && s->req->node_limit > 0 &&
	    ++s->nodes > s->req->node_limit) {
		s->stopped = 1;
		glp_ios_terminate(T);
	}
	/* The parent kills the search at the deadline; stopping here first
	 * lets it say how it ended. */
	if (s->req->deadline > 0 && rp_now() > s->req->deadline) {
		s->stopped = 1;
		glp_ios_terminate(T);
	}
}

/* The worker: glp_intopt from the LP relaxation's basis. */
static void
search_run(struct rp_worker *w, void *arg)
{
	struct search *s = arg;
	glp_prob *lp = s->e->lp;
	glp_iocp parm;
	int rc, st, result;

	s->w = w;
	s->seq = rp_xmalloc(sizeof *s->seq * ((size_t)s->req->nwatch + 1));
	if (s->req->start != NULL) {
		s->start = rp_xmalloc(sizeof *s->start * ((size_t)s->e->ncols + 1));
		s->start[0] = 0;
		memcpy(s->start + 1, s->req->start,
		    sizeof *s->start * (size_t)s->e->ncols);
	}
	glp_init_iocp(&parm);
	parm.msg_lev = log_fn != NULL ? GLP_MSG_ON : GLP_MSG_OFF;
	parm.presolve = GLP_OFF;	/* heuristic solutions index the original */
	/* No feasibility pump: GLPK runs it at the root without calling back;
	 * first solutions come from the starting solution. */
	parm.fp_heur = GLP_OFF;
	/* Gomory and MIR cuts help prove small models, but on large ones
	 * GLPK spends minutes in them without calling back. */
	parm.gmi_cuts = s->e->ncols <= 20000 ? GLP_ON : GLP_OFF;
	parm.mir_cuts = s->e->ncols <= 20000 ? GLP_ON : GLP_OFF;
	parm.cov_cuts = GLP_ON;
	parm.clq_cuts = GLP_ON;
	parm.br_tech = GLP_BR_PCH;
	parm.bt_tech = GLP_BT_BLB;
	parm.mip_gap = s->req->gap;
	parm.cb_func = callback;
	parm.cb_info = s;
	if (s->req->deadline > 0)
		parm.tm_lim = tm_lim(s->req->deadline, 0);
	rc = glp_intopt(lp, &parm);
	st = glp_mip_status(lp);
	if (st == GLP_NOFEAS)
		result = RP_MILP_INFEASIBLE;
	else if (st != GLP_OPT && st != GLP_FEAS)
		result = rc == 0 || rc == GLP_ETMLIM || rc == GLP_ESTOP ||
		    rc == GLP_EMIPGAP ? RP_MILP_NOSOLUTION : RP_MILP_ERROR;
	else {
		double obj = glp_mip_obj_val(lp), b;

		if (obj < s->sent_obj)
			send_incumbent(s, NULL, obj);
		/* Stopped at the gap asked for: GLPK's best node bound then
		 * was within mip_gap of obj, but it may have moved there after
		 * the last callback. Send what the stop itself proves, so that
		 * the parent sees the gap that ended the search. */
		if (rc == GLP_EMIPGAP) {
			b = rp_mip_round_bound(s->req->int_obj, obj -
			    parm.mip_gap * (fabs(obj) + DBL_EPSILON) *
			    (1 + 1e-12));
			if (b > s->sent_bound + 1e-9 * fabs(b)) {
				s->sent_bound = b;
				rp_worker_bound(w, b);
			}
		}
		result = (st == GLP_OPT && rc == 0 && !s->stopped) || s->proved ?
		    RP_MILP_OPTIMAL : RP_MILP_FEASIBLE;
	}
	free(s->seq);
	free(s->start);
	rp_worker_end(w, result, s->injected);
}

static void
search(struct rp_engine *e, const struct rp_search *req,
    struct rp_worker_out *out)
{
	struct search s;

	memset(&s, 0, sizeof s);
	s.e = e;
	s.req = req;
	s.sent_bound = req->lp_bound;
	s.sent_obj = HUGE_VAL;
	rp_worker_run(search_run, &s, req->deadline, out);
}

/* GLPK writes the file named tmp; it says only that it failed. */
struct model_file {
	struct rp_engine *e;
	int lp_format;
};

static int
write_model(const char *tmp, void *ctx)
{
	const struct model_file *mf = ctx;
	int rc;

	errno = 0;
	rc = mf->lp_format ? glp_write_lp(mf->e->lp, NULL, tmp) :
	    glp_write_mps(mf->e->lp, GLP_MPS_FILE, NULL, tmp);
	return rc == 0 ? 0 : errno != 0 ? errno : EIO;
}

int
rp_engine_glpk_write(struct rp_engine *e, const char *path, int lp_format,
    const char *refuse, char **cause)
{
	struct model_file mf;

	mf.e = e;
	mf.lp_format = lp_format;
	return rp_write_output(path, refuse, write_model, &mf, cause);
}

const struct rp_engine_ops rp_engine_glpk = {
	"GLPK",
	load,
	engine_free,
	set_col_bounds,
	set_row_bounds,
	solve_lp,
	lp_value,
	price_bound,
	lp_iterations,
	search,
	0,
};
