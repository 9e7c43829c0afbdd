/* dtr.c: Dynamic Tensor Rematerialization as a simulation over the graph.
 *
 * The program is the graph's execution order: each node is performed once,
 * as the training script would. Performing a node locks its resident inputs,
 * rematerializes evicted ones (recursively, each locked once back), then
 * evicts by the heuristic until its output and workspace fit, computes it
 * and unlocks the inputs (DTR paper, figure 1; appendix C.4). A value whose
 * last reader in the program has run is dead: it is released by eager
 * eviction (default) or banished (appendix C.5). Every computation and every
 * release becomes a statement of a static plan, so the plan's cost and peak
 * are the simulation's.
 *
 * Metadata is maintained incrementally: counts of needed evicted dependents
 * (for banishing), union-find components with the paper's splitting rule
 * (dtr-eqclass), and cached evicted-neighborhood costs that are invalidated
 * only around the part of the evicted graph that changed (dtr, msps). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dtr.h"
#include "polish.h"
#include "sim.h"
#include "strategy.h"
#include "util.h"

static const char *const heuristic_names[RP_DTR_NHEURISTICS] = {
	"dtr", "dtr-eqclass", "dtr-local", "lru", "largest", "msps", "random",
};

const char *
rp_dtr_heuristic_name(enum rp_dtr_heuristic h)
{
	return h >= 0 && h < RP_DTR_NHEURISTICS ? heuristic_names[h] : "?";
}

int
rp_dtr_heuristic_find(const char *name)
{
	int i;
	for (i = 0; i < RP_DTR_NHEURISTICS; i++)
		if (strcmp(heuristic_names[i], name) == 0)
			return i;
	return -1;
}

struct frame {
	int v;
	int pstart, pend;	/* its evicted inputs, in dtr.pending */
	int pi;			/* next of them to make resident */
	int waiting;		/* 1: pending[pi] is being rematerialized,
				 * 2: an input evicted again (soft locks) */
};

struct dtr {
	const struct rp_graph *g;
	enum rp_dtr_heuristic h;
	int banish_mode;
	double cost_limit;
	int64_t budget, cur, peak;
	double T, tick, cost;
	struct rp_plan *plan;
	int nextreg;

	unsigned char *computed, *resident, *banished, *dead, *want_banish;
	unsigned char *needed;	/* counted in its inputs' evdep */
	int *lock, *refs, *evdep, *nbanpred, *reg;
	double *last;
	int *rpos, *rlist, nres;	/* resident list with positions */

	double *anc, *desc;		/* cached e* halves (dtr, msps) */
	unsigned char *cvalid;

	int *elem;			/* union-find element of an evicted node */
	int *ufp, nuf, ufcap;
	double *ufc;
	int *ufstamp, ufgen;

	int *mark, markgen, *stack;	/* DFS scratch (marked: at most n) */
	int *ustack, ucap;		/* need_update's stack (growable) */
	int *bq, nbq, bqcap;		/* nodes to try to banish */
	struct frame *fs;
	int nf, fcap;
	int *pending, npending, pcap;
	uint64_t rng;

	/* The offline variant (lookahead): eviction knows when the program
	 * reads each value next, and an outer frame's inputs may be evicted
	 * when nothing else can (soft locks). */
	int lookahead, soft;
	int stage;			/* the program's node being performed */
	int *nu;			/* per node: its first reader >= stage, in succ */
	int *hard, hardgen;		/* inputs of the node being computed */
	long ncompute, compute_limit;

	double deadline;		/* rp_now() time to stop by, <= 0: none */
	unsigned ticks;			/* work since the clock was last read */
	int failed;			/* 1: out of memory, 2: thrashing,
					 * 3: out of time, 4: too many
					 * computations (soft locks) */
	int fail_node;
};

/* Whether the deadline has passed; the clock is read every 256 calls. */
static int
out_of_time(struct dtr *d)
{
	if (d->deadline <= 0 || (++d->ticks & 255) != 0)
		return 0;
	return rp_now() > d->deadline;
}

static int
evicted(const struct dtr *d, int v)
{
	return d->computed[v] && !d->resident[v] && !d->banished[v];
}

/* Cannot be recomputed: recompute=false, or an input is gone for good. */
static int
pinned(const struct dtr *d, int v)
{
	return !d->g->recompute[v] || d->nbanpred[v] > 0;
}

/* ---- cached evicted neighborhoods (dtr, msps) ---- */

/* Marks the cache of every resident node next to the evicted region around
 * v stale. The region is taken undirected, a superset of what e* uses. */
static void
cache_touch(struct dtr *d, int v)
{
	const struct rp_graph *g = d->g;
	int sp = 0, j, u, w, pass;

	if (d->h != RP_DTR_FULL && d->h != RP_DTR_MSPS)
		return;
	d->markgen++;
	d->mark[v] = d->markgen;
	d->cvalid[v] = 0;
	d->stack[sp++] = v;
	while (sp > 0) {
		u = d->stack[--sp];
		for (pass = 0; pass < 2; pass++) {
			const int *off = pass ? g->succ_off : g->pred_off;
			const int *adj = pass ? g->succ : g->pred;
			for (j = off[u]; j < off[u + 1]; j++) {
				w = adj[j];
				if (d->mark[w] == d->markgen)
					continue;
				d->mark[w] = d->markgen;
				if (evicted(d, w))
					d->stack[sp++] = w;
				else if (d->resident[w])
					d->cvalid[w] = 0;
			}
		}
	}
}

/* Sum of cost over evicted nodes reachable from v through evicted nodes,
 * along inputs (up) or along readers (down). */
static double
closure_cost(struct dtr *d, int v, int up)
{
	const struct rp_graph *g = d->g;
	const int *off = up ? g->pred_off : g->succ_off;
	const int *adj = up ? g->pred : g->succ;
	double s = 0;
	int sp = 0, j, u, w;

	d->markgen++;
	d->mark[v] = d->markgen;
	d->stack[sp++] = v;
	while (sp > 0) {
		u = d->stack[--sp];
		for (j = off[u]; j < off[u + 1]; j++) {
			w = adj[j];
			if (d->mark[w] == d->markgen || !evicted(d, w))
				continue;
			d->mark[w] = d->markgen;
			s += g->cost[w];
			d->stack[sp++] = w;
		}
	}
	return s;
}

static void
cache_fill(struct dtr *d, int v)
{
	if (d->cvalid[v])
		return;
	d->anc[v] = closure_cost(d, v, 1);
	d->desc[v] = d->h == RP_DTR_FULL ? closure_cost(d, v, 0) : 0;
	d->cvalid[v] = 1;
}

/* ---- union-find components of evicted nodes (dtr-eqclass) ---- */

static int
uf_find(struct dtr *d, int e)
{
	while (d->ufp[e] != e) {
		d->ufp[e] = d->ufp[d->ufp[e]];
		e = d->ufp[e];
	}
	return e;
}

static void
uf_evict(struct dtr *d, int v)
{
	const struct rp_graph *g = d->g;
	int e, j, pass, c;

	if (d->h != RP_DTR_EQCLASS)
		return;
	c = d->ufcap;
	rp_grow(&d->ufp, &c, d->nuf + 1, sizeof *d->ufp);
	c = d->ufcap;
	rp_grow(&d->ufc, &c, d->nuf + 1, sizeof *d->ufc);
	c = d->ufcap;
	rp_grow(&d->ufstamp, &c, d->nuf + 1, sizeof *d->ufstamp);
	d->ufcap = c;
	e = d->nuf++;
	d->ufp[e] = e;
	d->ufc[e] = d->g->cost[v];
	d->ufstamp[e] = 0;
	d->elem[v] = e;
	for (pass = 0; pass < 2; pass++) {
		const int *off = pass ? g->succ_off : g->pred_off;
		const int *adj = pass ? g->succ : g->pred;
		for (j = off[v]; j < off[v + 1]; j++) {
			int w = adj[j], a, b;
			if (!evicted(d, w) || d->elem[w] < 0)
				continue;
			a = uf_find(d, e);
			b = uf_find(d, d->elem[w]);
			if (a != b) {
				d->ufp[b] = a;
				d->ufc[a] += d->ufc[b];
			}
		}
	}
}

/* The splitting approximation: a node leaving its component takes only its
 * own cost with it. */
static void
uf_leave(struct dtr *d, int v)
{
	if (d->h != RP_DTR_EQCLASS || d->elem[v] < 0)
		return;
	d->ufc[uf_find(d, d->elem[v])] -= d->g->cost[v];
	d->elem[v] = -1;
}

static double
uf_neighborhood(struct dtr *d, int v)
{
	const struct rp_graph *g = d->g;
	double s = 0;
	int j, pass;

	d->ufgen++;
	for (pass = 0; pass < 2; pass++) {
		const int *off = pass ? g->succ_off : g->pred_off;
		const int *adj = pass ? g->succ : g->pred;
		for (j = off[v]; j < off[v + 1]; j++) {
			int w = adj[j], r;
			if (!evicted(d, w) || d->elem[w] < 0)
				continue;
			r = uf_find(d, d->elem[w]);
			if (d->ufstamp[r] != d->ufgen) {
				d->ufstamp[r] = d->ufgen;
				s += d->ufc[r];
			}
		}
	}
	return s;
}

/* ---- bookkeeping of needed evicted dependents (banishing) ---- */

/* An evicted node is needed while it is live or a needed evicted node reads
 * it: then its inputs may not be banished. Re-evaluates v and propagates
 * changes up through its inputs; inputs that no longer have needed evicted
 * readers and wait to be banished are queued. */
static void
need_update(struct dtr *d, int v)
{
	const struct rp_graph *g = d->g;
	int sp = 0, j, u, w, now, c;

	rp_grow(&d->ustack, &d->ucap, 1, sizeof *d->ustack);
	d->ustack[sp++] = v;
	while (sp > 0) {
		u = d->ustack[--sp];
		now = evicted(d, u) && (!d->dead[u] || d->evdep[u] > 0);
		if (now == d->needed[u])
			continue;
		d->needed[u] = (unsigned char)now;
		for (j = g->pred_off[u]; j < g->pred_off[u + 1]; j++) {
			w = g->pred[j];
			d->evdep[w] += now ? 1 : -1;
			if ((now && d->evdep[w] == 1) || (!now && d->evdep[w] == 0)) {
				rp_grow(&d->ustack, &d->ucap, sp + 1, sizeof *d->ustack);
				d->ustack[sp++] = w;
				if (!now && d->want_banish[w]) {
					c = d->bqcap;
					rp_grow(&d->bq, &c, d->nbq + 1, sizeof *d->bq);
					d->bqcap = c;
					d->bq[d->nbq++] = w;
				}
			}
		}
	}
}

/* ---- state changes, each with its plan statement ---- */

static void drain(struct dtr *d);

static void
rlist_remove(struct dtr *d, int v)
{
	int p = d->rpos[v], last = d->rlist[--d->nres];
	d->rlist[p] = last;
	d->rpos[last] = p;
	d->rpos[v] = -1;
}

static void
do_evict(struct dtr *d, int v)
{
	rp_plan_add_free(d->plan, d->reg[v]);
	d->cur -= d->g->mem[v];
	d->resident[v] = 0;
	rlist_remove(d, v);
	uf_evict(d, v);
	cache_touch(d, v);
	need_update(d, v);
	drain(d);
}

/* Frees v for good; its readers can no longer be recomputed. Evicted
 * readers are unneeded (else v would not be banished) and go too. */
static void
do_banish(struct dtr *d, int v)
{
	const struct rp_graph *g = d->g;
	int j;

	if (d->resident[v]) {
		rp_plan_add_free(d->plan, d->reg[v]);
		d->cur -= g->mem[v];
		d->resident[v] = 0;
		rlist_remove(d, v);
	}
	uf_leave(d, v);
	d->banished[v] = 1;
	d->want_banish[v] = 0;
	cache_touch(d, v);
	need_update(d, v);
	for (j = g->succ_off[v]; j < g->succ_off[v + 1]; j++) {
		int w = g->succ[j], c;
		d->nbanpred[w]++;
		if (evicted(d, w)) {
			c = d->bqcap;
			rp_grow(&d->bq, &c, d->nbq + 1, sizeof *d->bq);
			d->bqcap = c;
			d->bq[d->nbq++] = w;
		}
	}
}

/* Banishes the queued nodes that still qualify; the others wait for their
 * needed evicted readers to go. A loop, not recursion: cascades can be as
 * long as the graph. */
static void
drain(struct dtr *d)
{
	while (d->nbq > 0) {
		int v = d->bq[--d->nbq];
		if (d->banished[v] || d->lock[v] > 0)
			continue;
		if (d->evdep[v] > 0)
			d->want_banish[v] = 1;
		else
			do_banish(d, v);
	}
}

static void
banish_try(struct dtr *d, int v)
{
	int c = d->bqcap;
	rp_grow(&d->bq, &c, d->nbq + 1, sizeof *d->bq);
	d->bqcap = c;
	d->bq[d->nbq++] = v;
	drain(d);
}

/* What the program does when v's last reader has run. */
static void
release(struct dtr *d, int v)
{
	if (d->banished[v] || d->lock[v] > 0)
		return;
	if (d->banish_mode || pinned(d, v))
		banish_try(d, v);
	else if (d->resident[v])
		do_evict(d, v);
}

/* How many program steps until v is read next: its first reader at or
 * after the current stage (readers are in program order in succ), or the
 * end of the program for outputs and values only recomputation reads. */
static double
next_read_distance(struct dtr *d, int v)
{
	const struct rp_graph *g = d->g;
	int j = d->nu[v], end = g->succ_off[v + 1];

	while (j < end && g->succ[j] < d->stage)
		j++;
	d->nu[v] = j;
	return (double)((j < end ? g->succ[j] : g->n) - d->stage) + 1;
}

static double
score(struct dtr *d, int v)
{
	const struct rp_graph *g = d->g;
	double m = (double)g->mem[v];
	double s = d->lookahead ? next_read_distance(d, v) :
	    d->T - d->last[v] + d->tick;

	switch (d->h) {
	case RP_DTR_FULL:
		cache_fill(d, v);
		return (g->cost[v] + d->anc[v] + d->desc[v]) / (m * s);
	case RP_DTR_EQCLASS:
		return (g->cost[v] + uf_neighborhood(d, v)) / (m * s);
	case RP_DTR_LOCAL:
		return g->cost[v] / (m * s);
	case RP_DTR_LRU:
		return 1 / s;
	case RP_DTR_LARGEST:
		return 1 / m;
	case RP_DTR_MSPS:
		cache_fill(d, v);
		return (g->cost[v] + d->anc[v]) / m;
	default:
		return rp_random_unit(&d->rng);
	}
}

/* Evicts the lowest-scored evictable value (ties: lowest node). With soft
 * locks, a value locked only by an outer frame is evicted when no unlocked
 * one can be; the frame makes it resident again before it computes. The
 * inputs of the node being computed are never evicted. Returns 0 when
 * nothing can be evicted, -1 when the time ran out. */
static int
evict_one(struct dtr *d)
{
	int i, v, best = -1, lbest = -1;
	double bs = 0, lbs = 0, s;

	for (i = 0; i < d->nres; i++) {
		v = d->rlist[i];
		if (d->g->mem[v] == 0 || pinned(d, v))
			continue;
		if (d->lock[v] > 0 && (!d->soft || d->hard[v] == d->hardgen ||
		    d->stage == d->g->n))
			continue;
		if (out_of_time(d))
			return -1;
		s = score(d, v);
		if (d->lock[v] > 0) {
			if (lbest < 0 || s < lbs || (s == lbs && v < lbest)) {
				lbest = v;
				lbs = s;
			}
		} else if (best < 0 || s < bs || (s == bs && v < best)) {
			best = v;
			bs = s;
		}
	}
	if (best < 0)
		best = lbest;
	if (best < 0)
		return 0;
	do_evict(d, best);
	return 1;
}

static void
push_frame(struct dtr *d, int v)
{
	const struct rp_graph *g = d->g;
	struct frame *f;
	int j, c;

	rp_grow(&d->fs, &d->fcap, d->nf + 1, sizeof *d->fs);
	f = &d->fs[d->nf++];
	f->v = v;
	f->pstart = d->npending;
	f->waiting = 0;
	/* Lock what is resident; queue the rest for rematerialization. */
	for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) {
		int p = g->pred[j];
		if (d->resident[p])
			d->lock[p]++;
		else {
			c = d->pcap;
			rp_grow(&d->pending, &c, d->npending + 1, sizeof *d->pending);
			d->pcap = c;
			d->pending[d->npending++] = p;
		}
	}
	f->pend = d->npending;
	f->pi = f->pstart;
}

/* Computes v once its inputs are resident and locked. Returns 0, or -1 on
 * out of memory or thrashing. */
static int
compute(struct dtr *d, int v)
{
	const struct rp_graph *g = d->g;
	int64_t need = g->mem[v] + g->workspace[v];
	int j, again = d->computed[v];

	d->hardgen++;
	for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++)
		d->hard[g->pred[j]] = d->hardgen;
	while (d->cur + need > d->budget) {
		int k = evict_one(d);
		if (k <= 0) {
			d->failed = k < 0 ? 3 : 1;
			d->fail_node = v;
			return -1;
		}
	}
	if (out_of_time(d)) {
		d->failed = 3;
		d->fail_node = v;
		return -1;
	}
	if (d->cur + need > d->peak)
		d->peak = d->cur + need;
	d->reg[v] = d->nextreg++;
	rp_plan_add_compute(d->plan, v, d->reg[v]);
	d->cur += g->mem[v];
	d->resident[v] = 1;
	d->computed[v] = 1;
	d->rpos[v] = d->nres;
	d->rlist[d->nres++] = v;
	d->cost += g->cost[v];
	d->T += g->cost[v] + d->tick;
	d->last[v] = d->T;
	for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) {
		int p = g->pred[j];
		d->last[p] = d->T;
		d->lock[p]--;
	}
	if (again) {
		uf_leave(d, v);
		cache_touch(d, v);
		need_update(d, v);
		drain(d);
	}
	/* Inputs that were kept only for this computation go now. */
	for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) {
		int p = g->pred[j];
		if (d->dead[p] && d->lock[p] == 0 && d->resident[p])
			release(d, p);
		else if (d->want_banish[p] && d->evdep[p] == 0)
			banish_try(d, p);
	}
	if (d->cost_limit > 0 && d->cost > d->cost_limit) {
		d->failed = 2;
		d->fail_node = v;
		return -1;
	}
	if (d->compute_limit > 0 && ++d->ncompute > d->compute_limit) {
		d->failed = 4;
		d->fail_node = v;
		return -1;
	}
	return 0;
}

/* The first input of v that is not resident, or -1. */
static int
missing_input(const struct dtr *d, int v)
{
	const struct rp_graph *g = d->g;
	int j;

	for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++)
		if (!d->resident[g->pred[j]])
			return g->pred[j];
	return -1;
}

/* PerformOp(v): rematerializes evicted inputs depth-first with an explicit
 * stack (chains can be as long as the graph), then computes v. With soft
 * locks an input made resident may have been evicted again by a deeper
 * frame: it is rematerialized once more (its lock still stands). */
static int
perform(struct dtr *d, int v)
{
	push_frame(d, v);
	while (d->nf > 0) {
		struct frame *f = &d->fs[d->nf - 1];
		int p;
		if (f->waiting == 1)
			d->lock[d->pending[f->pi++]]++;
		f->waiting = 0;
		while (f->pi < f->pend && d->resident[d->pending[f->pi]]) {
			/* made resident by a sibling's rematerialization */
			d->lock[d->pending[f->pi]]++;
			f->pi++;
		}
		if (f->pi < f->pend) {
			f->waiting = 1;
			push_frame(d, d->pending[f->pi]);
			continue;
		}
		if (d->soft && (p = missing_input(d, f->v)) >= 0) {
			f->waiting = 2;
			push_frame(d, p);
			continue;
		}
		if (compute(d, f->v) != 0)
			return -1;
		d->npending = f->pstart;
		d->nf--;
	}
	return 0;
}

static void
dtr_free(struct dtr *d)
{
	free(d->computed);
	free(d->resident);
	free(d->banished);
	free(d->dead);
	free(d->want_banish);
	free(d->needed);
	free(d->lock);
	free(d->refs);
	free(d->evdep);
	free(d->nbanpred);
	free(d->reg);
	free(d->last);
	free(d->rpos);
	free(d->rlist);
	free(d->anc);
	free(d->desc);
	free(d->cvalid);
	free(d->elem);
	free(d->ufp);
	free(d->ufc);
	free(d->ufstamp);
	free(d->mark);
	free(d->stack);
	free(d->ustack);
	free(d->bq);
	free(d->fs);
	free(d->pending);
	free(d->nu);
	free(d->hard);
}

/* One simulation's settings. */
struct dtr_cfg {
	enum rp_dtr_heuristic h;
	int banish;		/* banish dead values, else evict them eagerly */
	int lookahead;		/* staleness becomes the distance to the next read */
	int soft;		/* soft locks */
	int64_t budget;		/* the simulation's, at most the problem's */
};

/* One simulation. On success the plan is the run and *cost its cost; when
 * the run fails (out of memory, thrashing) the plan is left empty and
 * *note says why. Returns -1 with *cause set only when the replay of the
 * plan disagrees with the simulation. */
static int
dtr_sim(const struct rp_problem *pb, const struct rp_ctx *ctx,
    const struct dtr_cfg *cfg, struct rp_plan *plan, double *cost,
    char **note, char **cause)
{
	const struct rp_graph *g = pb->g;
	const struct rp_options *o = ctx->opt;
	struct dtr d;
	size_t n = (size_t)g->n;
	int v, j;

	memset(&d, 0, sizeof d);
	d.g = g;
	d.h = cfg->h;
	d.banish_mode = cfg->banish;
	d.lookahead = cfg->lookahead;
	d.soft = cfg->soft;
	d.cost_limit = o->dtr_thrash > 0 ? o->dtr_thrash * pb->baseline : 0;
	/* Soft locks can cycle; with zero-cost nodes the cost limit would
	 * not notice. */
	d.compute_limit = d.soft ? 64 * (long)n + 1024 : 0;
	d.budget = cfg->budget;
	d.deadline = ctx->deadline;
	d.cur = g->fixed_mem;
	d.peak = g->fixed_mem;
	d.tick = pb->baseline > 0 ? 1e-6 * pb->baseline / g->n : 1e-6;
	d.plan = plan;
	d.rng = o->seed;
	d.computed = rp_xcalloc(n, 1);
	d.resident = rp_xcalloc(n, 1);
	d.banished = rp_xcalloc(n, 1);
	d.dead = rp_xcalloc(n, 1);
	d.want_banish = rp_xcalloc(n, 1);
	d.needed = rp_xcalloc(n, 1);
	d.lock = rp_xcalloc(n, sizeof *d.lock);
	d.refs = rp_xcalloc(n, sizeof *d.refs);
	d.evdep = rp_xcalloc(n, sizeof *d.evdep);
	d.nbanpred = rp_xcalloc(n, sizeof *d.nbanpred);
	d.reg = rp_xcalloc(n, sizeof *d.reg);
	d.last = rp_xcalloc(n, sizeof *d.last);
	d.rpos = rp_xcalloc(n, sizeof *d.rpos);
	d.rlist = rp_xcalloc(n, sizeof *d.rlist);
	d.anc = rp_xcalloc(n, sizeof *d.anc);
	d.desc = rp_xcalloc(n, sizeof *d.desc);
	d.cvalid = rp_xcalloc(n, 1);
	d.elem = rp_xcalloc(n, sizeof *d.elem);
	d.mark = rp_xcalloc(n, sizeof *d.mark);
	d.stack = rp_xcalloc(n, sizeof *d.stack);
	d.nu = rp_xcalloc(n, sizeof *d.nu);
	d.hard = rp_xcalloc(n, sizeof *d.hard);

	for (v = 0; v < g->n; v++) {
		d.refs[v] = rp_nsucc(g, v);
		d.elem[v] = -1;
		d.rpos[v] = -1;
		d.nu[v] = g->succ_off[v];
	}

	for (v = 0; v < g->n && !d.failed; v++) {
		d.stage = v;
		if (perform(&d, v) != 0)
			break;
		/* The program's references: inputs whose last reader was v,
		 * and v itself when nothing reads it. */
		for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) {
			int p = g->pred[j];
			if (--d.refs[p] == 0 && !g->output[p]) {
				d.dead[p] = 1;
				need_update(&d, p);
				drain(&d);
				release(&d, p);
			}
		}
		if (d.refs[v] == 0 && !g->output[v]) {
			d.dead[v] = 1;
			release(&d, v);
		}
	}
	/* Outputs must be resident at the end: lock those that are, then
	 * rematerialize the others. */
	if (!d.failed) {
		d.stage = g->n;
		for (v = 0; v < g->n; v++)
			if (g->output[v] && d.resident[v])
				d.lock[v]++;
		for (v = 0; v < g->n && !d.failed; v++)
			if (g->output[v] && !d.resident[v]) {
				if (perform(&d, v) != 0)
					break;
				d.lock[v]++;
			}
	}
	if (d.failed) {
		/* The node that failed may be a recomputation deep inside the
		 * one the program was at: name that one too. */
		char *in = d.stage < g->n && d.stage != d.fail_node ?
		    rp_xasprintf(" (recomputed for '%s')", g->id[d.stage]) :
		    rp_xstrdup("");
		if (d.failed == 1)
			*note = rp_xasprintf("%s: out of memory: '%s' with its "
			    "locked inputs does not fit%s", rp_dtr_heuristic_name(d.h),
			    g->id[d.fail_node], in);
		else if (d.failed == 4)
			*note = rp_xasprintf("%s: thrashing: more than %ld "
			    "computations at '%s'%s", rp_dtr_heuristic_name(d.h),
			    d.compute_limit, g->id[d.fail_node], in);
		else if (d.failed == 3)
			*note = rp_xasprintf("%s: stopped at the time limit "
			    "(--time-limit) at '%s'%s, before the plan was complete",
			    rp_dtr_heuristic_name(d.h), g->id[d.fail_node], in);
		else
			*note = rp_xasprintf("%s: thrashing: cost passed %.3gx the "
			    "baseline at '%s'%s", rp_dtr_heuristic_name(d.h),
			    o->dtr_thrash, g->id[d.fail_node], in);
		free(in);
		rp_plan_destroy(plan);
		rp_plan_init(plan);
	} else {
		/* The plan is the simulation: its replay must agree. */
		struct rp_sim sim;
		int ok = rp_simulate(g, plan, &sim) == 0 && sim.cost == d.cost &&
		    sim.peak == d.peak;
		if (!ok) {
			*cause = rp_xasprintf("dtr: the plan's replay (%s, cost %.10g, "
			    "peak %lld) disagrees with the simulation (cost %.10g, "
			    "peak %lld)", sim.valid ? "valid" : sim.error, sim.cost,
			    (long long)sim.peak, d.cost, (long long)d.peak);
			rp_sim_destroy(&sim);
			dtr_free(&d);
			return -1;
		}
		rp_sim_destroy(&sim);
		*cost = d.cost;
		*note = rp_xasprintf("heuristic %s, %s", rp_dtr_heuristic_name(d.h),
		    d.banish_mode ? "banishing" : "eager eviction");
	}
	dtr_free(&d);
	return 0;
}

/* The dtr strategy: the chosen eviction mode, or by default both, keeping
 * the cheaper plan (eager eviction on a tie). Neither mode is better
 * everywhere: eager eviction wins narrowly on a few synthetic graphs, while
 * on exported PyTorch graphs banishing is often far cheaper and fits budgets
 * where eager eviction runs out of memory (README, "DTR heuristics"). */
static int
dtr_run(const struct rp_problem *pb, const struct rp_ctx *ctx,
    struct rp_plan *plan, char **note, double *bound, char **cause)
{
	struct rp_plan other;
	struct dtr_cfg cfg;
	double c0 = 0, c1 = 0;
	char *n1 = NULL;
	int mode = ctx->opt->dtr_banish;

	(void)bound;
	memset(&cfg, 0, sizeof cfg);
	cfg.h = ctx->opt->dtr_heuristic;
	cfg.budget = pb->budget;
	cfg.banish = mode > 0;
	if (mode >= 0)
		return dtr_sim(pb, ctx, &cfg, plan, &c0, note, cause);
	if (dtr_sim(pb, ctx, &cfg, plan, &c0, note, cause) != 0)
		return -1;
	rp_plan_init(&other);
	cfg.banish = 1;
	if (dtr_sim(pb, ctx, &cfg, &other, &c1, &n1, cause) != 0) {
		rp_plan_destroy(&other);
		free(n1);
		return -1;
	}
	if (other.len > 0 && (plan->len == 0 || c1 < c0)) {
		char *why = plan->len == 0 ? rp_xasprintf("%s (eager eviction: "
		    "%s)", n1, *note) : rp_xasprintf("%s (eager eviction "
		    "cost %.4gx as much)", n1, c0 / c1);
		rp_plan_move(plan, &other);
		free(*note);
		*note = why;
	} else if (plan->len == 0) {
		char *why = rp_xasprintf("eager eviction: %s; banishing: %s",
		    *note, n1);
		free(*note);
		*note = why;
	} else {
		/* eager eviction won: say what banishing did */
		char *why = other.len == 0 ? rp_xasprintf("%s (banishing: %s)",
		    *note, n1) : c1 == c0 ? rp_xasprintf("%s (banishing cost "
		    "the same)", *note) : c0 > 0 ? rp_xasprintf("%s (banishing "
		    "cost %.4gx as much)", *note, c1 / c0) : rp_xasprintf("%s "
		    "(banishing cost more)", *note);
		free(*note);
		*note = why;
	}
	rp_plan_destroy(&other);
	free(n1);
	return 0;
}

const struct rp_strategy rp_strategy_dtr = {
	"dtr",
	"Dynamic Tensor Rematerialization simulated over the execution order "
	    "(--dtr-heuristic)",
	0,
	0,
	dtr_run,
	NULL,
};

/* ---- lookahead: the simulation with the program known in advance ---- */

/* The lookahead strategy. DTR decides online, by staleness; a static
 * planner knows the whole program, so here a value's score divides its
 * recomputation cost (with its evicted neighborhood, as h_DTR) by its size
 * and by the number of steps until the program reads it next: Belady's
 * rule, weighted by what eviction costs. Outer frames hold their inputs by
 * soft locks, so nested rematerialization cannot lock the memory up. The
 * greedy result is not monotone in the budget, so a few variants and
 * slightly lower internal budgets are simulated and the cheapest plan that
 * fits is kept. */
static int
lookahead_run(const struct rp_problem *pb, const struct rp_ctx *ctx,
    struct rp_plan *plan, char **note, double *bound, char **cause)
{
	static const enum rp_dtr_heuristic hs[] = {
		RP_DTR_FULL, RP_DTR_LOCAL,
	};
	static const double factors[] = { 1, 0.97, 0.94 };
	struct rp_best best;
	struct dtr_cfg cfg;
	char *first_fail = NULL;
	size_t hi, fi;
	int soft, banish;

	(void)bound;
	rp_best_init(&best);
	memset(&cfg, 0, sizeof cfg);
	cfg.lookahead = 1;
	for (fi = 0; fi < sizeof factors / sizeof factors[0]; fi++)
	for (hi = 0; hi < sizeof hs / sizeof hs[0]; hi++)
	for (soft = 1; soft >= 0; soft--)
	for (banish = 0; banish < 2; banish++) {
		struct rp_plan p;
		double c = 0;
		char *n1 = NULL, at[48];
		int64_t b = pb->budget;

		if (ctx->deadline > 0 && rp_now() > ctx->deadline)
			goto done;
		if (fi > 0) {
			if (b == INT64_MAX)
				goto done;
			b = pb->g->fixed_mem + (int64_t)((double)(b -
			    pb->g->fixed_mem) * factors[fi]);
		}
		cfg.h = hs[hi];
		cfg.soft = soft;
		cfg.banish = banish;
		cfg.budget = b;
		rp_plan_init(&p);
		if (dtr_sim(pb, ctx, &cfg, &p, &c, &n1, cause) != 0) {
			rp_plan_destroy(&p);
			free(n1);
			free(first_fail);
			rp_best_destroy(&best);
			return -1;
		}
		rp_log(ctx, 2, "lookahead %s %s %s at %.0f%%: %s %.6g",
		    rp_dtr_heuristic_name(cfg.h), soft ? "soft" : "hard",
		    banish ? "banish" : "eager", 100 * factors[fi],
		    p.len ? "cost" : n1, p.len ? c / pb->baseline : 0);
		if (p.len == 0) {
			if (first_fail == NULL)
				first_fail = n1;
			else
				free(n1);
			rp_plan_destroy(&p);
			continue;
		}
		free(n1);
		at[0] = '\0';
		if (fi > 0)
			snprintf(at, sizeof at, ", simulated at %.0f%% of the "
			    "budget", 100 * factors[fi]);
		n1 = rp_xasprintf("heuristic %s over the distance to the next "
		    "read, %s locks, %s%s", rp_dtr_heuristic_name(cfg.h),
		    soft ? "soft" : "hard", banish ? "banishing" :
		    "eager eviction", at);
		if (rp_best_offer(&best, pb, &p, n1, cause) != 0) {
			free(first_fail);
			rp_best_destroy(&best);
			return -1;
		}
	}
done:
	if (best.have) {
		rp_best_take(&best, plan, note);
		*note = rp_polish(pb, plan, ctx->deadline, *note);
	} else
		*note = first_fail ? first_fail : rp_xstrdup("stopped at the "
		    "time limit (--time-limit) before the first simulation");
	if (best.have)
		free(first_fail);
	rp_best_destroy(&best);
	return 0;
}

const struct rp_strategy rp_strategy_lookahead = {
	"lookahead",
	"offline rematerialization: DTR's simulation with eviction by the "
	    "distance to the next read",
	0,
	0,
	lookahead_run,
	NULL,
};
