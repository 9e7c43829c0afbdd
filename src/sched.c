/* sched.c: the R-given-S solver and plan generation. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sched.h"
#include "util.h"

void
rp_seq_push(struct rp_seq *q, int node)
{
	rp_grow(&q->node, &q->cap, q->len + 1, sizeof *q->node);
	q->node[q->len++] = node;
}

void
rp_seq_destroy(struct rp_seq *q)
{
	free(q->node);
	memset(q, 0, sizeof *q);
}

static int
cmp_retain(const void *a, const void *b)
{
	const struct rp_retain *x = a, *y = b;
	if (x->node != y->node)
		return (x->node > y->node) - (x->node < y->node);
	return (x->from > y->from) - (x->from < y->from);
}

/* Sorts, clamps to lower-triangular form and merges overlapping or adjacent
 * intervals of the same node. Returns the new count. */
static int
retain_normalize(const struct rp_graph *g, struct rp_retain *s, int ns)
{
	int i, k = 0;

	for (i = 0; i < ns; i++) {
		if (s[i].from < s[i].node + 1)
			s[i].from = s[i].node + 1;
		if (s[i].to > g->n)
			s[i].to = g->n;
	}
	qsort(s, (size_t)ns, sizeof *s, cmp_retain);
	for (i = 0; i < ns; i++) {
		if (s[i].from > s[i].to)
			continue;
		if (k > 0 && s[k - 1].node == s[i].node &&
		    s[i].from <= s[k - 1].to + 1) {
			if (s[i].to > s[k - 1].to)
				s[k - 1].to = s[i].to;
			continue;
		}
		s[k++] = s[i];
	}
	return k;
}

/* Bucket lists of retention indices by stage (CSR over stages 0..n+1). */
static void
bucket(int nstages, int ns, const struct rp_retain *s, int by_end,
    int **offp, int **idxp)
{
	int *off = rp_xcalloc((size_t)nstages + 2, sizeof *off);
	int *idx = rp_xmalloc(sizeof *idx * (size_t)(ns ? ns : 1));
	int *pos, i, t;

	for (i = 0; i < ns; i++) {
		t = by_end ? s[i].to + 1 : s[i].from;
		off[t + 1]++;
	}
	for (t = 0; t <= nstages; t++)
		off[t + 1] += off[t];
	pos = rp_xmalloc(sizeof *pos * ((size_t)nstages + 1));
	memcpy(pos, off, sizeof *pos * ((size_t)nstages + 1));
	for (i = 0; i < ns; i++) {
		t = by_end ? s[i].to + 1 : s[i].from;
		idx[pos[t]++] = i;
	}
	free(pos);
	*offp = off;
	*idxp = idx;
}

void
rp_solve_r(const struct rp_graph *g, struct rp_retain *s, int ns,
    struct rp_seq *out)
{
	(void)rp_solve_r_max(g, s, ns, out, 0, 0);
}

int
rp_solve_r_max(const struct rp_graph *g, struct rp_retain *s, int ns,
    struct rp_seq *out, long max, double deadline)
{
	int n = g->n, t, i, j, k, sp, nmark, lo, hi, w, rc = 0;
	int *soff, *sidx, *eoff, *eidx;
	uint64_t *bits = rp_xcalloc((size_t)n / 64 + 1, sizeof *bits);
	unsigned char *res = rp_xcalloc((size_t)n, 1);
	int *mark = rp_xmalloc(sizeof *mark * (size_t)n);
	int *stack = rp_xmalloc(sizeof *stack * (size_t)n);
	int *marked = rp_xmalloc(sizeof *marked * (size_t)n);

	ns = retain_normalize(g, s, ns);
	bucket(n + 1, ns, s, 0, &soff, &sidx);
	bucket(n + 1, ns, s, 1, &eoff, &eidx);
	for (i = 0; i < n; i++)
		mark[i] = -1;
	for (t = 0; t < n; t++) {
		/* Retentions ending at t-1 stop, those from t start. A value that
		 * must not be recomputed stays from its computation on, whatever
		 * S says: plan generation frees it after its last reader. */
		for (i = eoff[t]; i < eoff[t + 1]; i++)
			if (g->recompute[s[eidx[i]].node])
				res[s[eidx[i]].node] = 0;
		for (i = soff[t]; i < soff[t + 1]; i++)
			res[s[sidx[i]].node] = 1;
		if (t > 0 && !g->recompute[t - 1])
			res[t - 1] = 1;
		/* Stage t computes t, and materializes every value retained
		 * from t+1 that is not resident now (constraint 1c). */
		sp = 0;
		nmark = 0;
		mark[t] = t;
		stack[sp++] = t;
		marked[nmark++] = t;
		for (i = soff[t + 1]; i < soff[t + 2]; i++) {
			k = s[sidx[i]].node;
			if (!res[k] && mark[k] != t) {
				mark[k] = t;
				stack[sp++] = k;
				marked[nmark++] = k;
			}
		}
		/* Every input of a computed value must be resident or computed
		 * earlier in the stage (constraint 1b). */
		while (sp > 0) {
			int v = stack[--sp];
			for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) {
				int u = g->pred[j];
				if (res[u] || mark[u] == t)
					continue;
				mark[u] = t;
				stack[sp++] = u;
				marked[nmark++] = u;
			}
		}
		if ((max > 0 && (long)out->len + nmark > max) ||
		    (deadline > 0 && (t & 1023) == 1023 && rp_now() > deadline)) {
			rc = -1;	/* longer, or later, than the caller wants */
			break;
		}
		/* In node order; where the range of the nodes marked is
		 * short beside their count, their bits are read out instead
		 * of sorted (a stage that recomputes much of what came before
		 * it). */
		lo = hi = t;
		for (i = 0; i < nmark; i++) {
			if (marked[i] < lo)
				lo = marked[i];
			if (marked[i] > hi)
				hi = marked[i];
		}
		rp_grow(&out->node, &out->cap, out->len + nmark,
		    sizeof *out->node);
		if (nmark > 16 && (hi - lo) / 64 < 4 * nmark) {
			for (i = 0; i < nmark; i++)
				bits[marked[i] / 64] |= 1ULL << (marked[i] % 64);
			for (w = lo / 64; w <= hi / 64; w++)
				while (bits[w] != 0) {
					out->node[out->len++] = w * 64 +
					    __builtin_ctzll(bits[w]);
					bits[w] &= bits[w] - 1;
				}
		} else {
			rp_sort_ints(marked, nmark);
			memcpy(out->node + out->len, marked,
			    sizeof *marked * (size_t)nmark);
			out->len += nmark;
		}
	}
	free(soff);
	free(sidx);
	free(eoff);
	free(eidx);
	free(res);
	free(mark);
	free(stack);
	free(marked);
	free(bits);
	return rc;
}

void
rp_plan_from_seq(const struct rp_graph *g, const int *seq, int len,
    struct rp_plan *out)
{
	int n = g->n, i, j, v, k, nkeep = 0;
	unsigned char *needed = rp_xcalloc((size_t)n, 1);
	unsigned char *keep = rp_xcalloc((size_t)(len ? len : 1), 1);
	int *first = rp_xmalloc(sizeof *first * (size_t)n);
	int *cur = rp_xmalloc(sizeof *cur * (size_t)n);
	int *kept = rp_xmalloc(sizeof *kept * (size_t)(len ? len : 1));
	int *last_read, *foff, *fregs;

	/* Keep the first computation of every node, the last one of every
	 * output, and any computation whose value is read before the node is
	 * computed again; drop the rest (reverse pass). */
	for (v = 0; v < n; v++)
		first[v] = -1;
	for (i = 0; i < len; i++)
		if (first[seq[i]] < 0)
			first[seq[i]] = i;
	for (v = 0; v < n; v++)
		needed[v] = g->output[v];
	for (i = len - 1; i >= 0; i--) {
		v = seq[i];
		if (!needed[v] && first[v] != i)
			continue;
		keep[i] = 1;
		needed[v] = 0;
		for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++)
			needed[g->pred[j]] = 1;
	}
	for (i = 0; i < len; i++)
		if (keep[i])
			kept[nkeep++] = seq[i];

	/* Register k holds the k-th kept computation; find its last reader. */
	last_read = rp_xmalloc(sizeof *last_read * (size_t)(nkeep ? nkeep : 1));
	for (v = 0; v < n; v++)
		cur[v] = -1;
	for (k = 0; k < nkeep; k++) {
		v = kept[k];
		last_read[k] = -1;
		for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++)
			last_read[cur[g->pred[j]]] = k;
		cur[v] = k;
	}
	/* Free register k after statement last_read[k], or right after its
	 * own computation when nothing reads it; final outputs stay. */
	foff = rp_xcalloc((size_t)nkeep + 1, sizeof *foff);
	fregs = rp_xmalloc(sizeof *fregs * (size_t)(nkeep ? nkeep : 1));
	for (k = 0; k < nkeep; k++) {
		v = kept[k];
		if (g->output[v] && cur[v] == k) {
			last_read[k] = -2;
			continue;
		}
		if (last_read[k] < 0)
			last_read[k] = k;
		foff[last_read[k] + 1]++;
	}
	for (k = 0; k < nkeep; k++)
		foff[k + 1] += foff[k];
	{
		int *pos = rp_xmalloc(sizeof *pos * (size_t)(nkeep ? nkeep : 1));
		memcpy(pos, foff, sizeof *pos * (size_t)nkeep);
		for (k = 0; k < nkeep; k++)
			if (last_read[k] >= 0)
				fregs[pos[last_read[k]]++] = k;
		free(pos);
	}
	for (k = 0; k < nkeep; k++) {
		rp_plan_add_compute(out, kept[k], k);
		for (i = foff[k]; i < foff[k + 1]; i++)
			rp_plan_add_free(out, fregs[i]);
	}
	free(needed);
	free(keep);
	free(first);
	free(cur);
	free(kept);
	free(last_read);
	free(foff);
	free(fregs);
}
