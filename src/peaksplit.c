/* peaksplit.c: greedy splitting of retention intervals at the peak.
 *
 * Works on Checkmate's frontier-advancing form (sched.h): a retention S
 * says which values are kept into which stages, the R solver adds the
 * recomputations that S implies, and plan generation frees every register
 * after its last reader. Starting from checkpoint-all (every value kept
 * from its computation to its last reader), the stage with the highest
 * memory is lowered by cutting one value out of it: the value is no longer
 * kept from its last read before the peak to its next read after it, and
 * is recomputed there (with whatever of its inputs is gone by then). The
 * cut is chosen by the estimated recomputation cost per byte; it is kept
 * when the memory above the budget, summed over the stages, goes down.
 * When the plan fits, each cut is undone again where the plan still fits
 * without it, most expensive first.
 *
 * Unlike DTR, the search sees the whole program: a cut removes a value
 * exactly over the stages where it is not needed, and its recomputation is
 * placed where it is read next, so the recomputation cascades that lock
 * up a simulation at tight budgets do not arise. Each step replays the
 * plan (linear in its length), so the strategy stops at its deadline. */
#include "config.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "polish.h"
#include "sched.h"
#include "strategy.h"
#include "util.h"

/* A cut: node v not kept into stages a..b. */
struct cut {
	int v, a, b;
	double gain;		/* cost it added when it was made */
};

struct ps {
	const struct rp_problem *pb;
	const struct rp_graph *g;
	double deadline;
	struct rp_retain *s;	/* the retention, not normalized */
	int ns, scap;
	struct rp_retain *tmp;	/* copy for the R solver, which sorts it */
	int tcap;

	/* The plan of the current retention and what it does. */
	struct rp_plan plan;
	double cost;
	int64_t peak, excess;
	int *stage;		/* per statement */
	int *ralloc, *rfree;	/* per register: statements, rfree INT_MAX: kept */
	int *roff, *rd;		/* per register: the statements reading it */
	int *noff, *nregs;	/* per node: its registers in order */
	int64_t *smax;		/* per stage: the most memory during it */
	int *sarg;		/* per stage: the statement where that is */
	int *sfirst;		/* per stage: its first statement */
	int cap_stmt, cap_reg;
	long evals;
	long work;		/* statements replayed */
	int aborted;		/* an evaluation stopped at the deadline */

	int *mark, markgen, *stack;
	int direct;		/* also the cuts to where inputs are resident */
	double noise;		/* scores scaled by 1 to 1 + noise, at random */
	uint64_t rng;
};

static void
ps_destroy(struct ps *p)
{
	free(p->s);
	free(p->tmp);
	rp_plan_destroy(&p->plan);
	free(p->stage);
	free(p->ralloc);
	free(p->rfree);
	free(p->roff);
	free(p->rd);
	free(p->noff);
	free(p->nregs);
	free(p->smax);
	free(p->sarg);
	free(p->sfirst);
	free(p->mark);
	free(p->stack);
}

static void
retain_add(struct ps *p, int v, int from, int to)
{
	if (from > to)
		return;
	rp_grow(&p->s, &p->scap, p->ns + 1, sizeof *p->s);
	p->s[p->ns].node = v;
	p->s[p->ns].from = from;
	p->s[p->ns].to = to;
	p->ns++;
}

/* Removes stages a..b from v's retention. */
static void
retain_cut(struct ps *p, int v, int a, int b)
{
	int i, n = p->ns;

	for (i = 0; i < n; i++) {
		struct rp_retain r = p->s[i];
		if (r.node != v || r.to < a || r.from > b)
			continue;
		p->s[i].to = a - 1;	/* may become empty: skipped later */
		retain_add(p, v, b + 1, r.to);
	}
}

/* Solves R for the retention, builds the plan and replays it: memory per
 * statement and per stage, registers and their readers. */
static void
evaluate(struct ps *p, double deadline)
{
	const struct rp_graph *g = p->g;
	struct rp_seq q;
	int n = g->n, i, j, r, v, nreads = 0, first = 0;
	int *curreg, *rdreg, *rdstmt, rdcap;
	int64_t cur = g->fixed_mem, during;

	p->evals++;
	rp_grow(&p->tmp, &p->tcap, p->ns, sizeof *p->tmp);
	memcpy(p->tmp, p->s, sizeof *p->s * (size_t)p->ns);
	memset(&q, 0, sizeof q);
	if (rp_solve_r_max(g, p->tmp, p->ns, &q, 0, deadline) != 0) {
		/* out of time: the plan is left as it was, unusable */
		rp_seq_destroy(&q);
		p->aborted = 1;
		return;
	}
	rp_plan_destroy(&p->plan);
	rp_plan_init(&p->plan);
	rp_plan_from_seq(g, q.node, q.len, &p->plan);
	rp_seq_destroy(&q);
	p->work += p->plan.len;

	if (p->plan.len > p->cap_stmt) {
		p->cap_stmt = p->plan.len;
		free(p->stage);
		p->stage = rp_xmalloc(sizeof *p->stage * (size_t)p->cap_stmt);
	}
	if (p->plan.nregs + 1 > p->cap_reg) {
		p->cap_reg = p->plan.nregs + 1;
		free(p->ralloc);
		free(p->rfree);
		free(p->roff);
		free(p->nregs);
		p->ralloc = rp_xmalloc(sizeof *p->ralloc * (size_t)p->cap_reg);
		p->rfree = rp_xmalloc(sizeof *p->rfree * (size_t)p->cap_reg);
		p->roff = rp_xmalloc(sizeof *p->roff * ((size_t)p->cap_reg + 1));
		p->nregs = rp_xmalloc(sizeof *p->nregs * (size_t)p->cap_reg);
	}
	curreg = rp_xmalloc(sizeof *curreg * (size_t)n);
	for (v = 0; v < n; v++) {
		curreg[v] = -1;
		p->smax[v] = 0;
		p->sarg[v] = -1;
		p->sfirst[v] = -1;
	}
	rdcap = 1024;
	rdreg = rp_xmalloc(sizeof *rdreg * (size_t)rdcap);
	rdstmt = rp_xmalloc(sizeof *rdstmt * (size_t)rdcap);
	p->cost = 0;
	p->peak = cur;
	for (i = 0; i < p->plan.len; i++) {
		const struct rp_stmt *st = &p->plan.s[i];
		int t = first < n ? first : n - 1;
		r = st->reg;
		if (st->op == RP_FREE) {
			cur -= g->mem[p->plan.s[p->ralloc[r]].node];
			p->rfree[r] = i;
			p->stage[i] = first > 0 ? first - 1 : 0;
			continue;
		}
		v = st->node;
		p->stage[i] = t;
		if (p->sfirst[t] < 0)
			p->sfirst[t] = i;
		if (v == first)
			first++;
		during = cur + g->mem[v] + g->workspace[v];
		if (during > p->smax[t] || p->sarg[t] < 0) {
			p->smax[t] = during;
			p->sarg[t] = i;
		}
		if (during > p->peak)
			p->peak = during;
		cur += g->mem[v];
		p->cost += g->cost[v];
		p->ralloc[r] = i;
		p->rfree[r] = INT_MAX;
		for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) {
			if (nreads == rdcap) {
				rdcap *= 2;
				rdreg = rp_xreallocarray(rdreg, (size_t)rdcap,
				    sizeof *rdreg);
				rdstmt = rp_xreallocarray(rdstmt, (size_t)rdcap,
				    sizeof *rdstmt);
			}
			rdreg[nreads] = curreg[g->pred[j]];
			rdstmt[nreads++] = i;
		}
		curreg[v] = r;
	}
	p->excess = 0;
	for (v = 0; v < n; v++)
		if (p->smax[v] > p->pb->budget)
			p->excess += p->smax[v] - p->pb->budget;

	/* Readers by register (statements ascending) and registers by node. */
	free(p->rd);
	p->rd = rp_xmalloc(sizeof *p->rd * (size_t)(nreads ? nreads : 1));
	memset(p->roff, 0, sizeof *p->roff * ((size_t)p->plan.nregs + 1));
	for (i = 0; i < nreads; i++)
		p->roff[rdreg[i] + 1]++;
	for (r = 0; r < p->plan.nregs; r++)
		p->roff[r + 1] += p->roff[r];
	for (i = 0; i < nreads; i++)
		p->rd[p->roff[rdreg[i]]++] = rdstmt[i];
	for (r = p->plan.nregs; r > 0; r--)
		p->roff[r] = p->roff[r - 1];
	p->roff[0] = 0;

	memset(p->noff, 0, sizeof *p->noff * ((size_t)n + 1));
	for (r = 0; r < p->plan.nregs; r++)
		p->noff[p->plan.s[p->ralloc[r]].node + 1]++;
	for (v = 0; v < n; v++)
		p->noff[v + 1] += p->noff[v];
	memcpy(curreg, p->noff, sizeof *curreg * (size_t)n);
	for (r = 0; r < p->plan.nregs; r++)
		p->nregs[curreg[p->plan.s[p->ralloc[r]].node]++] = r;
	free(curreg);
	free(rdreg);
	free(rdstmt);
}

/* Whether some register of v is live at the start of statement x. */
static int
live_at(const struct ps *p, int v, int x)
{
	int k;
	for (k = p->noff[v]; k < p->noff[v + 1]; k++) {
		int r = p->nregs[k];
		if (p->ralloc[r] < x && p->rfree[r] >= x)
			return 1;
	}
	return 0;
}

/* The cost of recomputing v at statement x with every input not live
 * there, transitively: what a cut that moves v's next computation to x
 * adds, as far as the current plan tells. */
static double
recompute_cost(struct ps *p, int v, int x)
{
	const struct rp_graph *g = p->g;
	double c = g->cost[v];
	int sp = 0, j, u, w;

	p->markgen++;
	p->mark[v] = p->markgen;
	p->stack[sp++] = v;
	while (sp > 0) {
		u = p->stack[--sp];
		for (j = g->pred_off[u]; j < g->pred_off[u + 1]; j++) {
			w = g->pred[j];
			if (p->mark[w] == p->markgen || live_at(p, w, x))
				continue;
			p->mark[w] = p->markgen;
			c += g->cost[w];
			p->stack[sp++] = w;
		}
	}
	return c;
}

struct cand {
	struct cut c;
	double score;
};

static int out_of_time(const struct ps *p);

static int
cmp_cand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	if (x->score != y->score)
		return x->score < y->score ? -1 : 1;
	return (x->c.v > y->c.v) - (x->c.v < y->c.v);
}

/* The cuts that would take a value out of the peak statement of stage t:
 * every value live there that the statement does not read and that is not
 * read again in the same stage, cut from the stage after its last read
 * before the peak to the stage of its next read (recomputed there), or
 * only to stage t + 1 (recomputed there, then kept). */
static int
candidates(struct ps *p, int t, struct cand **out, int *cap)
{
	const struct rp_graph *g = p->g;
	int x = p->sarg[t], r, k, nc = 0, n = g->n, seen = 0, c;

	for (r = 0; r < p->plan.nregs; r++) {
		int v, prev = -1, next = -1, a, b;
		if (p->ralloc[r] >= x || p->rfree[r] < x)
			continue;
		/* each estimate walks a cone: at scale, many of them
		 * outlast the deadline */
		if ((++seen & 63) == 0 && out_of_time(p))
			break;
		v = p->plan.s[p->ralloc[r]].node;
		if (!g->recompute[v] || g->mem[v] == 0)
			continue;
		for (k = p->roff[r]; k < p->roff[r + 1]; k++) {
			if (p->rd[k] < x)
				prev = p->rd[k];
			else if (next < 0)
				next = p->rd[k];
		}
		if (next == x)
			continue;	/* an input of the peak statement */
		if (next < 0) {
			if (!g->output[v])
				continue;
			b = n - 1;	/* kept to the end: recompute last */
		} else
			b = p->stage[next];
		if (b <= t)
			continue;
		a = (prev >= 0 ? p->stage[prev] : p->stage[p->ralloc[r]]) + 1;
		if (a > b)
			continue;
		rp_grow(out, cap, nc + 1, sizeof **out);
		(*out)[nc].c.v = v;
		(*out)[nc].c.a = a;
		(*out)[nc].c.b = b;
		(*out)[nc].c.gain = 0;
		(*out)[nc].score = recompute_cost(p, v, next >= 0 ? next :
		    p->plan.len) / (double)g->mem[v];
		nc++;
		/* The same value recomputed right after the peak stage and
		 * kept from there, where its inputs may still be live (ranked
		 * 1% below the cut to its next read). */
		if (t + 2 <= b) {
			rp_grow(out, cap, nc + 1, sizeof **out);
			(*out)[nc] = (*out)[nc - 1];
			(*out)[nc].c.b = t + 1;
			(*out)[nc].score *= 1.01;
			nc++;
		}
		/* Or recomputed in the first stage after the peak where its
		 * inputs are all resident, and kept from there: no cascade. */
		for (c = t + 2; p->direct && c < b; c++) {
			int j, ok = p->sfirst[c] >= 0;
			for (j = g->pred_off[v]; ok && j < g->pred_off[v + 1]; j++)
				ok = live_at(p, g->pred[j], p->sfirst[c]);
			if (ok)
				break;
		}
		if (p->direct && c < b) {
			rp_grow(out, cap, nc + 1, sizeof **out);
			(*out)[nc].c.v = v;
			(*out)[nc].c.a = a;
			(*out)[nc].c.b = c;
			(*out)[nc].c.gain = 0;
			(*out)[nc].score = recompute_cost(p, v, p->sfirst[c]) /
			    (double)g->mem[v];
			nc++;
		}
	}
	for (k = 0; p->noise > 0 && k < nc; k++)
		(*out)[k].score *= 1 + p->noise * rp_random_unit(&p->rng);
	if (nc > 1)
		qsort(*out, (size_t)nc, sizeof **out, cmp_cand);
	return nc;
}

static int
out_of_time(const struct ps *p)
{
	return p->deadline > 0 && rp_now() > p->deadline;
}

static int
cmp_cut_gain(const void *a, const void *b)
{
	const struct cut *x = a, *y = b;
	if (x->gain != y->gain)
		return x->gain > y->gain ? -1 : 1;
	return (x->v > y->v) - (x->v < y->v);
}

/* One greedy descent, with or without the cuts that recompute a value
 * where its inputs are resident (direct), by deadline (<= 0: none). The
 * plan is left empty where none fits. */
static void
split(const struct rp_problem *pb, int direct, double noise, uint64_t seed,
    double deadline, struct rp_plan *plan, char **note, long *work)
{
	const struct rp_graph *g = pb->g;
	struct ps p;
	struct cand *cs = NULL;
	struct cut *cuts = NULL;
	int ccap = 0, kcap = 0, ncuts = 0, nundone = 0, v, j, t, i;
	int timeout = 0, dirty = 0, save_ns, savecap = 0;
	struct rp_retain *save = NULL;

	t = 0;
	memset(&p, 0, sizeof p);
	p.pb = pb;
	p.g = g;
	p.direct = direct;
	p.noise = noise;
	p.rng = seed;
	p.deadline = deadline;
	rp_plan_init(&p.plan);
	p.smax = rp_xmalloc(sizeof *p.smax * (size_t)g->n);
	p.sarg = rp_xmalloc(sizeof *p.sarg * (size_t)g->n);
	p.sfirst = rp_xmalloc(sizeof *p.sfirst * (size_t)g->n);
	p.noff = rp_xmalloc(sizeof *p.noff * ((size_t)g->n + 1));
	p.mark = rp_xcalloc((size_t)g->n, sizeof *p.mark);
	p.stack = rp_xmalloc(sizeof *p.stack * (size_t)g->n);

	/* checkpoint-all: each value kept from its computation to its last
	 * reader, outputs to the end */
	for (v = 0; v < g->n; v++) {
		int last = v;
		for (j = g->succ_off[v]; j < g->succ_off[v + 1]; j++)
			if (g->succ[j] > last)
				last = g->succ[j];
		retain_add(&p, v, v + 1, g->output[v] ? g->n : last);
	}
	evaluate(&p, 0);	/* no recomputation: linear */

	/* A rejected trial restores the retention but not its evaluation
	 * (dirty): the next trial, or the end, evaluates again. */
	while (p.excess > 0) {
		int nc, best = -1;
		int64_t ex0 = p.excess, peak0 = p.peak;
		double c0 = p.cost;

		if (out_of_time(&p)) {
			timeout = 1;
			break;
		}
		t = 0;
		for (i = 1; i < g->n; i++)
			if (p.smax[i] > p.smax[t])
				t = i;
		nc = candidates(&p, t, &cs, &ccap);
		rp_grow(&save, &savecap, p.ns, sizeof *save);
		memcpy(save, p.s, sizeof *save * (size_t)p.ns);
		save_ns = p.ns;
		for (i = 0; i < nc; i++) {
			if (out_of_time(&p)) {
				timeout = 1;
				break;
			}
			retain_cut(&p, cs[i].c.v, cs[i].c.a, cs[i].c.b);
			evaluate(&p, p.deadline);
			if (p.aborted) {
				/* over the budget still: no plan to restore */
				memcpy(p.s, save, sizeof *save * (size_t)save_ns);
				p.ns = save_ns;
				p.peak = peak0;
				dirty = 0;
				timeout = 1;
				break;
			}
			dirty = 0;
			if (p.excess < ex0) {
				best = i;
				rp_grow(&cuts, &kcap, ncuts + 1, sizeof *cuts);
				cuts[ncuts] = cs[i].c;
				cuts[ncuts].gain = p.cost - c0;
				ncuts++;
				break;
			}
			memcpy(p.s, save, sizeof *save * (size_t)save_ns);
			p.ns = save_ns;
			dirty = 1;
		}
		if (best < 0 || timeout)
			break;
	}

	/* Undo the cuts that are not needed, the most expensive first. */
	if (!dirty && p.excess == 0 && ncuts > 0) {
		double c0 = p.cost;
		qsort(cuts, (size_t)ncuts, sizeof *cuts, cmp_cut_gain);
		for (i = 0; i < ncuts && !out_of_time(&p); i++) {
			save_ns = p.ns;
			retain_add(&p, cuts[i].v, cuts[i].a, cuts[i].b);
			evaluate(&p, p.deadline);
			if (p.aborted) {
				p.ns = save_ns;
				p.aborted = 0;
				dirty = 1;	/* the plan that fits, again */
				break;
			}
			dirty = 0;
			if (p.excess == 0 && p.cost < c0) {
				c0 = p.cost;
				nundone++;
				continue;
			}
			p.ns = save_ns;
			dirty = 1;
		}
	}
	if (dirty)
		evaluate(&p, 0);

	if (p.excess == 0) {
		rp_plan_move(plan, &p.plan);
		*note = rp_polish(pb, plan, deadline, rp_xasprintf("%d "
		    "cuts, %d undone, %ld plans replayed", ncuts, nundone,
		    p.evals));
	} else if (timeout)
		*note = rp_xasprintf("stopped at the time limit (--time-limit) "
		    "after %d cuts, %.4g%% over the budget at the peak", ncuts,
		    100.0 * (double)(p.peak - pb->budget) / (double)pb->budget);
	else
		*note = rp_xasprintf("no cut lowers the peak of stage '%s' "
		    "(%d cuts made, %.4g%% over the budget)", g->id[t], ncuts,
		    100.0 * (double)(p.peak - pb->budget) / (double)pb->budget);
	*work += p.work;
	free(save);
	free(cs);
	free(cuts);
	ps_destroy(&p);
}

/* The descent is greedy, and where it ends depends on the cuts it may
 * make and the order it tries them in. It runs with the direct cuts (half
 * the time left) and without them; then again from the start with each
 * candidate's score scaled by a random factor from 1 to 1 + NOISE (seeded
 * by --seed, with and without direct cuts in turn), until RESTART_PATIENCE
 * restarts in a row improve nothing, their work (statements replayed)
 * passes RESTART_WORK of the first two descents' (so that they take a few
 * times as long at most: the strategies after this one, the solvers among
 * them, need the time), or the time runs out. The cheapest plan that fits
 * is kept. The work limit, not the machine's speed, ends the restarts
 * unless the time comes first, so a run within its time gives the same
 * plan everywhere. */
#define NOISE 0.5
#define RESTART_PATIENCE 32
#define RESTART_WORK(first) ((first) * 2 + 10000000L)

static int
peaksplit_run(const struct rp_problem *pb, const struct rp_ctx *ctx,
    struct rp_plan *plan, char **note, double *bound, char **cause)
{
	struct rp_best best;
	int r, rc = 0, last = 0;
	long work = 0, first = 0;
	uint64_t seed = ctx->opt != NULL ? ctx->opt->seed : 1;
	double deadline = ctx->deadline;

	(void)bound;
	rp_best_init(&best);
	for (r = 0; rc == 0; r++) {
		struct rp_plan p;
		char *n = NULL;
		double c0 = best.cost;
		int fits0 = best.fits;
		if (r == 2)
			first = work;	/* the first two descents' */
		if (r >= 2 && (r - last >= RESTART_PATIENCE ||
		    work - first >= RESTART_WORK(first)))
			break;
		if (deadline > 0 && rp_now() >= deadline)
			break;
		rp_plan_init(&p);
		split(pb, r % 2 == 0, r < 2 ? 0 : NOISE, seed + (uint64_t)r,
		    r == 0 && deadline > 0 ? rp_now() + (deadline - rp_now()) /
		    2 : deadline, &p, &n, &work);
		if (p.len == 0) {
			rp_plan_destroy(&p);
			if (*note == NULL)
				*note = n;	/* why the first found none */
			else
				free(n);
			continue;
		}
		if (r >= 2) {
			char *t = rp_xasprintf("restart %d: %s", r - 1, n);
			free(n);
			n = t;
		}
		rc = rp_best_offer(&best, pb, &p, n, cause);
		if (best.fits && (!fits0 || best.cost < c0))
			last = r;
	}
	if (rc == 0 && best.have) {
		char *t;
		free(*note);
		*note = NULL;
		rp_best_take(&best, plan, note);
		t = rp_xasprintf("%s; the best of %d descents", *note, r);
		free(*note);
		*note = t;
	}
	rp_best_destroy(&best);
	return rc;
}

const struct rp_strategy rp_strategy_peak_split = {
	"peak-split",
	"greedy cuts of retention intervals at the peak stage, with the "
	    "R solver placing recomputations",
	0,
	peaksplit_run,
};
