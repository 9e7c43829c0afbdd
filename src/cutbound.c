/* cutbound.c: the bound for every plan by minimum cuts (see cutbound.h). */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cutbound.h"
#include "mip.h"
#include "stagebound.h"
#include "util.h"

/* The nodes the bound is tried at, of those whose stage in checkpoint-all
 * holds more than the budget (elsewhere the bound is 0: holding what the
 * stage holds is a choice of cost 0 that fits): CUT_NODES of those whose
 * stage holds the most bytes, no two closer than n / CUT_SPREAD in
 * execution order (at tight budgets the best lie apart), then CUT_NODES
 * of those that need the most beside them, the node, its inputs and
 * workspace (near the smallest possible budget the room beside them is
 * least: the coarsened ResNet-50 at 50%, 1.088x -> 1.615x), where that is
 * at least 1/CUT_OWN_SHARE of the room (on a 10,000-node training graph at
 * 70% it is under 0.2% and the bound 0 at 6 of those 8, 0.85 s of cuts;
 * on the layered DAGs about 6%, on real graphs near their smallest
 * budgets 20-100%), then CUT_NODES more of the first kind, closest
 * included (at looser budgets the best are next to the peak: on the
 * 500-node layered DAG at 80%, 1.0041x -> 1.0086x); every one where there
 * are at most CUT_ALL_NODES. At each, at most CUT_ROUNDS cuts. Then the
 * rest by their stage's bytes, while the maximum flows' work (edges looked
 * at) after the first ones stays within CUT_MORE times theirs and
 * CUT_MORE_WORK (about 0.15 s on the 2-core development machine): the
 * best node may be further down (the 250-node layered DAG at 70%: the
 * 30th, 1.0176x -> 1.0388x). Work is counted, not timed, so that the
 * bound is the same from run to run. */
#define CUT_NODES 8
#define CUT_SPREAD 32
#define CUT_OWN_SHARE 32
#define CUT_ALL_NODES 64
#define CUT_ROUNDS 40
#define CUT_MORE 4
#define CUT_MORE_WORK ((uint64_t)1 << 25)
/* Capacities are integers: "infinite" ones, and the finite ones scaled by
 * a power of two so that they sum to less than 2^CUT_SCALE_BITS, rounded
 * down (so that every cut's capacity, and the minimum, is at most what it
 * stands for, bar the rounding of a price times bytes: CUT_SLACK). */
#define CAP_INF ((int64_t)1 << 61)
#define CUT_SCALE_BITS 50
/* What a value taken off another may be off by, relative to the two: far
 * above the doubles' rounding (2^-53 a step, a few steps). */
#define CUT_SLACK 0x1p-40

/* A flow network, its edges in pairs (e and e ^ 1 the reverse). */
struct flow {
	int nv, ne, cv, ce;
	int *head, *next, *to;
	int64_t *cap;		/* residual */
	int *level, *it, *queue, *path;
	uint64_t work;		/* edges looked at so far, by every search */
};

static void
flow_reset(struct flow *f, int nv)
{
	if (nv > f->cv) {
		f->cv = nv;
		f->head = rp_xreallocarray(f->head, (size_t)nv, sizeof *f->head);
		f->level = rp_xreallocarray(f->level, (size_t)nv,
		    sizeof *f->level);
		f->it = rp_xreallocarray(f->it, (size_t)nv, sizeof *f->it);
		f->queue = rp_xreallocarray(f->queue, (size_t)nv,
		    sizeof *f->queue);
		f->path = rp_xreallocarray(f->path, (size_t)nv, sizeof *f->path);
	}
	f->nv = nv;
	f->ne = 0;
	memset(f->head, 0xff, sizeof *f->head * (size_t)nv);
}

static void
flow_free(struct flow *f)
{
	free(f->head);
	free(f->next);
	free(f->to);
	free(f->cap);
	free(f->level);
	free(f->it);
	free(f->queue);
	free(f->path);
}

/* Room for ne edges in all, pairs counted twice: reserved at the size
 * the network needs, so that a large graph's is not a power of two above
 * it. */
static void
flow_reserve(struct flow *f, size_t ne)
{
	if (ne <= (size_t)f->ce)
		return;
	if (ne > INT32_MAX)	/* more than an int counts: as out of memory */
		ne = SIZE_MAX;
	f->next = rp_xreallocarray(f->next, ne, sizeof *f->next);
	f->to = rp_xreallocarray(f->to, ne, sizeof *f->to);
	f->cap = rp_xreallocarray(f->cap, ne, sizeof *f->cap);
	f->ce = (int)ne;
}

/* An edge a -> b of capacity c (none where c is 0), in the room
 * reserved. */
static void
flow_edge(struct flow *f, int a, int b, int64_t c)
{
	int k;

	if (c <= 0)
		return;
	for (k = 0; k < 2; k++) {
		int e = f->ne++;
		f->to[e] = k ? a : b;
		f->cap[e] = k ? 0 : c;
		f->next[e] = f->head[k ? b : a];
		f->head[k ? b : a] = e;
	}
}

/* Levels by breadth-first search from s over edges with room left:
 * whether t is reached. Where it is not, the vertices with a level are
 * the source side of a minimum cut. */
static int
flow_levels(struct flow *f, int s, int t)
{
	int qh = 0, qt = 0, v, e;

	memset(f->level, 0xff, sizeof *f->level * (size_t)f->nv);
	f->level[s] = 0;
	f->queue[qt++] = s;
	while (qh < qt) {
		v = f->queue[qh++];
		for (e = f->head[v]; e >= 0; e = f->next[e], f->work++)
			if (f->cap[e] > 0 && f->level[f->to[e]] < 0) {
				f->level[f->to[e]] = f->level[v] + 1;
				f->queue[qt++] = f->to[e];
			}
	}
	return f->level[t] >= 0;
}

/* The maximum flow from s to t (Dinic's blocking flows, the paths found
 * without recursion), or -1 where the deadline (rp_now() time, <= 0:
 * none) passes before it is found, checked between phases. (The networks
 * here always have a finite cut: holding every node of A.) */
static int64_t
flow_max(struct flow *f, int s, int t, double deadline)
{
	int64_t total = 0;

	while (flow_levels(f, s, t)) {
		int v;
		if (deadline > 0 && rp_now() >= deadline)
			return -1;
		memcpy(f->it, f->head, sizeof *f->it * (size_t)f->nv);
		for (;;) {
			int depth = 0, e, k;
			int64_t b;
			v = s;
			while (v != t) {
				for (e = f->it[v]; e >= 0; e = f->next[e],
				    f->work++)
					if (f->cap[e] > 0 &&
					    f->level[f->to[e]] == f->level[v] + 1)
						break;
				f->it[v] = e;
				if (e >= 0) {
					f->path[depth++] = e;
					v = f->to[e];
					continue;
				}
				if (depth == 0)
					break;
				/* a dead end: never again in this phase */
				f->level[v] = -1;
				e = f->path[--depth];
				v = f->to[e ^ 1];
				f->it[v] = f->next[e];
			}
			if (v != t)
				break;
			b = CAP_INF;
			for (k = 0; k < depth; k++)
				if (f->cap[f->path[k]] < b)
					b = f->cap[f->path[k]];
			for (k = 0; k < depth; k++) {
				f->cap[f->path[k]] -= b;
				f->cap[f->path[k] ^ 1] += b;
			}
			total += b;
		}
	}
	return total;
}

/* The nodes' classes for the moment node v is first computed. */
enum {
	FREE,		/* neither an ancestor nor a descendant of v */
	ANCESTOR,	/* in A: label below OUTSIDE */
	INPUT,		/* an input of v: held */
	AFTER		/* v and its descendants: outside A */
};
/* The labels, in the order of the cut's levels. */
enum { NEITHER, HELD, AGAIN, OUTSIDE };

struct cut {
	const struct rp_problem *pb;
	char *cls;
	char *need;		/* must be held or computed again */
	int *stack;
	size_t edges;		/* the network's edges for these classes */
	struct flow f;
	double r, h;		/* the last cut's recomputed cost, held bytes */
	int stopped;		/* a search cut short by the deadline */
};

/* The classes for v, and which nodes of A must be held or computed again
 * (outputs, and those that a node outside A reads). */
static void
classify(struct cut *c, int v)
{
	const struct rp_graph *g = c->pb->g;
	int n = g->n, sp = 0, u, j;

	memset(c->cls, FREE, (size_t)n);
	c->cls[v] = AFTER;
	c->stack[sp++] = v;
	while (sp > 0) {
		u = c->stack[--sp];
		for (j = g->succ_off[u]; j < g->succ_off[u + 1]; j++)
			if (c->cls[g->succ[j]] != AFTER) {
				c->cls[g->succ[j]] = AFTER;
				c->stack[sp++] = g->succ[j];
			}
	}
	c->stack[sp++] = v;
	while (sp > 0) {
		u = c->stack[--sp];
		for (j = g->pred_off[u]; j < g->pred_off[u + 1]; j++)
			if (c->cls[g->pred[j]] != ANCESTOR) {
				c->cls[g->pred[j]] = ANCESTOR;
				c->stack[sp++] = g->pred[j];
			}
	}
	for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++)
		c->cls[g->pred[j]] = INPUT;
	c->edges = 0;
	for (u = 0; u < n; u++) {
		c->need[u] = g->output[u];
		if (c->cls[u] == AFTER)
			continue;
		/* cut_at's: 4 for the labels, 2 that order them, one per
		 * input, one per reader in A */
		c->edges += 6 + (size_t)(g->pred_off[u + 1] - g->pred_off[u]);
		for (j = g->succ_off[u]; j < g->succ_off[u + 1]; j++) {
			c->need[u] |= c->cls[g->succ[j]] == AFTER;
			c->edges += c->cls[g->succ[j]] != AFTER;
		}
	}
}

/* A label's cost as a capacity: infinite, or scaled and rounded down. */
static int64_t
capacity(double x, double scale)
{
	return isinf(x) ? CAP_INF : (int64_t)floor(x * scale);
}

/* The cheapest labels for the classes of c, at a price of mu per byte
 * held, or (fewest) with bytes held as the only cost: the cut's value,
 * as cost (or bytes), rounded down; c->r and c->h are the recomputed
 * cost and held bytes of the labels it takes. NaN where the deadline
 * passes first, or no cut is finite, which the classes rule out. */
static double
cut_at(struct cut *c, double mu, int fewest, double deadline)
{
	const struct rp_graph *g = c->pb->g;
	int n = g->n, u, j, k, s = 3 * n, t = 3 * n + 1, e;
	double total = 0, scale = 1;
	int64_t value;

	for (u = 0; u < n; u++)
		if (c->cls[u] != AFTER)
			total += fewest ? (double)g->mem[u] :
			    g->cost[u] + mu * (double)g->mem[u];
	/* a power of two, so that bytes scale exactly; bytes as they are
	 * where they fit */
	if (total > 0 && isfinite(total)) {
		frexp(total, &e);	/* total < 2^e */
		scale = ldexp(1, CUT_SCALE_BITS - e);
		if (fewest && scale > 1)
			scale = 1;
	}
	flow_reset(&c->f, 3 * n + 2);
	flow_reserve(&c->f, 2 * c->edges);
	for (u = 0; u < n; u++) {
		double d[4];
		int cls = c->cls[u], x = 3 * u;
		if (cls == AFTER)
			continue;
		d[NEITHER] = c->need[u] || cls == INPUT ? INFINITY : 0;
		d[HELD] = (fewest ? 1 : mu) * (double)g->mem[u];
		d[AGAIN] = !g->recompute[u] || cls == INPUT ? INFINITY :
		    fewest ? 0 : g->cost[u];
		d[OUTSIDE] = cls != FREE ? INFINITY : 0;
		/* vertex x + k - 1 on the source side: label >= k */
		flow_edge(&c->f, s, x, capacity(d[NEITHER], scale));
		flow_edge(&c->f, x, x + 1, capacity(d[HELD], scale));
		flow_edge(&c->f, x + 1, x + 2, capacity(d[AGAIN], scale));
		flow_edge(&c->f, x + 2, t, capacity(d[OUTSIDE], scale));
		flow_edge(&c->f, x + 1, x, CAP_INF);
		flow_edge(&c->f, x + 2, x + 1, CAP_INF);
		/* computed again or outside A: each input is not neither */
		for (j = g->pred_off[u]; j < g->pred_off[u + 1]; j++)
			flow_edge(&c->f, x + 1, 3 * g->pred[j], CAP_INF);
		/* outside A: so is each reader (A is an ideal) */
		for (j = g->succ_off[u]; j < g->succ_off[u + 1]; j++)
			if (c->cls[g->succ[j]] != AFTER)
				flow_edge(&c->f, x + 2, 3 * g->succ[j] + 2,
				    CAP_INF);
	}
	value = flow_max(&c->f, s, t, deadline);
	if (value < 0)
		return NAN;
	c->r = c->h = 0;
	for (u = 0; u < n; u++) {
		int label = 0;
		if (c->cls[u] == AFTER)
			continue;
		for (k = 0; k < 3; k++)
			label += c->f.level[3 * u + k] >= 0;
		if (label == HELD)
			c->h += (double)g->mem[u];
		else if (label == AGAIN)
			c->r += g->cost[u];
	}
	return (double)value / scale;
}

/* The bound's extra cost at v's first computation (see cutbound.h):
 * INFINITY where no plan fits it, 0 where holding everything it needs
 * fits; stops at deadline. */
static double
bound_at(struct cut *c, int v, double deadline)
{
	const struct rp_graph *g = c->pb->g;
	double room = (double)c->pb->budget - (double)g->fixed_mem -
	    (double)g->mem[v] - (double)g->workspace[v];
	double ra, ha, rb, hb, best = 0, x, tol;
	int k;

	if (room < 0)
		return INFINITY;
	classify(c, v);
	/* the fewest bytes any choice holds */
	x = cut_at(c, 0, 1, deadline);
	if (isnan(x)) {
		c->stopped = 1;
		return 0;	/* out of time: no bound here */
	}
	if (x > room)
		return INFINITY;
	rb = c->r;
	hb = c->h;
	/* the cheapest choice, bytes free */
	if (isnan(cut_at(c, 0, 0, deadline))) {
		c->stopped = 1;
		return 0;
	}
	ra = c->r;
	ha = c->h;
	if (ha <= room)
		return 0;
	tol = 1e-9 * (c->pb->baseline + 1);
	/* the lines of choice a (over the room) and b (within it) cross at
	 * mu; the cheapest choice there is on both, or replaces one */
	for (k = 0; k < CUT_ROUNDS && ha > hb; k++) {
		double mu = fmax(0, (rb - ra) / (ha - hb)), line, val;
		if (deadline > 0 && rp_now() >= deadline) {
			c->stopped = 1;
			break;
		}
		x = cut_at(c, mu, 0, deadline);
		if (isnan(x)) {
			c->stopped = 1;
			break;
		}
		/* the difference of two large terms: less what their
		 * rounding may have added */
		val = x - mu * room - CUT_SLACK * (x + mu * room);
		if (val > best)
			best = val;
		line = ra + mu * (ha - room);
		val = c->r + mu * (c->h - room);
		if (val >= line - tol)
			break;
		if (c->h > room) {
			ra = c->r;
			ha = c->h;
		} else {
			rb = c->r;
			hb = c->h;
		}
	}
	return best;
}

/* Appends to out[*nc] up to want nodes of order[0..no) not taken yet,
 * taking them. */
static void
take(const int *order, int no, int want, int *out, int *nc, char *taken)
{
	int k, end = *nc + want;

	for (k = 0; k < no && *nc < end; k++)
		if (!taken[order[k]]) {
			out[(*nc)++] = order[k];
			taken[order[k]] = 1;
		}
}

/* The nodes to try, of those whose stage in checkpoint-all holds more
 * than the budget (elsewhere holding what that stage holds fits: the
 * bound there is 0): every one on a small graph, else those whose stage
 * holds the most bytes, spread, then those that need the most beside them
 * (the room left at them is least: where the smallest possible budget is
 * near, the bound is highest there), then more of the first kind, then
 * the rest of them, in that order. Returns their count; *first is how
 * many are tried whatever their work (see CUT_MORE). */
static int
candidates(const struct rp_problem *pb, int *out, int *first)
{
	const struct rp_graph *g = pb->g;
	int n = g->n, t, u, k, j, nh, no, nc = 0;
	int64_t *delta, *held, *own, live = 0;
	int64_t room = pb->budget - g->fixed_mem;
	int *byheld, *byown;
	char *taken;

	/* live bytes at stage t: the values made before t and read at t
	 * or later (outputs to the end), and t's own; over the room */
	delta = rp_xcalloc((size_t)n + 1, sizeof *delta);
	for (u = 0; u < n; u++) {
		int last = g->output[u] ? n : rp_last_succ(g, u);
		if (last > u) {
			delta[u + 1] += g->mem[u];
			delta[last < n ? last + 1 : n] -= g->mem[u];
		}
	}
	held = rp_xmalloc(sizeof *held * (size_t)n);
	own = rp_xmalloc(sizeof *own * (size_t)n);
	for (t = 0; t < n; t++) {
		live += delta[t];
		held[t] = live + g->mem[t] + g->workspace[t] - room;
		own[t] = 0;
		if (held[t] <= 0)
			continue;
		own[t] = g->mem[t] + g->workspace[t];
		for (j = g->pred_off[t]; j < g->pred_off[t + 1]; j++)
			own[t] += g->mem[g->pred[j]];
		if (own[t] < room / CUT_OWN_SHARE)
			own[t] = 0;
	}
	byheld = rp_xmalloc(sizeof *byheld * (size_t)n);
	byown = rp_xmalloc(sizeof *byown * (size_t)n);
	nh = rp_stages_by_bytes(held, n, byheld);
	no = rp_stages_by_bytes(own, n, byown);
	taken = rp_xcalloc((size_t)n, 1);
	if (nh <= CUT_ALL_NODES) {
		take(byheld, nh, nh, out, &nc, taken);
		*first = nc;
		goto out;
	}
	for (k = 0; k < nh && nc < CUT_NODES; k++) {
		int near = 0;
		for (j = 0; j < nc; j++)
			near |= abs(out[j] - byheld[k]) < n / CUT_SPREAD;
		if (!near) {
			out[nc++] = byheld[k];
			taken[byheld[k]] = 1;
		}
	}
	take(byown, no, CUT_NODES, out, &nc, taken);
	take(byheld, nh, CUT_NODES, out, &nc, taken);
	*first = nc;
	take(byheld, nh, n, out, &nc, taken);
out:
	free(delta);
	free(held);
	free(own);
	free(byheld);
	free(byown);
	free(taken);
	return nc;
}

double
rp_cut_bound(const struct rp_problem *pb, double deadline, int *node,
    int *stopped)
{
	const struct rp_graph *g = pb->g;
	int n = g->n, k, nc, first, *cand;
	double extra = 0;
	uint64_t more = 0;	/* the work at which the rest stop */
	struct cut c;

	*node = -1;
	*stopped = 0;
	if (n == 0 || !pb->has_budget)
		return pb->baseline;
	memset(&c, 0, sizeof c);
	c.pb = pb;
	c.cls = rp_xmalloc((size_t)n);
	c.need = rp_xmalloc((size_t)n);
	c.stack = rp_xmalloc(sizeof *c.stack * (size_t)n);
	cand = rp_xmalloc(sizeof *cand * (size_t)n);
	nc = candidates(pb, cand, &first);
	for (k = 0; k < nc; k++) {
		double e;
		if (k == first)
			more = c.f.work + (c.f.work < CUT_MORE_WORK / CUT_MORE ?
			    c.f.work * CUT_MORE : CUT_MORE_WORK);
		if (k >= first && c.f.work >= more)
			break;	/* the rest's work is spent */
		if (deadline > 0 && rp_now() >= deadline) {
			c.stopped = 1;
			break;
		}
		e = bound_at(&c, cand[k], deadline);
		if (e > extra) {
			extra = e;
			*node = cand[k];
		}
		if (isinf(e))
			break;
	}
	free(c.cls);
	free(c.need);
	free(c.stack);
	free(cand);
	flow_free(&c.f);
	if (isinf(extra))
		return INFINITY;	/* a proof: nothing more to search */
	*stopped = c.stopped;
	/* the cuts' values are rounded down, and their differences less
	 * their rounding, already; this takes off what the doubles may add
	 * to the sum, the baseline's sum of n costs included */
	extra -= 1e-9 * (pb->baseline + extra);
	if (extra <= 0) {
		*node = -1;
		return pb->baseline;
	}
	return rp_mip_round_bound(rp_graph_int_cost(g), pb->baseline + extra);
}
