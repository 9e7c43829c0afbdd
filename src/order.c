/* order.c: execution orders chosen for memory (see order.h). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "order.h"
#include "util.h"

/* A min-heap of ready nodes by (k1, k2, node); an entry is stale when
 * its version is not the node's current one. */
struct entry {
	int64_t k1, k2;
	int v, ver;
};

struct heap {
	struct entry *e;
	int len, cap;
};

static int
less(const struct entry *a, const struct entry *b)
{
	if (a->k1 != b->k1)
		return a->k1 < b->k1;
	if (a->k2 != b->k2)
		return a->k2 < b->k2;
	return a->v < b->v;
}

static void
heap_push(struct heap *h, struct entry x)
{
	int i;

	rp_grow(&h->e, &h->cap, h->len + 1, sizeof *h->e);
	i = h->len++;
	while (i > 0 && less(&x, &h->e[(i - 1) / 2])) {
		h->e[i] = h->e[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->e[i] = x;
}

static struct entry
heap_pop(struct heap *h)
{
	struct entry top = h->e[0], x = h->e[--h->len];
	int i = 0, c;

	while ((c = 2 * i + 1) < h->len) {
		if (c + 1 < h->len && less(&h->e[c + 1], &h->e[c]))
			c++;
		if (!less(&h->e[c], &x))
			break;
		h->e[i] = h->e[c];
		i = c;
	}
	if (h->len > 0)
		h->e[i] = x;
	return top;
}

struct greedy {
	const struct rp_graph *g;
	int rule;		/* 0, 1: the rules of order.h; 2: rule 0 with
				 * each node's added memory scaled by a random
				 * factor in [1, 1.5) (noise) */
	double *noise;
	int *rem;		/* readers not yet scheduled */
	int *npred;		/* inputs not yet scheduled */
	int *ver;
	unsigned char *done;
	int64_t *freed;		/* bytes freed by scheduling v next */
	struct heap h;
};

static void
push(struct greedy *q, int v)
{
	const struct rp_graph *g = q->g;
	int64_t fr = q->freed[v], delta;
	struct entry x;

	if (rp_nsucc(g, v) == 0 && !g->output[v])
		fr += g->mem[v];
	delta = g->mem[v] - fr;
	x.v = v;
	x.ver = ++q->ver[v];
	if (q->rule == 0) {
		x.k1 = delta;
		x.k2 = g->mem[v] + g->workspace[v];
	} else if (q->rule == 2) {
		x.k1 = (int64_t)((double)delta * q->noise[v]);
		x.k2 = g->mem[v] + g->workspace[v];
	} else {
		x.k1 = -fr;
		x.k2 = delta;
	}
	heap_push(&q->h, x);
}

/* One greedy order by q->rule; returns 0, or -1 past the deadline. */
static int
greedy_order(struct greedy *q, double deadline, int *order)
{
	const struct rp_graph *g = q->g;
	int n = g->n, v, j, k, steps = 0;

	q->h.len = 0;
	for (v = 0; v < n; v++) {
		q->rem[v] = rp_nsucc(g, v);
		q->npred[v] = rp_npred(g, v);
		q->ver[v] = 0;
		q->done[v] = 0;
		q->freed[v] = 0;
	}
	for (v = 0; v < n; v++)
		if (q->rem[v] == 1 && !g->output[v])
			q->freed[g->succ[g->succ_off[v]]] += g->mem[v];
	for (v = 0; v < n; v++)
		if (q->npred[v] == 0)
			push(q, v);
	while (steps < n) {
		struct entry x = heap_pop(&q->h);
		v = x.v;
		if (x.ver != q->ver[v] || q->done[v])
			continue;
		if ((steps & 1023) == 0 && deadline > 0 && rp_now() > deadline)
			return -1;
		q->done[v] = 1;
		order[steps++] = v;
		for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) {
			int u = g->pred[j];
			if (--q->rem[u] != 1 || g->output[u])
				continue;
			/* v was not u's last reader: the last one now frees u */
			for (k = g->succ_off[u]; k < g->succ_off[u + 1]; k++) {
				int w = g->succ[k];
				if (q->done[w])
					continue;
				q->freed[w] += g->mem[u];
				if (q->npred[w] == 0)
					push(q, w);
				break;
			}
		}
		for (j = g->succ_off[v]; j < g->succ_off[v + 1]; j++) {
			int w = g->succ[j];
			if (--q->npred[w] == 0)
				push(q, w);
		}
	}
	return 0;
}

/* Local search over an order: the memory profile's peak is lowered by
 * moving one node, either a node before the peak whose readers all come
 * after it (computed later, just before its first reader) or a node after
 * the peak whose inputs all come before it (computed earlier, just after
 * its last input). Of the LS_CANDS largest of each kind, the move that
 * lowers (peak, memory near the peak) the most is made, until none does
 * or the work (node and edge visits) runs out. */
#define LS_WORK 30000000L
#define LS_CANDS 64
#define LS_NEAR 0.97

struct ls {
	const struct rp_graph *g;
	int *rem, *pos, *tmp;
	int64_t *prof;
	long work;
};

/* Memory during each position of order into l->prof; returns the peak
 * and sets *at to its first position and *near to the memory summed over
 * the positions within LS_NEAR of it. */
static int64_t
profile(struct ls *l, const int *order, int *at, double *near)
{
	const struct rp_graph *g = l->g;
	int n = g->n, i, j;
	int64_t live = g->fixed_mem, pk = -1;

	for (i = 0; i < n; i++)
		l->rem[i] = rp_nsucc(g, i);
	for (i = 0; i < n; i++) {
		int v = order[i];
		l->prof[i] = live + g->mem[v] + g->workspace[v];
		if (l->prof[i] > pk) {
			pk = l->prof[i];
			*at = i;
		}
		live += g->mem[v];
		for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) {
			int u = g->pred[j];
			if (--l->rem[u] == 0 && !g->output[u])
				live -= g->mem[u];
		}
		if (l->rem[v] == 0 && !g->output[v])
			live -= g->mem[v];
	}
	l->work -= n + g->m;
	*near = 0;
	for (i = 0; i < n; i++)
		if ((double)l->prof[i] >= LS_NEAR * (double)pk)
			*near += (double)l->prof[i];
	return pk;
}

struct move {
	int from, to;
	int64_t key;
};

static int
cmp_move(const void *a, const void *b)
{
	const struct move *x = a, *y = b;
	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;
	return (x->from > y->from) - (x->from < y->from);
}

void
rp_order_move(const int *src, int n, int from, int to, int *dst)
{
	int v = src[from];
	memcpy(dst, src, sizeof *dst * (size_t)n);
	if (from < to)
		memmove(dst + from, dst + from + 1, sizeof *dst * (size_t)(to - from));
	else
		memmove(dst + to + 1, dst + to, sizeof *dst * (size_t)(from - to));
	dst[to] = v;
}

static void
ls_init(struct ls *l, const struct rp_graph *g)
{
	size_t sz = (size_t)(g->n ? g->n : 1);

	l->g = g;
	l->work = 0;
	l->rem = rp_xmalloc(sizeof *l->rem * sz);
	l->pos = rp_xmalloc(sizeof *l->pos * sz);
	l->tmp = rp_xmalloc(sizeof *l->tmp * sz);
	l->prof = rp_xmalloc(sizeof *l->prof * sz);
}

static void
ls_destroy(struct ls *l)
{
	free(l->rem);
	free(l->pos);
	free(l->tmp);
	free(l->prof);
}

/* The checkpoint-all peak of order, as the simulator replays it
 * (test_order checks that they agree). */
static int64_t
order_peak(struct ls *l, const int *order)
{
	int at;
	double near;
	return profile(l, order, &at, &near);
}

static void
local_search(struct ls *lp, double deadline, long work, int *order)
{
	struct ls l = *lp;
	const struct rp_graph *g = l.g;
	int n = g->n, i, j, at, nm, k;
	struct move *mv = rp_xmalloc(sizeof *mv * 2 * (size_t)(n ? n : 1));
	int *best = rp_xmalloc(sizeof *best * (size_t)(n ? n : 1));
	int64_t pk;
	double near;

	l.work = work;
	pk = profile(&l, order, &at, &near);
	while (l.work > 0 && !(deadline > 0 && rp_now() > deadline)) {
		int64_t bpk = pk;
		double bnear = near;
		int found = 0, nd = 0;

		for (i = 0; i < n; i++)
			l.pos[order[i]] = i;
		nm = 0;
		for (i = 0; i < at; i++) {	/* later: readers all after */
			int v = order[i], first = n;
			for (j = g->succ_off[v]; j < g->succ_off[v + 1]; j++)
				if (l.pos[g->succ[j]] < first)
					first = l.pos[g->succ[j]];
			if (first < n && first > at && g->mem[v] > 0)
				mv[nm++] = (struct move){ i, first - 1, g->mem[v] };
		}
		k = nm < LS_CANDS ? nm : LS_CANDS;
		qsort(mv, (size_t)nm, sizeof *mv, cmp_move);
		nd = k;
		nm = nd;
		for (i = at + 1; i < n; i++) {	/* earlier: inputs all before */
			int w = order[i], last = -1;
			int64_t in = 0;
			for (j = g->pred_off[w]; j < g->pred_off[w + 1]; j++) {
				if (l.pos[g->pred[j]] > last)
					last = l.pos[g->pred[j]];
				in += g->mem[g->pred[j]];
			}
			if (last < at)
				mv[nm++] = (struct move){ i, last + 1, in - g->mem[w] };
		}
		qsort(mv + nd, (size_t)(nm - nd), sizeof *mv, cmp_move);
		if (nm - nd > LS_CANDS)
			nm = nd + LS_CANDS;
		l.work -= n;
		for (k = 0; k < nm && l.work > 0; k++) {
			int a2;
			int64_t p2;
			double n2;
			rp_order_move(order, n, mv[k].from, mv[k].to, l.tmp);
			p2 = profile(&l, l.tmp, &a2, &n2);
			if (p2 < bpk || (p2 == bpk && n2 < bnear)) {
				bpk = p2;
				bnear = n2;
				memcpy(best, l.tmp, sizeof *best * (size_t)n);
				found = 1;
			}
		}
		if (!found)
			break;
		memcpy(order, best, sizeof *order * (size_t)n);
		pk = profile(&l, order, &at, &near);
	}
	free(mv);
	free(best);
}

/* Work for the randomized restarts, in node and edge visits, and their
 * number at most and at least: a fixed count for each graph, so that the
 * order does not depend on the machine. */
#define RESTART_WORK 2000000
#define RESTARTS_MAX 64
#define RESTARTS_MIN 2
/* Orders that the local search starts from: the best of the greedy. */
#define KEEP RP_ORDER_MAX

int
rp_order_memory_many(const struct rp_graph *g, double deadline,
    unsigned long long seed, int max, int *orders, int *rules, int64_t *peaks)
{
	struct greedy q;
	int n = g->n, r, v, *tmp, restarts;
	int64_t pk;
	size_t sz = (size_t)(n ? n : 1);
	uint64_t st = seed;
	int *kept, krule[KEEP], nkept = 0, ix[KEEP], a, b, nout = 0;
	int64_t kpeak[KEEP];
	struct ls l;

	memset(&q, 0, sizeof q);
	q.g = g;
	q.rem = rp_xmalloc(sizeof *q.rem * sz);
	q.npred = rp_xmalloc(sizeof *q.npred * sz);
	q.ver = rp_xmalloc(sizeof *q.ver * sz);
	q.done = rp_xmalloc(sz);
	q.freed = rp_xmalloc(sizeof *q.freed * sz);
	q.noise = rp_xmalloc(sizeof *q.noise * sz);
	tmp = rp_xmalloc(sizeof *tmp * sz);
	kept = rp_xmalloc(sizeof *kept * sz * KEEP);
	ls_init(&l, g);
	restarts = RESTART_WORK / (n + g->m + 1);
	if (restarts > RESTARTS_MAX)
		restarts = RESTARTS_MAX;
	if (restarts < RESTARTS_MIN)
		restarts = RESTARTS_MIN;
	for (r = 0; r < 2 + restarts; r++) {
		int slot;
		q.rule = r < 2 ? r : 2;
		if (q.rule == 2)
			for (v = 0; v < n; v++)
				q.noise[v] = 1.0 + 0.5 * rp_random_unit(&st);
		if (greedy_order(&q, deadline, tmp) != 0)
			break;
		pk = order_peak(&l, tmp);
		/* keep the KEEP orders with the lowest peaks (the first of
		 * equals), for the local search */
		for (slot = 0; slot < nkept && kpeak[slot] <= pk; slot++)
			;
		if (slot == KEEP)
			continue;
		if (nkept < KEEP)
			nkept++;
		memmove(kpeak + slot + 1, kpeak + slot, sizeof *kpeak *
		    (size_t)(nkept - 1 - slot));
		memmove(krule + slot + 1, krule + slot, sizeof *krule *
		    (size_t)(nkept - 1 - slot));
		memmove(kept + (size_t)(slot + 1) * sz, kept + (size_t)slot * sz,
		    sizeof *kept * sz * (size_t)(nkept - 1 - slot));
		kpeak[slot] = pk;
		krule[slot] = q.rule;
		memcpy(kept + (size_t)slot * sz, tmp, sizeof *tmp * (size_t)n);
	}
	for (r = 0; r < nkept; r++) {
		local_search(&l, deadline, LS_WORK / KEEP, kept + (size_t)r * sz);
		kpeak[r] = order_peak(&l, kept + (size_t)r * sz);
		ix[r] = r;
	}
	/* by peak after the search (the first of equals), each order once */
	for (a = 1; a < nkept; a++)
		for (b = a; b > 0 && kpeak[ix[b]] < kpeak[ix[b - 1]]; b--) {
			int t = ix[b];
			ix[b] = ix[b - 1];
			ix[b - 1] = t;
		}
	for (a = 0; a < nkept && nout < max; a++) {
		const int *o = kept + (size_t)ix[a] * sz;
		for (b = 0; b < nout; b++)
			if (memcmp(orders + (size_t)b * sz, o, sizeof *o *
			    (size_t)n) == 0)
				break;
		if (b < nout)
			continue;
		memcpy(orders + (size_t)nout * sz, o, sizeof *o * (size_t)n);
		rules[nout] = krule[ix[a]];
		peaks[nout++] = kpeak[ix[a]];
	}
	free(kept);
	ls_destroy(&l);
	free(q.rem);
	free(q.npred);
	free(q.ver);
	free(q.done);
	free(q.freed);
	free(q.noise);
	free(q.h.e);
	free(tmp);
	return nkept > 0 ? nout : -1;
}

int64_t
rp_order_memory(const struct rp_graph *g, double deadline,
    unsigned long long seed, int *order, int *rule)
{
	int64_t peak;

	return rp_order_memory_many(g, deadline, seed, 1, order, rule,
	    &peak) > 0 ? peak : -1;
}

static char *
dup_or_null(const char *s)
{
	return s != NULL ? rp_xstrdup(s) : NULL;
}

/* A new graph of k nodes, node i a copy of g's node from[i] (its
 * figures, flags and names; no edges yet), with g's fixed memory and
 * names. */
static struct rp_graph *
copy_nodes(const struct rp_graph *g, const int *from, int k)
{
	struct rp_graph *h = rp_xcalloc(1, sizeof *h);
	size_t sz = (size_t)(k ? k : 1);
	int i, v;

	h->n = k;
	h->id = rp_xmalloc(sizeof *h->id * sz);
	h->op = rp_xmalloc(sizeof *h->op * sz);
	h->cost = rp_xmalloc(sizeof *h->cost * sz);
	h->mem = rp_xmalloc(sizeof *h->mem * sz);
	h->workspace = rp_xmalloc(sizeof *h->workspace * sz);
	h->kind = rp_xmalloc(sz);
	h->recompute = rp_xmalloc(sz);
	h->output = rp_xmalloc(sz);
	h->line = rp_xmalloc(sizeof *h->line * sz);
	for (i = 0; i < k; i++) {
		v = from[i];
		h->id[i] = rp_xstrdup(g->id[v]);
		h->op[i] = g->op != NULL ? dup_or_null(g->op[v]) : NULL;
		h->cost[i] = g->cost[v];
		h->mem[i] = g->mem[v];
		h->workspace[i] = g->workspace[v];
		h->kind[i] = g->kind[v];
		h->recompute[i] = g->recompute[v];
		h->output[i] = g->output[v];
		h->line[i] = g->line[v];
	}
	h->fixed_mem = g->fixed_mem;
	h->cost_unit = dup_or_null(g->cost_unit);
	h->name = dup_or_null(g->name);
	h->file = dup_or_null(g->file);
	h->doc_order = 0;
	return h;
}

/* h's successor lists from its predecessor lists, h->succ_off already
 * counted: visited in ascending order, each list lands sorted. */
static void
fill_succ(struct rp_graph *h)
{
	int i, j, *pos = rp_xmalloc(sizeof *pos * (size_t)(h->n ? h->n : 1));

	memcpy(pos, h->succ_off, sizeof *pos * (size_t)h->n);
	for (i = 0; i < h->n; i++)
		for (j = h->pred_off[i]; j < h->pred_off[i + 1]; j++)
			h->succ[pos[h->pred[j]]++] = i;
	free(pos);
}

struct rp_graph *
rp_graph_reorder(const struct rp_graph *g, const int *order)
{
	struct rp_graph *h = copy_nodes(g, order, g->n);
	int n = g->n, i, j, *inv, *pos;
	size_t sz = (size_t)(n ? n : 1);

	h->m = g->m;
	inv = rp_xmalloc(sizeof *inv * sz);
	for (i = 0; i < n; i++)
		inv[order[i]] = i;
	/* Predecessors: new sources visited in ascending order land sorted
	 * in each list; successors then from predecessors, the same way. */
	h->pred_off = rp_xcalloc(sz + 1, sizeof *h->pred_off);
	h->pred = rp_xmalloc(sizeof *h->pred * (size_t)(g->m ? g->m : 1));
	h->succ_off = rp_xcalloc(sz + 1, sizeof *h->succ_off);
	h->succ = rp_xmalloc(sizeof *h->succ * (size_t)(g->m ? g->m : 1));
	pos = rp_xmalloc(sizeof *pos * (sz + 1));
	for (i = 0; i < n; i++) {
		h->pred_off[i + 1] = h->pred_off[i] + rp_npred(g, order[i]);
		h->succ_off[i + 1] = h->succ_off[i] + rp_nsucc(g, order[i]);
	}
	memcpy(pos, h->pred_off, sizeof *pos * sz);
	for (i = 0; i < n; i++)
		for (j = g->succ_off[order[i]]; j < g->succ_off[order[i] + 1]; j++)
			h->pred[pos[inv[g->succ[j]]]++] = i;
	free(pos);
	free(inv);
	fill_succ(h);
	return h;
}

struct rp_graph *
rp_graph_sub(const struct rp_graph *g, const int *keep, int k,
    const unsigned char *output, int64_t fixed_mem)
{
	struct rp_graph *h = copy_nodes(g, keep, k);
	size_t sz = (size_t)(k ? k : 1);
	int i, j, v, m = 0, *inv = rp_xmalloc(sizeof *inv *
	    (size_t)(g->n ? g->n : 1));

	for (v = 0; v < g->n; v++)
		inv[v] = -1;
	for (i = 0; i < k; i++)
		inv[keep[i]] = i;
	h->pred_off = rp_xcalloc(sz + 1, sizeof *h->pred_off);
	h->succ_off = rp_xcalloc(sz + 1, sizeof *h->succ_off);
	for (i = 0; i < k; i++) {
		v = keep[i];
		h->output[i] = output[v];
		for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++)
			if (inv[g->pred[j]] >= 0)
				m++;
		h->pred_off[i + 1] = m;
	}
	h->m = m;
	h->pred = rp_xmalloc(sizeof *h->pred * (size_t)(m ? m : 1));
	h->succ = rp_xmalloc(sizeof *h->succ * (size_t)(m ? m : 1));
	/* g's lists are sorted and keep ascending: so are h's */
	for (i = 0, m = 0; i < k; i++)
		for (j = g->pred_off[keep[i]]; j < g->pred_off[keep[i] + 1];
		    j++)
			if (inv[g->pred[j]] >= 0) {
				h->pred[m++] = inv[g->pred[j]];
				h->succ_off[inv[g->pred[j]] + 1]++;
			}
	for (i = 0; i < k; i++)
		h->succ_off[i + 1] += h->succ_off[i];
	free(inv);
	fill_succ(h);
	h->fixed_mem = fixed_mem;
	return h;
}

void
rp_order_map_plan(struct rp_plan *p, const int *order)
{
	int k;

	for (k = 0; k < p->len; k++)
		if (p->s[k].op == RP_COMPUTE)
			p->s[k].node = order[p->s[k].node];
}
