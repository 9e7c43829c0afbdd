/* lpround.c: two-phase LP rounding, and the lp-round strategy. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lpround.h"
#include "sched.h"
#include "sim.h"
#include "stagebound.h"
#include "util.h"

/* Thresholds tried after the paper's 0.5. */
static const double thresholds[] = { 0.5, 0.3, 0.7, 0.1, 0.9, 0.2, 0.4, 0.6, 0.8 };
/* Budget allowances tried: the LP is solved at (1 - eps) of the budget. */
static const double allowances[] = { 0, 0.05, 0.1, 0.2, 0.3 };
#define RANDOM_SAMPLES 8

/* Retentions and what they give: the plan of the minimal R, replayed. */
struct rounding {
	struct rp_retain *ret;
	int nr, cap;
	int steps;		/* drops made by the trim pass */
	char *note;		/* how it was rounded */
	double cost;
	int64_t peak;
};

/* What the trim and fill passes may spend: the deadline (<= 0: none), and
 * work, counted in statements of the plans they evaluate, so that a run
 * without a deadline stops at the same point on every machine. */
#define PASS_WORK 100000000L
struct pass_limit {
	double deadline;
	long work;
	int stopped;		/* one of them ran out */
};

static int
spent(struct pass_limit *l)
{
	if (l->work <= 0 || (l->deadline > 0 && rp_now() > l->deadline))
		l->stopped = 1;
	return l->stopped;
}

/* Roundings over the budget that the trim pass starts from: it is greedy,
 * and where it ends depends on where it starts. */
#define OVER_KEEP 3

/* Roundings kept for the passes, cheapest first (lower peak on ties), at
 * most max of them (0: every one). The fill pass starts from every
 * distinct rounding that fits: where it ends depends on where it starts
 * as well, and which rounding it improves most is not the cheapest one
 * often enough (bench/lpround-results.md); there are at most a few dozen
 * roundings, and the pass limit bounds the work. */
struct pool {
	struct rounding *r;
	int len, cap, max;
};

/* The slot where a rounding of this cost and peak goes, its former
 * occupant freed and the entries after it moved down; NULL when it is not
 * kept (the pool is full of cheaper ones, or one with the same cost and
 * peak is there, which is taken for it). */
static struct rounding *
pool_slot(struct pool *p, double cost, int64_t peak)
{
	int at;

	for (at = 0; at < p->len; at++) {
		const struct rounding *q = &p->r[at];
		if (q->cost == cost && q->peak == peak)
			return NULL;
		if (cost < q->cost || (cost == q->cost && peak < q->peak))
			break;
	}
	if (p->max > 0 && at >= p->max)
		return NULL;
	if (p->max > 0 && p->len == p->max) {
		free(p->r[p->len - 1].ret);
		free(p->r[p->len - 1].note);
		p->len--;
	}
	rp_grow(&p->r, &p->cap, p->len + 1, sizeof *p->r);
	memmove(&p->r[at + 1], &p->r[at], sizeof *p->r * (size_t)(p->len - at));
	memset(&p->r[at], 0, sizeof *p->r);
	p->len++;
	return &p->r[at];
}

static void
pool_destroy(struct pool *p)
{
	int j;
	for (j = 0; j < p->len; j++) {
		free(p->r[j].ret);
		free(p->r[j].note);
	}
	free(p->r);
}

/* Memory during each statement of the last plan replayed (sim.h). */
struct memtrace {
	int64_t *mem;
	size_t cap;
};

/* Solves R for the retentions ret[0..nr) (left as they are: the solver
 * works on a copy), builds the plan and replays it, recording the memory
 * during each statement in tr when it is not NULL. Returns 0, or -1 with
 * *cause set when the simulator rejects the plan. */
static int
ret_eval(const struct rp_graph *g, const struct rp_retain *ret, int nr,
    struct rp_seq *seq, struct rp_plan *plan, struct rp_sim *sim,
    struct memtrace *tr, struct pass_limit *lim, char **cause)
{
	struct rp_retain *copy = rp_xmalloc(sizeof *copy * (size_t)(nr ? nr : 1));

	if (nr > 0)
		memcpy(copy, ret, sizeof *copy * (size_t)nr);
	seq->len = 0;
	rp_solve_r(g, copy, nr, seq);
	free(copy);
	rp_plan_init(plan);
	rp_plan_from_seq(g, seq->node, seq->len, plan);
	if (lim != NULL)
		lim->work -= (long)seq->len + plan->len;
	if (tr != NULL && (size_t)plan->len > tr->cap) {
		tr->cap = (size_t)plan->len;
		tr->mem = rp_xreallocarray(tr->mem, tr->cap, sizeof *tr->mem);
	}
	if (rp_simulate_mem(g, plan, sim, tr != NULL ? tr->mem : NULL) != 0) {
		*cause = rp_xasprintf("generated plan is invalid: %s", sim->error);
		rp_sim_destroy(sim);
		rp_plan_destroy(plan);
		return -1;
	}
	return 0;
}

/* Rounds the fractional S of m's last LP solution with threshold th, or
 * randomly when th < 0, and offers the completed plan. It goes to the
 * pool fit when it fits, else to over. */
static int
round_once(const struct rp_problem *pb, const struct rp_milp *m, double th,
    uint64_t *rng, struct rp_best *best, char *note, struct pool *fit,
    struct pool *over, char **cause)
{
	struct rounding *keep;
	const struct rp_graph *g = pb->g;
	int n = g->n, t, i, nr = 0, cap = 0;
	struct rp_retain *ret = NULL;
	struct rp_seq seq = { 0 };
	struct rp_plan plan;
	struct rp_sim sim;

	/* Runs of consecutive stages with S = 1 become retentions. */
	for (i = 0; i < n; i++) {
		int from = -1;
		for (t = i + 1; t <= n; t++) {
			int on = 0;
			if (t < n) {
				double v = rp_milp_lp_s(m, t, i);
				on = th >= 0 ? v > th :
				    rp_random_unit(rng) < v;
			}
			if (on && from < 0)
				from = t;
			if (!on && from >= 0) {
				rp_grow(&ret, &cap, nr + 1, sizeof *ret);
				ret[nr++] = (struct rp_retain){ i, from, t - 1 };
				from = -1;
			}
		}
	}
	/* Outputs stay to the end. */
	for (i = 0; i < n; i++)
		if (g->output[i]) {
			rp_grow(&ret, &cap, nr + 1, sizeof *ret);
			ret[nr++] = (struct rp_retain){ i, n, n };
		}
	if (ret_eval(g, ret, nr, &seq, &plan, &sim, NULL, NULL, cause) != 0) {
		rp_seq_destroy(&seq);
		free(ret);
		free(note);
		return -1;
	}
	rp_seq_destroy(&seq);
	keep = pool_slot(rp_fits(pb, sim.peak) ? fit : over, sim.cost, sim.peak);
	if (keep != NULL) {
		keep->note = rp_xstrdup(note);
		keep->ret = ret;
		keep->nr = nr;
		keep->cap = cap;
		keep->cost = sim.cost;
		keep->peak = sim.peak;
		ret = NULL;
	}
	rp_sim_destroy(&sim);
	free(ret);
	return rp_best_offer(best, pb, &plan, note, cause);
}

/* How far a plan goes over the budget: the sum over compute statements
 * of the amount by which memory during the statement (mem, from the
 * simulator) exceeds it, with the largest excess of each stage in ex (n
 * entries). */
static double
stage_excess(const struct rp_graph *g, const struct rp_plan *p,
    const int64_t *mem, int64_t budget, double *ex)
{
	double sum = 0, over;
	int k, v, t = 0;

	memset(ex, 0, sizeof *ex * (size_t)g->n);
	for (k = 0; k < p->len; k++) {
		if (p->s[k].op == RP_FREE)
			continue;
		v = p->s[k].node;
		if (mem[k] > budget) {
			over = (double)(mem[k] - budget);
			sum += over;
			if (t < g->n && over > ex[t])
				ex[t] = over;
		}
		if (v == t)
			t++;
	}
	return sum;
}

/* Adds the stage range lo..hi to the pairs in d unless it is there. */
static void
add_drop(struct rp_seq *d, int lo, int hi)
{
	int i;
	for (i = 0; i < d->len; i += 2)
		if (d->node[i] == lo && d->node[i + 1] == hi)
			return;
	rp_seq_push(d, lo);
	rp_seq_push(d, hi);
}

/* The trim pass, for a rounding that does not fit: while some stage is
 * over the budget, it tries dropping each retention from each run of
 * over-budget stages it spans, and makes the drop that removes the most
 * excess per unit of cost added. Returns 1 when the plan came to fit
 * (r->cost and r->peak are then its own, r->steps the drops made, and the
 * plan is moved into out, initialized by the caller), 0 when no drop
 * helped or lim ran out, -1 with *cause set on an invalid plan. */
static int
trim(const struct rp_problem *pb, struct rounding *r, struct pass_limit *lim,
    struct rp_plan *out, char **cause)
{
	const struct rp_graph *g = pb->g;
	int n = g->n, k, a, b, v, steps = 0, fits = 0, wide = 0;
	double *ex = rp_xmalloc(sizeof *ex * (size_t)n);
	double *ex2 = rp_xmalloc(sizeof *ex2 * (size_t)n);
	struct memtrace tr = { 0 };
	struct rp_seq seq = { 0 }, drops = { 0 };
	struct rp_plan plan, cur;	/* cur: the plan of r as it stands */
	struct rp_sim sim;
	double excess, cost;

	rp_plan_init(&cur);
	if (ret_eval(g, r->ret, r->nr, &seq, &cur, &sim, &tr, lim, cause) != 0) {
		fits = -1;
		goto out;
	}
	excess = stage_excess(g, &cur, tr.mem, pb->budget, ex);
	cost = sim.cost;
	r->peak = sim.peak;
	rp_sim_destroy(&sim);
	while (excess > 0) {
		int bk = -1, ba = 0, bb = 0;
		double bscore = 0, bcost = 0;
		for (k = 0; k < r->nr; k++) {
			struct rp_retain keep = r->ret[k];
			int last = keep.to < n - 1 ? keep.to : n - 1;
			/* Stages lo..hi to drop, keeping the part before and
			 * the part after. For each run a..b of over-budget
			 * stages it spans: the run, the run and what follows,
			 * what precedes and the run (a value kept after a
			 * dropped stage is recomputed in it). Only when none of
			 * those helps (wide): where the stage before it is over
			 * budget (it computes the value to keep it), its first
			 * stage, or all of it. */
			drops.len = 0;
			for (a = keep.from; a <= last; a++) {
				if (ex[a] <= 0)
					continue;
				for (b = a; b + 1 <= last && ex[b + 1] > 0; b++)
					;
				add_drop(&drops, a, b);
				add_drop(&drops, a, keep.to);
				add_drop(&drops, keep.from, b);
				a = b;
			}
			if (wide && keep.from >= 1 && keep.from <= last &&
			    ex[keep.from - 1] > 0) {
				add_drop(&drops, keep.from, keep.from);
				add_drop(&drops, keep.from, keep.to);
			}
			for (v = 0; v < drops.len; v += 2) {
				int lo = drops.node[v], hi = drops.node[v + 1];
				double e2;
				if (spent(lim))
					goto out;
				r->ret[k].to = lo - 1;
				rp_grow(&r->ret, &r->cap, r->nr + 1, sizeof *r->ret);
				r->ret[r->nr] = (struct rp_retain){ keep.node, hi + 1,
				    keep.to };
				if (ret_eval(g, r->ret, r->nr + 1, &seq, &plan, &sim,
				    &tr, lim, cause) != 0) {
					fits = -1;
					goto out;
				}
				e2 = stage_excess(g, &plan, tr.mem, pb->budget, ex2);
				if (e2 < excess) {
					double sc = (sim.cost - cost) / (excess - e2);
					if (bk < 0 || sc < bscore) {
						bk = k;
						ba = lo;
						bb = hi;
						bscore = sc;
						bcost = sim.cost;
					}
				}
				rp_plan_destroy(&plan);
				rp_sim_destroy(&sim);
				r->ret[k] = keep;
			}
		}
		if (bk < 0 && !wide) {
			wide = 1;
			continue;
		}
		if (bk < 0)
			goto out;
		wide = 0;
		{
			struct rp_retain keep = r->ret[bk];
			r->ret[bk].to = ba - 1;
			rp_grow(&r->ret, &r->cap, r->nr + 1, sizeof *r->ret);
			r->ret[r->nr++] = (struct rp_retain){ keep.node, bb + 1,
			    keep.to };
		}
		steps++;
		cost = bcost;
		if (ret_eval(g, r->ret, r->nr, &seq, &plan, &sim, &tr, lim,
		    cause) != 0) {
			fits = -1;
			goto out;
		}
		rp_plan_move(&cur, &plan);
		excess = stage_excess(g, &cur, tr.mem, pb->budget, ex);
		r->peak = sim.peak;
		rp_sim_destroy(&sim);
	}
	r->cost = cost;
	r->steps = steps;
	fits = rp_fits(pb, r->peak);	/* as the simulator judges it */
	if (fits)
		rp_plan_move(out, &cur);
out:
	rp_plan_destroy(&cur);
	free(ex);
	free(ex2);
	free(tr.mem);
	rp_seq_destroy(&seq);
	rp_seq_destroy(&drops);
	return fits;
}

/* The fill pass after rounding. Rounding S drops values that the LP kept
 * in part, and the minimal R then recomputes them, with their ancestors,
 * stage after stage. For the kept rounding (which fits), this tries, in
 * stage order, to keep each value that a stage recomputes resident from
 * the stage that last computed it instead (S = 1 in between), and keeps
 * every change after which the plan still fits and is cheaper; passes
 * repeat until one changes nothing or lim runs out. Offers the result when
 * it is cheaper than the rounding, and says how many values it kept. */
static int
fill(const struct rp_problem *pb, struct rounding *r, struct pass_limit *lim,
    struct rp_best *best, char **cause)
{
	const struct rp_graph *g = pb->g;
	struct rp_seq seq = { 0 }, cand = { 0 };
	struct rp_plan plan, kept;	/* kept: the plan after the last change */
	struct rp_sim sim;
	double cost = r->cost;
	int added = 0, changed = 1, rc = 0, k, t;
	int *last = rp_xmalloc(sizeof *last * (size_t)(g->n ? g->n : 1));

	rp_plan_init(&kept);
	while (changed && !lim->stopped) {
		changed = 0;
		if (ret_eval(g, r->ret, r->nr, &seq, &plan, &sim, NULL, lim,
		    cause) != 0) {
			rc = -1;
			goto out;
		}
		rp_plan_destroy(&plan);
		rp_sim_destroy(&sim);
		/* Candidates: every recomputation of a value i in stage t,
		 * with the last earlier stage p that computed i: keeping i
		 * through stages p+1..t saves recomputing it in t. */
		cand.len = 0;
		for (k = 0; k < g->n; k++)
			last[k] = -1;
		for (k = 0, t = 0; k < seq.len; k++) {
			int v = seq.node[k];
			if (v != t && last[v] >= 0 && last[v] < t) {
				rp_seq_push(&cand, v);
				rp_seq_push(&cand, last[v] + 1);
				rp_seq_push(&cand, t);
			}
			last[v] = t;
			if (v == t)
				t++;
		}
		for (k = 0; k < cand.len; k += 3) {
			if (spent(lim))
				break;
			rp_grow(&r->ret, &r->cap, r->nr + 1, sizeof *r->ret);
			r->ret[r->nr++] = (struct rp_retain){ cand.node[k],
			    cand.node[k + 1], cand.node[k + 2] };
			if (ret_eval(g, r->ret, r->nr, &seq, &plan, &sim,
			    NULL, lim, cause) != 0) {
				rc = -1;
				goto out;
			}
			if (rp_fits(pb, sim.peak) && sim.cost < cost) {
				cost = sim.cost;
				r->peak = sim.peak;
				added++;
				changed = 1;
				rp_plan_move(&kept, &plan);
			} else {
				r->nr--;
				rp_plan_destroy(&plan);
			}
			rp_sim_destroy(&sim);
		}
	}
	if (added > 0) {
		r->cost = cost;
		rc = rp_best_offer(best, pb, &kept, rp_xasprintf(
		    "%s, then %d recomputed value%s kept instead (fill "
		    "pass%s)", r->note, added, added == 1 ? "" : "s",
		    lim->stopped ? ", cut short" : ""), cause);
	}
out:
	rp_plan_destroy(&kept);
	free(last);
	rp_seq_destroy(&seq);
	rp_seq_destroy(&cand);
	return rc;
}

void
rp_lp_memo_init(struct rp_lp_memo *mm)
{
	memset(mm, 0, sizeof *mm);
	rp_plan_init(&mm->plan);
	mm->bound = NAN;
	mm->lp = RP_MILP_NOSOLUTION;
}

void
rp_lp_memo_destroy(struct rp_lp_memo *mm)
{
	rp_plan_destroy(&mm->plan);
	free(mm->note);
	rp_lp_memo_init(mm);
}

/* Offers a copy of the kept rounding to best; a reused one says so, as
 * its time was counted where it was computed. */
static int
memo_offer(const struct rp_problem *pb, const struct rp_lp_memo *mm,
    int reused, struct rp_best *best, double *bound, char **cause)
{
	struct rp_plan p;
	const char *note = mm->note != NULL ? mm->note : "LP rounding";

	*bound = mm->bound;
	if (!mm->have)
		return 0;
	rp_plan_init(&p);
	rp_plan_copy(&p, &mm->plan);
	return rp_best_offer(best, pb, &p, reused ?
	    rp_xasprintf("%s (LP solved and rounded once in this run, timed "
	    "where first needed)", note) : rp_xstrdup(note), cause);
}

static int round_lp(const struct rp_problem *pb, const struct rp_ctx *ctx,
    struct rp_milp *m, struct rp_best *best, double *bound,
    enum rp_milp_result *lp, char **cause);

int
rp_lp_round(const struct rp_problem *pb, const struct rp_ctx *ctx,
    struct rp_milp *m, struct rp_best *best, double *bound,
    enum rp_milp_result *lp, char **cause)
{
	struct rp_lp_memo *mm = ctx->shared != NULL ? ctx->shared->lp : NULL;
	struct rp_best lb;
	enum rp_milp_result r;
	int rc;

	if (lp == NULL)
		lp = &r;
	if (mm != NULL && mm->done) {
		*lp = mm->lp;
		return memo_offer(pb, mm, 1, best, bound, cause);
	}
	if (mm == NULL)
		return round_lp(pb, ctx, m, best, bound, lp, cause);
	rp_best_init(&lb);
	rc = round_lp(pb, ctx, m, &lb, bound, lp, cause);
	if (rc == 0) {
		rp_lp_memo_destroy(mm);
		mm->done = 1;
		mm->bound = *bound;
		mm->lp = *lp;
		if (lb.have) {
			mm->have = 1;
			rp_plan_copy(&mm->plan, &lb.plan);
			mm->note = rp_xstrdup(lb.note != NULL ? lb.note : "LP rounding");
		}
		rc = memo_offer(pb, mm, 0, best, bound, cause);
	}
	rp_best_destroy(&lb);
	return rc;
}

/* rp_lp_round without the memo. */
static int
round_lp(const struct rp_problem *pb, const struct rp_ctx *ctx,
    struct rp_milp *m, struct rp_best *best, double *bound,
    enum rp_milp_result *lp, char **cause)
{
	const struct rp_options *opt = ctx->opt;
	double deadline = ctx->deadline;
	int a, j, k, rc = 0;
	uint64_t rng = opt != NULL ? opt->seed : 1;
	struct pool fit = { NULL, 0, 0, 0 }, over = { NULL, 0, 0, OVER_KEEP };
	struct pass_limit lim = { deadline, PASS_WORK, 0 };
	int plain = opt != NULL && opt->round_plain;
	double obj;

	*bound = NAN;
	*lp = RP_MILP_NOSOLUTION;	/* no time left to try */
	for (a = 0; a < (int)(sizeof allowances / sizeof allowances[0]); a++) {
		double eps = allowances[a];
		enum rp_milp_result r;
		if (deadline > 0 && rp_now() >= deadline)
			break;
		r = rp_milp_solve_lp(m, a == 0 ? pb->budget :
		    (int64_t)floor((1 - eps) * (double)pb->budget), deadline, &obj);
		rp_log(ctx, 1, "LP relaxation at %g%% of the budget: %s", 100 *
		    (1 - eps), r == RP_MILP_OPTIMAL ? "solved" : r ==
		    RP_MILP_INFEASIBLE ? "infeasible" : r == RP_MILP_NOSOLUTION ?
		    "not solved by the deadline" : "solver failed");
		if (a == 0) {
			*lp = r;
			/* also when the LP stopped at the deadline; an
			 * infeasible LP proves that no plan of the model fits */
			*bound = r == RP_MILP_INFEASIBLE ? INFINITY :
			    rp_milp_lp_bound(m);
		}
		if (r != RP_MILP_OPTIMAL)
			break;	/* tighter allowances are infeasible too */
		for (k = 0; k < (int)(sizeof thresholds / sizeof thresholds[0]); k++) {
			char *note = rp_xasprintf("two-phase rounding of the LP at "
			    "%g%% of the budget, threshold %g", 100 * (1 - eps),
			    thresholds[k]);
			if ((rc = round_once(pb, m, thresholds[k], &rng, best,
			    note, &fit, &over, cause)) != 0)
				goto out;
		}
		for (k = 0; k < RANDOM_SAMPLES; k++) {
			char *note = rp_xasprintf("two-phase rounding of the LP at "
			    "%g%% of the budget, randomized (seed %llu)",
			    100 * (1 - eps), opt != NULL ? opt->seed : 1ULL);
			if ((rc = round_once(pb, m, -1, &rng, best, note,
			    &fit, &over, cause)) != 0)
				goto out;
			if (deadline > 0 && rp_now() > deadline)
				break;
		}
	}
	/* The cheapest roundings over the budget, trimmed to fit, may be
	 * cheaper than every one that fits; the fill pass then improves on
	 * each plan that fits. */
	for (j = 0; j < over.len && !plain; j++) {
		struct rounding *o = &over.r[j];
		struct rp_plan plan;
		char *note;
		int fits;

		rp_plan_init(&plan);
		fits = trim(pb, o, &lim, &plan, cause);
		if (fits <= 0) {
			rp_plan_destroy(&plan);
			if (fits < 0) {
				rc = -1;
				goto out;
			}
			continue;
		}
		note = rp_xasprintf("%s, then %d retention%s dropped (trim "
		    "pass)", o->note, o->steps, o->steps == 1 ? "" : "s");
		free(o->note);
		o->note = rp_xstrdup(note);
		if ((rc = rp_best_offer(best, pb, &plan, note, cause)) != 0)
			goto out;
		if ((rc = fill(pb, o, &lim, best, cause)) != 0)
			goto out;
	}
	for (j = 0; j < fit.len && !plain && rc == 0 && !lim.stopped; j++)
		rc = fill(pb, &fit.r[j], &lim, best, cause);
out:
	pool_destroy(&fit);
	pool_destroy(&over);
	return rc;
}

/* The LP relaxation's guessed time (rp_milp_lp_guess) from which
 * lp-round does not solve it where a plan that fits costs no more than any
 * of its plans can. */
#define SKIP_LP_SECONDS 1.0

/* The plan the run would pick among ctx's results so far (rp_pick), or
 * NULL. */
static const struct rp_result *
cheapest_so_far(const struct rp_ctx *ctx)
{
	int i = ctx->shared != NULL ? rp_pick(ctx->shared->results,
	    ctx->shared->nresults) : -1;

	return i >= 0 ? &ctx->shared->results[i] : NULL;
}

static int
lp_round_run(const struct rp_problem *pb, const struct rp_ctx *ctx,
    struct rp_plan *plan, char **note, double *bound, char **cause)
{
	const struct rp_options *o = ctx->opt;
	enum rp_milp_engine engine = o != NULL ? o->solver : RP_MILP_GLPK;
	struct rp_lp_memo *mm = ctx->shared != NULL ? ctx->shared->lp : NULL;
	const struct rp_result *at;
	struct rp_milp *m;
	struct rp_best best;
	char *why = NULL;
	enum rp_milp_result lp;
	int rc;

	/* Its plans cost at least the baseline, and being frontier-advancing,
	 * the stage memory bound: where one that fits does already, an LP
	 * of a second or more (up to minutes) would find nothing cheaper. A
	 * quicker one still runs, for its row. */
	if ((at = cheapest_so_far(ctx)) != NULL && (mm == NULL || !mm->done) &&
	    rp_milp_lp_seconds(pb->g, engine, ctx->deadline > 0 ?
	    fmax(ctx->deadline - rp_now(), 1e-3) : 0) >= SKIP_LP_SECONDS) {
		double sb;
		if (rp_result_at_baseline(pb, at)) {
			*note = rp_xasprintf("not run: the plan of %s fits at "
			    "the baseline cost, which no plan can beat",
			    at->strategy->name);
			return 0;
		}
		sb = rp_stage_bound_kept(pb, ctx->deadline, ctx->shared->stage);
		if (isfinite(sb) && sb > pb->baseline &&
		    rp_stage_bound_reached(sb, at->sim.cost)) {
			*bound = sb;
			*note = rp_xasprintf("not run: the plan of %s costs no "
			    "more than the stage memory bound, which no "
			    "frontier-advancing plan (the only kind it makes) "
			    "can beat", at->strategy->name);
			return 0;
		}
	}
	/* A rounding kept by an earlier ilp needs no model. */
	m = mm != NULL && mm->done ? NULL : rp_milp_build_within(pb->g,
	    pb->budget, engine, ctx->deadline > 0 ?
	    fmax(ctx->deadline - rp_now(), 1e-3) : 0, &why);
	if (m == NULL && why != NULL) {
		*note = why;	/* too large for the model: no plan, said so */
		return 0;
	}
	if (m != NULL && o != NULL)
		rp_milp_set_engine(m, o->solver, o->threads);
	rp_best_init(&best);
	rc = rp_lp_round(pb, ctx, m, &best, bound, &lp, cause);
	if (rc == 0) {
		if (best.have)
			rp_best_take(&best, plan, note);
		else if (lp == RP_MILP_INFEASIBLE)
			*note = rp_xstrdup("the LP relaxation is infeasible: no "
			    "frontier-advancing plan fits this budget");
		else if (lp == RP_MILP_NOSOLUTION)
			*note = rp_xasprintf("the LP relaxation was not solved "
			    "within the time limit (--time-limit)%s",
			    (o == NULL || o->solver == RP_MILP_GLPK) &&
			    rp_milp_have_cbc() ? "; --solver cbc solves large "
			    "LPs faster" : "");
		else if (lp == RP_MILP_ERROR)
			*note = rp_xstrdup("the LP solver failed");
		else
			*note = rp_xstrdup("no rounding gave a plan");
	}
	rp_best_destroy(&best);
	rp_milp_free(m);
	return rc;
}

/* lp-round ends at once where its model is not built. */
static int
lp_round_idle(const struct rp_problem *pb, const struct rp_options *opt,
    double seconds)
{
	return !rp_milp_would_build(pb->g, opt != NULL ? opt->solver :
	    RP_MILP_GLPK, seconds);
}

const struct rp_strategy rp_strategy_lp_round = {
	"lp-round",
	"Checkmate two-phase rounding of the MILP's LP relaxation (GLPK, or --solver cbc)",
	1,
	1,
	lp_round_run,
	lp_round_idle,
};
