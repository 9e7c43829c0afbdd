/* sweep.c: planning at many budgets (see sweep.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lpround.h"
#include "sweep.h"
#include "units.h"
#include "util.h"

/* A run that ends this near the deadline it was given (seconds, and at
 * most a tenth of the time it was given) without a plan was cut short by
 * it: the strategies look at the clock between steps. */
#define BUDGET_MIN_SLACK 0.02

void
rp_run_strategies(const struct rp_problem *pb,
    const struct rp_strategy *const *strats, int n, const struct rp_ctx *base,
    struct rp_cache *cache, struct rp_stage_memo *sm, rp_progress_fn progress,
    void *arg, struct rp_result *res)
{
	struct rp_lp_memo memo;
	struct rp_shared shared;
	struct rp_ctx ctx = *base;
	double end;
	int i, *busy;

	rp_lp_memo_init(&memo);
	memset(&shared, 0, sizeof shared);
	shared.lp = &memo;	/* lp-round and ilp round the LP once */
	shared.results = res;	/* ilp starts from the plans found so far */
	shared.cache = cache;
	shared.stage = sm;
	if (sm != NULL)
		sm->have = 0;
	ctx.shared = &shared;
	/* All the strategies within twice the limit (the default one where
	 * none is given), and never past base's deadline, which counts the
	 * work done before them: each gets the limit, but never past this,
	 * and those that use all of it share it (below). */
	end = rp_now() + 2 * rp_run_limit(base->opt);
	if (base->deadline > 0 && base->deadline < end)
		end = base->deadline;
	/* the strategies that take the time they are given here */
	busy = rp_xcalloc((size_t)n, sizeof *busy);
	for (i = 0; i < n; i++)
		busy[i] = rp_strategy_busy(strats[i], pb, base->opt);
	for (i = 0; i < n; i++) {
		int j, left = 0;
		double now = rp_now();
		/* each of those may take its limit, leaving at least half of
		 * it to each of them after it, or where that is less, an equal
		 * share of what is left: so that the last are not left without
		 * time (the others take little) */
		for (j = i; j < n; j++)
			left += busy[j];
		ctx.deadline = end;
		if (busy[i] && left > 1)
			ctx.deadline = now + fmax((end - now) / left, (end -
			    now) - (left - 1) * rp_run_limit(base->opt) / 2);
		if (progress != NULL)
			progress(arg, i, n);
		rp_strategy_run(strats[i], pb, &ctx, &res[i]);
		shared.nresults = i + 1;
		rp_log(&ctx, 1, "%s: %s in %.1f ms", strats[i]->name,
		    rp_status_name(res[i].status), res[i].seconds * 1e3);
	}
	free(busy);
	rp_lp_memo_destroy(&memo);
}

int
rp_sweep_run(const struct rp_problem *pb, const int64_t *budgets, int nb,
    const struct rp_strategy *const *strats, int n, const struct rp_ctx *base,
    double started, const struct rp_sweep_hooks *hooks, struct rp_sweep *out,
    char **cause)
{
	/* Each strategy's cheapest fitting plan so far, and its row. */
	struct rp_result *best = rp_xcalloc((size_t)n, sizeof *best);
	struct rp_result *res = rp_xcalloc((size_t)n, sizeof *res);
	int *best_row = rp_xcalloc((size_t)n, sizeof *best_row);
	struct rp_cache cache;
	int r, i, rc = 0;
	/* The whole sweep within twice the limit per budget: row r ends by
	 * started + (r + 1) times that, so that what one row's lower bound
	 * takes past its share (it keeps a little time, see
	 * rp_bound_deadline) comes out of the rows after it, not on top. */
	double start = started > 0 ? started : rp_now();
	double share = 2 * rp_run_limit(base->opt);

	rp_cache_init(&cache);
	memset(out, 0, sizeof *out);
	out->strats = strats;
	out->nstrat = n;
	out->rows = rp_xcalloc((size_t)nb, sizeof *out->rows);
	for (r = 0; r < nb && rc == 0; r++) {
		struct rp_sweep_row *row = &out->rows[r];
		struct rp_problem at;
		const struct rp_result *pick = NULL;

		out->nrows = r + 1;
		row->budget = budgets[r];
		row->bound = NAN;
		row->picked = -1;
		row->cell = rp_xcalloc((size_t)n, sizeof *row->cell);
		if (hooks != NULL && hooks->row_start != NULL)
			hooks->row_start(hooks->arg, out, r);
		if (budgets[r] < pb->min_budget) {
			row->below_min = 1;
			row->none_fits = 1;
			for (i = 0; i < n; i++)
				row->cell[i].status = RP_NO_PLAN;
		} else {
			struct rp_bound lb;
			struct rp_stage_memo sm;
			struct rp_ctx ctx = *base;
			/* as a single run that started where the row's
			 * share does: by start + (r + 1) shares, and never
			 * less than a tenth of the limit */
			double t0 = rp_now(), end = rp_run_deadline(base->opt,
			    start + r * share);
			if (ctx.deadline <= 0 || end < ctx.deadline)
				ctx.deadline = end;
			rp_problem_at(&at, pb, budgets[r]);
			rp_run_strategies(&at, strats, n, &ctx, &cache, &sm,
			    hooks != NULL ? hooks->progress : NULL,
			    hooks != NULL ? hooks->arg : NULL, res);
			/* as from a start that leaves the row's share */
			row->bound = rp_results_bound(&at, res, n,
			    rp_bound_deadline(base->opt, fmin(t0, ctx.deadline -
			    (n > 1 ? 2 : 1) * rp_run_limit(base->opt)), n),
			    &sm, &lb);
			row->bound_every = !isnan(row->bound) &&
			    rp_bound_for_all(&at, &lb);
			row->none_fits = isinf(lb.any) && lb.any > 0;
			for (i = 0; i < n; i++) {
				struct rp_sweep_cell *c = &row->cell[i];
				c->status = res[i].status;
				c->seconds = res[i].seconds;
				c->note = res[i].note;
				res[i].note = NULL;
				row->failed |= res[i].status == RP_FAILED;
				/* A plan of a tighter budget fits this one: the
				 * cheaper of it and this run's is shown (this
				 * run's at a tie, as a single run shows it). */
				if (res[i].status == RP_FITS &&
				    (!best[i].has_plan ||
				    !rp_cost_less(best[i].sim.cost,
				    res[i].sim.cost))) {
					rp_result_destroy(&best[i]);
					best[i] = res[i];
					memset(&res[i], 0, sizeof res[i]);
					best_row[i] = r;
				}
				if (res[i].status == RP_OVER_BUDGET &&
				    res[i].has_plan) {
					/* as a single run's report has them */
					c->over = 1;
					c->cost = res[i].sim.cost;
					c->peak = res[i].sim.peak;
					c->nrecompute = res[i].sim.nrecompute;
				}
				rp_result_destroy(&res[i]);
				if (!best[i].has_plan)
					continue;
				c->over = 0;
				c->shown = 1;
				c->from = best_row[i];
				c->cost = best[i].sim.cost;
				c->peak = best[i].sim.peak;
				c->nrecompute = best[i].sim.nrecompute;
				if (row->picked < 0 || rp_plan_better(c->cost, c->peak,
				    row->cell[row->picked].cost,
				    row->cell[row->picked].peak))
					row->picked = i;
			}
		}
		if (row->picked >= 0)
			pick = &best[row->picked];
		if (hooks != NULL && hooks->row_done != NULL &&
		    hooks->row_done(hooks->arg, pb, out, r, pick != NULL ?
		    &pick->plan : NULL, pick != NULL ? &pick->sim : NULL,
		    pick != NULL ? strats[row->picked]->name : NULL, cause) != 0)
			rc = -1;
	}
	for (i = 0; i < n; i++)
		rp_result_destroy(&best[i]);
	rp_cache_destroy(&cache);
	free(best);
	free(res);
	free(best_row);
	return rc;
}

void
rp_sweep_destroy(struct rp_sweep *sw)
{
	int r, i;

	for (r = 0; r < sw->nrows; r++) {
		for (i = 0; i < sw->nstrat; i++)
			free(sw->rows[r].cell[i].note);
		free(sw->rows[r].cell);
		free(sw->rows[r].plan_file);
	}
	free(sw->rows);
	memset(sw, 0, sizeof *sw);
}

/* One run of s at budget b, by deadline (<= 0: none but base's): fills
 * res, returns whether it fits. Sets *short_run when it found no plan and
 * ended at the deadline it ran under (this one, or its own time limit
 * where that came first), so that more time might have found one. */
static int
run_at(const struct rp_problem *pb, const struct rp_strategy *s,
    const struct rp_ctx *base, struct rp_cache *cache, int64_t b,
    double deadline, int *short_run, struct rp_result *res)
{
	struct rp_problem at;
	struct rp_ctx ctx = *base;
	char bs[32];
	double t0 = rp_now();

	rp_format_bytes(b, bs, sizeof bs);
	rp_log(base, 1, "%s: at %s (%lld %s)", s->name, bs, (long long)b,
	    rp_bytes_word(b));
	if (deadline > 0)
		ctx.deadline = deadline;
	rp_problem_at(&at, pb, b);
	rp_run_strategies(&at, &s, 1, &ctx, cache, NULL, NULL, NULL, res);
	if ((res->status == RP_NO_PLAN || res->status == RP_OVER_BUDGET) &&
	    res->deadline > 0 && rp_now() >= res->deadline -
	    fmin(BUDGET_MIN_SLACK, (res->deadline - t0) / 10))
		*short_run = 1;
	return res->status == RP_FITS;
}

/* The runs a bisection over (lo, hi] to 1% of hi may still need: one per
 * halving of the range down to 1% of the lowest hi can reach (lo + 1),
 * and two more, at 1% below hi (where a plan found moves hi down by that
 * 1% only). */
static int
runs_left(int64_t lo, int64_t hi)
{
	int64_t step = (lo + 1 + 99) / 100, range = hi - lo;
	int k = 2;

	while (range > step && k < 64) {
		range = (range + 1) / 2;
		k++;
	}
	return k;
}

/* The deadline of the next run: an equal share of what is left of base's
 * time over the runs still to come (none where base has no deadline). */
static double
run_deadline(const struct rp_ctx *base, int left)
{
	double now = rp_now();

	if (base->deadline <= 0)
		return 0;
	return now + fmax(0, base->deadline - now) / (left > 0 ? left : 1);
}

void
rp_budget_min_find(const struct rp_problem *pb,
    const struct rp_strategy *s, const struct rp_ctx *base,
    rp_progress_fn progress, void *arg, struct rp_budget_min *out)
{
	/* hi: the lowest budget where s fits; lo: one where it does not (or
	 * where no plan can fit, without a run). */
	int64_t hi = pb->ckpt_all_peak, lo = pb->min_budget - 1;
	struct rp_result trial;
	struct rp_cache cache;

	rp_cache_init(&cache);
	memset(out, 0, sizeof *out);
	if (progress != NULL)
		progress(arg, out->runs, 0);
	out->runs++;
	/* the first run, at the checkpoint-all peak, has the share of the
	 * whole search: every later run is one of it */
	if (!run_at(pb, s, base, &cache, hi, run_deadline(base, 1 +
	    runs_left(lo, hi)), &out->cut_short, &out->res)) {
		out->budget = hi;
		goto done;
	}
	out->found = 1;
	for (;;) {
		/* 1% below hi, rounded down: the budget at which no plan
		 * must be found before the search ends. */
		int64_t target = hi - (hi + 99) / 100, mid;

		if (target <= pb->min_budget - 1 || target >= hi) {
			out->budget = hi;
			out->no_plan_at = target;
			break;
		}
		mid = lo + (hi - lo) / 2;
		if (mid > target || mid <= lo)
			mid = target;
		if (progress != NULL)
			progress(arg, out->runs, 0);
		out->runs++;
		if (run_at(pb, s, base, &cache, mid, run_deadline(base,
		    runs_left(lo, hi)), &out->cut_short, &trial)) {
			rp_result_destroy(&out->res);
			out->res = trial;
			hi = mid;
			continue;
		}
		rp_result_destroy(&trial);
		if (mid == target) {
			out->budget = hi;
			out->no_plan_at = target;
			break;
		}
		lo = mid;
	}
done:
	rp_cache_destroy(&cache);
}
