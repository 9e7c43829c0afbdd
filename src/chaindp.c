/* chaindp.c: multi-level checkpointing over a chain of forward segments,
 * by dynamic programming.
 *
 * The forward nodes, in execution order, are cut into at most MAX_SEGS
 * segments; each backward node belongs to the segment whose forward values
 * it reads (the latest of them), moved earlier where a backward node it
 * reads belongs to an earlier one, so that the backward pass can run the
 * segments from the last to the first. On that chain, the dynamic program
 * of persistent multi-level checkpointing (Beaumont, Eyraud-Dubois,
 * Herrmann, Joly and Shilova, "Optimal checkpointing for heterogeneous
 * chains", 2019, the method of rotor) finds the cheapest schedule for every
 * amount of memory at once:
 *
 *   best(s, t, m): the least cost of running the backward pass of segments
 *   t down to s, with the boundary values entering segment s resident and m
 *   bytes for everything else. Either segment s runs forward keeping every
 *   value its backward pass reads, the rest is best(s+1, t, m - those), and
 *   then s runs backward; or segments s..s'-1 run forward keeping only
 *   what crosses into the next one, the boundary values entering s' are
 *   kept, and the cost is best(s', t, m - them) + best(s, s'-1, m).
 *
 * Memory per segment comes from walks over its nodes (the values that
 * cross a boundary, the peak of a forward run with and without keeping
 * values, the peak of its backward run, the gradients and outputs held
 * around it). The model is an approximation of the exact memory of a DAG,
 * on the safe side where boundaries overlap, so the schedule for each
 * amount of memory is turned into a compute sequence, made into a plan
 * (sched.h frees each value after its last reader) and replayed; a search
 * over the amount finds the largest that fits the budget as the simulator
 * judges it. Plans need not be frontier-advancing. */
#include "config.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "polish.h"
#include "sched.h"
#include "strategy.h"
#include "units.h"
#include "util.h"

/* Segments at most, and the size of the table: (MAX_SEGS^2 / 2) * (units
 * of memory + 1) entries of 6 bytes. */
#define MAX_SEGS 200
#define MAX_UNITS 512
#define MIN_UNITS 32
/* Inner-loop steps of the program that it may take (about a second on
 * the development machine); the memory grid is sized to stay within it. */
#define DP_STEPS 3.0e8
#define INF_COST 1e30f

struct cdp {
	const struct rp_problem *pb;
	const struct rp_graph *g;
	int L;			/* segments 1..L */
	int *seg;		/* per node: its segment */
	int *off, *nodes;	/* forward nodes of segment k: nodes[off[k]..off[k+1]) */
	int *boff, *bnodes;	/* backward nodes, the same way */
	unsigned char *late;	/* per node: an output computed at the end */
	int64_t *held;		/* per node: what deferring it holds instead */
	unsigned char *need0;	/* per node: computed by a forward run keeping
				 * nothing (it leads to a crossing value) */
	unsigned char *needa;	/* per node: computed by a forward run keeping
				 * what the backward pass reads */
	double *f0, *fa, *b;	/* per segment: costs of those runs */
	int64_t *xe;		/* xe[sp * (L + 1) + s], s < sp: bytes crossing
				 * into sp that do not cross into s */
	int64_t *pf0, *pfa;	/* peaks of the forward runs, beyond their input */
	int64_t *a;		/* bytes left by the keeping run */
	int64_t *al;		/* of those, bytes read by the backward run of
				 * the segment or an earlier one */
	int64_t *pbk;		/* peak of the backward run, with d[k] */
	int64_t *d;		/* d[k]: gradients held entering backward of k */
	int64_t *o;		/* o[k]: outputs of the backward runs of k+1..L */
	int64_t base;		/* fixed memory and forward outputs */

	/* The program: cost and choice for each interval and unit. */
	int M;			/* units 0..M */
	int64_t q;		/* bytes per unit */
	float *cost;
	short *choice;		/* 0: keep all of s; s': checkpoint at s'; -1: none */
	double deadline;

	/* The sequence being emitted. */
	struct rp_seq seq;
	unsigned char *done;	/* recompute=false nodes emitted once */
};

static void
cdp_destroy(struct cdp *c)
{
	free(c->seg);
	free(c->off);
	free(c->nodes);
	free(c->boff);
	free(c->bnodes);
	free(c->late);
	free(c->held);
	free(c->need0);
	free(c->needa);
	free(c->f0);
	free(c->fa);
	free(c->b);
	free(c->xe);
	free(c->pf0);
	free(c->pfa);
	free(c->a);
	free(c->al);
	free(c->pbk);
	free(c->d);
	free(c->o);
	free(c->cost);
	free(c->choice);
	free(c->done);
	rp_seq_destroy(&c->seq);
}

/* Index of the interval s..t (1 <= s <= t <= L) in the table. */
static size_t
ivl(const struct cdp *c, int s, int t)
{
	size_t len = (size_t)(t - s);
	/* Intervals grouped by length: L of length 0, L-1 of length 1, ... */
	size_t before = len * (size_t)c->L - len * (len - 1) / 2;
	return (before + (size_t)(s - 1)) * (size_t)(c->M + 1);
}

/* Bytes crossing into segment sp (s < sp) that do not cross into s: what
 * keeping the boundary of sp adds while that of s is kept. */
static int64_t
xe(const struct cdp *c, int s, int sp)
{
	return c->xe[(size_t)sp * (size_t)(c->L + 1) + (size_t)s];
}

/* Memory of bytes in units, rounded up; beyond M: M + 1. */
static int
units(const struct cdp *c, int64_t bytes)
{
	int64_t u;
	if (bytes <= 0)
		return 0;
	u = (bytes - 1) / c->q + 1;
	return u > c->M ? c->M + 1 : (int)u;
}

/* Cuts the forward nodes into segments: every forward node is its own when
 * there are at most MAX_SEGS of them; otherwise the order is cut into
 * MAX_SEGS windows and each window ends where the fewest bytes cross. */
static void
segment(struct cdp *c, const int *fwd, int nf, const int64_t *cross)
{
	int k, p, L = nf < MAX_SEGS ? nf : MAX_SEGS, lo = 0;

	c->off = rp_xmalloc(sizeof *c->off * ((size_t)L + 2));
	c->L = L;
	c->off[1] = 0;
	for (k = 1; k <= L; k++) {
		int hi = (int)((int64_t)nf * k / L), end = hi - 1;
		/* positions lo..hi-1; the last one of the chain ends it */
		if (k < L)
			for (p = hi - 1; p >= lo; p--)
				if (cross[p] < cross[end])
					end = p;
		for (p = lo; p <= end; p++)
			c->seg[fwd[p]] = k;
		c->off[k + 1] = end + 1;
		lo = end + 1;
	}
}

/* Walks the forward run of segment k over the nodes flagged in need, with
 * a value kept to the end of the run when keep says so (or it crosses into
 * a later segment), else freed after its last reader in the run. Returns
 * the peak beyond the run's input and sets *left to what stays. */
static int64_t
walk_forward(const struct cdp *c, int k, const unsigned char *need,
    const unsigned char *keep, const int *lastf, int64_t *left)
{
	const struct rp_graph *g = c->g;
	int i, j, end = c->off[k + 1] - 1;
	int64_t live = 0, peak = 0;

	for (i = c->off[k]; i <= end; i++) {
		int v = c->nodes[i];
		int64_t at;
		if (!need[v])
			continue;
		at = live + g->mem[v] + g->workspace[v];
		if (at > peak)
			peak = at;
		live += g->mem[v];
		/* free the inputs of this segment read for the last time */
		for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) {
			int u = g->pred[j];
			if (c->seg[u] == k && g->kind[u] == RP_FORWARD &&
			    !keep[u] && lastf[u] == v)
				live -= g->mem[u];
		}
		if (!keep[v] && lastf[v] < 0)
			live -= g->mem[v];
	}
	*left = live;
	return peak;
}

/* Builds the chain and the memory model. Returns 0, or 1 when the graph
 * has no forward or no backward pass to work on. */
static int
cdp_init(struct cdp *c, const struct rp_problem *pb)
{
	const struct rp_graph *g = pb->g;
	int n = g->n, v, j, k, nf = 0, L;
	int *fwd = rp_xmalloc(sizeof *fwd * (size_t)(n ? n : 1));
	int *pos = rp_xmalloc(sizeof *pos * (size_t)(n ? n : 1));
	int *lastf = rp_xmalloc(sizeof *lastf * (size_t)(n ? n : 1));
	int64_t *cross, *diff;
	unsigned char *keep0, *keepa;
	int nb = 0, rc = 1;

	c->pb = pb;
	c->g = g;
	c->seg = rp_xcalloc((size_t)(n ? n : 1), sizeof *c->seg);
	c->base = g->fixed_mem;
	for (v = 0; v < n; v++) {
		pos[v] = -1;
		if (g->kind[v] == RP_FORWARD) {
			pos[v] = nf;
			fwd[nf++] = v;
			if (g->output[v])
				c->base += g->mem[v];
		} else
			nb++;
	}
	if (nf == 0 || nb == 0)
		goto out;

	/* Bytes crossing each position of the forward order: a value is
	 * live from its position to its last forward reader's. */
	cross = rp_xcalloc((size_t)nf + 1, sizeof *cross);
	diff = rp_xcalloc((size_t)nf + 1, sizeof *diff);
	for (v = 0; v < n; v++) {
		int last = -1;
		if (pos[v] < 0)
			continue;
		for (j = g->succ_off[v]; j < g->succ_off[v + 1]; j++)
			if (pos[g->succ[j]] > last)
				last = pos[g->succ[j]];
		if (last > pos[v]) {
			diff[pos[v]] += g->mem[v];
			diff[last] -= g->mem[v];
		}
	}
	for (j = 0; j < nf; j++)
		cross[j] = (j > 0 ? cross[j - 1] : 0) + diff[j];
	free(diff);
	segment(c, fwd, nf, cross);
	free(cross);
	L = c->L;
	c->nodes = fwd;
	fwd = NULL;

	/* Backward segments: the latest segment of the forward values read,
	 * no later than that of any backward node read; none read: the last. */
	c->boff = rp_xcalloc((size_t)L + 2, sizeof *c->boff);
	c->bnodes = rp_xmalloc(sizeof *c->bnodes * (size_t)nb);
	c->late = rp_xcalloc((size_t)n, 1);
	c->held = rp_xcalloc((size_t)n, sizeof *c->held);
	for (v = 0; v < n; v++) {
		int hi = 0, lo = L;
		if (g->kind[v] == RP_FORWARD)
			continue;
		for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) {
			int u = g->pred[j];
			if (g->kind[u] == RP_FORWARD) {
				if (c->seg[u] > hi)
					hi = c->seg[u];
			} else if (c->seg[u] < lo)
				lo = c->seg[u];
		}
		c->seg[v] = hi > 0 && hi < lo ? hi : lo;
		/* An output that nothing reads, larger than its inputs (a
		 * weight gradient from two small tensors), is computed at the
		 * end instead: its inputs are held until then, not it. */
		if (g->output[v] && rp_nsucc(g, v) == 0) {
			int64_t in = 0;
			for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++)
				if (!g->output[g->pred[j]])
					in += g->mem[g->pred[j]];
			if (in < g->mem[v]) {
				c->late[v] = 1;
				c->held[v] = in;
				continue;
			}
		}
		c->boff[c->seg[v] + 1]++;
	}
	for (k = 1; k <= L; k++)
		c->boff[k + 1] += c->boff[k];
	{
		int *at = rp_xmalloc(sizeof *at * ((size_t)L + 2));
		memcpy(at, c->boff, sizeof *at * ((size_t)L + 2));
		for (v = 0; v < n; v++)
			if (g->kind[v] != RP_FORWARD && !c->late[v])
				c->bnodes[at[c->seg[v]]++] = v;
		free(at);
	}

	/* xe: a forward value crosses into segments seg(v)+1 .. the latest
	 * segment that reads it, forward or backward: the backward run of a
	 * segment reads it there, so forward runs keep it until then. */
	c->xe = rp_xcalloc(((size_t)L + 1) * ((size_t)L + 1), sizeof *c->xe);
	for (v = 0; v < n; v++) {
		int r = 0, sp;
		if (g->kind[v] != RP_FORWARD)
			continue;
		for (j = g->succ_off[v]; j < g->succ_off[v + 1]; j++)
			if (!c->late[g->succ[j]] && c->seg[g->succ[j]] > r)
				r = c->seg[g->succ[j]];
		for (sp = c->seg[v] + 1; sp <= r; sp++)
			c->xe[(size_t)sp * (size_t)(L + 1) + (size_t)c->seg[v]] +=
			    g->mem[v];
	}
	/* now sum: xe(s, sp) = values of segments s..sp-1 crossing into sp */
	for (k = 2; k <= L; k++) {
		int64_t *row = c->xe + (size_t)k * (size_t)(L + 1);
		for (j = k - 2; j >= 1; j--)
			row[j] += row[j + 1];
	}

	/* lastf[v]: the last forward reader of v in its own segment, -1 when
	 * none (v is then freed after its computation unless kept). */
	for (v = 0; v < n; v++) {
		lastf[v] = -1;
		if (g->kind[v] != RP_FORWARD)
			continue;
		for (j = g->succ_off[v]; j < g->succ_off[v + 1]; j++) {
			int w = g->succ[j];
			if (g->kind[w] == RP_FORWARD && c->seg[w] == c->seg[v])
				lastf[v] = w;
		}
	}

	/* What each forward run keeps and computes. keep0: read in a later
	 * segment (forward or backward); keepa: that, or read by a backward
	 * node, or an output. need: those and their ancestors within the
	 * segment. */
	c->need0 = rp_xcalloc((size_t)n, 1);
	c->needa = rp_xcalloc((size_t)n, 1);
	keep0 = rp_xcalloc((size_t)n, 1);
	keepa = rp_xcalloc((size_t)n, 1);
	for (v = 0; v < n; v++) {
		if (g->kind[v] != RP_FORWARD)
			continue;
		for (j = g->succ_off[v]; j < g->succ_off[v + 1]; j++) {
			int w = g->succ[j];
			if (!c->late[w] && c->seg[w] > c->seg[v])
				keep0[v] = keepa[v] = 1;
			else if (g->kind[w] != RP_FORWARD)
				keepa[v] = 1;
		}
		if (g->output[v] || !g->recompute[v])
			keepa[v] = 1;
		/* every node is computed once: the keeping run computes
		 * values nothing reads as well */
		if (rp_nsucc(g, v) == 0)
			c->needa[v] = 1;
	}
	for (k = L; k >= 1; k--)
		for (j = c->off[k + 1] - 1; j >= c->off[k]; j--) {
			int i, u;
			v = c->nodes[j];
			c->need0[v] |= keep0[v];
			c->needa[v] |= keepa[v];
			for (i = g->pred_off[v]; i < g->pred_off[v + 1]; i++) {
				u = g->pred[i];
				if (c->seg[u] != k)
					continue;
				c->need0[u] |= c->need0[v];
				c->needa[u] |= c->needa[v];
			}
		}

	c->f0 = rp_xcalloc((size_t)L + 1, sizeof *c->f0);
	c->fa = rp_xcalloc((size_t)L + 1, sizeof *c->fa);
	c->b = rp_xcalloc((size_t)L + 1, sizeof *c->b);
	c->pf0 = rp_xcalloc((size_t)L + 1, sizeof *c->pf0);
	c->pfa = rp_xcalloc((size_t)L + 1, sizeof *c->pfa);
	c->a = rp_xcalloc((size_t)L + 1, sizeof *c->a);
	c->pbk = rp_xcalloc((size_t)L + 1, sizeof *c->pbk);
	c->d = rp_xcalloc((size_t)L + 2, sizeof *c->d);
	c->o = rp_xcalloc((size_t)L + 2, sizeof *c->o);
	for (k = 1; k <= L; k++) {
		int64_t left;
		for (j = c->off[k]; j < c->off[k + 1]; j++) {
			v = c->nodes[j];
			if (c->need0[v])
				c->f0[k] += g->cost[v];
			if (c->needa[v])
				c->fa[k] += g->cost[v];
		}
		c->pf0[k] = walk_forward(c, k, c->need0, keep0, lastf, &left);
		c->pfa[k] = walk_forward(c, k, c->needa, keepa, lastf, &c->a[k]);
	}
	c->al = rp_xcalloc((size_t)L + 1, sizeof *c->al);
	for (v = 0; v < n; v++) {
		int r = INT_MAX;
		if (g->kind[v] != RP_FORWARD || !keepa[v])
			continue;
		for (j = g->succ_off[v]; j < g->succ_off[v + 1]; j++) {
			int w = g->succ[j];
			if (g->kind[w] != RP_FORWARD && !c->late[w] &&
			    c->seg[w] < r)
				r = c->seg[w];
		}
		if (r <= c->seg[v] || g->output[v] || !g->recompute[v])
			c->al[c->seg[v]] += g->mem[v];
	}

	/* Backward: gradients held across segments (d), outputs (o), and the
	 * peak of each backward run (with the gradients it finds, beyond its
	 * forward values and the outputs). lo[v]: the earliest segment that
	 * reads backward value v (0: read at the end), lastin[v]: its last
	 * reader there. */
	{
		int *lo = rp_xmalloc(sizeof *lo * (size_t)n);
		int *lastin = rp_xmalloc(sizeof *lastin * (size_t)n);
		diff = rp_xcalloc((size_t)L + 2, sizeof *diff);
		for (v = 0; v < n; v++) {
			int s = c->seg[v];
			lo[v] = s;
			lastin[v] = -1;
			if (g->kind[v] == RP_FORWARD)
				continue;
			if (g->output[v]) {
				int64_t b = c->late[v] ? c->held[v] : g->mem[v];
				diff[0] += b;	/* o[k] for k < s */
				diff[s] -= b;
				continue;
			}
			for (j = g->succ_off[v]; j < g->succ_off[v + 1]; j++) {
				int w = g->succ[j], r = c->late[w] ? 0 : c->seg[w];
				if (r < lo[v]) {
					lo[v] = r;
					lastin[v] = -1;
				}
				if (r == lo[v])
					lastin[v] = w;
			}
			/* held entering the backward runs lo..s-1 */
			for (k = lo[v] > 0 ? lo[v] : s; k < s; k++)
				c->d[k] += g->mem[v];
		}
		for (k = 0; k <= L; k++)
			c->o[k] = (k > 0 ? c->o[k - 1] : 0) + diff[k];
		free(diff);
		for (k = 1; k <= L; k++) {
			int64_t live = c->d[k], peak = live, at;
			for (j = c->boff[k]; j < c->boff[k + 1]; j++) {
				int i;
				v = c->bnodes[j];
				c->b[k] += g->cost[v];
				at = live + g->mem[v] + g->workspace[v];
				if (at > peak)
					peak = at;
				live += g->mem[v];
				for (i = g->pred_off[v]; i < g->pred_off[v + 1]; i++) {
					int u = g->pred[i];
					if (g->kind[u] != RP_FORWARD &&
					    !g->output[u] && lo[u] == k &&
					    lastin[u] == v)
						live -= g->mem[u];
				}
				if (rp_nsucc(g, v) == 0 && !g->output[v])
					live -= g->mem[v];
			}
			c->pbk[k] = peak;
		}
		free(lo);
		free(lastin);
	}
	rc = 0;
	free(keep0);
	free(keepa);
out:
	free(fwd);
	free(pos);
	free(lastf);
	return rc;
}

/* Fills the table for every interval and every unit of memory. Returns 0,
 * or 1 when the deadline passed first. */
static int
cdp_solve(struct cdp *c)
{
	int L = c->L, M = c->M, len, s, t, sp, m;
	int *ua = rp_xmalloc(sizeof *ua * ((size_t)L + 1));

	for (s = 0; s <= L; s++)
		ua[s] = units(c, c->a[s]);
	for (len = 0; len < L; len++) {
		if (c->deadline > 0 && rp_now() > c->deadline) {
			free(ua);
			return 1;
		}
		for (s = 1; s + len <= L; s++) {
			float *best;
			short *ch;
			int64_t held;
			int lo;
			t = s + len;
			best = c->cost + ivl(c, s, t);
			ch = c->choice + ivl(c, s, t);
			for (m = 0; m <= M; m++) {
				best[m] = INF_COST;
				ch[m] = -1;
			}
			held = c->o[t] + c->d[t];
			/* Keep all of s, then the rest, then backward of s. */
			{
				int64_t need = held + c->pfa[s];
				int64_t after = c->o[s] + c->al[s] + c->pbk[s];
				if (after > need)
					need = after;
				lo = units(c, need);
				if (s == t) {
					float v = (float)(c->fa[s] + c->b[s]);
					for (m = lo; m <= M; m++) {
						best[m] = v;
						ch[m] = 0;
					}
				} else {
					const float *rest = c->cost + ivl(c, s + 1, t);
					float v = (float)(c->fa[s] + c->b[s]);
					if (lo < ua[s])
						lo = ua[s];
					for (m = lo; m <= M; m++) {
						float w = v + rest[m - ua[s]];
						if (w < best[m]) {
							best[m] = w;
							ch[m] = 0;
						}
					}
				}
			}
			/* Run s..sp-1 forward keeping nothing, keep what enters
			 * sp, solve sp..t, then s..sp-1. */
			{
				int64_t chain = 0;
				double fc = 0;
				for (sp = s + 1; sp <= t; sp++) {
					const float *right = c->cost + ivl(c, sp, t);
					const float *left = c->cost + ivl(c, s, sp - 1);
					int64_t step = c->pf0[sp - 1] +
					    (sp - 1 > s ? xe(c, s, sp - 1) : 0);
					float fv;
					int u = units(c, xe(c, s, sp));
					if (step > chain)
						chain = step;
					fc += c->f0[sp - 1];
					fv = (float)fc;
					lo = units(c, held + chain);
					if (lo < u)
						lo = u;
					for (m = lo; m <= M; m++) {
						float w = fv + right[m - u] + left[m];
						if (w < best[m]) {
							best[m] = w;
							ch[m] = (short)sp;
						}
					}
				}
			}
		}
	}
	free(ua);
	return 0;
}

static void
emit_forward(struct cdp *c, int k, const unsigned char *need)
{
	const struct rp_graph *g = c->g;
	int j;
	for (j = c->off[k]; j < c->off[k + 1]; j++) {
		int v = c->nodes[j];
		if (!need[v])
			continue;
		if (!g->recompute[v]) {
			if (c->done[v])
				continue;
			c->done[v] = 1;
		}
		rp_seq_push(&c->seq, v);
	}
}

static void
emit_backward(struct cdp *c, int k)
{
	int j;
	for (j = c->boff[k]; j < c->boff[k + 1]; j++)
		rp_seq_push(&c->seq, c->bnodes[j]);
}

/* Emits the schedule of best(s, t, m); the entry must be finite. */
static void
emit(struct cdp *c, int s, int t, int m)
{
	int sp, k;

	while (s <= t) {
		sp = c->choice[ivl(c, s, t) + (size_t)m];
		if (sp == 0) {
			emit_forward(c, s, c->needa);
			if (s < t)
				emit(c, s + 1, t, m - units(c, c->a[s]));
			emit_backward(c, s);
			return;
		}
		for (k = s; k < sp; k++)
			emit_forward(c, k, c->need0);
		emit(c, sp, t, m - units(c, xe(c, s, sp)));
		t = sp - 1;	/* then best(s, sp-1, m) */
	}
}

/* The plan for m units, replayed into sim: returns 0, 1 when the program
 * has no schedule for m, or -1 with *cause set when the simulator rejects
 * the plan. */
static int
plan_at(struct cdp *c, int m, struct rp_plan *plan, struct rp_sim *sim,
    char **cause)
{
	const struct rp_graph *g = c->g;
	int v;

	if (c->cost[ivl(c, 1, c->L) + (size_t)m] >= INF_COST)
		return 1;
	c->seq.len = 0;
	memset(c->done, 0, (size_t)g->n);
	emit(c, 1, c->L, m);
	for (v = 0; v < g->n; v++)
		if (c->late[v])
			rp_seq_push(&c->seq, v);
	rp_plan_init(plan);
	rp_plan_from_seq(g, c->seq.node, c->seq.len, plan);
	if (rp_simulate(g, plan, sim) != 0) {
		*cause = rp_xasprintf("chain-dp made an invalid plan: %s",
		    sim->error);
		rp_sim_destroy(sim);
		rp_plan_destroy(plan);
		return -1;
	}
	return 0;
}

static int
late(const struct cdp *c)
{
	return c->deadline > 0 && rp_now() > c->deadline;
}

/* Tries the schedule for m units: offers it to best, and says whether it
 * fits (1), does not (0), does not exist (2), or -1 on internal failure. */
static int
try_units(struct cdp *c, int m, struct rp_best *best, char **cause)
{
	struct rp_plan plan;
	struct rp_sim sim;
	char unit[32];
	int rc = plan_at(c, m, &plan, &sim, cause), fits;

	if (rc != 0)
		return rc < 0 ? -1 : 2;
	fits = rp_fits(c->pb, sim.peak);
	rp_sim_destroy(&sim);
	rp_format_bytes((int64_t)m * c->q + c->base, unit, sizeof unit);
	if (rp_best_offer(best, c->pb, &plan, rp_xasprintf("%d segments, "
	    "the schedule for %s in its model", c->L, unit), cause) != 0)
		return -1;
	return fits;
}

/* The memory grid for pb's budget: M units of *q bytes. The grid covers
 * what the model says the schedule that keeps all of every segment needs,
 * when that is more than the budget: the model errs on the safe side, and
 * the plans for such amounts may still fit. So below that amount the grid,
 * and the program over it, do not depend on the budget. Returns -1 when
 * the budget is below the fixed memory and the forward outputs. */
static int
grid(const struct cdp *c, const struct rp_problem *pb, int *M, int64_t *q)
{
	int L = c->L, k;
	double per_unit = (double)L * L * L / 6.0;
	int64_t range = pb->budget - c->base, held = 0, all = 0, need;

	/* As many units of memory as the program's steps allow: about
	 * L^3 / 6 of them per unit. */
	*M = (int)(DP_STEPS / (per_unit > 1 ? per_unit : 1));
	if (*M > MAX_UNITS)
		*M = MAX_UNITS;
	if (*M < MIN_UNITS)
		*M = MIN_UNITS;
	if (range <= 0)
		return -1;
	for (k = 1; k <= L; k++) {
		need = c->o[L] + c->d[L] + c->pfa[k];
		if (c->o[k] + c->al[k] + c->pbk[k] > need)
			need = c->o[k] + c->al[k] + c->pbk[k];
		if (held + need > all)
			all = held + need;
		held += c->a[k];
	}
	if (all > range)
		range = all;
	range += range / 16;
	*q = (range - 1) / *M + 1;
	return 0;
}

static void
cdp_release(void *p)
{
	cdp_destroy(p);
	free(p);
}

static int
chaindp_run(const struct rp_problem *pb, const struct rp_ctx *ctx,
    struct rp_plan *plan, char **note, double *bound, char **cause)
{
	const struct rp_graph *g = pb->g;
	struct rp_cache *cache = ctx->shared != NULL ? ctx->shared->cache :
	    NULL;
	struct cdp *c = cache != NULL ? cache->slot[RP_CACHE_CHAIN_DP] : NULL;
	struct rp_best best;
	int rc = -1, lo, hi, m, r, L, k, M, fresh = 0;
	int64_t q;
	double cells;

	(void)bound;
	rp_best_init(&best);
	/* A sweep keeps the program solved for an earlier budget: the same
	 * graph and grid give the same program. */
	if (c == NULL || c->g != g || grid(c, pb, &M, &q) != 0 || M != c->M ||
	    q != c->q) {
		fresh = 1;
		c = rp_xcalloc(1, sizeof *c);
		if (cdp_init(c, pb) != 0) {
			*note = rp_xstrdup("no forward or no backward pass");
			rc = 0;
			goto out;
		}
	}
	c->pb = pb;
	c->deadline = ctx->deadline;
	L = c->L;
	if (fresh) {
		if (grid(c, pb, &c->M, &c->q) != 0) {
			char held[32];
			rp_format_bytes(c->base, held, sizeof held);
			*note = rp_xasprintf("the budget is below the fixed "
			    "memory and the forward outputs (%s)", held);
			rc = 0;
			goto out;
		}
		cells = (double)L * (L + 1) / 2 * (c->M + 1);
		c->cost = rp_xmalloc(sizeof *c->cost * (size_t)cells);
		c->choice = rp_xmalloc(sizeof *c->choice * (size_t)cells);
		c->done = rp_xcalloc((size_t)g->n, 1);
	}
	if (ctx->opt != NULL && ctx->opt->verbose) {
		char unit[32];
		rp_format_bytes(c->q, unit, sizeof unit);
		rp_log(ctx, 1, "chain-dp: %d segments, %d units of %s%s", L,
		    c->M, unit, fresh ? "" : " (solved for an earlier budget)");
	}
	if (fresh && cdp_solve(c) != 0) {
		*note = rp_xasprintf("stopped at the time limit (--time-limit) "
		    "in the dynamic program over %d segments", L);
		rc = 0;
		goto out;
	}
	if (fresh && cache != NULL) {
		rp_cache_put(cache, RP_CACHE_CHAIN_DP, c, cdp_release);
		fresh = 0;
	}

	/* The largest amount whose plan fits: plans for more memory use
	 * more, mostly, so by bisection between the least amount with a
	 * schedule and the whole grid; then its neighbours, since fitting is
	 * not monotone in the amount. */
	for (m = 0; m <= c->M && c->cost[ivl(c, 1, L) + (size_t)m] >= INF_COST;
	    m++)
		;
	lo = -1;		/* largest known to fit */
	hi = c->M + 1;		/* smallest known not to fit */
	if (m <= c->M) {
		if ((r = try_units(c, m, &best, cause)) < 0)
			goto out;
		if (r == 1)
			lo = m;
	}
	if (lo >= 0 && lo < c->M) {
		if ((r = try_units(c, c->M, &best, cause)) < 0)
			goto out;
		if (r == 1)
			lo = c->M;
		else
			hi = c->M;
	}
	while (lo >= 0 && hi - lo > 1 && !late(c)) {
		int mid = lo + (hi - lo) / 2;
		if ((r = try_units(c, mid, &best, cause)) < 0)
			goto out;
		if (r == 1)
			lo = mid;
		else
			hi = mid;
	}
	for (k = 1; lo >= 0 && k <= 4 && !late(c); k++) {
		if (lo - k >= 0 && try_units(c, lo - k, &best, cause) < 0)
			goto out;
		if (lo + k <= c->M && try_units(c, lo + k, &best, cause) < 0)
			goto out;
	}
	if (late(c) && best.note != NULL) {
		char *t = rp_xasprintf("%s (search cut short by --time-limit)",
		    best.note);
		free(best.note);
		best.note = t;
	}
	rp_best_take(&best, plan, note);
	*note = rp_polish(pb, plan, ctx->deadline, *note);
	if (*note == NULL)
		*note = rp_xasprintf("no schedule over %d segments fits", L);
	rc = 0;
out:
	rp_best_destroy(&best);
	if (fresh)
		cdp_release(c);
	else
		c->pb = NULL;	/* the cache outlives this problem */
	return rc;
}

const struct rp_strategy rp_strategy_chain_dp = {
	"chain-dp",
	"multi-level checkpointing over a chain of forward segments, by "
	    "dynamic program (rotor's), plans replayed to fit",
	0,
	0,
	chaindp_run,
	NULL,
};
