/* pebble.c: a proven lower bound on the smallest budget, by a search over
 * which needed value a plan makes last (see pebble.h); and the pebble
 * strategy, the same search run for cost (below).
 *
 * Suppose a plan holds a set S of values at once. Each of them was made by
 * a compute statement and stayed live until then; let s be the one made
 * last. During that statement the others of S were live, and so were the
 * inputs of s: memory was at least fixed + mem(S u in(s)) + workspace(s),
 * and just before it the plan held the set (S - s) u in(s). So the least
 * peak with which any plan can reach S is a bottleneck path problem over
 * sets: from S, step to (S - s) u in(s) at the cost above, for any s in S,
 * until the empty set, which needs nothing. It is the black pebble game
 * with recomputation, exact but exponential; a best-first search in order
 * of the bottleneck so far gives, whenever it stops, a valid bound: the
 * smallest key still open (every path to the empty set leaves the explored
 * sets through one of them, and keys never fall along a path).
 *
 * The targets are the outputs held together at the end and each node with
 * its inputs when computed. Each search starts from the best bound so far
 * (keys below it count as equal), so that it only tries to climb above
 * it, and stops at a budget of work: the bound depends on the graph and
 * that budget only, never on the clock. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "order.h"
#include "pebble.h"
#include "polish.h"
#include "sched.h"
#include "strategy.h"
#include "util.h"

/* Work, in elements touched, for each node in the first round (four times
 * as much in each round after). */
#define PEBBLE_FIRST_WORK	(1L << 14)
/* Elements kept in the sets explored for one target (16 MiB), and by the
 * pebble strategy (128 MiB); the largest graph it runs on (its bitsets of
 * ancestors take n^2 / 8 bytes). */
#define PEBBLE_MAX_ELEMS	(1L << 22)
#define PEBBLE_PLAN_ELEMS	(1L << 25)
#define PEBBLE_MAX_NODES	20000
/* The steps the beam search keeps on its trail (64 MiB). */
#define PEBBLE_BEAM_TRAIL	(1 << 23)
/* The beams' widths: from the first, four times as wide each time, up to
 * the last. */
#define PEBBLE_BEAM_FIRST	64
#define PEBBLE_BEAM_LAST	16384
/* A beam stops where, a quarter of its time gone and PEBBLE_BEAM_PACE
 * levels searched at least, its pace so far would not take it back to
 * the start in PEBBLE_BEAM_SLOW times its time (and the wider ones,
 * slower, are not tried). */
#define PEBBLE_BEAM_PACE	8
#define PEBBLE_BEAM_SLOW	8

struct pset {
	long off;		/* into elems */
	int len;
	int64_t key;		/* the best bottleneck found to reach it */
	uint64_t hash;		/* rp_hash_ints of its elements */
};

/* A slot of the table: its set, with the top half of the set's hash, so
 * that a probe passes other sets without reading them. */
struct slot {
	int set;
	unsigned gen;
	unsigned tag;
};

struct hentry {
	int64_t key;
	int maxv;		/* the latest node in the set: -1 when empty */
	int64_t sumv;		/* sum of its nodes (a tie-break) */
	long seq;
	int set;
};

struct pebble {
	const struct rp_graph *g;
	int *in;		/* inputs of each node, sorted */
	int *in_off;
	int *elems;
	long nelems, celems;
	struct pset *sets;
	int nsets, csets;
	struct slot *table;	/* hash table of the sets of this search */
	size_t tsize;
	unsigned gen;		/* slots of other generations are empty */
	struct hentry *heap;
	int nheap, cheap;
	long seq;
	int *scratch;
	long work;
	long max_elems;		/* elements the sets may hold */
	double deadline;	/* rp_now() time to stop at; 0: none */
	long polls;		/* sets taken, for the clock's checks */
	int stopped;		/* the deadline stopped a search */
};

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* Fills pb->in and pb->in_off: each node's inputs, sorted, so that sets
 * and inputs merge in one pass. */
static void
inputs_init(struct pebble *pb)
{
	const struct rp_graph *g = pb->g;
	int v;

	pb->in = rp_xcalloc((size_t)g->pred_off[g->n] + 1, sizeof *pb->in);
	pb->in_off = rp_xcalloc((size_t)g->n + 1, sizeof *pb->in_off);
	for (v = 0; v <= g->n; v++)
		pb->in_off[v] = g->pred_off[v];
	for (v = 0; v < g->n; v++) {
		int d = g->pred_off[v + 1] - g->pred_off[v];
		memcpy(pb->in + g->pred_off[v], g->pred + g->pred_off[v],
		    (size_t)d * sizeof *pb->in);
		qsort(pb->in + g->pred_off[v], (size_t)d, sizeof *pb->in,
		    cmp_int);
	}
}

static int
hless(const struct hentry *a, const struct hentry *b)
{
	if (a->key != b->key)
		return a->key < b->key;
	if (a->maxv != b->maxv)
		return a->maxv < b->maxv;
	if (a->sumv != b->sumv)
		return a->sumv < b->sumv;
	return a->seq < b->seq;
}

static void
heap_push(struct pebble *pb, const struct hentry *e)
{
	int i;

	rp_grow(&pb->heap, &pb->cheap, pb->nheap + 1, sizeof *pb->heap);
	i = pb->nheap++;
	while (i > 0 && hless(e, &pb->heap[(i - 1) / 2])) {
		pb->heap[i] = pb->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	pb->heap[i] = *e;
}

static struct hentry
heap_pop(struct pebble *pb)
{
	struct hentry top = pb->heap[0], last = pb->heap[--pb->nheap];
	int i = 0, c;

	while ((c = 2 * i + 1) < pb->nheap) {
		if (c + 1 < pb->nheap && hless(&pb->heap[c + 1], &pb->heap[c]))
			c++;
		if (!hless(&pb->heap[c], &last))
			break;
		pb->heap[i] = pb->heap[c];
		i = c;
	}
	if (pb->nheap > 0)
		pb->heap[i] = last;
	return top;
}

/* Room for need elements in *elems (capacity *cap, doubled as needed). */
static void
grow_elems(int **elems, long *cap, long need)
{
	long c = *cap ? *cap : 4096;

	if (need <= *cap)
		return;
	while (c < need)
		c *= 2;
	*elems = rp_xreallocarray(*elems, (size_t)c, sizeof **elems);
	*cap = c;
}

static void
table_rebuild(struct pebble *pb, size_t size)
{
	int i;

	free(pb->table);
	pb->tsize = size;
	pb->table = rp_xcalloc(size, sizeof *pb->table);
	pb->gen = 1;
	for (i = 0; i < pb->nsets; i++) {
		size_t h = pb->sets[i].hash & (size - 1);
		while (pb->table[h].gen == pb->gen)
			h = (h + 1) & (size - 1);
		pb->table[h].set = i;
		pb->table[h].gen = pb->gen;
		pb->table[h].tag = (unsigned)(pb->sets[i].hash >> 32);
	}
}

/* The index of the set e[0..len) of hash `hash` (rp_hash_ints), added with key
 * INT64_MAX when new; -1 when the elements kept would pass their limit. */
static int
find_set_h(struct pebble *pb, const int *e, int len, uint64_t hash,
    int *isnew)
{
	unsigned tag = (unsigned)(hash >> 32);
	size_t h;
	int i;

	if ((size_t)(pb->nsets + 1) * 2 > pb->tsize)
		table_rebuild(pb, pb->tsize ? pb->tsize * 2 : 1024);
	h = hash & (pb->tsize - 1);
	while (pb->table[h].gen == pb->gen) {
		i = pb->table[h].set;
		if (pb->table[h].tag == tag && pb->sets[i].len == len &&
		    (len == 0 || memcmp(pb->elems +
		    pb->sets[i].off, e, (size_t)len * sizeof *e) == 0)) {
			*isnew = 0;
			return i;
		}
		h = (h + 1) & (pb->tsize - 1);
	}
	if (pb->nelems + len > pb->max_elems)
		return -1;
	*isnew = 1;
	grow_elems(&pb->elems, &pb->celems, pb->nelems + len);
	if (len > 0)
		memcpy(pb->elems + pb->nelems, e, (size_t)len * sizeof *e);
	rp_grow(&pb->sets, &pb->csets, pb->nsets + 1, sizeof *pb->sets);
	pb->sets[pb->nsets].off = pb->nelems;
	pb->sets[pb->nsets].len = len;
	pb->sets[pb->nsets].key = INT64_MAX;
	pb->sets[pb->nsets].hash = hash;
	pb->nelems += len;
	pb->table[h].set = pb->nsets;
	pb->table[h].gen = pb->gen;
	pb->table[h].tag = tag;
	return pb->nsets++;
}

static int
find_set(struct pebble *pb, const int *e, int len, int *isnew)
{
	return find_set_h(pb, e, len, rp_hash_ints(e, len), isnew);
}

/* Starts fetching the table's slot for a set of that hash. */
static void
prefetch_slot(const struct pebble *pb, uint64_t hash)
{
	if (pb->tsize > 0)
		__builtin_prefetch(&pb->table[hash & (pb->tsize - 1)]);
}

/* Offers the set e[0..len) at key k; returns -1 when it cannot be kept. */
static int
offer(struct pebble *pb, const int *e, int len, int64_t k)
{
	struct hentry h;
	int64_t sum = 0;
	int i, isnew, s = find_set(pb, e, len, &isnew);

	if (s < 0)
		return -1;
	pb->work += len + 8;	/* a heap entry at most */
	if (k >= pb->sets[s].key)
		return 0;
	pb->sets[s].key = k;
	for (i = 0; i < len; i++)
		sum += e[i];
	h.key = k;
	h.maxv = len > 0 ? e[len - 1] : -1;
	h.sumv = sum;
	h.seq = pb->seq++;
	h.set = s;
	heap_push(pb, &h);
	return 0;
}

/* The set (e[0..n) u in(v)) - v, sorted, into out: the set held before v
 * was made, where e is held after it. Returns its length, and adds to
 * *umem the memory of the inputs that e does not hold. */
static int
pmerge(const struct pebble *pb, const int *e, int n, int v, int *out,
    int64_t *umem)
{
	const int64_t *mem = pb->g->mem;
	int a = 0, b = pb->in_off[v], bend = pb->in_off[v + 1], m = 0;
	int64_t u = *umem;

	while (a < n || b < bend) {
		int x;
		if (b >= bend || (a < n && e[a] < pb->in[b]))
			x = e[a++];
		else if (a >= n || pb->in[b] < e[a]) {
			x = pb->in[b++];
			u = rp_size_add(u, mem[x]);
		} else {
			x = e[a++];
			b++;
		}
		if (x != v)
			out[m++] = x;
	}
	*umem = u;
	return m;
}

/* The least peak (at least floor) with which a plan can hold the sorted set
 * start[0..len) live, given that holding it needs start_key: exact when the
 * search ends, else a lower bound. */
static int64_t
search(struct pebble *pb, const int *start, int len, int64_t start_key,
    int64_t floor, long work_limit, int *exact)
{
	const struct rp_graph *g = pb->g;
	long work0 = pb->work;

	*exact = 0;
	pb->nsets = 0;
	pb->nelems = 0;
	pb->nheap = 0;
	if (++pb->gen == 0) {	/* wrapped: clear for real */
		memset(pb->table, 0, pb->tsize * sizeof *pb->table);
		pb->gen = 1;
	}
	if (offer(pb, start, len, start_key > floor ? start_key : floor) != 0)
		return start_key > floor ? start_key : floor;
	while (pb->nheap > 0) {
		struct hentry top = heap_pop(pb);
		const struct pset *ps = &pb->sets[top.set];
		int64_t smem = 0;
		int i, n = ps->len;

		if (top.key > ps->key)
			continue;	/* superseded */
		if (n == 0)
			*exact = 1;
		if (n == 0 || pb->work - work0 > work_limit)
			return top.key;
		if (pb->deadline > 0 && (++pb->polls & 1023) == 0 &&
		    rp_now() > pb->deadline) {
			pb->stopped = 1;
			return top.key;
		}
		for (i = 0; i < n; i++)
			smem = rp_size_add(smem,
			    g->mem[pb->elems[ps->off + i]]);
		for (i = 0; i < n; i++) {
			/* the elements may move as sets are added */
			const int *e = pb->elems + pb->sets[top.set].off;
			int s = e[i], m;
			int64_t umem = smem, step, k;

			m = pmerge(pb, e, n, s, pb->scratch, &umem);
			pb->work += n + (pb->in_off[s + 1] - pb->in_off[s]);
			step = rp_size_add(rp_size_add(g->fixed_mem, umem),
			    g->workspace[s]);
			k = step > top.key ? step : top.key;
			if (offer(pb, pb->scratch, m, k) != 0)
				return top.key;
		}
	}
	return INT64_MAX;	/* not reached: the empty set is always open */
}

/* The set a target starts from and what holding it needs: the outputs
 * (t == n) or the inputs of node t when it is computed. */
static int
target(const struct pebble *pb, int t, const int *outs, int nout,
    const int **set, int64_t *need)
{
	const struct rp_graph *g = pb->g;
	int j;

	if (t == g->n) {
		*set = outs;
		*need = g->fixed_mem;
		for (j = 0; j < nout; j++)
			*need = rp_size_add(*need, g->mem[outs[j]]);
		return nout;
	}
	*set = pb->in + pb->in_off[t];
	*need = rp_size_add(rp_size_add(g->fixed_mem, g->mem[t]),
	    g->workspace[t]);
	for (j = pb->in_off[t]; j < pb->in_off[t + 1]; j++)
		*need = rp_size_add(*need, g->mem[pb->in[j]]);
	return pb->in_off[t + 1] - pb->in_off[t];
}

int64_t
rp_pebble_bound(const struct rp_graph *g, int64_t floor, long work,
    int *node)
{
	int stopped;

	return rp_pebble_bound_deep(g, floor, work, PEBBLE_MAX_ELEMS, 0, node,
	    &stopped);
}

int64_t
rp_pebble_bound_deep(const struct rp_graph *g, int64_t floor, long work,
    long max_elems, double deadline, int *node, int *stopped)
{
	struct pebble pb;
	int64_t best = floor;
	long cap;
	int *alive, nalive = 0, *outs, nout = 0, v, i;

	*node = -2;
	*stopped = 0;
	if (g->n == 0)
		return floor;
	memset(&pb, 0, sizeof pb);
	pb.g = g;
	pb.max_elems = max_elems;
	pb.deadline = deadline;
	pb.celems = 4096;	/* never NULL, even for empty sets only */
	pb.elems = rp_xcalloc((size_t)pb.celems, sizeof *pb.elems);
	inputs_init(&pb);
	outs = rp_xcalloc((size_t)g->n, sizeof *outs);
	for (v = 0; v < g->n; v++)
		if (g->output[v])
			outs[nout++] = v;
	/* a set never holds more than every node */
	pb.scratch = rp_xcalloc((size_t)g->n + 1, sizeof *pb.scratch);

	/* The targets: the outputs, which bind most on training graphs, with
	 * an eighth of the work; then each node, the latest first (they have
	 * the most behind them), in rounds of four times the work each that
	 * drop the nodes whose search ended at or below the best bound. */
	if (nout > 0) {
		int64_t k, need;
		const int *set;
		int len = target(&pb, g->n, outs, nout, &set, &need), exact;
		k = search(&pb, set, len, need, best, work / 8, &exact);
		if (k > best) {
			best = k;
			*node = -1;
		}
	}
	alive = rp_xcalloc((size_t)g->n, sizeof *alive);
	for (v = g->n - 1; v >= 0; v--)
		alive[nalive++] = v;
	for (cap = PEBBLE_FIRST_WORK; nalive > 0 && pb.work <
	    work && !pb.stopped; cap *= 4) {
		int kept = 0;
		for (i = 0; i < nalive; i++) {
			const int *set;
			int64_t need, k;
			int len, exact, t = alive[i];

			if (pb.work >= work || pb.stopped) {
				alive[kept++] = t;
				continue;
			}
			len = target(&pb, t, outs, nout, &set, &need);
			k = search(&pb, set, len, need, best, cap, &exact);
			if (k > best) {
				best = k;
				*node = t == g->n ? -1 : t;
			}
			if (!exact)
				alive[kept++] = t;
		}
		nalive = kept;
	}
	free(alive);
	free(outs);
	free(pb.in);
	free(pb.in_off);
	free(pb.elems);
	free(pb.sets);
	free(pb.table);
	free(pb.heap);
	free(pb.scratch);
	*stopped = pb.stopped;
	return best;
}

/* ---- the pebble strategy: a best-first search for a cheap plan ---- */

/* The same sets, searched from the other end for cost: a state is a set of
 * values held at once and how many of the sinks (non-output nodes that
 * nothing reads) are still to come. Going back from the outputs held at
 * the end, a step undoes the value made last (as above) or the latest
 * sink still to come, which a plan computes and frees at once; the empty
 * set with every sink done is the start of the plan. Each step costs the
 * node's cost, and the steps whose memory passes the budget are not
 * taken. A* with the cost of every ancestor of what is held or still to
 * come (each must be computed at least once more) finds the cheapest such
 * plan; weighted, it finds a plan sooner, at a higher cost. Sinks come in
 * execution order; otherwise any plan that frees each value once it is not
 * needed any more is one of these paths, recomputation included. */

/* Expansions for each weight, in order: the cheapest plan, then plans
 * found sooner where the budget is tight; on graphs of n > 100 nodes,
 * (100/n)^2 of them, as each takes longer (larger sets, longer bitsets)
 * and the search rarely ends on large graphs. */
static const struct {
	double w;
	long expansions;
} pebble_rounds[] = {
	{ 1, 60000 }, { 4, 60000 }, { 32, 120000 },
};

struct pnode {
	double g;		/* cost of the steps from the end */
	int parent;		/* the state after, -1 for the end */
	int op;			/* the node of that step */
	int closed;
};

struct pentry {
	double f, g;
	long seq;
	int state;
};

struct psearch {
	struct pebble pb;	/* sets: elems[0] is the sinks done */
	const struct rp_problem *prob;
	struct pnode *st;
	int cst;
	struct pentry *heap;
	int nheap, cheap;
	long seq;
	uint64_t *anc;		/* ancestors of each node, itself included */
	uint64_t *rest;		/* ancestors of sinks[0..k), k = 0..nsink */
	uint64_t *mask;
	double *ctab;		/* [word * 8 + byte][bits]: their nodes' cost */
	int words;
	int *sinks, nsink;
	int *sinkpos;		/* each node's place among the sinks, -1 */
	double w, incumbent;
	/* A search between two states of a plan (its window, below) rather
	 * than over the whole plan: */
	int goal_k;		/* sinks done at the goal: nsink for a whole plan */
	const char *goal_in;	/* the values held at the window's start */
	unsigned *wmark, wgen;	/* the closures computed in this window */
	int *wstack;
	uint64_t *wclos;	/* each node's closure in the window */
	unsigned *imark, igen;	/* the values of the set being expanded */
	/* The heuristic of the sets one step back from the set being
	 * expanded (pheur_next): the unions of its values' ancestors (in a
	 * window, closures) before and after each of them, and of the sinks
	 * still to come, built at the first set that needs them. */
	int xon;		/* 0: none (pheur from scratch) */
	int *xe, cxe;		/* a copy of the set being expanded */
	int xn, xk, xi, xready;	/* its length, sinks done; the value undone */
	uint64_t *pre, *suf, *sk;	/* (xn + 1) * words each; sk: 2 */
	int cpre, csuf;
	/* The sets one step back from the set being expanded, all built
	 * before the first is looked up, so that the table's slots for them
	 * are fetched at once rather than one cache miss at a time. */
	struct psucc *succ;
	int csucc;
	int *sbuf;
	long csbuf;
};

struct psucc {
	long off;		/* into sbuf */
	int len, i, node;
	uint64_t hash;
};

static int
pless(const struct pentry *a, const struct pentry *b)
{
	if (a->f != b->f)
		return a->f < b->f;
	if (a->g != b->g)
		return a->g > b->g;	/* deeper first */
	return a->seq < b->seq;
}

static void
ppush(struct psearch *ps, const struct pentry *e)
{
	int i;

	rp_grow(&ps->heap, &ps->cheap, ps->nheap + 1, sizeof *ps->heap);
	i = ps->nheap++;
	while (i > 0 && pless(e, &ps->heap[(i - 1) / 2])) {
		ps->heap[i] = ps->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	ps->heap[i] = *e;
}

static struct pentry
ppop(struct psearch *ps)
{
	struct pentry top = ps->heap[0], last = ps->heap[--ps->nheap];
	int i = 0, c;

	while ((c = 2 * i + 1) < ps->nheap) {
		if (c + 1 < ps->nheap && pless(&ps->heap[c + 1], &ps->heap[c]))
			c++;
		if (!pless(&ps->heap[c], &last))
			break;
		ps->heap[i] = ps->heap[c];
		i = c;
	}
	if (ps->nheap > 0)
		ps->heap[i] = last;
	return top;
}

/* In a window: the nodes from which a path that passes through nothing its
 * start holds leads to u, u included, as a bitset; each computed once a
 * window (ps->wgen: the window's), from those of u's inputs. */
static const uint64_t *
pclosure(struct psearch *ps, int u)
{
	const struct rp_graph *g = ps->prob->g;
	const char *held = ps->goal_in;
	unsigned gen = ps->wgen;
	int sp = 0, words = ps->words;

	ps->wstack[sp++] = u;
	while (sp > 0) {
		int x = ps->wstack[sp - 1], j, ready = 1, wi;
		uint64_t *c;

		if (ps->wmark[x] == gen) {
			sp--;
			continue;
		}
		for (j = g->pred_off[x]; j < g->pred_off[x + 1]; j++) {
			int p = g->pred[j];
			if (!held[p] && ps->wmark[p] != gen) {
				ps->wstack[sp++] = p;	/* at most once an edge */
				ready = 0;
			}
		}
		if (!ready)
			continue;
		c = ps->wclos + (size_t)x * words;
		memset(c, 0, (size_t)words * sizeof *c);
		c[x / 64] |= 1ULL << (x % 64);
		for (j = g->pred_off[x]; j < g->pred_off[x + 1]; j++) {
			int p = g->pred[j];
			const uint64_t *pc = ps->wclos + (size_t)p * words;
			if (held[p])
				continue;
			for (wi = 0; wi < words; wi++)
				c[wi] |= pc[wi];
		}
		ps->pb.work += g->pred_off[x + 1] - g->pred_off[x];
		ps->wmark[x] = gen;
		sp--;
	}
	return ps->wclos + (size_t)u * words;
}

/* ps->mask |= a */
static void
pmask_or(struct psearch *ps, const uint64_t *a)
{
	int wi;

	for (wi = 0; wi < ps->words; wi++)
		ps->mask[wi] |= a[wi];
}

/* The cost of the nodes in ps->mask, by byte lookups. */
static double
pmask_cost(const struct psearch *ps)
{
	double h = 0;
	int wi;

	for (wi = 0; wi < ps->words; wi++) {
		uint64_t m = ps->mask[wi];
		const double *t = ps->ctab + (size_t)wi * 8 * 256;
		for (; m; m >>= 8, t += 256)
			h += t[m & 255];
	}
	return h;
}

/* What value x adds to the heuristic's union: its ancestors, in a window
 * its closure (nothing where the window's start holds it). */
static const uint64_t *
pheur_of(struct psearch *ps, int x)
{
	if (ps->goal_in == NULL)
		return ps->anc + (size_t)x * ps->words;
	return ps->goal_in[x] ? NULL : pclosure(ps, x);
}

/* The union of the sinks' part of the heuristic when k are done (pheur)
 * into out. */
static void
pheur_sinks(struct psearch *ps, int k, uint64_t *out)
{
	int i, wi;

	if (ps->goal_in == NULL) {
		memcpy(out, ps->rest + (size_t)(ps->nsink - k) * ps->words,
		    (size_t)ps->words * sizeof *out);
		return;
	}
	memset(out, 0, (size_t)ps->words * sizeof *out);
	for (i = k; i < ps->goal_k; i++) {
		const uint64_t *c = pclosure(ps, ps->sinks[ps->nsink - 1 - i]);
		for (wi = 0; wi < ps->words; wi++)
			out[wi] |= c[wi];
	}
}

/* The cost of every ancestor of e[0..len) and of the sinks still to come
 * when k are done; in a window, of what must be made within it: every
 * node from which a path that passes through nothing its start holds
 * leads to a value held and not held at the start, or to a sink still
 * to come. */
static double
pheur(struct psearch *ps, const int *e, int len, int k)
{
	const uint64_t *c;
	int i;

	pheur_sinks(ps, k, ps->mask);
	for (i = 0; i < len; i++)
		if ((c = pheur_of(ps, e[i])) != NULL)
			pmask_or(ps, c);
	return pmask_cost(ps);
}

/* The sets one step back from e[0..n) (k sinks done, its values marked by
 * pmark) are about to be offered: pheur_next then gives their heuristic. */
static void
pheur_expand(struct psearch *ps, const int *e, int n, int k)
{
	rp_grow(&ps->xe, &ps->cxe, n + 1, sizeof *ps->xe);
	memcpy(ps->xe, e, (size_t)n * sizeof *e);
	ps->xon = 1;
	ps->xn = n;
	ps->xk = k;
	ps->xready = 0;
}

/* pheur of e2[0..n2) (k2 sinks done), a set one step back from the set
 * being expanded (pheur_expand): the step undid its value i (i == xn: made
 * the next sink), so that e2 holds every other value of it and the
 * step's inputs. The same union as pheur's, in O(words) and the values new
 * to e2, rather than O(n2 * words): the unions before and after each value
 * are built once for the set, at the first of its sets that needs them. */
static double
pheur_next(struct psearch *ps, int i, const int *e2, int n2, int k2)
{
	int W = ps->words, n = ps->xn, j, wi;
	const uint64_t *a, *b, *c;

	if (!ps->xready) {
		rp_grow(&ps->pre, &ps->cpre, (n + 1) * W, sizeof *ps->pre);
		rp_grow(&ps->suf, &ps->csuf, (n + 1) * W, sizeof *ps->suf);
		memset(ps->pre, 0, (size_t)W * sizeof *ps->pre);
		memset(ps->suf + (size_t)n * W, 0, (size_t)W * sizeof *ps->suf);
		for (j = 0; j < n; j++) {
			uint64_t *p = ps->pre + (size_t)(j + 1) * W;
			c = pheur_of(ps, ps->xe[j]);
			for (wi = 0; wi < W; wi++)
				p[wi] = p[wi - W] | (c != NULL ? c[wi] : 0);
		}
		for (j = n - 1; j >= 0; j--) {
			uint64_t *p = ps->suf + (size_t)j * W;
			c = pheur_of(ps, ps->xe[j]);
			for (wi = 0; wi < W; wi++)
				p[wi] = p[wi + W] | (c != NULL ? c[wi] : 0);
		}
		pheur_sinks(ps, ps->xk, ps->sk);
		if (ps->xk < ps->goal_k)
			pheur_sinks(ps, ps->xk + 1, ps->sk + W);
		ps->xready = 1;
	}
	a = ps->pre + (size_t)i * W;
	b = i < n ? ps->suf + (size_t)(i + 1) * W : NULL;
	c = ps->sk + (k2 == ps->xk ? 0 : W);
	for (wi = 0; wi < W; wi++)
		ps->mask[wi] = a[wi] | (b != NULL ? b[wi] : 0) | c[wi];
	for (j = 0; j < n2; j++)
		if (ps->imark[e2[j]] != ps->igen &&
		    (c = pheur_of(ps, e2[j])) != NULL)
			pmask_or(ps, c);
	return pmask_cost(ps);
}

/* One step back from the set e[0..n) (smem: the memory of its values)
 * with k sinks done: undoing e[i], the value made last, or for i == n the
 * latest sink still to come. Writes the set before the step to
 * pb->scratch (scratch[0]: the sinks done then) and its length to *len,
 * the step's node to *node, and returns the memory during the step; -1
 * where there is no such step (every sink of the search done). */
static int64_t
pstep(struct psearch *ps, const int *e, int n, int64_t smem, int k, int i,
    int *node, int *len)
{
	const struct rp_graph *g = ps->pb.g;
	struct pebble *pb = &ps->pb;
	int sink = i == n, v;
	int64_t umem = smem;

	if (sink && k >= ps->goal_k)
		return -1;
	v = sink ? ps->sinks[ps->nsink - 1 - k] : e[i];
	pb->work += n + (pb->in_off[v + 1] - pb->in_off[v]);
	*len = 1 + pmerge(pb, e, n, v, pb->scratch + 1, &umem);
	pb->scratch[0] = sink ? k + 1 : k;
	*node = v;
	return rp_size_add(rp_size_add(rp_size_add(g->fixed_mem, umem),
	    g->workspace[v]), sink ? g->mem[v] : 0);
}

/* A new generation *gen of the marks mark[0..n), cleared where it wraps. */
static void
pgen_next(unsigned *mark, unsigned *gen, int n)
{
	if (++*gen == 0) {
		memset(mark, 0, (size_t)n * sizeof *mark);
		*gen = 1;
	}
}

/* A new mark for the values of the set about to be expanded. */
static void
pmark(struct psearch *ps)
{
	pgen_next(ps->imark, &ps->igen, ps->prob->g->n);
}

/* Whether the step that undoes v (-1: the latest sink to come) from a set
 * of memory smem, its values marked (pmark), with k sinks done, is over
 * the budget; 0 where there is no such step (pstep tells). The inputs
 * only: most steps of a tight budget are over it, and are known to be
 * without a merge of the sets. */
static int
pstep_over(struct psearch *ps, int v, int64_t smem, int k)
{
	const struct rp_graph *g = ps->prob->g;
	const struct pebble *pb = &ps->pb;
	int64_t m = rp_size_add(g->fixed_mem, smem);
	int j;

	if (v < 0) {
		if (k >= ps->goal_k)
			return 0;
		v = ps->sinks[ps->nsink - 1 - k];
		m = rp_size_add(m, g->mem[v]);
	}
	m = rp_size_add(m, g->workspace[v]);
	for (j = pb->in_off[v]; j < pb->in_off[v + 1]; j++)
		if (ps->imark[pb->in[j]] != ps->igen)
			m = rp_size_add(m, g->mem[pb->in[j]]);
	return m > ps->prob->budget;
}

/* Offers the state e[0..len) (e[0]: sinks done; hash: its rp_hash_ints)
 * reached from parent by op at cost g. Returns -1 when the sets would
 * pass their limit. */
static int
poffer(struct psearch *ps, const int *e, int len, uint64_t hash, double g,
    int parent, int op)
{
	struct pentry en;
	double h;
	int isnew, s = find_set_h(&ps->pb, e, len, hash, &isnew);

	if (s < 0)
		return -1;
	ps->pb.work += len;
	if (isnew) {
		rp_grow(&ps->st, &ps->cst, s + 1, sizeof *ps->st);
		ps->st[s].g = INFINITY;
		ps->st[s].closed = 0;
	}
	if (g >= ps->st[s].g || ps->st[s].closed)
		return 0;
	h = ps->xon ? pheur_next(ps, ps->xi, e + 1, len - 1, e[0]) :
	    pheur(ps, e + 1, len - 1, e[0]);
	if (g + h >= ps->incumbent)
		return 0;
	ps->st[s].g = g;
	ps->st[s].parent = parent;
	ps->st[s].op = op;
	en.f = g + ps->w * h;
	en.g = g;
	en.seq = ps->seq++;
	en.state = s;
	ppush(ps, &en);
	return 0;
}

/* Whether state s is the search's goal: every sink of the search done,
 * and nothing held that the goal does not hold (the empty set for a whole
 * plan, in a window a part of what its start holds). */
static int
pgoal(const struct psearch *ps, int s)
{
	const struct pebble *pb = &ps->pb;
	const int *e = pb->elems + pb->sets[s].off;
	int i;

	if (e[0] != ps->goal_k)
		return 0;
	if (ps->goal_in == NULL)
		return pb->sets[s].len == 1;
	for (i = 1; i < pb->sets[s].len; i++)
		if (!ps->goal_in[e[i]])
			return 0;
	return 1;
}

/* Whether the step that undoes the recompute=false value v = e[i] from the
 * set e[0..n) (k sinks done) is one a plan can take: that step is v's only
 * computation, so nothing held before it or still to come may descend from
 * v (it would need v made earlier); then v is never needed again. The
 * inputs of v cannot descend from it, so the set's other values and the
 * sinks still to come are all there is to look at. In a window no
 * recompute=false value is undone: the window's start holds it. */
static int
pundo_once(const struct psearch *ps, const int *e, int n, int k, int i)
{
	int v = e[i], j;
	uint64_t bit = 1ULL << (v % 64);
	size_t word = (size_t)v / 64;

	if (ps->goal_in != NULL)
		return 0;
	if (ps->rest[(size_t)(ps->nsink - k) * ps->words + word] & bit)
		return 0;
	for (j = 0; j < n; j++)
		if (j != i && (ps->anc[(size_t)e[j] * ps->words + word] & bit))
			return 0;
	return 1;
}

/* The elements that a batch of psuccessors holds (4 MiB): sets can hold
 * thousands of values, and a set as many steps back. */
#define PEBBLE_SUCC_ELEMS	(1L << 20)

/* The sets one step back from the set e[0..n) (k sinks done, smem the
 * memory of its values, which pmark has marked) whose step fits the
 * budget: undoing the value made last, or making the latest sink to come;
 * a recompute=false value only where that is its one computation
 * (pundo_once; each sink is made once). Into ps->succ[0..return), their
 * elements in ps->sbuf, in the order of the values undone, from value
 * *from on, as many as PEBBLE_SUCC_ELEMS elements hold (one at least);
 * *from: where the next batch starts, -1 after the last. All of a batch
 * are built before any is looked up, and the table's slot for each is
 * fetched meanwhile: the lookups then find them in the cache (a fifth of
 * the searches' time went to waiting for those slots one at a time). */
static int
psuccessors(struct psearch *ps, const int *e, int n, int64_t smem, int k,
    int *from)
{
	const struct rp_graph *g = ps->prob->g;
	struct pebble *pb = &ps->pb;
	long used = 0;
	int i, nsucc = 0;

	for (i = *from, *from = -1; i <= n; i++) {
		int node, out;
		int64_t step;
		struct psucc *sc;

		/* the budget first: it prunes most steps of a tight budget,
		 * from the step's inputs alone */
		if (pstep_over(ps, i < n ? e[i] : -1, smem, k))
			continue;
		if (i < n && !g->recompute[e[i]] && !pundo_once(ps, e, n, k, i))
			continue;
		step = pstep(ps, e, n, smem, k, i, &node, &out);
		if (step < 0)
			break;
		if (step > ps->prob->budget)
			continue;
		if (nsucc > 0 && used + out > PEBBLE_SUCC_ELEMS) {
			*from = i;	/* pb->scratch is made again then */
			break;
		}
		if (used + out > ps->csbuf) {
			ps->csbuf = 2 * (used + out);
			ps->sbuf = rp_xreallocarray(ps->sbuf, (size_t)ps->csbuf,
			    sizeof *ps->sbuf);
		}
		memcpy(ps->sbuf + used, pb->scratch, (size_t)out *
		    sizeof *ps->sbuf);
		rp_grow(&ps->succ, &ps->csucc, nsucc + 1, sizeof *ps->succ);
		sc = &ps->succ[nsucc++];
		sc->off = used;
		sc->len = out;
		sc->i = i;
		sc->node = node;
		sc->hash = rp_hash_ints(ps->sbuf + used, out);
		prefetch_slot(pb, sc->hash);
		used += out;
	}
	return nsucc;
}

/* One search at ps->w from the state start[0..len) (start[0]: the sinks
 * done) back to the goal: 1 with *goal set when it reached it, 0 when it
 * ended without (every path tried, the expansions or the sets at their
 * limit, or the deadline). */
static int
psearch_from(struct psearch *ps, const int *start, int len, long max_exp,
    double deadline, int *goal)
{
	const struct rp_problem *prob = ps->prob;
	const struct rp_graph *g = prob->g;
	struct pebble *pb = &ps->pb;
	int64_t need = g->fixed_mem;
	long exp = 0;
	int i, nsucc, from;

	pb->nsets = 0;
	pb->nelems = 0;
	ps->nheap = 0;
	if (++pb->gen == 0) {
		memset(pb->table, 0, pb->tsize * sizeof *pb->table);
		pb->gen = 1;
	}
	for (i = 1; i < len; i++)
		need = rp_size_add(need, g->mem[start[i]]);
	ps->xon = 0;
	if (need > prob->budget || poffer(ps, start, len,
	    rp_hash_ints(start, len), 0, -1, -1) != 0)
		return 0;
	while (ps->nheap > 0) {
		struct pentry top = ppop(ps);
		int s = top.state, k;
		int64_t smem = 0;
		double gs;

		if (top.g > ps->st[s].g || ps->st[s].closed)
			continue;
		ps->st[s].closed = 1;
		if (pgoal(ps, s)) {
			*goal = s;
			return 1;
		}
		len = pb->sets[s].len;
		k = pb->elems[pb->sets[s].off];
		if (++exp > max_exp)
			return 0;
		if (deadline > 0 && rp_now() > deadline)
			return 0;
		gs = ps->st[s].g;
		pmark(ps);
		for (i = 1; i < len; i++) {
			int x = pb->elems[pb->sets[s].off + i];
			smem = rp_size_add(smem, g->mem[x]);
			ps->imark[x] = ps->igen;
		}
		pheur_expand(ps, pb->elems + pb->sets[s].off + 1, len - 1, k);
		for (from = 0; from >= 0; ) {
			nsucc = psuccessors(ps, pb->elems + pb->sets[s].off + 1,
			    len - 1, smem, k, &from);
			for (i = 0; i < nsucc; i++) {
				const struct psucc *sc = &ps->succ[i];
				ps->xi = sc->i;
				if (poffer(ps, ps->sbuf + sc->off, sc->len,
				    sc->hash, gs + g->cost[sc->node], s,
				    sc->node) != 0) {
					ps->xon = 0;
					return 0;
				}
			}
		}
		ps->xon = 0;
	}
	return 0;
}

/* The end of every plan: the outputs held, no sink done, into scratch;
 * returns its length. */
static int
pend(struct psearch *ps)
{
	const struct rp_graph *g = ps->prob->g;
	int v, m = 1;

	ps->pb.scratch[0] = 0;
	for (v = 0; v < g->n; v++)
		if (g->output[v])
			ps->pb.scratch[m++] = v;
	return m;
}

/* One search of a whole plan at ps->w (as psearch_from). */
static int
psearch_run(struct psearch *ps, long max_exp, double deadline, int *goal)
{
	int m = pend(ps);
	int *start = rp_xmalloc((size_t)m * sizeof *start);
	int rc;

	memcpy(start, ps->pb.scratch, (size_t)m * sizeof *start);
	rc = psearch_from(ps, start, m, max_exp, deadline, goal);
	free(start);
	return rc;
}

/* Writes the plan of the path from goal (the start) to the end: each step
 * computes its node, then frees what the state after it does not hold. */
static void
pbuild(struct psearch *ps, int goal, struct rp_plan *plan)
{
	const struct rp_graph *g = ps->prob->g;
	struct pebble *pb = &ps->pb;
	int *reg = rp_xcalloc((size_t)g->n, sizeof *reg);
	char *live = rp_xcalloc((size_t)g->n, 1);
	int s, nextreg = 0, v;

	for (v = 0; v < g->n; v++)
		reg[v] = -1;
	for (s = goal; ps->st[s].parent >= 0; s = ps->st[s].parent) {
		int op = ps->st[s].op, after = ps->st[s].parent, j;
		const int *e = pb->elems + pb->sets[after].off + 1;
		int n = pb->sets[after].len - 1;
		reg[op] = nextreg++;
		rp_plan_add_compute(plan, op, reg[op]);
		live[op] = 1;
		/* free, in node order, what is live and not in the set after */
		for (j = 0; j < n; j++)
			live[e[j]] |= 2;
		for (v = 0; v < g->n; v++)
			if (live[v] == 1) {
				rp_plan_add_free(plan, reg[v]);
				live[v] = 0;
			} else if (live[v])
				live[v] = 1;
	}
	free(reg);
	free(live);
}

/* The beam search, for budgets where the A* rounds end without a plan:
 * level by level (one step back each), the `width` sets of least g + h
 * among the sets one step back from the level before, each at its least g.
 * Only the current level's sets are kept; each chosen step goes on a trail
 * (its node and the trail entry of the set it came from), from which the
 * compute sequence is read back. Not complete (every set of a level may be
 * a dead end where a plan exists) and not the cheapest, but its work grows
 * with the width and the plan's length only: it finds plans on graphs
 * where A* does not end. */
struct bstep {
	double f, g, h;
	int set;		/* in this level's table */
	int trail;		/* the trail entry of the set it came from */
	int op;
};

struct bbeam {
	int *elems;		/* the current level's sets, each after the other */
	int nelems, celems;
	int *len, clen;
	double *g;
	int cg;
	int *trail, ctrail;	/* each set's entry on the trail */
	int n;
	struct bstep *next;	/* the steps found from this level */
	int nnext, cnext;
	double *best;		/* least g of each set of the next level */
	int cbest;
	int *tparent, ctparent;	/* the trail: parent entry, node */
	int *top, ctop;
	int ntrail;
};

static int
bstep_cmp(const void *a, const void *b)
{
	const struct bstep *x = a, *y = b;

	if (x->f != y->f)
		return x->f < y->f ? -1 : 1;
	if (x->set != y->set)
		return x->set < y->set ? -1 : 1;
	return (x->g > y->g) - (x->g < y->g);
}

/* The order of the sets nearest the start: least cost to come. */
static int
bstep_near_cmp(const void *a, const void *b)
{
	const struct bstep *x = a, *y = b;

	if (x->h != y->h)
		return x->h < y->h ? -1 : 1;
	return bstep_cmp(a, b);
}

static void
bbeam_free(struct bbeam *bm)
{
	free(bm->elems);
	free(bm->len);
	free(bm->g);
	free(bm->trail);
	free(bm->next);
	free(bm->best);
	free(bm->tparent);
	free(bm->top);
}

/* Appends set e[0..len) at cost g, reached by the trail entry tr. */
static void
bbeam_keep(struct bbeam *bm, const int *e, int len, double g, int tr)
{
	rp_grow(&bm->elems, &bm->celems, bm->nelems + len, sizeof *bm->elems);
	memcpy(bm->elems + bm->nelems, e, (size_t)len * sizeof *e);
	bm->nelems += len;
	rp_grow(&bm->len, &bm->clen, bm->n + 1, sizeof *bm->len);
	rp_grow(&bm->g, &bm->cg, bm->n + 1, sizeof *bm->g);
	rp_grow(&bm->trail, &bm->ctrail, bm->n + 1, sizeof *bm->trail);
	bm->len[bm->n] = len;
	bm->g[bm->n] = g;
	bm->trail[bm->n] = tr;
	bm->n++;
}

/* Offers the set sc (ps->succ's), one step back from the beam's set c,
 * to the next level: kept where it is new or reached more cheaply than
 * before. -1 when the sets would pass their limit. */
static int
bbeam_offer(struct psearch *ps, struct bbeam *bm, int c,
    const struct psucc *sc)
{
	const struct rp_graph *g = ps->prob->g;
	const int *e = ps->sbuf + sc->off;
	struct bstep *st;
	int s, isnew;
	double gg;

	if ((s = find_set_h(&ps->pb, e, sc->len, sc->hash, &isnew)) < 0)
		return -1;
	gg = bm->g[c] + g->cost[sc->node];
	rp_grow(&bm->best, &bm->cbest, s + 1, sizeof *bm->best);
	if (isnew)
		bm->best[s] = INFINITY;
	if (gg >= bm->best[s])
		return 0;
	bm->best[s] = gg;
	rp_grow(&bm->next, &bm->cnext, bm->nnext + 1, sizeof *bm->next);
	st = &bm->next[bm->nnext++];
	st->g = gg;
	st->h = pheur_next(ps, sc->i, e + 1, sc->len - 1, e[0]);
	st->f = gg + ps->w * st->h;
	st->set = s;
	st->trail = bm->trail[c];
	st->op = sc->node;
	return 0;
}

/* One beam search of the given width: 1 with the plan's compute sequence
 * appended to seq; 0 when every set of a level was a dead end, -1 at the
 * deadline or at the limit of the sets or the trail, -2 where, at its
 * pace over the first quarter of its time, it would not reach the start
 * in PEBBLE_BEAM_SLOW times its time. *steps: the levels searched. Where
 * `near` is set, half of each level is the sets of least cost so far and
 * to come, the other half those of least cost to come (the nearest to the
 * start): plans of another shape, from which the windows often go further
 * than from the plain beam's. */
static int
psearch_beam(struct psearch *ps, int width, int near, double deadline,
    struct rp_seq *seq, int *steps)
{
	const struct rp_problem *prob = ps->prob;
	const struct rp_graph *g = prob->g;
	struct pebble *pb = &ps->pb;
	struct bbeam bm;
	int64_t need = g->fixed_mem;
	int v, m = pend(ps), rc = 0;
	double t0 = rp_now();

	memset(&bm, 0, sizeof bm);
	for (v = 1; v < m; v++)
		need = rp_size_add(need, g->mem[pb->scratch[v]]);
	*steps = 0;
	if (need > prob->budget)
		return 0;
	bbeam_keep(&bm, pb->scratch, m, 0, -1);
	rc = -1;
	while (bm.n > 0) {
		int c, j, off = 0, nlev, pass, nsucc, from;

		++*steps;
		pb->nsets = 0;
		pb->nelems = 0;
		if (++pb->gen == 0) {
			memset(pb->table, 0, pb->tsize * sizeof *pb->table);
			pb->gen = 1;
		}
		bm.nnext = 0;
		for (c = 0; c < bm.n; off += bm.len[c], c++) {
			const int *se = bm.elems + off, *e = se + 1;
			int len = bm.len[c], k = se[0], i, n = len - 1;
			int64_t smem = 0;

			if (len == 1 && k == ps->nsink) {
				/* the start: the trail, read back, is the plan's
				 * compute sequence */
				int t;
				for (t = bm.trail[c]; t >= 0; t = bm.tparent[t])
					rp_seq_push(seq, bm.top[t]);
				rc = 1;
				goto out;
			}
			if (deadline > 0 && rp_now() > deadline)
				goto out;
			pmark(ps);
			for (i = 0; i < n; i++) {
				smem = rp_size_add(smem, g->mem[e[i]]);
				ps->imark[e[i]] = ps->igen;
			}
			pheur_expand(ps, e, n, k);
			for (from = 0; from >= 0; ) {
				nsucc = psuccessors(ps, e, n, smem, k, &from);
				for (i = 0; i < nsucc; i++)
					if (bbeam_offer(ps, &bm, c,
					    &ps->succ[i]) != 0)
						goto out;
			}
		}
		if (bm.nnext == 0) {
			rc = 0;	/* every set of the level a dead end */
			break;
		}
		qsort(bm.next, (size_t)bm.nnext, sizeof *bm.next, bstep_cmp);
		/* the next level: the best `width` sets, each at its least g
		 * (near: half of them, then those nearest the start) */
		bm.n = 0;
		bm.nelems = 0;
		for (pass = nlev = 0; pass < 2; pass++) {
			int most = pass == 0 && near ? width / 2 : width;
			if (pass == 1 && near)
				qsort(bm.next, (size_t)bm.nnext, sizeof *bm.next,
				    bstep_near_cmp);
			for (j = 0; j < bm.nnext && nlev < most; j++) {
				const struct bstep *st = &bm.next[j];
				if (st->g != bm.best[st->set])
					continue;
				bm.best[st->set] = -INFINITY;	/* taken */
				if (bm.ntrail >= PEBBLE_BEAM_TRAIL)
					goto out;
				rp_grow(&bm.tparent, &bm.ctparent, bm.ntrail + 1,
				    sizeof *bm.tparent);
				rp_grow(&bm.top, &bm.ctop, bm.ntrail + 1,
				    sizeof *bm.top);
				bm.tparent[bm.ntrail] = st->trail;
				bm.top[bm.ntrail] = st->op;
				bbeam_keep(&bm, pb->elems + pb->sets[st->set].off,
				    pb->sets[st->set].len, st->g, bm.ntrail++);
				nlev++;
			}
		}
		/* a plan makes every node, one step back each: at least n
		 * levels. The pace varies along the plan, several times over
		 * (the end of a training step, where every gradient is held,
		 * is the slowest part), so it is judged once a quarter of the
		 * time is gone, and only a beam far from the start stops */
		if (deadline > 0 && *steps >= PEBBLE_BEAM_PACE) {
			double used = rp_now() - t0, all = deadline - t0;
			if (used >= all / 4 && used / *steps * g->n >
			    PEBBLE_BEAM_SLOW * all) {
				rc = -2;
				goto out;
			}
		}
	}
out:
	bbeam_free(&bm);
	return rc;
}

/* ---- windows: a plan's steps searched again, a few at a time ---- */

/* Any plan is a path of these states, with the sinks in the order it makes
 * them (last): going back over its compute sequence from the end, each
 * step either undoes what the state holds (or the sink due next), or makes
 * a value nothing after it reads, which is dropped. A window of its steps
 * runs from the state before them to the state after; the A* above, run
 * from the window's last state back to any state that holds no more than
 * its first (sinks the same), with the cost of the window's steps as the
 * incumbent, finds a cheaper way through it when there is one within its
 * work: everything before the window then holds what it held, or less
 * (and drops what is no longer read), everything after it is unchanged,
 * so the plan still fits. Windows of 8 steps and up, each size swept over
 * the plan until no window gains, then doubled: a local search whose
 * steps are exact searches (large-neighbourhood search). recompute=false
 * values are kept to: a window never undoes one (what it needs of them is
 * held at its start) and ends before a step that makes one. */

/* Expansions for the search of a window, for each of its steps: from the
 * first, each sweep over the window sizes with four times as many, up to
 * the last; and at most PEBBLE_WINDOW_MAX in all. The window sizes. */
#define PEBBLE_WINDOW_EXP	1000
#define PEBBLE_WINDOW_EXP_LAST	16000
#define PEBBLE_WINDOW_MAX	(1L << 18)
#define PEBBLE_WINDOW_FIRST	8
#define PEBBLE_WINDOW_LAST	512

struct pchain {
	int *seq;		/* the steps kept, in order */
	int T, cseq;
	int *elems;		/* the states, from the end back: [k, values] */
	long nelems, celems;
	long *off;		/* state j = before step T - j; T + 1 of them */
	int *len, coff, clen;
	double *cost;		/* of each step */
	int ccost;
};

static void
pchain_free(struct pchain *c)
{
	free(c->seq);
	free(c->elems);
	free(c->off);
	free(c->len);
	free(c->cost);
}

/* The state before forward step t (t = T: the end). */
static const int *
pchain_state(const struct pchain *c, int t, int *len)
{
	*len = c->len[c->T - t];
	return c->elems + c->off[c->T - t];
}

static void
pchain_keep(struct pchain *c, int j, const int *e, int len)
{
	grow_elems(&c->elems, &c->celems, c->nelems + len);
	memcpy(c->elems + c->nelems, e, (size_t)len * sizeof *e);
	rp_grow(&c->off, &c->coff, j + 1, sizeof *c->off);
	rp_grow(&c->len, &c->clen, j + 1, sizeof *c->len);
	c->off[j] = c->nelems;
	c->len[j] = len;
	c->nelems += len;
}

/* The states of the compute sequence q[0..len) into c, dropping the
 * steps whose value nothing after reads. 0 when every step fits the
 * budget and the path reaches the start; -1 when it does not (a sink out
 * of execution order, a step over the budget, or past PEBBLE_MAX_ELEMS). */
static int
pchain_build(struct psearch *ps, const int *q, int qlen, struct pchain *c)
{
	const struct rp_graph *g = ps->prob->g;
	struct pebble *pb = &ps->pb;
	int t, j = 0, m = pend(ps), i, n;
	int64_t smem;

	c->nelems = 0;
	c->T = 0;
	pchain_keep(c, j++, pb->scratch, m);
	for (t = qlen - 1; t >= 0; t--) {
		const int *e = c->elems + c->off[j - 1];
		int v = q[t], k = e[0], node, out, sp = ps->sinkpos[v];
		int64_t step;

		n = c->len[j - 1] - 1;
		if (sp >= 0) {
			if (sp > ps->nsink - 1 - k)
				continue;	/* done after: made again */
			if (sp < ps->nsink - 1 - k)
				return -1;	/* out of order */
			i = n;
		} else {
			const int *f = bsearch(&v, e + 1, (size_t)n, sizeof *e,
			    cmp_int);
			if (f == NULL)
				continue;	/* nothing after reads it */
			i = (int)(f - (e + 1));
		}
		for (smem = 0, m = 1; m <= n; m++)
			smem = rp_size_add(smem, g->mem[e[m]]);
		step = pstep(ps, e + 1, n, smem, k, i, &node, &out);
		if (step < 0 || step > ps->prob->budget ||
		    c->nelems + out > PEBBLE_MAX_ELEMS)
			return -1;
		pchain_keep(c, j++, pb->scratch, out);
		rp_grow(&c->seq, &c->cseq, c->T + 1, sizeof *c->seq);
		c->seq[c->T++] = v;
	}
	if (c->len[j - 1] != 1 || c->elems[c->off[j - 1]] != ps->nsink)
		return -1;
	/* the steps were kept from the end back */
	for (t = 0; t < c->T / 2; t++) {
		int x = c->seq[t];
		c->seq[t] = c->seq[c->T - 1 - t];
		c->seq[c->T - 1 - t] = x;
	}
	rp_grow(&c->cost, &c->ccost, c->T + 1, sizeof *c->cost);
	for (t = 0; t < c->T; t++)
		c->cost[t] = g->cost[c->seq[t]];
	return 0;
}

/* A cheaper way through steps [a, b) of c, found by A*: its steps go to
 * out (emptied first); 1 when found, 0 when not. */
static int
pwindow(struct psearch *ps, const struct pchain *c, int a, int b,
    char *held, struct rp_seq *out, long max_exp, double deadline)
{
	const int *sa, *sb;
	int la, lb, i, goal = -1, found;
	double was = 0;

	sa = pchain_state(c, a, &la);
	sb = pchain_state(c, b, &lb);
	for (i = a; i < b; i++)
		was += c->cost[i];
	for (i = 1; i < la; i++)
		held[sa[i]] = 1;
	ps->goal_k = sa[0];
	ps->goal_in = held;
	pgen_next(ps->wmark, &ps->wgen, ps->prob->g->n);	/* new closures */
	ps->w = 1;
	ps->incumbent = was - 1e-9 * was;
	found = psearch_from(ps, sb, lb, max_exp, deadline, &goal);
	out->len = 0;
	if (found) {
		int s;
		for (s = goal; ps->st[s].parent >= 0; s = ps->st[s].parent)
			rp_seq_push(out, ps->st[s].op);
	}
	for (i = 1; i < la; i++)
		held[sa[i]] = 0;
	ps->goal_in = NULL;
	ps->goal_k = ps->nsink;
	return found;
}

/* The ancestors of the first k sinks, k = 0..nsink, for pheur. */
static void
prest_build(struct psearch *ps)
{
	int k, wi;

	for (k = 0; k < ps->nsink; k++)
		for (wi = 0; wi < ps->words; wi++)
			ps->rest[(size_t)(k + 1) * ps->words + wi] =
			    ps->rest[(size_t)k * ps->words + wi] |
			    ps->anc[(size_t)ps->sinks[k] * ps->words + wi];
}

/* Sets the order in which the searches make the sinks: that of their last
 * computations in q (NULL: execution order). -1 where q does not make
 * every sink (the order then that of execution). */
static int
psinks_order(struct psearch *ps, const struct rp_seq *q)
{
	const struct rp_graph *g = ps->prob->g;
	int a, w = 0;

	for (a = 0; a < ps->nsink; a++)
		ps->sinkpos[ps->sinks[a]] = -2;
	if (q != NULL) {
		for (a = q->len - 1, w = ps->nsink; a >= 0; a--)
			if (ps->sinkpos[q->node[a]] == -2)
				ps->sinkpos[q->node[a]] = --w;
		if (w == 0) {
			for (a = 0; a < g->n; a++)
				if (ps->sinkpos[a] >= 0)
					ps->sinks[ps->sinkpos[a]] = a;
			prest_build(ps);
			return 0;
		}
	}
	for (a = 0, w = 0; a < g->n; a++)
		if (ps->sinkpos[a] != -1) {
			ps->sinkpos[a] = w;
			ps->sinks[w++] = a;
		}
	prest_build(ps);
	return q == NULL ? 0 : -1;
}

/* Improves the compute sequence q, window by window, until the deadline or
 * until no window up to PEBBLE_WINDOW_LAST steps gains. Returns the
 * windows that did; -1 where q is not a path of the states (q unchanged). */
static int
plns(struct psearch *ps, struct rp_seq *q, double deadline, long e_first,
    long e_last)
{
	const struct rp_graph *g = ps->prob->g;
	struct pchain c;
	struct rp_seq w, nq;
	char *held = rp_xcalloc((size_t)g->n, 1);
	int W, a, gains = 0;
	long effort;

	memset(&c, 0, sizeof c);
	memset(&w, 0, sizeof w);
	memset(&nq, 0, sizeof nq);
	ps->wmark = rp_xcalloc((size_t)g->n, sizeof *ps->wmark);
	ps->wstack = rp_xcalloc((size_t)g->n + g->pred_off[g->n] + 1,
	    sizeof *ps->wstack);
	ps->wclos = rp_xcalloc((size_t)g->n * ps->words, sizeof *ps->wclos);
	if (psinks_order(ps, q) != 0) {
		gains = -1;	/* a sink never made: not a plan */
		goto out;
	}
	if (pchain_build(ps, q->node, q->len, &c) != 0) {
		gains = -1;
		goto out;
	}
	for (effort = e_first; effort <= e_last; effort *= 4)
		for (W = PEBBLE_WINDOW_FIRST; W <= PEBBLE_WINDOW_LAST &&
		    2 * W <= c.T; ) {
			int pass_gain = 0;
			for (a = 0; a < c.T; a += W / 2) {
				int b = a + W < c.T ? a + W : c.T, i;
				long most;

				if (deadline > 0 && rp_now() > deadline)
					goto out;
				/* a window ends before the computation of a
				 * recompute=false value, which it could not
				 * make (nor make once only) */
				for (i = a; i < b; i++)
					if (!g->recompute[c.seq[i]] &&
					    ps->sinkpos[c.seq[i]] < 0)
						break;
				b = i;
				most = (long)(b - a) * effort;
				if (b - a < 2 || !pwindow(ps, &c, a, b, held, &w,
				    most < PEBBLE_WINDOW_MAX ? most :
				    PEBBLE_WINDOW_MAX, deadline))
					continue;
				nq.len = 0;
				for (i = 0; i < a; i++)
					rp_seq_push(&nq, c.seq[i]);
				for (i = 0; i < w.len; i++)
					rp_seq_push(&nq, w.node[i]);
				for (i = b; i < c.T; i++)
					rp_seq_push(&nq, c.seq[i]);
				/* a path of the states by construction; were
				 * it not, the last sequence that was stays */
				if (pchain_build(ps, nq.node, nq.len, &c) != 0)
					goto out;
				q->len = 0;
				for (i = 0; i < c.T; i++)
					rp_seq_push(q, c.seq[i]);
				pass_gain++;
				gains++;
			}
			if (!pass_gain)
				W *= 2;
		}
out:
	psinks_order(ps, NULL);
	pchain_free(&c);
	rp_seq_destroy(&w);
	rp_seq_destroy(&nq);
	free(held);
	free(ps->wmark);
	free(ps->wstack);
	free(ps->wclos);
	ps->wmark = NULL;
	ps->wstack = NULL;
	ps->wclos = NULL;
	return gains;
}

/* The plans the windows start from: compute sequences, their cost and
 * where they came from. */
#define PEBBLE_STARTS	4
/* The share of the time left after the beams that the fill pass
 * (rp_polish) keeps: the windows have the rest. */
#define PEBBLE_FILL_SHARE	0.1
struct pstart {
	struct rp_seq q;
	double cost;		/* of q, kept up to date */
	char *note;
	int other;		/* the plan of a strategy run before */
};
struct pstarts {
	struct pstart s[PEBBLE_STARTS];
	int n;
};

static double
pseq_cost(const struct rp_graph *g, const struct rp_seq *q)
{
	double c = 0;
	int i;

	for (i = 0; i < q->len; i++)
		c += g->cost[q->node[i]];
	return c;
}

/* Adds plan (not taken) as a start, with note (taken), unless it has
 * the compute sequence of one already there. */
static void
pstart_add(struct pstarts *st, const struct rp_graph *g,
    const struct rp_plan *plan, char *note)
{
	struct rp_seq q;
	int i;

	memset(&q, 0, sizeof q);
	for (i = 0; i < plan->len; i++)
		if (plan->s[i].op == RP_COMPUTE)
			rp_seq_push(&q, plan->s[i].node);
	for (i = 0; i < st->n; i++)
		if (st->s[i].q.len == q.len && memcmp(st->s[i].q.node, q.node,
		    (size_t)q.len * sizeof *q.node) == 0)
			break;
	if (i < st->n || st->n == PEBBLE_STARTS) {
		rp_seq_destroy(&q);
		free(note);
		return;
	}
	st->s[st->n].q = q;
	st->s[st->n].note = note;
	st->s[st->n].cost = pseq_cost(g, &q);
	st->n++;
}

/* Cheapest first (a stable sort: ties in the order found). */
static void
pstart_sort(struct pstarts *st)
{
	int i, j;

	for (i = 1; i < st->n; i++)
		for (j = i; j > 0 && st->s[j].cost < st->s[j - 1].cost; j--) {
			struct pstart t = st->s[j];
			st->s[j] = st->s[j - 1];
			st->s[j - 1] = t;
		}
}

static void
pstart_free(struct pstarts *st)
{
	int i;

	for (i = 0; i < st->n; i++) {
		rp_seq_destroy(&st->s[i].q);
		free(st->s[i].note);
	}
}

/* Frees what the search holds (its sets, up to PEBBLE_MAX_ELEMS); again
 * after that does nothing. */
static void
psearch_release(struct psearch *ps)
{
	free(ps->pb.in);
	free(ps->pb.in_off);
	free(ps->pb.scratch);
	free(ps->pb.elems);
	free(ps->pb.sets);
	free(ps->pb.table);
	free(ps->st);
	free(ps->heap);
	free(ps->anc);
	free(ps->rest);
	free(ps->mask);
	free(ps->sk);
	free(ps->pre);
	free(ps->suf);
	free(ps->xe);
	free(ps->succ);
	free(ps->sbuf);
	free(ps->ctab);
	free(ps->sinks);
	free(ps->sinkpos);
	free(ps->imark);
	memset(ps, 0, sizeof *ps);
}

static int pebble_pass(const struct rp_problem *prob,
    const struct rp_ctx *ctx, struct rp_plan *plan, char **note, char **cause,
    int again);

/* pebble's pass again, over the graph in the order of least checkpoint-all
 * peak (rp_order_memory): A* meets the sets in another order and the sinks
 * come in another order, so its plans, and where the windows end from
 * them, differ (on the 100-node layered DAG at 60%: 1.264x where the
 * graph's own order gives 1.449x; bench/layered-results.md). Its plan,
 * mapped back to the graph, goes to best. Returns 0, or -1 with *cause
 * set. */
static int
pebble_reordered(const struct rp_problem *prob, const struct rp_ctx *ctx,
    struct rp_best *best, char **cause)
{
	const struct rp_graph *g = prob->g;
	int *order = rp_xmalloc(sizeof *order * (size_t)g->n);
	struct rp_graph *h;
	struct rp_problem p0, p1;
	struct rp_ctx sub = *ctx;
	struct rp_plan p;
	char *n1 = NULL;
	int rule, v, same = 1, rc;

	if (rp_order_memory(g, ctx->deadline, ctx->opt != NULL ?
	    ctx->opt->seed : 1, order, &rule) < 0) {
		free(order);
		return 0;
	}
	for (v = 0; v < g->n && same; v++)
		same = order[v] == v;
	if (same) {
		free(order);
		return 0;
	}
	h = rp_graph_reorder(g, order);
	if (rp_problem_init_like(&p0, h, prob, cause) != 0) {
		rp_graph_free(h);
		free(order);
		return -1;
	}
	rp_problem_at(&p1, &p0, prob->budget);
	/* no other strategy's plan to start from (that pass had them), and
	 * the fill pass's share of the time left to the caller */
	sub.shared = NULL;
	if (ctx->deadline > 0)
		sub.deadline = rp_now() + (ctx->deadline - rp_now()) *
		    (1 - PEBBLE_FILL_SHARE);
	rp_plan_init(&p);
	rc = pebble_pass(&p1, &sub, &p, &n1, cause, 0);
	rp_graph_free(h);
	if (rc == 0 && p.len > 0) {
		rp_order_map_plan(&p, order);
		rc = rp_best_offer(best, prob, &p, rp_xasprintf("over the order "
		    "of least checkpoint-all peak (%.1f%% of the execution "
		    "order's), %s", 100.0 * (double)p0.ckpt_all_peak /
		    (double)prob->ckpt_all_peak, n1), cause);
	} else
		rp_plan_destroy(&p);
	free(n1);
	free(order);
	return rc;
}

/* How a beam ended, for the log and the note (psearch_beam's
 * return). */
static const char *
beam_end(int rc)
{
	return rc == 0 ? "met only dead ends" : rc == -2 ? "stopped, too slow "
	    "to reach the start in its time" : "stopped at its time or at its "
	    "limit of sets";
}

static int
pebble_run(const struct rp_problem *prob, const struct rp_ctx *ctx,
    struct rp_plan *plan, char **note, double *bound, char **cause)
{
	(void)bound;
	return pebble_pass(prob, ctx, plan, note, cause, 1);
}

/* pebble over prob's execution order; again: with time left where A* did
 * not find the cheapest plan of its form, the pass once more over the
 * order of least peak (pebble_reordered), the cheaper plan kept. */
static int
pebble_pass(const struct rp_problem *prob, const struct rp_ctx *ctx,
    struct rp_plan *plan, char **note, char **cause, int again)
{
	const struct rp_graph *g = prob->g;
	struct psearch ps;
	struct rp_best best;
	size_t r;
	double started = rp_now();
	int v, j, wi, k, rc = 0, exact = 0, astar_timed_out = 0;
	int beam_last[2] = { 0, 0 }, beam_rc[2] = { 0, 0 };
	const struct rp_result *other = NULL;	/* cheapest fitting plan before */
	char *unimproved = NULL;	/* for the note: other's plan, searched */
	struct pstarts starts;

	if (g->n > PEBBLE_MAX_NODES) {
		*note = rp_xasprintf("not run: the graph has more than %d nodes",
		    PEBBLE_MAX_NODES);
		return 0;
	}
	if (rp_fits(prob, prob->ckpt_all_peak)) {
		/* nothing beats it (the windows would start from it and the
		 * searches end with its cost) */
		rp_plan_checkpoint_all(g, plan);
		*note = rp_xstrdup("checkpoint-all fits: no recomputation");
		return 0;
	}
	memset(&ps, 0, sizeof ps);
	ps.prob = prob;
	ps.pb.g = g;
	ps.pb.max_elems = PEBBLE_PLAN_ELEMS;
	ps.pb.celems = 4096;
	ps.pb.elems = rp_xcalloc((size_t)ps.pb.celems, sizeof *ps.pb.elems);
	inputs_init(&ps.pb);
	ps.pb.scratch = rp_xcalloc((size_t)g->n + 2, sizeof *ps.pb.scratch);
	ps.words = (g->n + 63) / 64;
	ps.anc = rp_xcalloc((size_t)g->n * ps.words, sizeof *ps.anc);
	ps.mask = rp_xcalloc((size_t)ps.words, sizeof *ps.mask);
	ps.sk = rp_xcalloc((size_t)ps.words * 2, sizeof *ps.sk);
	/* each byte of a mask, looked up: the cost of its nodes */
	ps.ctab = rp_xcalloc((size_t)ps.words * 8 * 256, sizeof *ps.ctab);
	for (j = 0; j < ps.words * 8; j++) {
		double *t = ps.ctab + (size_t)j * 256;
		for (k = 1; k < 256; k++) {
			v = j * 8 + __builtin_ctz((unsigned)k);
			t[k] = t[k & (k - 1)] + (v < g->n ? g->cost[v] : 0);
		}
	}
	ps.sinks = rp_xcalloc((size_t)g->n, sizeof *ps.sinks);
	ps.sinkpos = rp_xcalloc((size_t)g->n, sizeof *ps.sinkpos);
	for (v = 0; v < g->n; v++) {
		uint64_t *a = ps.anc + (size_t)v * ps.words;
		a[v / 64] |= 1ULL << (v % 64);
		for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) {
			const uint64_t *pa = ps.anc + (size_t)g->pred[j] * ps.words;
			for (wi = 0; wi < ps.words; wi++)
				a[wi] |= pa[wi];
		}
		ps.sinkpos[v] = -1;
		if (g->succ_off[v + 1] == g->succ_off[v] && !g->output[v]) {
			ps.sinkpos[v] = ps.nsink;
			ps.sinks[ps.nsink++] = v;
		}
	}
	ps.goal_k = ps.nsink;
	ps.imark = rp_xcalloc((size_t)g->n, sizeof *ps.imark);
	ps.rest = rp_xcalloc((size_t)(ps.nsink + 1) * ps.words,
	    sizeof *ps.rest);
	prest_build(&ps);

	rp_best_init(&best);
	memset(&starts, 0, sizeof starts);
	for (r = 0; r < sizeof pebble_rounds /
	    sizeof pebble_rounds[0]; r++) {
		int goal = -1, found;
		if (ctx->deadline > 0 && rp_now() > ctx->deadline)
			break;
		ps.w = pebble_rounds[r].w;
		ps.incumbent = INFINITY;
		found = psearch_run(&ps, g->n > 100 ? (long)((double)
		    pebble_rounds[r].expansions * pow(100.0 / g->n, 2)) :
		    pebble_rounds[r].expansions, ctx->deadline, &goal);
		rp_log(ctx, 2, "pebble: weight %g: %s after %d sets", ps.w,
		    found ? "a plan" : "no plan", ps.pb.nsets);
		if (found) {
			struct rp_plan p;
			char *n1 = ps.w == 1 ? rp_xasprintf("A* over the values "
			    "held at once: the cheapest plan that makes the sinks "
			    "in execution order and frees each value once it is "
			    "not needed") : rp_xasprintf("weighted A* (weight %g) "
			    "over the values held at once, the searches of lower "
			    "weight having found none: within %gx of the "
			    "cheapest plan of its form", ps.w, ps.w);
			exact = ps.w == 1;
			rp_plan_init(&p);
			pbuild(&ps, goal, &p);
			if (rp_best_offer(&best, prob, &p, n1, cause) != 0) {
				rc = -1;
				goto out;
			}
			break;
		}
	}
	astar_timed_out = ctx->deadline > 0 && rp_now() > ctx->deadline;
	/* Where the unweighted search did not end with a plan: beams of
	 * growing width until one finds a plan, in half of the time left, or
	 * a quarter where a strategy run before has a plan that fits (the
	 * windows below then have more time to improve it); the plain beams
	 * in the first half of that, then the beams that keep the sets
	 * nearest the start too. */
	for (j = 0; ctx->shared != NULL && j < ctx->shared->nresults; j++) {
		const struct rp_result *o = &ctx->shared->results[j];
		if (o->status == RP_FITS && (other == NULL ||
		    o->sim.cost < other->sim.cost))
			other = o;
	}
	if (best.have && best.fits && !exact)
		pstart_add(&starts, g, &best.plan, rp_xstrdup(best.note));
	if (!exact) {
		double now = rp_now(), bd = ctx->deadline > 0 ? now +
		    (ctx->deadline - now) / (other != NULL ? 4 : 2) : 0;
		int width, steps, found, near;
		ps.w = 1;
		for (near = 0; near < 2; near++)
		for (width = PEBBLE_BEAM_FIRST; width <= PEBBLE_BEAM_LAST;
		    width *= 4) {
			struct rp_seq q;
			double d = bd > 0 && !near ? now + (bd - now) / 2 : bd;
			memset(&q, 0, sizeof q);
			if (d > 0 && rp_now() > d)
				break;
			found = psearch_beam(&ps, width, near, d, &q, &steps);
			beam_last[near] = width;
			beam_rc[near] = found;
			rp_log(ctx, 2, "pebble: beam of %d%s: %s after %d steps",
			    width, near ? " (half nearest the start)" : "",
			    found == 1 ? "found a plan" : beam_end(found), steps);
			if (found == -2)
				break;	/* the wider beams are slower still */
			if (found == 1) {
				/* the windows below improve it further than
				 * wider beams would */
				struct rp_plan p;
				rp_plan_init(&p);
				rp_plan_from_seq(g, q.node, q.len, &p);
				rp_seq_destroy(&q);
				pstart_add(&starts, g, &p, near ? rp_xasprintf("a "
				    "beam search over the values held at once (at "
				    "each step back, half of %d sets of least cost "
				    "so far and to come, half of least cost to "
				    "come), A* having found no plan or only a "
				    "weighted one", width) : rp_xasprintf("a beam "
				    "search over the values held at once (the %d "
				    "sets of least cost so far and to come at each "
				    "step back), A* having found no plan or only a "
				    "weighted one", width));
				if (rp_best_offer(&best, prob, &p, rp_xstrdup(
				    starts.s[starts.n - 1].note), cause) != 0) {
					rc = -1;
					goto out;
				}
				break;
			}
			rp_seq_destroy(&q);
		}
	}
	if (other != NULL) {
		int had = starts.n;
		pstart_add(&starts, g, &other->plan, rp_xasprintf("the plan of "
		    "%s", other->strategy->name));
		if (starts.n > had)
			starts.s[starts.n - 1].other = 1;
	}
	/* Unless A* found the cheapest plan of its form: each plan found
	 * (pebble's weighted A*'s and beams', and the cheapest of the
	 * strategies run before it), cheapest first, searched again window
	 * by window, in all of the time left but the fill pass's share
	 * (PEBBLE_FILL_SHARE); an equal share each, what one leaves going to
	 * the next. Different plans lead the windows to different plans.
	 * Windows that stop gaining end before their deadline; where they
	 * still gain, the time is theirs: the strategies after pebble have
	 * their own share of the run (rp_run_strategies). */
	if (!exact) {
		double ld = ctx->deadline > 0 ? rp_now() + (ctx->deadline -
		    rp_now()) * (1 - PEBBLE_FILL_SHARE) : 0;
		int si, top = -1, gains[PEBBLE_STARTS], late[PEBBLE_STARTS];

		pstart_sort(&starts);
		/* each with the first effort, then the cheapest they gave with
		 * the efforts after it */
		for (si = 0; si < starts.n; si++) {
			struct pstart *s = &starts.s[si];
			double d = ld > 0 ? rp_now() + (ld - rp_now()) /
			    (starts.n - si + 1) : 0;
			late[si] = ld > 0 && rp_now() >= ld;	/* none ran */
			gains[si] = plns(&ps, &s->q, d, PEBBLE_WINDOW_EXP,
			    PEBBLE_WINDOW_EXP);
			s->cost = pseq_cost(g, &s->q);
			rp_log(ctx, 2, "pebble: windows over %s: %d gained",
			    s->note, gains[si]);
			if (gains[si] >= 0 && (top < 0 ||
			    s->cost < starts.s[top].cost))
				top = si;
		}
		if (top >= 0) {
			int more = plns(&ps, &starts.s[top].q, ld,
			    4 * PEBBLE_WINDOW_EXP, PEBBLE_WINDOW_EXP_LAST);
			rp_log(ctx, 2, "pebble: windows over %s, with more "
			    "work: %d gained", starts.s[top].note, more);
			if (more > 0)
				gains[top] += more;
		}
		/* each plan the windows improved is offered; another
		 * strategy's plan that they did not is not (the row would show
		 * that strategy's plan), but the note says it was searched */
		for (si = 0; si < starts.n; si++) {
			struct rp_plan p;
			const char *what = starts.s[si].note;
			if (gains[si] <= 0) {
				if (!starts.s[si].other)
					continue;
				if (late[si])
					unimproved = rp_xasprintf("; its windows "
					    "had no time left for %s", what);
				else if (gains[si] == 0)
					unimproved = rp_xasprintf("; its windows "
					    "over %s made it no cheaper", what);
				else
					unimproved = rp_xasprintf("; its windows "
					    "could not take %s as a path of their "
					    "sets", what);
				continue;
			}
			rp_plan_init(&p);
			rp_plan_from_seq(g, starts.s[si].q.node,
			    starts.s[si].q.len, &p);
			if (rp_best_offer(&best, prob, &p, rp_xasprintf("%s, "
			    "then %d window%s of its steps searched again by "
			    "A* for a cheaper way through", what, gains[si],
			    gains[si] == 1 ? "" : "s"), cause) != 0) {
				rc = -1;
				goto out;
			}
		}
	}
	/* Time left, at least as much as this pass took (or no limit): the
	 * pass again over the order of least peak, this pass's sets freed
	 * first (its plans are in best). */
	if (again && !exact && (ctx->deadline <= 0 ||
	    (ctx->deadline - rp_now()) * (1 - PEBBLE_FILL_SHARE) >=
	    rp_now() - started)) {
		psearch_release(&ps);
		if (pebble_reordered(prob, ctx, &best, cause) != 0) {
			rc = -1;
			goto out;
		}
	}
	if (best.have) {
		rp_best_take(&best, plan, note);
		*note = rp_polish(prob, plan, ctx->deadline, *note);
	} else if (beam_last[0] == 0)
		*note = rp_xasprintf("no plan found: the search ended %s",
		    astar_timed_out ? "at the time limit" : "at its limit of "
		    "work");
	else {
		char *nb = beam_last[1] == 0 ? rp_xstrdup("") : rp_xasprintf(
		    "; of %d to %d sets with half nearest the start, the widest "
		    "%s", PEBBLE_BEAM_FIRST, beam_last[1],
		    beam_end(beam_rc[1]));
		*note = rp_xasprintf("no plan found: A* ended %s, and beam "
		    "searches found none (of %d to %d sets, the widest %s%s)",
		    astar_timed_out ? "at the time limit" : "at its limit of "
		    "work", PEBBLE_BEAM_FIRST, beam_last[0],
		    beam_end(beam_rc[0]), nb);
		free(nb);
	}
	if (unimproved != NULL) {
		char *n = rp_xasprintf("%s%s", *note, unimproved);
		free(*note);
		*note = n;
	}
out:
	free(unimproved);
	rp_best_destroy(&best);
	pstart_free(&starts);
	psearch_release(&ps);
	return rc;
}

/* pebble ends at once where it does not run. */
static int
pebble_idle(const struct rp_problem *prob, const struct rp_options *opt,
    double seconds)
{
	(void)opt;
	(void)seconds;
	return prob->g->n > PEBBLE_MAX_NODES;
}

const struct rp_strategy rp_strategy_pebble = {
	"pebble",
	"A* over the sets of values held at once (the pebble game with "
	    "recomputation), any order: the cheapest plan of that form, or "
	    "within a weight of it where the budget is tight",
	0,
	1,
	pebble_run,
	pebble_idle,
};
