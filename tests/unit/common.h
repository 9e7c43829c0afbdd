/* common.h: graphs built in code for the unit tests. */
#ifndef COMMON_H
#define COMMON_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "problem.h"
#include "strategy.h"
#include "util.h"

/* A graph with n nodes (ids "v0".."vN"), unit cost and memory, and the
 * edges given as pairs; kinds, flags and sizes can be set afterwards. */
static __attribute__((unused)) struct rp_graph *
mkgraph(int n, const int *edges, int ne)
{
	struct rp_graph_input in = { 0 };
	struct rp_graph *g = NULL;
	char *cause = NULL;
	int i, v;

	for (i = 0; i < n; i++) {
		v = rp_graph_input_add_node(&in);
		in.g.id[v] = rp_xasprintf("v%d", i);
		in.g.cost[v] = 1;
		in.g.mem[v] = 1;
	}
	for (i = 0; i < ne; i++)
		rp_graph_input_add_edge(&in, edges[2 * i], edges[2 * i + 1], 0);
	if (rp_graph_finish(&in, &g, &cause) != 0) {
		fprintf(stderr, "mkgraph: %s\n", cause);
		exit(1);
	}
	return g;
}

/* A number in [0, k) from a seeded xorshift: the same graphs every run. */
static __attribute__((unused)) uint64_t common_rng = 88172645463325252ULL;

static __attribute__((unused)) int
below(int k)
{
	common_rng ^= common_rng << 13;
	common_rng ^= common_rng >> 7;
	common_rng ^= common_rng << 17;
	return (int)(common_rng % (uint64_t)k);
}

/* A random DAG of n nodes, each reading up to 4 of the 6 before it
 * (distinct edges), memory 1 to 16 bytes, unit cost, the last node an
 * output. */
static __attribute__((unused)) struct rp_graph *
mklocal(int n)
{
	int ne = 0, *e = malloc(sizeof *e * 2 * 4 * (size_t)n), v, j, k;
	struct rp_graph *g;

	for (v = 1; v < n; v++)
		for (j = 0; j < 4; j++) {
			int u = v - 1 - below(v < 6 ? v : 6), dup = 0;
			for (k = 0; k < ne; k++)
				dup |= e[2 * k] == u && e[2 * k + 1] == v;
			if (!dup) {
				e[2 * ne] = u;
				e[2 * ne + 1] = v;
				ne++;
			}
		}
	g = mkgraph(n, e, ne);
	for (v = 0; v < n; v++)
		g->mem[v] = 1 + below(16);
	g->output[n - 1] = 1;
	free(e);
	return g;
}

/* A random DAG of 2 to 7 nodes, each edge u -> v (u < v) there one time
 * in three (at most 32), unit cost and memory: the small graphs that the
 * exhaustive search below can check, the same every run. */
static __attribute__((unused)) struct rp_graph *
small_random_dag(void)
{
	int n = 2 + below(6), ne = 0, e[64], v, u;

	for (v = 1; v < n; v++)
		for (u = 0; u < v; u++)
			if (below(3) == 0 && ne < 32) {
				e[2 * ne] = u;
				e[2 * ne + 1] = v;
				ne++;
			}
	return mkgraph(n, e, ne);
}

/* An exhaustive search over every valid plan of g (at most 7 nodes):
 * Dijkstra over the states (values live, values computed at least once),
 * where a step computes a value that is not live (one with
 * recompute=false only once) or frees a live one. With by_cost, the least
 * cost of a plan whose memory stays within budget (INFINITY where none
 * does); else the least peak of any plan, budget unused. */
static __attribute__((unused)) double
exhaustive(const struct rp_graph *g, int64_t budget, int by_cost)
{
	int n = g->n, nst = 1 << (2 * n), s, v, j, outs = 0;
	double *best = malloc(sizeof *best * (size_t)nst), result = INFINITY;
	char *done = calloc((size_t)nst, 1);

	for (s = 0; s < nst; s++)
		best[s] = INFINITY;
	for (v = 0; v < n; v++)
		if (g->output[v])
			outs |= 1 << v;
	best[0] = by_cost ? 0 : (double)g->fixed_mem;
	for (;;) {
		int u = -1, live, comp;
		int64_t mem = g->fixed_mem;
		/* the open state of the least key (a plain scan: tiny) */
		for (s = 0; s < nst; s++)
			if (!done[s] && !isinf(best[s]) &&
			    (u < 0 || best[s] < best[u]))
				u = s;
		if (u < 0)
			break;
		done[u] = 1;
		live = u & ((1 << n) - 1);
		comp = u >> n;
		if (comp == (1 << n) - 1 && (live & outs) == outs) {
			result = best[u];
			break;
		}
		for (v = 0; v < n; v++)
			if (live & (1 << v))
				mem += g->mem[v];
		for (v = 0; v < n; v++) {
			int t;
			double k;
			if (live & (1 << v)) {
				t = (live & ~(1 << v)) | (comp << n);
				if (best[u] < best[t])
					best[t] = best[u];
				continue;
			}
			if (!g->recompute[v] && (comp & (1 << v)))
				continue;
			for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++)
				if (!(live & (1 << g->pred[j])))
					break;
			if (j < g->pred_off[v + 1])
				continue;
			k = (double)(mem + g->mem[v] + g->workspace[v]);
			if (by_cost && k > (double)budget)
				continue;
			k = by_cost ? best[u] + g->cost[v] : fmax(k, best[u]);
			t = (live | (1 << v)) | ((comp | (1 << v)) << n);
			if (k < best[t])
				best[t] = k;
		}
	}
	free(best);
	free(done);
	return result;
}

/* The problem of g at budget bytes. */
static __attribute__((unused)) void
mkproblem(struct rp_problem *pb, const struct rp_graph *g, int64_t budget)
{
	struct rp_budget_spec spec = rp_budget_bytes(budget);
	char *cause = NULL;

	if (rp_problem_init(pb, g, &spec, &cause) != 0) {
		fprintf(stderr, "mkproblem: %s\n", cause);
		exit(1);
	}
}

/* Runs strategy s on pb with options opt and no deadline of its own. */
static __attribute__((unused)) void
run_strategy(const struct rp_strategy *s, const struct rp_problem *pb,
    const struct rp_options *opt, struct rp_result *r)
{
	struct rp_ctx ctx;

	memset(&ctx, 0, sizeof ctx);
	ctx.opt = opt;
	rp_strategy_run(s, pb, &ctx, r);
}

/* Checkmate's linear graph: n layers, a loss, n gradient nodes. */
static __attribute__((unused)) struct rp_graph *
mklinear(int n)
{
	int *e = malloc(sizeof *e * 2 * (size_t)(4 * n + 2));
	int k = 0, i, t = 2 * n;
	struct rp_graph *g;

	for (i = 0; i < t; i++) {
		e[k++] = i;
		e[k++] = i + 1;
	}
	for (i = 0; i < n; i++) {
		e[k++] = i;
		e[k++] = t - i;
	}
	g = mkgraph(t + 1, e, k / 2);
	for (i = n + 1; i <= t; i++)
		g->kind[i] = RP_BACKWARD;
	free(e);
	return g;
}

#endif
