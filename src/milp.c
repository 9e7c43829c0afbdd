/* milp.c: the MILP model, its engine and its solutions (see milp.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "milp.h"
#include "util.h"

struct rp_milp {
	struct rp_checkmate f;
	const struct rp_engine_ops *ops;
	struct rp_engine *e;	/* loaded when first needed */
	int threads;
	double units0;		/* the model's own budget, in model units */
	double units;		/* the budget the engine's bounds are at */
	int lp_ok;		/* the LP relaxation is solved at units */
	double lpobj;		/* its optimum */
	double lpbound;		/* bound from an LP stopped early, or NaN */
	/* The LP optimum at the model's own budget, once known (by either
	 * engine): the bound a search starts from, which an engine that
	 * keeps no basis need not solve for again. */
	int have_obj0;
	double obj0;
	double *warm;		/* accepted offer, by column */
	double warm_obj;
	double build_s;		/* formulation, and loading into the engine
				   once that is done */
};

/* The model loaded into its engine, loading it when first needed (after
 * rp_milp_set_engine, so that a model is loaded into one engine only). */
static struct rp_engine *
engine(struct rp_milp *m)
{
	if (m->e == NULL) {
		double t0 = rp_now();
		m->e = m->ops->load(&m->f.mip);
		m->build_s += rp_now() - t0;
	}
	return m->e;
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
	struct rp_milp *m = rp_xcalloc(1, sizeof *m);
	double t0 = rp_now();

	if (rp_checkmate_build(&m->f, g, budget, flags, cause) != 0) {
		free(m);
		return NULL;
	}
	m->ops = &rp_engine_glpk;
	m->threads = 1;
	m->units0 = m->units = rp_checkmate_units(&m->f, budget);
	m->lpbound = NAN;
	m->build_s = rp_now() - t0;
	return m;
}

double
rp_milp_lp_guess(enum rp_milp_engine engine, long nonzeros)
{
	double s = 15 * pow((double)nonzeros / 330e3, 2.2);
	return engine == RP_MILP_CBC ? s / 4 : s;
}

/* The most nonzeros a model may have: about 300 bytes each in all (the
 * model, the engine's copy, the simplex's working arrays; 775 MiB for
 * 2.6M measured), kept within 2 GiB. */
#define MAX_NONZEROS 7000000L

/* How much longer than the time given the LP may be guessed to take and
 * still be tried: the guess is rough, and an LP stopped early still gives
 * a bound. */
#define LP_GUESS_SLACK 4

/* Whether the model of g may be built for a search of seconds; where not,
 * *cause (when cause is not NULL) says why. Where it may, *lp_s (when not
 * NULL) is the guess of its LP relaxation's seconds. */
static int
milp_within(const struct rp_graph *g, enum rp_milp_engine engine,
    double seconds, char **cause, double *lp_s)
{
	struct rp_checkmate_size sz;
	double guess;

	if (g->n > RP_CHECKMATE_MAX_NODES) {
		if (cause != NULL)
			*cause = rp_xasprintf("the graph has %d nodes, more than "
			    "the MILP is built for (%d: its stages times nodes "
			    "grow as n^2)", g->n, RP_CHECKMATE_MAX_NODES);
		return 0;
	}
	rp_checkmate_size(g, RP_MILP_REDUCE | RP_MILP_SPLIT_FREE |
	    RP_MILP_STAGE_ROWS, &sz);
	guess = rp_milp_lp_guess(engine, sz.nonzeros);
	if (sz.nonzeros > MAX_NONZEROS) {
		if (cause != NULL)
			*cause = rp_xasprintf("the MILP would have %s%ld rows "
			    "and %ld nonzeros, more than it is built for (%ld "
			    "nonzeros, about 2 GiB)", sz.exact ? "" : "at least ",
			    sz.rows, sz.nonzeros, MAX_NONZEROS);
		return 0;
	}
	if (seconds > 0 && guess > LP_GUESS_SLACK * seconds) {
		if (cause != NULL)
			*cause = rp_xasprintf("the MILP would have %ld rows and "
			    "%ld nonzeros, and its LP relaxation would take %s "
			    "about %.*f s, far more than the %.3g s given, so it "
			    "was not built", sz.rows, sz.nonzeros,
			    rp_engine_get(engine) != NULL ?
			    rp_engine_get(engine)->name : "the engine",
			    guess >= 10 ? 0 : guess >= 0.1 ? 2 : 4, guess,
			    seconds);
		return 0;
	}
	if (lp_s != NULL)
		*lp_s = guess;
	return 1;
}

double
rp_milp_lp_seconds(const struct rp_graph *g, enum rp_milp_engine engine,
    double seconds)
{
	double lp_s;

	return milp_within(g, engine, seconds, NULL, &lp_s) ? lp_s : -1;
}

int
rp_milp_would_build(const struct rp_graph *g, enum rp_milp_engine engine,
    double seconds)
{
	return milp_within(g, engine, seconds, NULL, NULL);
}

struct rp_milp *
rp_milp_build_within(const struct rp_graph *g, int64_t budget,
    enum rp_milp_engine engine, double seconds, char **cause)
{
	if (!milp_within(g, engine, seconds, cause, NULL))
		return NULL;
	return rp_milp_build(g, budget, cause);
}

void
rp_milp_free(struct rp_milp *m)
{
	if (m == NULL)
		return;
	if (m->e != NULL)
		m->ops->free(m->e);
	rp_checkmate_destroy(&m->f);
	free(m->warm);
	free(m);
}

void
rp_milp_stats(const struct rp_milp *m, struct rp_milp_stats *st)
{
	st->rows = m->f.mip.nrows;
	st->cols = m->f.mip.ncols;
	st->binaries = m->f.nbin;
	st->nonzeros = m->f.mip.nnz;
	st->eliminated = m->f.elim;
	st->build_s = m->build_s;
	st->lp_iterations = m->e != NULL ? m->ops->lp_iterations(m->e) : 0;
}

void
rp_milp_set_log(void (*log)(void *ctx, const char *msg), void *ctx)
{
	rp_engine_glpk_log(log, ctx);
}

int
rp_milp_set_engine(struct rp_milp *m, enum rp_milp_engine which, int threads)
{
	const struct rp_engine_ops *ops = rp_engine_get(which);

	if (ops == NULL)
		return -1;
	if (ops != m->ops) {
		if (m->e != NULL)
			m->ops->free(m->e);
		m->e = NULL;
		m->ops = ops;
		m->lp_ok = 0;
		m->lpbound = NAN;
	}
	m->threads = threads > 0 ? threads : 1;
	return 0;
}

int
rp_milp_have_cbc(void)
{
	return rp_engine_get(RP_MILP_CBC) != NULL;
}

/* A budget bound goes to the model itself (for an engine loaded later)
 * and to the engine. */
static void
set_bounds(void *ctx, int row, int k, double lo, double hi)
{
	struct rp_milp *m = ctx;

	(row ? m->f.mip.rlo : m->f.mip.clo)[k] = lo;
	(row ? m->f.mip.rhi : m->f.mip.chi)[k] = hi;
	if (m->e != NULL)
		(row ? m->ops->set_row_bounds : m->ops->set_col_bounds)(m->e, k,
		    lo, hi);
}

/* Moves the engine's bounds to a budget of units; what was solved at
 * another budget no longer holds. */
static void
set_units(struct rp_milp *m, double units)
{
	if (units == m->units)
		return;
	rp_checkmate_budget_bounds(&m->f, units, set_bounds, m);
	m->units = units;
	m->lp_ok = 0;
	m->lpbound = NAN;
}

/* The LP relaxation at a budget of units. */
static enum rp_milp_result
solve_lp(struct rp_milp *m, double units, double deadline, double *obj)
{
	enum rp_milp_result r;
	double bound;

	set_units(m, units);
	m->lp_ok = 0;
	m->lpbound = NAN;
	if (units < 0)
		return RP_MILP_INFEASIBLE;	/* below the fixed memory */
	r = m->ops->solve_lp(engine(m), deadline, obj, &bound);
	if (r == RP_MILP_NOSOLUTION)
		m->lpbound = bound;
	if (r != RP_MILP_OPTIMAL)
		return r;
	m->lp_ok = 1;
	m->lpobj = *obj;
	if (units == m->units0) {
		m->have_obj0 = 1;
		m->obj0 = *obj;
	}
	return r;
}

enum rp_milp_result
rp_milp_solve_lp(struct rp_milp *m, int64_t budget, double deadline,
    double *obj)
{
	return solve_lp(m, rp_checkmate_units(&m->f, budget), deadline, obj);
}

double
rp_milp_lp_bound(const struct rp_milp *m)
{
	return rp_mip_round_bound(m->f.int_cost, m->lp_ok ? m->lpobj :
	    m->lpbound);
}

double
rp_milp_price_bound(const struct rp_milp *m)
{
	return m->e != NULL ? m->ops->price_bound(m->e) : NAN;
}

double
rp_milp_lp_s(const struct rp_milp *m, int t, int i)
{
	int c;

	if (!m->lp_ok || (c = rp_checkmate_scol(&m->f, t, i)) < 0)
		return 0;
	return m->ops->lp_value(m->e, c);
}

int
rp_milp_offer(struct rp_milp *m, const struct rp_plan *p)
{
	double *x = rp_xmalloc(sizeof *x * ((size_t)m->f.mip.ncols + 1)), obj;

	if (rp_checkmate_offer(&m->f, p, m->units0, x, &obj) != 0) {
		free(x);
		return -1;
	}
	if (m->warm == NULL || obj < m->warm_obj) {
		free(m->warm);
		m->warm = x;
		m->warm_obj = obj;
	} else
		free(x);
	return 0;
}

void
rp_milp_solve(struct rp_milp *m, double deadline, double mip_gap,
    struct rp_milp_solution *sol, struct rp_seq *seq)
{
	struct rp_search req;
	struct rp_worker_out out;
	double t0 = rp_now(), lpobj;

	memset(sol, 0, sizeof *sol);
	sol->first_s = -1;
	sol->bound = NAN;	/* unknown until the LP relaxation is solved */
	set_units(m, m->units0);
	/* GLPK's search starts from GLPK's optimal basis at this budget; an
	 * engine that keeps no basis needs only the optimum. With no time
	 * left to solve the LP, there is no search. */
	if (!m->lp_ok && !(m->ops->cold_lp && m->have_obj0)) {
		if (deadline > 0 && rp_now() >= deadline) {
			sol->result = RP_MILP_NOSOLUTION;
			return;
		}
		enum rp_milp_result r = solve_lp(m, m->units0, deadline, &lpobj);
		if (r != RP_MILP_OPTIMAL) {
			sol->result = r;
			sol->solve_s = rp_now() - t0;
			return;
		}
	}
	lpobj = rp_mip_round_bound(m->f.int_cost, m->obj0);
	memset(&req, 0, sizeof req);
	req.deadline = deadline;
	req.gap = mip_gap > 0 ? mip_gap : 0;
	req.start = m->warm;
	req.start_obj = m->warm_obj;
	req.watch = m->f.watch;
	req.nwatch = m->f.nwatch;
	req.int_obj = m->f.int_cost;
	req.lp_bound = lpobj;
	req.threads = m->threads;
	m->ops->search(engine(m), &req, &out);
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
			free(out.vals);
			return;
		}
		sol->obj = out.obj;
		sol->bound = sol->result == RP_MILP_OPTIMAL ? out.obj :
		    fmin(fmax(out.bound, lpobj), out.obj);
		/* a search killed at the deadline may have proved it all
		 * the same */
		if (sol->result == RP_MILP_FEASIBLE &&
		    rp_mip_bound_reaches(sol->bound, sol->obj))
			sol->result = RP_MILP_OPTIMAL;
		rp_checkmate_decode(&m->f, out.sol, out.nsol, seq);
	} else if (sol->result == RP_MILP_NOSOLUTION)
		sol->bound = fmax(out.bound, lpobj);
	free(out.sol);
	free(out.vals);
}

int
rp_milp_read_solution(struct rp_milp *m, const char *path, struct rp_seq *seq,
    char **cause)
{
	return rp_checkmate_read_solution(&m->f, path, seq, cause);
}

int
rp_milp_write(struct rp_milp *m, const char *path, int lp_format,
    const char *refuse, char **cause)
{
	struct rp_engine *e;
	int rc;

	if (m->ops == &rp_engine_glpk)
		return rp_engine_glpk_write(engine(m), path, lp_format, refuse,
		    cause);
	/* The files are GLPK's: a GLPK copy of the model writes them. */
	e = rp_engine_glpk.load(&m->f.mip);
	rc = rp_engine_glpk_write(e, path, lp_format, refuse, cause);
	rp_engine_glpk.free(e);
	return rc;
}
