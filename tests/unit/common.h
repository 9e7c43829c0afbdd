/* common.h: graphs built in code for the unit tests. */
#ifndef COMMON_H
#define COMMON_H

#include <stdio.h>
#include <stdlib.h>

#include "graph.h"
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
