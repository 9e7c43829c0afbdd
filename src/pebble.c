/* pebble.c: a proven lower bound on the smallest budget, by a search over
 * which needed value a plan makes last (see pebble.h).
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

#include <stdlib.h>
#include <string.h>

#include "pebble.h"
#include "util.h"

/* Work, in elements touched, for each node in the first round (four times
 * as much in each round after). */
#define PEBBLE_FIRST_WORK	(1L << 14)
/* Elements kept in the sets explored for one target (16 MiB). */
#define PEBBLE_MAX_ELEMS	(1L << 22)

struct pset {
	long off;		/* into elems */
	int len;
	int64_t key;		/* the best bottleneck found to reach it */
};

struct slot {
	int set;
	unsigned gen;
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
};

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static uint64_t
hash_set(const int *e, int len)
{
	uint64_t h = 1469598103934665603ULL;
	int i;

	for (i = 0; i < len; i++) {
		h ^= (uint64_t)(unsigned)e[i];
		h *= 1099511628211ULL;
	}
	return h ^ (uint64_t)len;
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

static void
table_rebuild(struct pebble *pb, size_t size)
{
	int i;

	free(pb->table);
	pb->tsize = size;
	pb->table = rp_xcalloc(size, sizeof *pb->table);
	pb->gen = 1;
	for (i = 0; i < pb->nsets; i++) {
		size_t h = hash_set(pb->elems + pb->sets[i].off,
		    pb->sets[i].len) & (size - 1);
		while (pb->table[h].gen == pb->gen)
			h = (h + 1) & (size - 1);
		pb->table[h].set = i;
		pb->table[h].gen = pb->gen;
	}
}

/* The index of the set e[0..len), added with key INT64_MAX when new; -1
 * when the elements kept would pass their limit. */
static int
find_set(struct pebble *pb, const int *e, int len)
{
	size_t h;
	int i;

	if ((size_t)(pb->nsets + 1) * 2 > pb->tsize)
		table_rebuild(pb, pb->tsize ? pb->tsize * 2 : 1024);
	h = hash_set(e, len) & (pb->tsize - 1);
	while (pb->table[h].gen == pb->gen) {
		i = pb->table[h].set;
		if (pb->sets[i].len == len && memcmp(pb->elems + pb->sets[i].off,
		    e, (size_t)len * sizeof *e) == 0)
			return i;
		h = (h + 1) & (pb->tsize - 1);
	}
	if (pb->nelems + len > PEBBLE_MAX_ELEMS)
		return -1;
	if (pb->nelems + len > pb->celems) {
		long c = pb->celems ? pb->celems : 4096;
		while (c < pb->nelems + len)
			c *= 2;
		pb->elems = rp_xreallocarray(pb->elems, (size_t)c,
		    sizeof *pb->elems);
		pb->celems = c;
	}
	memcpy(pb->elems + pb->nelems, e, (size_t)len * sizeof *e);
	rp_grow(&pb->sets, &pb->csets, pb->nsets + 1, sizeof *pb->sets);
	pb->sets[pb->nsets].off = pb->nelems;
	pb->sets[pb->nsets].len = len;
	pb->sets[pb->nsets].key = INT64_MAX;
	pb->nelems += len;
	pb->table[h].set = pb->nsets;
	pb->table[h].gen = pb->gen;
	return pb->nsets++;
}

/* Offers the set e[0..len) at key k; returns -1 when it cannot be kept. */
static int
offer(struct pebble *pb, const int *e, int len, int64_t k)
{
	struct hentry h;
	int64_t sum = 0;
	int i, s = find_set(pb, e, len);

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
		for (i = 0; i < n; i++)
			smem += g->mem[pb->elems[ps->off + i]];
		for (i = 0; i < n; i++) {
			/* the elements may move as sets are added */
			const int *e = pb->elems + pb->sets[top.set].off;
			int s = e[i], a = 0, b = pb->in_off[s], bend =
			    pb->in_off[s + 1], m = 0;
			int64_t umem = smem, step, k;

			while (a < n || b < bend) {
				int x;
				if (b >= bend || (a < n && e[a] < pb->in[b]))
					x = e[a++];
				else if (a >= n || pb->in[b] < e[a]) {
					x = pb->in[b++];
					umem += g->mem[x];
				} else {
					x = e[a++];
					b++;
				}
				if (x != s)
					pb->scratch[m++] = x;
			}
			pb->work += n + (bend - pb->in_off[s]);
			step = g->fixed_mem + umem + g->workspace[s];
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
			*need += g->mem[outs[j]];
		return nout;
	}
	*set = pb->in + pb->in_off[t];
	*need = g->fixed_mem + g->mem[t] + g->workspace[t];
	for (j = pb->in_off[t]; j < pb->in_off[t + 1]; j++)
		*need += g->mem[pb->in[j]];
	return pb->in_off[t + 1] - pb->in_off[t];
}

int64_t
rp_pebble_bound(const struct rp_graph *g, int64_t floor, long work,
    int *node)
{
	struct pebble pb;
	int64_t best = floor;
	long cap;
	int *alive, nalive = 0, *outs, nout = 0, v, i;

	*node = -2;
	if (g->n == 0)
		return floor;
	memset(&pb, 0, sizeof pb);
	pb.g = g;
	pb.in = rp_xcalloc((size_t)g->pred_off[g->n] + 1, sizeof *pb.in);
	pb.in_off = rp_xcalloc((size_t)g->n + 1, sizeof *pb.in_off);
	outs = rp_xcalloc((size_t)g->n, sizeof *outs);
	for (v = 0; v < g->n; v++) {
		int d = g->pred_off[v + 1] - g->pred_off[v];
		pb.in_off[v] = g->pred_off[v];
		memcpy(pb.in + g->pred_off[v], g->pred + g->pred_off[v],
		    (size_t)d * sizeof *pb.in);
		qsort(pb.in + g->pred_off[v], (size_t)d, sizeof *pb.in,
		    cmp_int);
		if (g->output[v])
			outs[nout++] = v;
	}
	pb.in_off[g->n] = g->pred_off[g->n];
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
	    work; cap *= 4) {
		int kept = 0;
		for (i = 0; i < nalive; i++) {
			const int *set;
			int64_t need, k;
			int len, exact, t = alive[i];

			if (pb.work >= work) {
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
	return best;
}
