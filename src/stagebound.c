/* stagebound.c: the stage memory bound (see stagebound.h). */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "mip.h"
#include "stagebound.h"
#include "util.h"
#include "worker.h"

/* Fenwick trees over the values ranked by cost per byte, cheapest first:
 * the bytes and the cost of the values that may be left out. */
struct fen {
	int n;
	int64_t *mem;
	double *cost;
};

static void
fen_add(struct fen *f, int i, int64_t mem, double cost)
{
	for (i++; i <= f->n; i += i & -i) {
		f->mem[i] += mem;
		f->cost[i] += cost;
	}
}

/* The least cost of leaving out want bytes (> 0, at most the total) when
 * fractions of values may be left out: the cheapest values per byte
 * first, the last one in part. */
static double
fen_cover(const struct fen *f, int64_t want, const int *byrank,
    const struct rp_graph *g)
{
	int pos = 0, step;
	int64_t m = 0;
	double c = 0;
	int v;

	for (step = 1; step * 2 <= f->n; step *= 2)
		;
	/* the longest prefix with fewer than want bytes */
	for (; step > 0; step /= 2)
		if (pos + step <= f->n && m + f->mem[pos + step] < want) {
			pos += step;
			m += f->mem[pos];
			c += f->cost[pos];
		}
	if (pos >= f->n)
		return c;	/* rounding: cannot happen */
	v = byrank[pos];	/* the next value, in part */
	return c + g->cost[v] * (double)(want - m) / (double)g->mem[v];
}

/* A value by its cost per byte. */
struct ratio {
	double r;
	int v;
};

static int
cmp_ratio(const void *a, const void *b)
{
	const struct ratio *x = a, *y = b;

	if (x->r != y->r)
		return x->r < y->r ? -1 : 1;
	return (x->v > y->v) - (x->v < y->v);
}

/* A value crosses stage t when a later node reads it, or it is an
 * output: the array of each value's last reader (itself where none), n
 * for an output. */
static int *
last_readers(const struct rp_graph *g)
{
	int n = g->n, v;
	int *last = rp_xmalloc(sizeof *last * (size_t)(n ? n : 1));

	for (v = 0; v < n; v++)
		last[v] = g->output[v] ? n : rp_last_succ(g, v) > v ?
		    rp_last_succ(g, v) : v;
	return last;
}

/* The knapsack bound of every stage, with last from last_readers:
 * returns the largest extra cost (not yet added to the baseline; INFINITY
 * where no frontier-advancing plan fits) and its stage in *stage (-1:
 * none). Where over is not NULL, over[t] is the bytes that stage t must
 * leave out (0: none). */
static double
knapsack(const struct rp_problem *pb, const int *last, int *stage,
    int64_t *over)
{
	const struct rp_graph *g = pb->g;
	int n = g->n, v, t, j, k, nr = 0;
	size_t sz = (size_t)(n ? n : 1);
	int *rank = rp_xmalloc(sizeof *rank * sz);
	int *byrank = rp_xmalloc(sizeof *byrank * sz);
	int *boff = rp_xcalloc(sz + 2, sizeof *boff), *bnode;
	int *seen = rp_xmalloc(sizeof *seen * sz);
	char *in = rp_xcalloc(sz, 1);	/* in the crossing set */
	struct ratio *rs;
	struct fen f;
	int64_t total = 0, pinned = 0;	/* bytes that may be left out; not */
	double extra = 0;

	*stage = -1;
	for (v = 0; v < n; v++) {
		boff[last[v] + 1]++;
		seen[v] = -1;
		if (g->recompute[v] && g->mem[v] > 0)
			byrank[nr++] = v;
	}
	for (t = 0; t <= n; t++)
		boff[t + 1] += boff[t];
	bnode = rp_xmalloc(sizeof *bnode * sz);
	for (v = 0; v < n; v++)
		bnode[boff[last[v]]++] = v;
	for (t = n; t > 0; t--)
		boff[t] = boff[t - 1];
	boff[0] = 0;
	rs = rp_xmalloc(sizeof *rs * (size_t)(nr ? nr : 1));
	for (k = 0; k < nr; k++)
		rs[k] = (struct ratio){ g->cost[byrank[k]] /
		    (double)g->mem[byrank[k]], byrank[k] };
	qsort(rs, (size_t)nr, sizeof *rs, cmp_ratio);
	for (k = 0; k < nr; k++)
		byrank[k] = rs[k].v;
	free(rs);
	for (v = 0; v < n; v++)
		rank[v] = -1;
	for (k = 0; k < nr; k++)
		rank[byrank[k]] = k;
	f.n = nr;
	f.mem = rp_xcalloc((size_t)nr + 1, sizeof *f.mem);
	f.cost = rp_xcalloc((size_t)nr + 1, sizeof *f.cost);

#define TAKE(u, s) do {							\
		if (rank[u] >= 0) {					\
			fen_add(&f, rank[u], (s) * g->mem[u],		\
			    (s) * g->cost[u]);				\
			total += (s) * g->mem[u];			\
		} else							\
			pinned += (s) * g->mem[u];			\
	} while (0)

	for (t = 0; t < n; t++) {
		int64_t need = g->fixed_mem + g->mem[t] + g->workspace[t], room;
		/* values last read by t leave the crossing set: they are
		 * inputs of t now */
		for (k = boff[t]; k < boff[t + 1]; k++)
			if (in[bnode[k]]) {
				in[bnode[k]] = 0;
				TAKE(bnode[k], -1);
			}
		/* t's inputs must be resident: out of the knapsack */
		for (j = g->pred_off[t]; j < g->pred_off[t + 1]; j++) {
			int u = g->pred[j];
			if (seen[u] == t)
				continue;
			seen[u] = t;
			need += g->mem[u];
			if (in[u])
				TAKE(u, -1);
		}
		room = pb->budget - need - pinned;
		if (room < 0) {
			extra = INFINITY;
			*stage = t;
			break;
		}
		if (total > room) {
			double c = fen_cover(&f, total - room, byrank, g);
			if (over != NULL)
				over[t] = total - room;
			if (c > extra) {
				extra = c;
				*stage = t;
			}
		}
		for (j = g->pred_off[t]; j < g->pred_off[t + 1]; j++) {
			int u = g->pred[j];
			if (seen[u] == t && in[u]) {
				seen[u] = -2;	/* put back once */
				TAKE(u, 1);
			}
		}
		if (last[t] > t) {
			in[t] = 1;
			TAKE(t, 1);
		}
	}
#undef TAKE
	free(rank);
	free(byrank);
	free(boff);
	free(bnode);
	free(seen);
	free(in);
	free(f.mem);
	free(f.cost);
	return extra;
}

/* The bound of an extra cost, as a plan's cost. */
static double
as_bound(const struct rp_problem *pb, double extra)
{
	if (isinf(extra))
		return INFINITY;
	return rp_mip_round_bound(rp_graph_int_cost(pb->g), pb->baseline + extra);
}

double
rp_stage_bound(const struct rp_problem *pb, int *stage)
{
	int *last = last_readers(pb->g);
	double extra = knapsack(pb, last, stage, NULL);

	free(last);
	return as_bound(pb, extra);
}

/* The largest model stage_lp builds, and the most stages it is solved at,
 * no two closer than n / LP_SPREAD stages (neighbours give the same),
 * until, past LP_IDLE_SECONDS, LP_IDLE in a row raise the bound no
 * further (on large graphs where the knapsack is already tight, the LPs
 * of thousands of values take seconds for nothing). */
#define LP_MAX_NNZ 250000L
#define LP_STAGES 8
#define LP_SPREAD 32
#define LP_IDLE 2
#define LP_IDLE_SECONDS 0.25
/* Where the LP's optimum holds a value or computes it again in part, the
 * model is searched in whole values by branch and bound for at most
 * MILP_NODES subproblems (a limit that ends the search at the same place
 * on every machine): its proven bound, or its optimum, is then the
 * stage's bound. */
#define MILP_NODES 2000
#define SEARCH_SLACK 1e-6
/* The searches run after every LP, at the MILP_STAGES stages with the
 * highest fractional LP bounds, each within an equal share of the time
 * left and at most MILP_SECONDS, until one raises nothing over its LP. */
#define MILP_STAGES 3
#define MILP_SECONDS 0.5

/* Whether the last LP solution of e holds or computes again some value
 * in part. */
static int
fractional(const struct rp_engine_ops *ops, const struct rp_engine *e,
    int ncols)
{
	int c;

	for (c = 0; c < ncols; c++) {
		double x = ops->lp_value(e, c);
		if (fabs(x - floor(x + 0.5)) > 1e-6)
			return 1;
	}
	return 0;
}

/* The branch-and-bound search of a stage model in whole values, from its
 * LP relaxation's optimum lp: the optimum where it is proven, else the
 * bound proven when it stopped (MILP_NODES subproblems, or the deadline,
 * as the search runs in a worker killed then). NaN: nothing proven. */
static double
whole_values(const struct rp_problem *pb, const struct rp_engine_ops *ops,
    struct rp_engine *e, double lp, double deadline)
{
	struct rp_search req;
	struct rp_worker_out res;
	double b = NAN;

	memset(&req, 0, sizeof req);
	req.deadline = deadline;
	req.int_obj = rp_graph_int_cost(pb->g);
	req.lp_bound = rp_mip_round_bound(req.int_obj, lp);
	req.node_limit = MILP_NODES;
	ops->search(e, &req, &res);
	if (res.ended && res.status == RP_MILP_OPTIMAL && res.has_sol)
		b = res.obj;
	else if (res.bound > -HUGE_VAL)
		b = res.bound;
	free(res.sol);
	free(res.vals);
	/* The search prunes and proves within GLPK's tolerances (1e-7 of
	 * the objective): what it proves is taken that much lower, so that
	 * no plan is ever below it (and an integer bound rounds back up). */
	return isfinite(b) ? b - SEARCH_SLACK * fmax(1, fabs(b)) : NAN;
}

/* The bound of stage t (see stagebound.h): the least extra cost of values
 * held at t (h, within the room beside t's working set) or computed again
 * after t (r), such that every value read after t is one or the other,
 * and a value computed again after t has each input held at t or computed
 * again after t too (t's inputs are resident at t anyway). Only the values
 * read after t and their ancestors through recomputable values are in
 * it. The LP relaxation first, its bound what the row prices prove; where
 * its optimum is fractional, the search in whole values (MILP_NODES).
 * Returns the extra cost proven, or NaN where the model is too large or
 * time ran out before a bound; *how is 1 for the LP's bound, 2 where the
 * search raised it. The search runs only with search_until > 0 (rp_now()
 * time, at most deadline); without it, *how is 3 where it would run.
 * mark (n entries, zero) is left zero. */
static double
stage_lp(const struct rp_problem *pb, int t, const int *last, double deadline,
    double search_until, int *mark, int *how)
{
	const struct rp_graph *g = pb->g;
	const struct rp_engine_ops *ops = rp_engine_get(RP_MILP_GLPK);
	int *model = rp_xmalloc(sizeof *model * (size_t)(t ? t : 1));
	int nm = 0, k, j, u, w, row;
	int64_t room = pb->budget - g->fixed_mem - g->mem[t] - g->workspace[t];
	long nnz = 0;
	double unit = 1, extra = NAN, obj, bnd;
	struct rp_mip mip;

	/* mark: 1 an input of t, 2 + k the model's k-th value */
	for (j = g->pred_off[t]; j < g->pred_off[t + 1]; j++)
		if (mark[g->pred[j]] == 0) {
			mark[g->pred[j]] = 1;
			room -= g->mem[g->pred[j]];
		}
	for (u = 0; u < t; u++)
		if (last[u] > t && mark[u] == 0) {
			mark[u] = 2 + nm;
			model[nm++] = u;
		}
	for (k = 0; k < nm; k++) {
		u = model[k];
		nnz += 3;
		if (g->mem[u] > unit)
			unit = (double)g->mem[u];
		if (!g->recompute[u])
			continue;
		for (j = g->pred_off[u]; j < g->pred_off[u + 1]; j++) {
			w = g->pred[j];
			nnz += 3;
			if (mark[w] == 0) {
				mark[w] = 2 + nm;
				model[nm++] = w;
			}
		}
	}
	if (room < 0 || nm == 0 || nnz > LP_MAX_NNZ)
		goto out;
	rp_mip_init(&mip);
	for (k = 0; k < nm; k++) {
		u = model[k];
		rp_mip_add_col(&mip, 0, 1, 0, 1);	/* h: held at t */
		rp_mip_add_col(&mip, 0, g->recompute[u] ? 1 : 0, g->cost[u], 1);
	}
	row = rp_mip_add_row(&mip, -HUGE_VAL, (double)room / unit);
	for (k = 0; k < nm; k++)
		rp_mip_add(&mip, row, 2 * k, (double)g->mem[model[k]] / unit);
	for (k = 0; k < nm; k++) {
		u = model[k];
		if (last[u] > t) {
			row = rp_mip_add_row(&mip, 1, HUGE_VAL);
			rp_mip_add(&mip, row, 2 * k, 1);
			rp_mip_add(&mip, row, 2 * k + 1, 1);
		}
		for (j = g->pred_off[u]; g->recompute[u] &&
		    j < g->pred_off[u + 1]; j++) {
			int c = mark[g->pred[j]] - 2;
			if (c < 0)
				continue;	/* resident at t */
			row = rp_mip_add_row(&mip, -HUGE_VAL, 0);
			rp_mip_add(&mip, row, 2 * k + 1, 1);
			rp_mip_add(&mip, row, 2 * c, -1);
			rp_mip_add(&mip, row, 2 * c + 1, -1);
		}
	}
	{
		struct rp_engine *e = ops->load(&mip);
		switch (ops->solve_lp(e, deadline, &obj, &bnd)) {
		case RP_MILP_OPTIMAL:
			/* the prices prove it, whatever the tolerances */
			extra = ops->price_bound(e);
			*how = fractional(ops, e, 2 * nm) ? 3 : 1;
			if (*how == 3 && search_until > 0) {
				double b = whole_values(pb, ops, e, obj,
				    fmin(deadline, search_until));
				*how = 1;
				if (b > extra) {
					extra = b;
					*how = 2;
				}
			}
			break;
		case RP_MILP_NOSOLUTION:
			extra = bnd;	/* what the prices proved by then */
			break;
		default:
			/* infeasible: a proof that nothing fits, but one that
			 * rests on tolerances; the knapsack decides that */
			break;
		}
		ops->free(e);
	}
	rp_mip_destroy(&mip);
out:
	for (k = 0; k < nm; k++)
		mark[model[k]] = 0;
	for (j = g->pred_off[t]; j < g->pred_off[t + 1]; j++)
		mark[g->pred[j]] = 0;
	free(model);
	return isfinite(extra) && extra > 0 ? extra : NAN;
}

int
rp_stages_by_bytes(const int64_t *bytes, int n, int *out)
{
	struct rp_keyed *os = rp_xmalloc(sizeof *os * (size_t)(n ? n : 1));
	int t, no = 0;

	for (t = 0; t < n; t++)
		if (bytes[t] > 0)
			os[no++] = (struct rp_keyed){ bytes[t], t };
	qsort(os, (size_t)no, sizeof *os, rp_keyed_cmp);
	for (t = 0; t < no; t++)
		out[t] = os[t].id;
	free(os);
	return no;
}

double
rp_stage_bound_lp(const struct rp_problem *pb, double deadline, int *stage,
    int *lp, int *complete)
{
	const struct rp_graph *g = pb->g;
	int n = g->n, j, k, no = 0, picked[LP_STAGES], np = 0, idle = 0;
	double lpv[LP_STAGES];
	int64_t *over = rp_xcalloc((size_t)(n ? n : 1), sizeof *over);
	int *last = last_readers(g), *mark;
	double extra = knapsack(pb, last, stage, over), t0 = rp_now();
	int *os;		/* the stages over the budget, most bytes first */
	int cut = 0;		/* the deadline cut something short */

	*lp = 0;
	if (isinf(extra) || (deadline > 0 && rp_now() >= deadline)) {
		if (complete != NULL)
			*complete = isinf(extra);
		free(over);
		free(last);
		return as_bound(pb, extra);
	}
	os = rp_xmalloc(sizeof *os * (size_t)(n ? n : 1));
	no = rp_stages_by_bytes(over, n, os);
	mark = rp_xcalloc((size_t)(n ? n : 1), sizeof *mark);
	for (k = 0; k < no && np < LP_STAGES &&
	    (idle < LP_IDLE || rp_now() - t0 < LP_IDLE_SECONDS); k++) {
		double e;
		int near = 0, how = 0;
		for (j = 0; j < np; j++)
			near |= abs(picked[j] - os[k]) < n / LP_SPREAD;
		if (near)
			continue;
		if (deadline > 0 && rp_now() >= deadline) {
			cut = 1;
			break;
		}
		e = stage_lp(pb, os[k], last, deadline, 0, mark, &how);
		lpv[np] = how == 3 && !isnan(e) ? e : -1;
		picked[np++] = os[k];
		if (!isnan(e) && e > extra) {
			extra = e;
			*stage = os[k];
			*lp = 1;
			idle = 0;
		} else
			idle++;
	}
	/* The searches in whole values, the highest fractional LPs first. */
	for (k = 0; k < MILP_STAGES; k++) {
		double e, now = rp_now(), until;
		int b = -1, how = 0;
		for (j = 0; j < np; j++)
			if (lpv[j] >= 0 && (b < 0 || lpv[j] > lpv[b]))
				b = j;
		if (b < 0)
			break;
		if (deadline > 0 && now >= deadline) {
			cut = 1;
			break;
		}
		lpv[b] = -1;
		until = now + MILP_SECONDS;
		if (deadline > 0)
			until = fmin(until, now + (deadline - now) /
			    (MILP_STAGES - k));
		e = stage_lp(pb, picked[b], last, deadline, until, mark, &how);
		/* stopped by its share of the time, not by its own limits */
		if (until < now + MILP_SECONDS && rp_now() >= until)
			cut = 1;
		if (!isnan(e) && e > extra) {
			extra = e;
			*stage = picked[b];
			*lp = how;
		}
		if (how != 2)
			break;
	}
	if (complete != NULL)
		*complete = !cut && (deadline <= 0 || rp_now() < deadline);
	free(over);
	free(os);
	free(last);
	free(mark);
	return as_bound(pb, extra);
}

int
rp_stage_bound_reached(double b, double cost)
{
	return cost <= b + 2 * SEARCH_SLACK * fmax(1, fabs(b));
}

/* The share of the time left that rp_stage_bound_kept may take, and the
 * most it may take. */
#define KEPT_SHARE 0.1
#define KEPT_SECONDS 1.0

double
rp_stage_bound_kept(const struct rp_problem *pb, double deadline,
    struct rp_stage_memo *sm)
{
	double now = rp_now(), until = now + KEPT_SECONDS, b;
	int st, how, complete;

	if (sm != NULL && sm->have && sm->budget == pb->budget)
		return sm->value;
	if (deadline > 0)
		until = fmin(until, now + KEPT_SHARE * (deadline - now));
	b = rp_stage_bound_lp(pb, until, &st, &how, &complete);
	if (complete && sm != NULL) {
		/* the run's bound takes it as it is */
		sm->have = 1;
		sm->budget = pb->budget;
		sm->value = b;
		sm->stage = st;
		sm->lp = how;
	}
	return b;
}
