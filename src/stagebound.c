/* stagebound.c: the stage memory bound (see stagebound.h). */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "mip.h"
#include "stagebound.h"
#include "util.h"

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

double
rp_stage_bound(const struct rp_problem *pb, int *stage)
{
	const struct rp_graph *g = pb->g;
	int n = g->n, v, t, j, k, nr = 0;
	size_t sz = (size_t)(n ? n : 1);
	int *last = rp_xmalloc(sizeof *last * sz);
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
	/* A value crosses stage t when a later node reads it, or it is an
	 * output: last[v] is its last reader, n for an output. */
	for (v = 0; v < n; v++) {
		last[v] = v;
		for (j = g->succ_off[v]; j < g->succ_off[v + 1]; j++)
			if (g->succ[j] > last[v])
				last[v] = g->succ[j];
		if (g->output[v])
			last[v] = n;
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
	free(last);
	free(rank);
	free(byrank);
	free(boff);
	free(bnode);
	free(seen);
	free(in);
	free(f.mem);
	free(f.cost);
	if (isinf(extra))
		return INFINITY;
	extra += pb->baseline;
	return rp_mip_round_bound(rp_graph_int_cost(g), extra);
}
