/* chen.c: Chen et al. (2016) sqrt(n) and greedy checkpointing, generalized
 * to DAGs as in Checkmate section 6.1 and appendix B.
 *
 * Checkpoint candidates are either the articulation points of the forward
 * graph (AP) or all forward nodes in execution order (linearized); the last
 * forward node (the loss) is never a candidate, the backward pass reads it
 * at once. Both candidate sets are tried and the better plan is kept.
 * Chosen checkpoints become a retention matrix S: forward values live until
 * their last forward reader; checkpoints, outputs, recompute=false nodes,
 * backward values and the segment after the last checkpoint live until their
 * last reader; every other segment is recomputed once, when the backward pass
 * first needs it, and kept while the backward pass reads it (Checkmate's
 * "ladders"). The R solver and plan generation of sched.c do the rest. */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gralg.h"
#include "sched.h"
#include "strategy.h"
#include "util.h"

enum { CAND_AP, CAND_LINEAR, CAND_SETS };

/* The longest plan tried, in computations per node: on graphs without a
 * forward chain (random DAGs), few checkpoints can make every stage
 * recompute a long cone, O(n^2) computations (100,000 nodes: 2.5 GB and
 * seconds for one plan); such a plan is not built. */
#define CHEN_MAX_PER_NODE 16

static const char *const cand_names[CAND_SETS] = {
	"articulation points", "linearized order"
};

struct chen {
	const struct rp_problem *pb;
	const struct rp_graph *g;
	int *cand[CAND_SETS];	/* candidate nodes, ascending */
	int ncand[CAND_SETS];
	int *lf;		/* last forward reader, -1 if none */
	int *fb, *lb;		/* first and last backward reader, -1 if none */
	int *last;		/* last reader, -1 if none */
	unsigned char *ck;	/* scratch: checkpoint flags */
	int *seg;		/* scratch: segment of each node */
	int *segL;		/* scratch: first backward stage of a segment */
	struct rp_retain *ret;	/* scratch: retentions, at most 2 per node */
	int skipped;		/* plans not built: too long (chen_try) */
	double deadline;	/* rp_now() time, <= 0: none */
	int late;		/* a plan was left unbuilt at the deadline */
};

/* Says in the note how many plans were too long to build. */
static void
note_skipped(const struct chen *c, struct rp_best *best)
{
	char *t;

	if (c->skipped == 0)
		return;
	t = best->note != NULL ? rp_xasprintf("%s (%d plan%s of more than %d "
	    "computations per node not built)", best->note, c->skipped,
	    c->skipped == 1 ? "" : "s", CHEN_MAX_PER_NODE) :
	    rp_xasprintf("every plan tried would compute more than %d times "
	    "the node count (%d not built)", CHEN_MAX_PER_NODE, c->skipped);
	free(best->note);
	best->note = t;
}

static void
chen_destroy(struct chen *c)
{
	int i;
	for (i = 0; i < CAND_SETS; i++)
		free(c->cand[i]);
	free(c->lf);
	free(c->fb);
	free(c->lb);
	free(c->last);
	free(c->ck);
	free(c->seg);
	free(c->segL);
	free(c->ret);
}

static int
chen_init(struct chen *c, const struct rp_problem *pb, char **cause)
{
	const struct rp_graph *g = pb->g;
	int n = g->n, v, j, lastfwd = -1, nf = 0, m = 0, *fidx, *es, *ed, *aps, naps;

	memset(c, 0, sizeof *c);
	c->pb = pb;
	c->g = g;
	c->lf = rp_xmalloc(sizeof *c->lf * (size_t)n);
	c->fb = rp_xmalloc(sizeof *c->fb * (size_t)n);
	c->lb = rp_xmalloc(sizeof *c->lb * (size_t)n);
	c->last = rp_xmalloc(sizeof *c->last * (size_t)n);
	c->ck = rp_xcalloc((size_t)n, 1);
	c->seg = rp_xmalloc(sizeof *c->seg * (size_t)n);
	c->segL = rp_xmalloc(sizeof *c->segL * ((size_t)n + 1));
	c->ret = rp_xmalloc(sizeof *c->ret * 2 * (size_t)n);
	for (v = 0; v < n; v++) {
		c->lf[v] = c->fb[v] = c->lb[v] = c->last[v] = -1;
		for (j = g->succ_off[v]; j < g->succ_off[v + 1]; j++) {
			int w = g->succ[j];	/* ascending */
			c->last[v] = w;
			if (g->kind[w] == RP_FORWARD)
				c->lf[v] = w;
			else {
				if (c->fb[v] < 0)
					c->fb[v] = w;
				c->lb[v] = w;
			}
		}
		if (g->kind[v] == RP_FORWARD) {
			lastfwd = v;
			nf++;
		}
	}

	/* Linearized candidates: forward nodes but the last. */
	c->cand[CAND_LINEAR] = rp_xmalloc(sizeof(int) * (size_t)(nf ? nf : 1));
	for (v = 0; v < n; v++)
		if (g->kind[v] == RP_FORWARD && v != lastfwd)
			c->cand[CAND_LINEAR][c->ncand[CAND_LINEAR]++] = v;

	/* AP candidates: cut vertices of the undirected forward graph. */
	fidx = rp_xmalloc(sizeof *fidx * (size_t)n);
	for (v = 0, j = 0; v < n; v++)
		fidx[v] = g->kind[v] == RP_FORWARD ? j++ : -1;
	es = rp_xmalloc(sizeof *es * (size_t)(g->m ? g->m : 1));
	ed = rp_xmalloc(sizeof *ed * (size_t)(g->m ? g->m : 1));
	for (v = 0; v < n; v++)
		for (j = g->succ_off[v]; j < g->succ_off[v + 1]; j++)
			if (fidx[v] >= 0 && fidx[g->succ[j]] >= 0) {
				es[m] = fidx[v];
				ed[m] = fidx[g->succ[j]];
				m++;
			}
	if (rp_gralg_articulation_points(nf, m, es, ed, &aps, &naps, cause) != 0) {
		free(fidx);
		free(es);
		free(ed);
		return -1;
	}
	{
		/* Map forward indices back to nodes (both ascending). */
		int *fnode = rp_xmalloc(sizeof *fnode * (size_t)(nf ? nf : 1));
		for (v = 0; v < n; v++)
			if (fidx[v] >= 0)
				fnode[fidx[v]] = v;
		c->cand[CAND_AP] = rp_xmalloc(sizeof(int) * (size_t)(naps ? naps : 1));
		for (j = 0; j < naps; j++)
			if (fnode[aps[j]] != lastfwd)
				c->cand[CAND_AP][c->ncand[CAND_AP]++] = fnode[aps[j]];
		free(fnode);
	}
	free(aps);
	free(fidx);
	free(es);
	free(ed);
	return 0;
}

/* Builds the retention matrix for the checkpoints in c->ck; returns the
 * number of retentions in c->ret. */
static int
chen_retention(struct chen *c)
{
	const struct rp_graph *g = c->g;
	int n = g->n, v, s = 0, lastck = -1, nr = 0;

	for (v = 0; v < n; v++) {
		c->seg[v] = s;
		if (c->ck[v]) {
			lastck = v;
			s++;
		}
		c->segL[v] = INT_MAX;
	}
	c->segL[n] = INT_MAX;
#define LADDER(v) (g->kind[v] == RP_FORWARD && !c->ck[v] && \
	g->recompute[v] && !g->output[v] && (v) < lastck && c->fb[v] >= 0)
	for (v = 0; v < n; v++)
		if (LADDER(v) && c->fb[v] < c->segL[c->seg[v]])
			c->segL[c->seg[v]] = c->fb[v];
	for (v = 0; v < n; v++) {
		if (g->output[v]) {
			c->ret[nr++] = (struct rp_retain){ v, v + 1, n };
		} else if (LADDER(v)) {
			int L = c->segL[c->seg[v]];
			if (c->lf[v] >= 0)
				c->ret[nr++] = (struct rp_retain){ v, v + 1, c->lf[v] };
			if (c->lb[v] >= L + 1)
				c->ret[nr++] = (struct rp_retain){ v, L + 1, c->lb[v] };
		} else if (c->last[v] >= 0) {
			c->ret[nr++] = (struct rp_retain){ v, v + 1, c->last[v] };
		}
	}
#undef LADDER
	return nr;
}

/* Plans for the current checkpoints and offers the plan to best. Takes
 * ownership of note. A plan longer than CHEN_MAX_PER_NODE per node is
 * counted in c->skipped instead. */
static int
chen_try(struct chen *c, struct rp_best *best, char *note, char **cause)
{
	struct rp_seq seq = { 0 };
	struct rp_plan plan;
	int nr = chen_retention(c);

	if (rp_solve_r_max(c->g, c->ret, nr, &seq, (long)CHEN_MAX_PER_NODE *
	    c->g->n, c->deadline) != 0) {
		rp_seq_destroy(&seq);
		free(note);
		if (c->deadline > 0 && rp_now() > c->deadline)
			c->late = 1;
		else
			c->skipped++;
		return 0;
	}
	rp_plan_init(&plan);
	rp_plan_from_seq(c->g, seq.node, seq.len, &plan);
	rp_seq_destroy(&seq);
	return rp_best_offer(best, c->pb, &plan, note, cause);
}

static int
chen_sqrtn_run(const struct rp_problem *pb, const struct rp_ctx *ctx,
    struct rp_plan *plan, char **note, double *bound, char **cause)
{
	struct chen c;
	struct rp_best best;
	int set, i, k, nck, rc = -1;

	rp_best_init(&best);
	if (chen_init(&c, pb, cause) != 0)
		goto out;
	for (set = 0; set < CAND_SETS; set++) {
		int nc = c.ncand[set];
		if (set == CAND_AP && nc == 0)
			continue;
		k = (int)floor(sqrt((double)nc));
		memset(c.ck, 0, (size_t)pb->g->n);
		for (i = 0, nck = 0; k > 0 && i < nc; i++)
			if ((i + 1) % k == 0) {
				c.ck[c.cand[set][i]] = 1;
				nck++;
			}
		if (chen_try(&c, &best, rp_xasprintf("%s: %d checkpoints of %d "
		    "candidates", cand_names[set], nck, nc), cause) != 0)
			goto out;
	}
	note_skipped(&c, &best);
	rp_best_take(&best, plan, note);
	rc = 0;
out:
	rp_best_destroy(&best);
	chen_destroy(&c);
	return rc;
}

/* Number of segment budgets tried per candidate set. */
#define GREEDY_STEPS 64

static int
chen_greedy_run(const struct rp_problem *pb, const struct rp_ctx *ctx,
    struct rp_plan *plan, char **note, double *bound, char **cause)
{
	const struct rp_graph *g = pb->g;
	struct chen c;
	struct rp_best best;
	double deadline = ctx->deadline;
	int set, i, step, rc = -1, stopped = 0;
	int64_t *block = NULL;
	unsigned char *prev = rp_xcalloc((size_t)g->n, 1);

	rp_best_init(&best);
	if (chen_init(&c, pb, cause) != 0)
		goto out;
	c.deadline = deadline;
	block = rp_xmalloc(sizeof *block * (size_t)(g->n ? g->n : 1));
	for (set = 0; set < CAND_SETS && !stopped; set++) {
		int nc = c.ncand[set], from = 0, nck;
		double lo = -1, hi = 0, b, temp;

		if (set == CAND_AP && nc == 0)
			continue;
		/* block[i]: forward bytes from the previous candidate
		 * (exclusive) up to candidate i (inclusive). */
		for (i = 0; i < nc; i++) {
			int v;
			block[i] = 0;
			for (v = from; v <= c.cand[set][i]; v++)
				if (g->kind[v] == RP_FORWARD)
					block[i] += g->mem[v];
			from = c.cand[set][i] + 1;
			if (block[i] > 0 && (lo < 0 || block[i] < lo))
				lo = (double)block[i];
			hi += (double)block[i];
		}
		if (lo < 0)
			lo = hi = 1;
		memset(prev, 2, (size_t)g->n);	/* matches no flag set */
		for (step = 0; step < GREEDY_STEPS; step++) {
			b = lo * pow(hi / lo, (double)step / (GREEDY_STEPS - 1));
			memset(c.ck, 0, (size_t)g->n);
			temp = 0;
			nck = 0;
			for (i = 0; i < nc; i++) {
				temp += (double)block[i];
				if (temp > b) {
					c.ck[c.cand[set][i]] = 1;
					nck++;
					temp = 0;
				}
			}
			if (memcmp(prev, c.ck, (size_t)g->n) == 0)
				continue;
			memcpy(prev, c.ck, (size_t)g->n);
			if (chen_try(&c, &best, rp_xasprintf("%s: %d checkpoints "
			    "of %d candidates", cand_names[set], nck, nc),
			    cause) != 0)
				goto out;
			if (c.late || (deadline > 0 && rp_now() > deadline)) {
				stopped = 1;
				break;
			}
		}
	}
	note_skipped(&c, &best);
	if (stopped && best.note != NULL) {
		char *t = rp_xasprintf("%s (search cut short by --time-limit)",
		    best.note);
		free(best.note);
		best.note = t;
	}
	rp_best_take(&best, plan, note);
	rc = 0;
out:
	rp_plan_destroy(&best.plan);
	free(best.note);
	free(block);
	free(prev);
	chen_destroy(&c);
	return rc;
}

const struct rp_strategy rp_strategy_chen_sqrtn = {
	"chen-sqrtn",
	"Chen et al. sqrt(n): every floor(sqrt(k))-th of k candidates is a checkpoint",
	0,
	0,
	chen_sqrtn_run,
	NULL,
};

const struct rp_strategy rp_strategy_chen_greedy = {
	"chen-greedy",
	"Chen et al. greedy: memory-balanced segments, segment budget searched",
	0,
	0,
	chen_greedy_run,
	NULL,
};
