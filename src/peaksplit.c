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
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "mip.h"
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
	long wcap;		/* stop past this work (0: no cap) */
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
 * adds, as far as the current plan tells. *heaviest (unless NULL): the
 * value of most bytes among those inputs (the lowest node at a tie), -1
 * where there is none. */
static double
cascade(struct ps *p, int v, int x, int *heaviest)
{
	const struct rp_graph *g = p->g;
	double c = g->cost[v];
	int sp = 0, j, u, w, key = -1;

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
			if (key < 0 || g->mem[w] > g->mem[key] ||
			    (g->mem[w] == g->mem[key] && w < key))
				key = w;
			p->stack[sp++] = w;
		}
	}
	if (heaviest != NULL)
		*heaviest = key;
	return c;
}

static double
recompute_cost(struct ps *p, int v, int x)
{
	return cascade(p, v, x, NULL);
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
	return (p->deadline > 0 && rp_now() > p->deadline) ||
	    (p->wcap > 0 && p->work > p->wcap);
}

/* The cover: instead of cutting one value at a time at the peak, choose a
 * set of cuts at once that takes every stage of checkpoint-all down to
 * the budget at the least recomputation cost, a covering MILP: one binary
 * per candidate cut, one row per stage over the budget (the bytes of the
 * cuts that cover it at least its excess), at most one cut per gap
 * between two reads of a value, and no cut of a value whose recomputation
 * reads an input that another chosen cut removes there. A candidate
 * removes a value from the stage after a read (or its computation) to its
 * next read, where it is recomputed, or only to the first stage after the
 * last one over the budget in between, recomputed there and kept on; the
 * inputs gone by then are recomputed too, or kept until then (their bytes
 * count against the stages they are kept into). The costs and the bytes
 * are checkpoint-all's.
 *
 * The LP relaxation (GLPK) is rounded: the cuts in decreasing LP value
 * are taken while one helps a stage still over the budget, then the
 * dearest are dropped again where all stages stay covered. Models of up
 * to COVER_SEARCH_COLS columns are then searched by branch and bound from
 * that rounding, stopped after COVER_NODES subproblems or at a relative
 * gap of COVER_GAP: larger ones take GLPK seconds per hundred
 * subproblems, and a search stopped by the clock would not give the same
 * plan from run to run. Where the plan of the chosen cuts is still over
 * the budget (recomputations cascade, or need memory of their own), the
 * rows of those stages ask for what was missing and the model is solved
 * again, up to COVER_ROUNDS times, and the round with the least memory
 * over the budget is kept; what is left over goes to the greedy
 * descent. Models past COVER_MAX_COLS columns or COVER_MAX_NNZ nonzeros
 * (about 40 MB with GLPK's copy) are not built. */
#define COVER_MAX_COLS 20000
#define COVER_MAX_NNZ 500000L
#define COVER_SEARCH_COLS 400
#define COVER_NODES 200
#define COVER_GAP 0.002
#define COVER_ROUNDS 4

struct ccand {
	struct cut c;		/* recomputed in stage c.b */
	double cost;		/* checkpoint-all's estimate */
	int gap;		/* the candidates of one gap exclude each other */
	int keep;		/* the inputs that are gone by stage c.b are
				   kept there instead of recomputed */
};

/* The first stage past u's last reader (or its computation). */
static int
kept_from(const struct rp_graph *g, int u)
{
	int last = rp_last_succ(g, u);
	return (last > u ? last : u) + 1;
}

/* Whether input u of a value recomputed in stage e is gone there in
 * checkpoint-all (freed after its last reader). */
static int
gone_at(const struct rp_graph *g, int u, int e)
{
	return !g->output[u] && kept_from(g, u) <= e;
}

/* Adds the bytes candidate c saves by stage to the difference array d
 * (n + 1 entries): its value's over [c.a, c.b), less those of the inputs
 * it keeps over [kept_from, c.b]; where p is not NULL, also makes the cut
 * in p's retention. Returns the first stage an input is kept into, or
 * c.b + 1 where the candidate keeps none. */
static int
cand_bytes(const struct rp_graph *g, const struct ccand *c, int64_t *d,
    struct ps *p)
{
	int v = c->c.v, j, u, from, first = c->c.b + 1;

	if (p != NULL)
		retain_cut(p, v, c->c.a, c->c.b);
	d[c->c.a] += g->mem[v];
	d[c->c.b] -= g->mem[v];
	for (j = g->pred_off[v]; c->keep && j < g->pred_off[v + 1]; j++)
		if (gone_at(g, (u = g->pred[j]), c->c.b)) {
			from = kept_from(g, u);
			if (p != NULL)
				retain_add(p, u, from, c->c.b);
			d[from] -= g->mem[u];
			d[c->c.b + 1] += g->mem[u];
			if (from < first)
				first = from;
		}
	return first;
}

/* The candidate cuts of the evaluated checkpoint-all plan that cover a
 * stage over the budget, by node (coff[v]..coff[v + 1]). Each gap between
 * two reads of a value over such a stage gets the cut to the next read
 * and the cut to the first stage past the last one over the budget, each
 * recomputing the inputs that are gone there, and each keeping those
 * inputs until then instead. Returns their number, or
 * -1 past COVER_MAX_COLS or the deadline. */
static int
cover_candidates(struct ps *p, struct ccand **out, int *coff)
{
	const struct rp_graph *g = p->g;
	int n = g->n, v, j, k, np, nc = 0, cap = 0, ngap = 0;
	int *lastover = rp_xmalloc(sizeof *lastover * (size_t)n);
	int *pts = rp_xmalloc(sizeof *pts * ((size_t)n + 2));

	for (j = 0; j < n; j++)
		lastover[j] = p->smax[j] > p->pb->budget ? j :
		    j > 0 ? lastover[j - 1] : -1;
	for (v = 0; v < n; v++) {
		coff[v] = nc;
		if (!g->recompute[v] || g->mem[v] == 0)
			continue;
		/* the cost estimates walk cones: at scale, they may outlast
		 * the deadline */
		if ((v & 63) == 0 && out_of_time(p)) {
			nc = -1;
			goto out;
		}
		/* the stages that read v (successors are sorted), after the
		 * one that computes it */
		np = 0;
		pts[np++] = v;
		for (j = g->succ_off[v]; j < g->succ_off[v + 1]; j++)
			pts[np++] = g->succ[j];
		if (g->output[v] && pts[np - 1] < n - 1)
			pts[np++] = n - 1;	/* kept to the end */
		for (k = 0; k + 1 < np; k++) {
			int a = pts[k] + 1, b = pts[k + 1], last, e, m, keep;
			if (b <= a || (last = lastover[b - 1]) < a)
				continue;	/* no stage over the budget */
			for (m = 0; m < 2; m++) {
				int gone = 0;
				e = m == 0 ? last + 1 : b;
				if (m == 0 && e >= b)
					continue;
				for (j = g->pred_off[v]; !gone &&
				    j < g->pred_off[v + 1]; j++)
					gone = gone_at(g, g->pred[j], e);
				for (keep = 0; keep < 2; keep++) {
					if (keep && gone == 0)
						continue;
					if (nc >= COVER_MAX_COLS) {
						nc = -1;
						goto out;
					}
					rp_grow(out, &cap, nc + 1, sizeof **out);
					(*out)[nc].c.v = v;
					(*out)[nc].c.a = a;
					(*out)[nc].c.b = e;
					(*out)[nc].c.gain = 0;
					(*out)[nc].cost = keep ? g->cost[v] :
					    recompute_cost(p, v, p->sfirst[e]);
					(*out)[nc].gap = ngap;
					(*out)[nc].keep = keep;
					nc++;
				}
			}
			ngap++;
		}
	}
	coff[n] = nc;
out:
	free(lastover);
	free(pts);
	return nc;
}

struct corder {
	int k;
	double x, per_byte;
};

static int
cmp_corder(const void *a, const void *b)
{
	const struct corder *p = a, *q = b;
	if (p->x != q->x)
		return p->x > q->x ? -1 : 1;
	if (p->per_byte != q->per_byte)
		return p->per_byte < q->per_byte ? -1 : 1;
	return (p->k > q->k) - (p->k < q->k);
}

/* Rounds the LP solution x of the covering model: the candidates in
 * decreasing x (then cost per byte) are taken while one helps a row that
 * is short and none breaks a row, until no row is short; then the most
 * expensive of them are dropped again where every row stays satisfied.
 * Sets on[k]; returns 0, or -1 where rows stay short. */
static int
cover_round(const struct rp_mip *mip, const struct ccand *cs, const double *x,
    unsigned char *on)
{
	int nc = mip->ncols, nr = mip->nrows, k, i, r, short_rows = 0, rc;
	int *off = rp_xcalloc((size_t)nc + 1, sizeof *off), *row, *fill;
	double *val, *act = rp_xcalloc((size_t)nr, sizeof *act);
	struct corder *ord = rp_xmalloc(sizeof *ord * (size_t)nc);
	const double tol = 1e-9;

	/* the columns' coefficients, column by column */
	for (i = 0; i < mip->nnz; i++)
		off[mip->ja[i] + 1]++;
	for (k = 0; k < nc; k++)
		off[k + 1] += off[k];
	row = rp_xmalloc(sizeof *row * (size_t)(mip->nnz ? mip->nnz : 1));
	val = rp_xmalloc(sizeof *val * (size_t)(mip->nnz ? mip->nnz : 1));
	fill = rp_xmalloc(sizeof *fill * (size_t)nc);
	memcpy(fill, off, sizeof *fill * (size_t)nc);
	for (i = 0; i < mip->nnz; i++) {
		row[fill[mip->ja[i]]] = mip->ia[i];
		val[fill[mip->ja[i]]++] = mip->ar[i];
	}
	for (r = 0; r < nr; r++)
		if (mip->rlo[r] > tol)
			short_rows++;
	for (k = 0; k < nc; k++) {
		double bytes = 0;
		for (i = off[k]; i < off[k + 1]; i++)
			if (val[i] > 0 && mip->rlo[row[i]] > -HUGE_VAL)
				bytes += val[i];
		ord[k].k = k;
		ord[k].x = x[k] > 1 - 1e-6 ? 1 : x[k];
		ord[k].per_byte = bytes > 0 ? cs[k].cost / bytes : HUGE_VAL;
	}
	qsort(ord, (size_t)nc, sizeof *ord, cmp_corder);
	for (k = 0; k < nc; k++)
		on[k] = 0;
	for (i = 0; i < nc && short_rows > 0; i++) {
		int helps = 0, breaks = 0, c = ord[i].k;
		for (r = off[c]; r < off[c + 1]; r++) {
			double lo = mip->rlo[row[r]], hi = mip->rhi[row[r]];
			double a = act[row[r]], b = a + val[r];
			if (b > hi + tol || (a >= lo - tol && b < lo - tol))
				breaks = 1;
			if (a < lo - tol && b > a)
				helps = 1;
		}
		if (!helps || breaks)
			continue;
		on[c] = 1;
		for (r = off[c]; r < off[c + 1]; r++) {
			double lo = mip->rlo[row[r]], a = act[row[r]];
			act[row[r]] += val[r];
			if (a < lo - tol && act[row[r]] >= lo - tol)
				short_rows--;
		}
	}
	rc = short_rows > 0 ? -1 : 0;
	/* drop what is not needed, the most expensive first */
	for (i = nc - 1; rc == 0 && i >= 0; i--) {
		int c = ord[i].k, need = 0;
		if (!on[c])
			continue;
		for (r = off[c]; r < off[c + 1] && !need; r++)
			need = act[row[r]] - val[r] < mip->rlo[row[r]] - tol;
		if (need)
			continue;
		on[c] = 0;
		for (r = off[c]; r < off[c + 1]; r++)
			act[row[r]] -= val[r];
	}
	free(off);
	free(row);
	free(val);
	free(fill);
	free(act);
	free(ord);
	return rc;
}

/* Solves the covering MILP for the stages with need[t] > 0 bytes. Fills
 * on[k] with the chosen candidates (and may write it on failure too).
 * Returns 0, or -1 where it is too large, has no solution or found none
 * by the deadline. */
static int
cover_solve(const struct ps *p, const struct ccand *cs, const int *coff,
    int nc, const int64_t *need, double deadline, unsigned char *on)
{
	const struct rp_graph *g = p->g;
	const struct rp_engine_ops *ops = rp_engine_get(RP_MILP_GLPK);
	struct rp_engine *e;
	struct rp_mip mip;
	int n = g->n, t, k, d, j, nrow = 0, rc = -1, *rowof, *kept;
	double unit = 1, obj, bnd;
	int64_t *diff = rp_xcalloc((size_t)n + 1, sizeof *diff), sum;

	for (k = 0; k < nc; k++)
		if ((double)g->mem[cs[k].c.v] > unit)
			unit = (double)g->mem[cs[k].c.v];
	rp_mip_init(&mip);
	rowof = rp_xmalloc(sizeof *rowof * (size_t)n);
	kept = rp_xmalloc(sizeof *kept * (size_t)nc);
	for (k = 0; k < nc; k++)
		rp_mip_add_col(&mip, 0, 1, cs[k].cost, 1);
	/* a row for each stage over the budget, and each where a cut keeps
	 * an input longer (its need may be negative: room left) */
	for (t = 0; t < n; t++)
		rowof[t] = need[t] > 0 ? 1 : 0;
	for (k = 0; k < nc; k++) {
		kept[k] = cand_bytes(g, &cs[k], diff, NULL);
		for (t = kept[k]; t <= cs[k].c.b; t++)
			rowof[t] = 1;
	}
	for (t = 0; t < n; t++)
		rowof[t] = rowof[t] ? (nrow++, rp_mip_add_row(&mip,
		    (double)need[t] / unit, HUGE_VAL)) : -1;
	/* each column's bytes by stage, from its difference array: an
	 * engine takes one coefficient per row and column */
	memset(diff, 0, sizeof *diff * ((size_t)n + 1));
	for (k = 0; k < nc; k++) {
		int lo = cs[k].c.a < kept[k] ? cs[k].c.a : kept[k];
		int hi = kept[k] <= cs[k].c.b ? cs[k].c.b : cs[k].c.b - 1;
		cand_bytes(g, &cs[k], diff, NULL);
		for (t = lo, sum = 0; t <= hi; t++) {
			sum += diff[t];
			rp_mip_add(&mip, rowof[t], k, (double)sum / unit);
		}
		memset(diff + lo, 0, sizeof *diff * (size_t)(hi + 2 - lo));
		if (mip.nnz > COVER_MAX_NNZ)
			goto out;
	}
	for (k = 0; k < nc; k = d) {
		for (d = k + 1; d < nc && cs[d].gap == cs[k].gap; d++)
			;
		if (d - k > 1) {
			int r = rp_mip_add_row(&mip, -HUGE_VAL, 1);
			for (j = k; j < d; j++)
				rp_mip_add(&mip, r, j, 1);
		}
	}
	/* an input removed where the cut recomputes: not both */
	for (k = 0; k < nc; k++) {
		int v = cs[k].c.v, at = cs[k].c.b;
		for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) {
			int u = g->pred[j];
			for (d = coff[u]; d < coff[u + 1]; d++)
				if (cs[d].c.a <= at && at < cs[d].c.b) {
					int r = rp_mip_add_row(&mip, -HUGE_VAL, 1);
					rp_mip_add(&mip, r, k, 1);
					rp_mip_add(&mip, r, d, 1);
				}
		}
	}
	if (nrow == 0 || mip.nnz > COVER_MAX_NNZ)
		goto out;
	e = ops->load(&mip);
	if (ops->solve_lp(e, deadline, &obj, &bnd) == RP_MILP_OPTIMAL) {
		double *x = rp_xmalloc(sizeof *x * (size_t)nc), rounded = 0;
		for (k = 0; k < nc; k++)
			x[k] = ops->lp_value(e, k);
		rc = cover_round(&mip, cs, x, on);
		for (k = 0; k < nc; k++)
			rounded += on[k] ? cs[k].cost : 0;
		/* searched only where the rounding may be improved on */
		if (rc == 0 && nc <= COVER_SEARCH_COLS &&
		    rounded - obj > COVER_GAP * rounded) {
			struct rp_search req;
			struct rp_worker_out res;
			int *watch = rp_xmalloc(sizeof *watch * (size_t)nc);
			memset(&req, 0, sizeof req);
			for (k = 0; k < nc; k++) {
				watch[k] = k;
				x[k] = on[k];
			}
			req.start_obj = rounded;
			req.start = x;
			req.deadline = deadline;
			req.watch = watch;
			req.nwatch = nc;
			req.lp_bound = obj;
			req.node_limit = COVER_NODES;
			req.gap = COVER_GAP;
			ops->search(e, &req, &res);
			if (res.has_sol && res.obj < req.start_obj) {
				memset(on, 0, (size_t)nc);
				for (k = 0; k < res.nsol; k++)
					if (res.sol[k] >= 0 && res.sol[k] < nc)
						on[res.sol[k]] = 1;
			}
			free(res.sol);
			free(res.vals);
			free(watch);
		}
		free(x);
	}
	ops->free(e);
out:
	rp_mip_destroy(&mip);
	free(rowof);
	free(kept);
	free(diff);
	return rc;
}

/* Replaces checkpoint-all's retention (evaluated in p) by the cover's
 * cuts, appended to *cuts. Returns the number of cuts, 0 where the cover
 * found none (p is left as it was). */
static int
cover(struct ps *p, double deadline, struct cut **cuts, int *kcap, int *ncuts)
{
	const struct rp_graph *g = p->g;
	int n = g->n, nc, k, t, round, used = 0, save_ns = p->ns, grew, made;
	int *coff = rp_xmalloc(sizeof *coff * ((size_t)n + 1));
	struct ccand *cs = NULL;
	struct rp_retain *save;
	unsigned char *on, *best_on, *trial;
	int64_t *need, *cov, best_excess = 0;

	nc = cover_candidates(p, &cs, coff);
	if (nc <= 0 || out_of_time(p)) {
		free(coff);
		free(cs);
		return 0;
	}
	save = rp_xmalloc(sizeof *save * (size_t)p->ns);
	memcpy(save, p->s, sizeof *save * (size_t)p->ns);
	on = rp_xcalloc((size_t)nc, 1);
	best_on = rp_xcalloc((size_t)nc, 1);
	trial = rp_xcalloc((size_t)nc, 1);
	need = rp_xcalloc((size_t)n, sizeof *need);
	cov = rp_xcalloc((size_t)n + 1, sizeof *cov);
	for (t = 0; t < n; t++)
		need[t] = p->smax[t] - p->pb->budget;
	for (round = 0; round < COVER_ROUNDS; round++) {
		if (cover_solve(p, cs, coff, nc, need, deadline, trial) != 0)
			break;	/* on[] still holds the cuts p was made with */
		memcpy(on, trial, (size_t)nc);
		memcpy(p->s, save, sizeof *save * (size_t)save_ns);
		p->ns = save_ns;
		memset(cov, 0, sizeof *cov * ((size_t)n + 1));
		for (k = 0; k < nc; k++)
			if (on[k])
				cand_bytes(g, &cs[k], cov, p);
		evaluate(p, deadline);
		if (p->aborted)
			break;
		if (!used || p->excess < best_excess) {
			best_excess = p->excess;
			memcpy(best_on, on, (size_t)nc);
		}
		used = 1;
		if (p->excess == 0)
			break;
		/* what the stages over the budget still lack, beyond the
		 * bytes the cuts were taken to save there */
		grew = 0;
		for (t = 0; t < n; t++) {
			int64_t want;
			if (t > 0)
				cov[t] += cov[t - 1];
			want = p->smax[t] - p->pb->budget + cov[t];
			if (p->smax[t] > p->pb->budget && want > need[t]) {
				need[t] = want;
				grew = 1;
			}
		}
		if (!grew)
			break;
	}
	if (used && !p->aborted && p->excess > best_excess) {
		/* a later round did worse: back to the best one's cuts */
		memcpy(on, best_on, (size_t)nc);
		memcpy(p->s, save, sizeof *save * (size_t)save_ns);
		p->ns = save_ns;
		for (k = 0; k < nc; k++)
			if (on[k])
				cand_bytes(g, &cs[k], cov, p);
		evaluate(p, deadline);
	}
	made = 0;
	if (!used || p->aborted) {
		memcpy(p->s, save, sizeof *save * (size_t)save_ns);
		p->ns = save_ns;
		p->aborted = 0;
		evaluate(p, 0);
	} else
		for (k = 0; k < nc; k++)
			if (on[k]) {
				rp_grow(cuts, kcap, *ncuts + 1, sizeof **cuts);
				(*cuts)[*ncuts] = cs[k].c;
				(*cuts)[*ncuts].gain = cs[k].cost;
				(*ncuts)++;
				made++;
			}
	free(coff);
	free(cs);
	free(save);
	free(on);
	free(best_on);
	free(trial);
	free(need);
	free(cov);
	return made;
}

static int
cmp_cut_gain(const void *a, const void *b)
{
	const struct cut *x = a, *y = b;
	if (x->gain != y->gain)
		return x->gain > y->gain ? -1 : 1;
	return (x->v > y->v) - (x->v < y->v);
}

/* Values cut together. Where no single cut lowers the memory over the
 * budget, the values live at the peak of stage t (not read there) whose
 * recomputation needs the same value gone by then are cut at once and
 * recomputed together in a later stage c, where that value is made once
 * for all of them; cut one at a time, each would make it again beside
 * the rest, and none helps. A group is keyed by the gone ancestor of most
 * bytes in its members' cascades (the lowest node at a tie). A member
 * read between the peak and c only by recomputations (of a value made
 * before the peak) has those values held from where they were made
 * instead, so that it is not needed before c. An LSTM export at 72%:
 * the gates of all 50 steps of the first layer, 800 KiB, which the
 * layer's 800 KiB input projection makes again, held across the stacked
 * gate gradients of the second layer; the hidden states, recomputed from
 * them for the weight gradient just after, held instead (200 KiB). The
 * GROUP_MAX groups of most bytes are tried, each at c = t + 1, t + 2,
 * t + 4, ... while c is before the last next read of a member outside
 * those recomputations. */
#define GROUP_MAX 8

struct gmember {
	int key, v, a, b;	/* b: its first read that is not a
				 * recomputation after the peak */
	int ro, nr;		/* its reads by recomputations before b */
};

static int
cmp_gmember(const void *x, const void *y)
{
	const struct gmember *a = x, *b = y;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return (a->v > b->v) - (a->v < b->v);
}

struct ggroup {
	int lo, hi, bmax;	/* members[lo..hi), the last of their b */
	int64_t bytes;
};

static int
cmp_ggroup(const void *x, const void *y)
{
	const struct ggroup *a = x, *b = y;
	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	return (a->lo > b->lo) - (a->lo < b->lo);
}

/* The register of node w computed last before statement s, or -1. */
static int
reg_before(const struct ps *p, int w, int s)
{
	int k, r = -1;

	for (k = p->noff[w]; k < p->noff[w + 1]; k++)
		if (p->ralloc[p->nregs[k]] < s && (r < 0 ||
		    p->ralloc[p->nregs[k]] > p->ralloc[r]))
			r = p->nregs[k];
	return r;
}

/* The recomputations that read a member between the peak and the
 * stages it may be cut to, in the plan before the cut: the value made
 * (w), held instead from the stage after its computation before (from)
 * to that of the read (at). */
struct gread {
	int w, from, at;
};

/* Member m (reads rd[m->ro..m->ro + m->nr)) cut to stage c, the values
 * of its reads before c held instead. */
static void
group_member_cut(struct ps *p, const struct gmember *m, const struct gread *rd,
    int c)
{
	int k;

	for (k = m->ro; k < m->ro + m->nr; k++)
		if (rd[k].at < c)
			retain_add(p, rd[k].w, rd[k].from, rd[k].at);
	retain_cut(p, m->v, m->a, c < m->b ? c : m->b);
}

/* The group cut at the peak of stage t, the memory over the budget being
 * ex0 before it: the cuts made go to *cuts (their number returned, *dirty
 * cleared); 0 where no group lowers it (the retention as it was, *dirty
 * set where it was evaluated since); -1 where the deadline came first. */
static int
group_cut(struct ps *p, int t, int64_t ex0, struct cut **cuts, int *kcap,
    int *ncuts, int *dirty)
{
	const struct rp_graph *g = p->g;
	int x = p->sarg[t], r, k, nm = 0, mcap = 0, ng = 0, gcap = 0, gi;
	int made = 0, save_ns = p->ns, nrd = 0, rdcap = 0;
	struct gmember *m = NULL;
	struct gread *rd = NULL;
	struct ggroup *gr = NULL;
	struct rp_retain *save = rp_xmalloc(sizeof *save *
	    (size_t)(p->ns ? p->ns : 1));

	memcpy(save, p->s, sizeof *save * (size_t)p->ns);
	for (r = 0; r < p->plan.nregs; r++) {
		int v, prev = -1, b = -1, key = -1, w, ok = 1;
		int ro;
		if (p->ralloc[r] >= x || p->rfree[r] < x)
			continue;
		v = p->plan.s[p->ralloc[r]].node;
		if (!g->recompute[v] || g->mem[v] == 0)
			continue;
		/* its last read before the peak; its first read after it
		 * that is not a recomputation of a value made before */
		for (k = p->roff[r]; k < p->roff[r + 1] && ok; k++) {
			int s = p->rd[k];
			if (s < x)
				prev = s;
			else if (s == x)
				ok = 0;	/* an input of the peak statement */
			else if (b < 0 && reg_before(p, p->plan.s[s].node,
			    s) < 0)
				b = p->stage[s];
		}
		if (!ok || b < 0 || b <= t + 1)
			continue;
		/* the recomputations that read it after the peak, before b:
		 * each makes a value that was made before */
		ro = nrd;
		for (k = p->roff[r]; k < p->roff[r + 1]; k++) {
			int s = p->rd[k], r2;
			if (s <= x || p->stage[s] >= b)
				continue;
			w = p->plan.s[s].node;
			if ((r2 = reg_before(p, w, s)) < 0)
				continue;	/* not one (b says none is) */
			rp_grow(&rd, &rdcap, nrd + 1, sizeof *rd);
			rd[nrd].w = w;
			rd[nrd].from = p->stage[p->ralloc[r2]] + 1;
			rd[nrd].at = p->stage[s];
			nrd++;
		}
		/* the gone ancestor of most bytes in v's cascade */
		cascade(p, v, x, &key);
		if (key < 0)
			continue;	/* its inputs are live: a single cut */
		rp_grow(&m, &mcap, nm + 1, sizeof *m);
		m[nm].key = key;
		m[nm].v = v;
		m[nm].ro = ro;
		m[nm].nr = nrd - ro;
		m[nm].a = (prev >= 0 ? p->stage[prev] :
		    p->stage[p->ralloc[r]]) + 1;
		m[nm].b = b;
		nm++;
	}
	if (nm > 1)
		qsort(m, (size_t)nm, sizeof *m, cmp_gmember);
	for (k = 0; k < nm; ) {
		int e = k;
		struct ggroup q = { k, k, 0, 0 };
		for (; e < nm && m[e].key == m[k].key; e++) {
			q.bytes += g->mem[m[e].v];
			if (m[e].b > q.bmax)
				q.bmax = m[e].b;
		}
		q.hi = e;
		if (e - k > 1) {
			rp_grow(&gr, &gcap, ng + 1, sizeof *gr);
			gr[ng++] = q;
		}
		k = e;
	}
	if (ng > 1)
		qsort(gr, (size_t)ng, sizeof *gr, cmp_ggroup);
	for (gi = 0; gi < ng && gi < GROUP_MAX && !made; gi++) {
		/* every target stage evaluated, the one of least memory over
		 * the budget (then least cost) taken: the first that helps
		 * may recompute the group beside what the peak holds */
		int c, i, bc = -1;
		int64_t bex = ex0, bpeak = 0;
		double bcost = 0, c0 = p->cost;
		for (c = t + 1; c < gr[gi].bmax && made == 0;
		    c = t + 2 * (c - t)) {
			if (out_of_time(p)) {
				made = -1;
				break;
			}
			for (i = gr[gi].lo; i < gr[gi].hi; i++)
				group_member_cut(p, &m[i], rd, c);
			evaluate(p, p->deadline);
			*dirty = 1;
			if (p->aborted) {
				/* p->plan is a trial's: the caller keeps none */
				p->excess = ex0;
				made = -1;
			} else if (p->excess < ex0 && (bc < 0 ||
			    p->peak < bpeak || (p->peak == bpeak &&
			    p->excess < bex) || (p->peak == bpeak &&
			    p->excess == bex && p->cost < bcost))) {
				bc = c;
				bex = p->excess;
				bpeak = p->peak;
				bcost = p->cost;
			}
			memcpy(p->s, save, sizeof *save * (size_t)save_ns);
			p->ns = save_ns;
		}
		if (made < 0 || bc < 0)
			continue;
		for (i = gr[gi].lo; i < gr[gi].hi; i++)
			group_member_cut(p, &m[i], rd, bc);
		evaluate(p, 0);		/* once more: it was within time */
		*dirty = 0;
		for (i = gr[gi].lo; i < gr[gi].hi; i++) {
			rp_grow(cuts, kcap, *ncuts + 1, sizeof **cuts);
			(*cuts)[*ncuts].v = m[i].v;
			(*cuts)[*ncuts].a = m[i].a;
			(*cuts)[*ncuts].b = bc < m[i].b ? bc : m[i].b;
			(*cuts)[*ncuts].gain = (p->cost - c0) /
			    (gr[gi].hi - gr[gi].lo);
			(*ncuts)++;
		}
		made = gr[gi].hi - gr[gi].lo;
	}
	free(save);
	free(m);
	free(rd);
	free(gr);
	return made;
}

/* One greedy descent, with or without the cuts that recompute a value
 * where its inputs are resident (direct), by deadline (<= 0: none). At
 * each step the candidates are tried in the order of their estimated
 * cost per byte, and of the first ktry that lower the memory over the
 * budget, the one that adds the least cost per byte it takes off, as
 * replayed, is kept (ktry 1: the first). The estimate is the current
 * plan's recomputation cascade; what the cut really adds depends on the
 * cascades it shares with the cuts before it. The plan is left empty
 * where none fits; over (unless NULL) then gets the plan where the
 * descent ended, over the budget. With groups, where no single cut helps,
 * the descent tries group_cut's. */
static void
split(const struct rp_problem *pb, int direct, int with_cover, int ktry,
    long wcap, double noise, uint64_t seed, double deadline, int groups,
    struct rp_plan *plan, struct rp_plan *over, char **note, long *work)
{
	const struct rp_graph *g = pb->g;
	struct ps p;
	struct cand *cs = NULL;
	struct cut *cuts = NULL;
	int ccap = 0, kcap = 0, ncuts = 0, nundone = 0, ncover = 0, v, j, t, i;
	int ngrouped = 0;	/* of the cuts, those made together */
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
	p.wcap = wcap;
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
	if (with_cover && p.excess > 0 &&
	    (ncover = cover(&p, deadline, &cuts, &kcap, &ncuts)) == 0) {
		*note = rp_xstrdup("the covering MILP chose no cuts");
		goto done;	/* the descents without it follow */
	}

	/* A rejected trial restores the retention but not its evaluation
	 * (dirty): the next trial, or the end, evaluates again. */
	while (p.excess > 0) {
		int nc, best = -1, ntried = 0;
		double bratio = 0;
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
				double ratio = (p.cost - c0) /
				    (double)(ex0 - p.excess);
				if (best < 0 || ratio < bratio) {
					best = i;
					bratio = ratio;
				}
				if (++ntried >= ktry)
					break;
			}
			memcpy(p.s, save, sizeof *save * (size_t)save_ns);
			p.ns = save_ns;
			dirty = 1;
		}
		if (best >= 0 && !(ntried >= ktry && best == i)) {
			memcpy(p.s, save, sizeof *save * (size_t)save_ns);
			p.ns = save_ns;
			retain_cut(&p, cs[best].c.v, cs[best].c.a, cs[best].c.b);
			evaluate(&p, 0);	/* once more: it was within time */
			p.aborted = 0;
			dirty = 0;
		}
		if (best >= 0) {
			rp_grow(&cuts, &kcap, ncuts + 1, sizeof *cuts);
			cuts[ncuts] = cs[best].c;
			cuts[ncuts].gain = p.cost - c0;
			ncuts++;
		}
		if (best < 0 && !timeout && groups) {
			int k = group_cut(&p, t, ex0, &cuts, &kcap, &ncuts,
			    &dirty);
			if (k > 0) {
				ngrouped += k;
				continue;
			}
			if (k < 0) {
				timeout = 1;
				if (p.aborted) {
					/* as after a trial cut short */
					p.peak = peak0;
					dirty = 0;
				}
			}
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
	/* p.plan is that of the retention unless an evaluation was cut
	 * short by the deadline (then no plan: one more would pass it);
	 * without a cut it is checkpoint-all's, which has a row of its own */
	if (p.excess > 0 && over != NULL && !p.aborted && ncuts > 0)
		rp_plan_move(over, &p.plan);

	if (p.excess == 0) {
		char *how = ktry > 1 ? rp_xasprintf(" (each the cheapest per "
		    "byte of the first %d that help)", ktry) : rp_xstrdup("");
		char *grp = ngrouped > 0 ? rp_xasprintf(", %d of them in "
		    "groups cut at once", ngrouped) : rp_xstrdup("");
		rp_plan_move(plan, &p.plan);
		*note = rp_polish(pb, plan, deadline, ncover > 0 ?
		    rp_xasprintf("%d cuts chosen together by a covering MILP, "
		    "%d more%s, %d undone, %ld plans replayed", ncover, ncuts -
		    ncover, grp, nundone, p.evals) : rp_xasprintf("%d cuts%s%s, "
		    "%d undone, %ld plans replayed", ncuts, how, grp, nundone,
		    p.evals));
		free(how);
		free(grp);
	} else if (timeout && wcap > 0 && p.work > wcap)
		*note = rp_xasprintf("stopped at its limit of work after %d "
		    "cuts, %.4g%% over the budget at the peak", ncuts,
		    100.0 * (double)(p.peak - pb->budget) / (double)pb->budget);
	else if (timeout)
		*note = rp_xasprintf("stopped at the time limit (--time-limit) "
		    "after %d cuts, %.4g%% over the budget at the peak", ncuts,
		    100.0 * (double)(p.peak - pb->budget) / (double)pb->budget);
	else
		*note = rp_xasprintf("no cut lowers the peak of stage '%s' "
		    "(%d cuts made, %.4g%% over the budget)", g->id[t], ncuts,
		    100.0 * (double)(p.peak - pb->budget) / (double)pb->budget);
done:
	*work += p.work;
	free(save);
	free(cs);
	free(cuts);
	ps_destroy(&p);
}

/* The descent is greedy, and where it ends depends on the cuts it may
 * make and the order it tries them in. It runs with the direct cuts (half
 * the time left) and without them, each taking the first cut that helps;
 * then both again, choosing among the first TRIES cuts that help, each
 * stopped past TRIES_WORK (a random layered DAG of 500 nodes at 80%:
 * reorder's plan 1.25x -> 1.08x, its search's plans being these); then
 * again from the start, taking the first cut that helps, with each
 * candidate's score scaled by a random factor from 1 to 1 + NOISE (seeded
 * by --seed, with and without direct cuts in turn), until
 * RESTART_PATIENCE restarts in a row improve nothing, their work
 * (statements replayed) passes RESTART_WORK of the first two descents'
 * (so that they take a few times as long at most: the strategies after
 * this one, the solvers among them, need the time), or the time runs
 * out. The restarts are seeded and counted as if the two careful
 * descents were not there, and their work is not counted against them.
 * The restarts, until one fits, cut groups where no single cut helps
 * (group_cut); the first descents do not, as reorder runs this search
 * over each of its orders in a few seconds, where the groups' trial
 * replays would take the time of the restarts that find its plans.
 * The cheapest plan that fits is kept. The work limits, not the machine's
 * speed, end the descents unless the time comes first, so a run within
 * its time gives the same plan everywhere. */
#define NOISE 0.5
#define TRIES 8
#define TRIES_WORK(two) ((two) * 2 + 1)	/* two: the first two descents' */
#define RESTART_PATIENCE 32
#define RESTART_WORK(first) ((first) * 2 + 10000000L)

/* Offers o (taken; empty: nothing) to low, the plans over the budget,
 * with a copy of note (the descent's: why it ended there). */
static int
offer_low(struct rp_best *low, const struct rp_problem *pb, struct rp_plan *o,
    const char *note, char **cause)
{
	if (o->len == 0) {
		rp_plan_destroy(o);
		return 0;
	}
	return rp_best_offer(low, pb, o, rp_xstrdup(note != NULL ? note : ""),
	    cause);
}

/* peak-split by deadline (<= 0: none), with the restarts or (quick)
 * without them: the descent from the covering cuts and the two plain
 * descents only. */
static int
search(const struct rp_problem *pb, uint64_t seed, double deadline,
    int quick, struct rp_plan *plan, char **note, char **cause)
{
	struct rp_best best, low;	/* low: where the descents ended */
	struct rp_plan o;
	int r, rc = 0, last = 0, ncov = 0;
	long work = 0, first = 0, careful_work = 0;
	char *cover_note = NULL;	/* why the covering cuts found none */

	rp_best_init(&best);
	rp_best_init(&low);
	if (deadline <= 0 || rp_now() < deadline) {
		/* the cuts of a covering MILP first, in a quarter of the time,
		 * then the greedy descents. Its work (w) is left out of the
		 * restarts' cap on purpose: the cap is a multiple of the
		 * first two greedy descents' work, and the cover's own time
		 * is bounded apart. */
		struct rp_plan p;
		char *n = NULL;
		long w = 0;
		rp_plan_init(&p);
		rp_plan_init(&o);
		split(pb, 1, 1, 1, 0, 0, seed, deadline > 0 ? rp_now() +
		    (deadline - rp_now()) / 4 : 0, 0, &p, quick ? NULL : &o,
		    &n, &w);
		if (p.len > 0) {
			rc = rp_best_offer(&best, pb, &p, n, cause);
			ncov = 1;
		} else {
			rp_plan_destroy(&p);
			cover_note = n;
		}
		if (rc == 0)
			rc = offer_low(&low, pb, &o, cover_note, cause);
		else
			rp_plan_destroy(&o);
	}
	for (r = 0; rc == 0; r++) {
		struct rp_plan p;
		char *n = NULL;
		double c0 = best.cost;
		int fits0 = best.fits, careful = r == 2 || r == 3;
		/* the restarts are counted and seeded as if the careful
		 * descents were not there */
		int k = r < 2 ? r : careful ? 1 : r - 2;
		long w0 = work;
		if (r == 2)
			first = work;	/* the first two descents' */
		if (r >= 2 && quick)
			break;
		if (r >= 4 && (k - last >= RESTART_PATIENCE || work - careful_work
		    - first >= RESTART_WORK(first)))
			break;
		if (deadline > 0 && rp_now() >= deadline)
			break;
		rp_plan_init(&p);
		rp_plan_init(&o);
		split(pb, k % 2 == 0 || r == 2, 0, careful ? TRIES : 1, careful ?
		    TRIES_WORK(first) : 0, k < 2 ? 0 : NOISE, seed + (uint64_t)k,
		    r == 0 && deadline > 0 ? rp_now() + (deadline - rp_now()) /
		    2 : deadline, r >= 4 && !best.fits, &p, quick ? NULL : &o,
		    &n, &work);
		if (careful)
			careful_work += work - w0;
		if ((rc = offer_low(&low, pb, &o, n, cause)) != 0) {
			rp_plan_destroy(&p);
			free(n);
			break;
		}
		if (p.len == 0) {
			rp_plan_destroy(&p);
			if (*note == NULL)
				*note = n;	/* why the first found none */
			else
				free(n);
			continue;
		}
		if (r >= 4) {
			char *t = rp_xasprintf("restart %d: %s", k - 1, n);
			free(n);
			n = t;
		}
		rc = rp_best_offer(&best, pb, &p, n, cause);
		if (best.fits && (!fits0 || best.cost < c0))
			last = k;
	}
	if (rc == 0 && best.have) {
		char *t;
		free(*note);
		*note = NULL;
		rp_best_take(&best, plan, note);
		t = rp_xasprintf("%s; the best of %d descents", *note, r + ncov);
		free(*note);
		*note = t;
	} else if (rc == 0 && *note == NULL) {
		/* no greedy descent ran: the covering one's reason, or none
		 * ran at all */
		*note = cover_note != NULL ? cover_note : rp_xstrdup("stopped "
		    "at the time limit (--time-limit) before the first "
		    "descent");
		cover_note = NULL;
	}
	if (rc == 0 && !best.have && low.have) {
		/* none fits: the plan of least peak where the descents
		 * ended, with that descent's reason, for the report */
		char *t;
		free(*note);
		*note = NULL;
		rp_best_take(&low, plan, note);
		t = rp_xasprintf("%s; the least peak of %d descents", *note,
		    r + ncov);
		free(*note);
		*note = t;
	}
	free(cover_note);
	rp_best_destroy(&best);
	rp_best_destroy(&low);
	return rc;
}

static int
peaksplit_run(const struct rp_problem *pb, const struct rp_ctx *ctx,
    struct rp_plan *plan, char **note, double *bound, char **cause)
{
	(void)bound;
	return search(pb, ctx->opt != NULL ? ctx->opt->seed : 1, ctx->deadline,
	    0, plan, note, cause);
}

int
rp_peak_split_quick(const struct rp_problem *pb, uint64_t seed,
    double deadline, struct rp_plan *plan, char **note, char **cause)
{
	return search(pb, seed, deadline, 1, plan, note, cause);
}

const struct rp_strategy rp_strategy_peak_split = {
	"peak-split",
	"greedy cuts of retention intervals at the peak stage, with the "
	    "R solver placing recomputations",
	0,
	1,
	peaksplit_run,
	NULL,
};
