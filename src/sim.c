/* sim.c: plan replay under the memory model; minimum budget. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "util.h"

void
rp_sim_destroy(struct rp_sim *s)
{
	free(s->error);
	s->error = NULL;
}

/* The name of register r for messages. */
static char *
reg_name(const struct rp_plan *p, int r)
{
	if (p->regname != NULL && r >= 0 && r < p->nregs && p->regname[r] != NULL)
		return rp_xstrdup(p->regname[r]);
	return rp_xasprintf("%d", r);
}

int
rp_simulate(const struct rp_graph *g, const struct rp_plan *p, struct rp_sim *out)
{
	return rp_simulate_mem(g, p, out, NULL);
}

int
rp_simulate_mem(const struct rp_graph *g, const struct rp_plan *p,
    struct rp_sim *out, int64_t *mem)
{
	int *reg_node = rp_xmalloc(sizeof *reg_node * (size_t)(p->nregs ? p->nregs : 1));
	int *live = rp_xcalloc((size_t)g->n, sizeof *live);
	int *computed = rp_xcalloc((size_t)g->n, sizeof *computed);
	/* A plan may hold a node in many registers at once: sums are kept
	 * in 128 bits and the peak saturates, so any plan can be replayed. */
	__int128 cur = g->fixed_mem, during;
	int i, j, v, r;
	char *rn;

	memset(out, 0, sizeof *out);
	out->bad_stmt = -1;
	out->peak = g->fixed_mem;
	out->peak_stmt = -1;
	for (r = 0; r < p->nregs; r++)
		reg_node[r] = -1;
	for (i = 0; i < p->len; i++) {
		const struct rp_stmt *s = &p->s[i];
		r = s->reg;
		if (r < 0 || r >= p->nregs) {
			out->error = rp_xasprintf("register %d is out of range", r);
			goto bad;
		}
		if (s->op == RP_FREE) {
			if (reg_node[r] < 0) {
				rn = reg_name(p, r);
				out->error = rp_xasprintf("free of register '%s', "
				    "which is not live", rn);
				free(rn);
				goto bad;
			}
			v = reg_node[r];
			live[v]--;
			cur -= g->mem[v];
			reg_node[r] = -1;
			if (mem != NULL)
				mem[i] = cur > INT64_MAX ? INT64_MAX : (int64_t)cur;
			continue;
		}
		v = s->node;
		if (v < 0 || v >= g->n) {
			out->error = rp_xasprintf("compute of node %d, which is "
			    "not in the graph", v);
			goto bad;
		}
		if (reg_node[r] >= 0) {
			rn = reg_name(p, r);
			out->error = rp_xasprintf("compute '%s' into register "
			    "'%s', which is still live (holding '%s')", g->id[v],
			    rn, g->id[reg_node[r]]);
			free(rn);
			goto bad;
		}
		for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++)
			if (live[g->pred[j]] == 0) {
				out->error = rp_xasprintf("compute '%s' reads '%s', "
				    "which is not live", g->id[v], g->id[g->pred[j]]);
				goto bad;
			}
		if (computed[v] && !g->recompute[v]) {
			out->error = rp_xasprintf("node '%s' is computed again, "
			    "but it has recompute=false", g->id[v]);
			goto bad;
		}
		during = cur + g->mem[v] + g->workspace[v];
		if (mem != NULL)
			mem[i] = during > INT64_MAX ? INT64_MAX : (int64_t)during;
		if (during > out->peak) {
			out->peak = during > INT64_MAX ? INT64_MAX : (int64_t)during;
			out->peak_stmt = i;
		}
		out->cost += g->cost[v];
		out->ncompute++;
		if (computed[v])
			out->nrecompute++;
		computed[v] = 1;
		cur += g->mem[v];
		live[v]++;
		reg_node[r] = v;
	}
	for (v = 0; v < g->n; v++)
		if (!computed[v]) {
			out->error = rp_xasprintf("node '%s' is never computed", g->id[v]);
			goto end_bad;
		}
	for (v = 0; v < g->n; v++)
		if (g->output[v] && live[v] == 0) {
			out->error = rp_xasprintf("output node '%s' is not live at "
			    "the end of the plan", g->id[v]);
			goto end_bad;
		}
	out->valid = 1;
	free(reg_node);
	free(live);
	free(computed);
	return 0;
bad:
	out->bad_stmt = i;
end_bad:
	out->valid = 0;
	out->error = rp_oneline(out->error);
	free(reg_node);
	free(live);
	free(computed);
	return -1;
}

int64_t
rp_min_budget(const struct rp_graph *g, int *node)
{
	int64_t best = -1, ws, outs = g->fixed_mem;
	int v, j;

	*node = -1;
	for (v = 0; v < g->n; v++) {
		ws = g->fixed_mem + g->mem[v] + g->workspace[v];
		for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++)
			ws += g->mem[g->pred[j]];
		if (ws > best) {
			best = ws;
			*node = v;
		}
		if (g->output[v])
			outs += g->mem[v];
	}
	if (outs > best) {
		best = outs;
		*node = -1;
	}
	return best;
}

int64_t
rp_tree_budget(const struct rp_graph *g, double *cost)
{
	int64_t *need, best = 0, outs = 0;
	double *tc, total = 0;
	struct rp_keyed *in;	/* a node's inputs, by what their trees need
				 * beyond their own size */
	int v, j, k, maxdeg = 0;

	*cost = 0;
	for (v = 0; v < g->n; v++) {
		if (!g->recompute[v] && rp_nsucc(g, v) > 0)
			return -1;
		if (rp_npred(g, v) > maxdeg)
			maxdeg = rp_npred(g, v);
	}
	need = rp_xcalloc((size_t)g->n + 1, sizeof *need);
	tc = rp_xcalloc((size_t)g->n + 1, sizeof *tc);
	in = rp_xcalloc((size_t)maxdeg + 1, sizeof *in);
	/* need[v]: the peak of making v from the graph's inputs alone, v
	 * held at the end; tc[v]: what that costs. The execution order is
	 * topological, so the inputs' figures come first. */
	for (v = 0; v < g->n; v++) {
		int64_t held = 0, peak = 0;

		k = 0;
		for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) {
			in[k].id = g->pred[j];
			in[k].key = need[in[k].id] - g->mem[in[k].id];
			k++;
		}
		/* the largest extra first: made while the fewest siblings
		 * are held */
		qsort(in, (size_t)k, sizeof *in, rp_keyed_cmp);
		tc[v] = g->cost[v];
		for (j = 0; j < k; j++) {
			int64_t at = rp_size_add(held, need[in[j].id]);
			if (at > peak)
				peak = at;
			held = rp_size_add(held, g->mem[in[j].id]);
			tc[v] += tc[in[j].id];
		}
		held = rp_size_add(held, rp_size_add(g->mem[v],
		    g->workspace[v]));
		need[v] = held > peak ? held : peak;
	}
	for (v = 0; v < g->n; v++)
		if (!g->output[v]) {
			if (need[v] > best)
				best = need[v];
			total += tc[v];
		}
	for (v = 0; v < g->n; v++)
		if (g->output[v]) {
			int64_t at = rp_size_add(outs, need[v]);
			if (at > best)
				best = at;
			outs = rp_size_add(outs, g->mem[v]);
			total += tc[v];
		}
	best = rp_size_add(best, g->fixed_mem);
	free(need);
	free(tc);
	free(in);
	if (best == INT64_MAX)
		return -1;
	*cost = total;
	return best;
}
