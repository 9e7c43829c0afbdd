/* graph.h: the project's own graph model, in execution order.
 *
 * Nodes are numbered 0..n-1 in execution order (document order when that is
 * topological, otherwise a stable topological order), so "u < v" means u runs
 * before v. Adjacency is kept as compact CSR arrays with sorted entries. */
#ifndef RP_GRAPH_H
#define RP_GRAPH_H

#include <stdint.h>

enum rp_kind { RP_FORWARD = 0, RP_BACKWARD = 1 };

struct rp_graph {
	int n;			/* nodes */
	int m;			/* distinct edges */
	char **id;		/* GraphML node ids */
	char **op;		/* operator names, NULL when absent */
	double *cost;		/* >= 0 */
	int64_t *mem;		/* output bytes, >= 0 */
	int64_t *workspace;	/* transient bytes while computing, >= 0 */
	unsigned char *kind;	/* enum rp_kind */
	unsigned char *recompute; /* 0: must be computed exactly once */
	unsigned char *output;	/* 1: resident at the end of the plan */
	int *line;		/* line of the <node> element, 0 if unknown */
	int *pred_off, *pred;	/* CSR: preds of v are pred[pred_off[v]..pred_off[v+1]) */
	int *succ_off, *succ;	/* CSR successors, same layout */
	int64_t fixed_mem;	/* resident for the whole run */
	char *cost_unit;	/* "ms" unless the file says otherwise */
	char *name;		/* graph id, or the file's base name */
	char *file;		/* path it was read from, for messages */
	int doc_order;		/* 1 when document order was already topological */
};

/* A graph under construction: nodes in document order plus raw edges, as the
 * loader (or a generator) produces them. */
struct rp_graph_input {
	struct rp_graph g;	/* node arrays filled, adjacency not yet */
	int cap;		/* allocated node slots */
	int nedges, ecap;
	int *esrc, *edst, *eline;
};

/* Allocates node slots in in->g for n more nodes; returns the first index. */
int rp_graph_input_add_node(struct rp_graph_input *in);
void rp_graph_input_add_edge(struct rp_graph_input *in, int src, int dst, int line);
void rp_graph_input_destroy(struct rp_graph_input *in);

/* Validates (self loops, cycles, empty graph), orders and builds adjacency.
 * On success moves the nodes out of in into a new graph *out (caller frees
 * with rp_graph_free) and returns 0; on failure returns -1 with *cause set
 * as "file:line: message" (caller frees). in is destroyed either way. */
int rp_graph_finish(struct rp_graph_input *in, struct rp_graph **out, char **cause);

/* Whether every node's cost is an integer (of at most 2^50, so that sums
 * stay exact): then so is every plan's cost, and a lower bound on it may
 * be rounded up (rp_mip_round_bound). */
int rp_graph_int_cost(const struct rp_graph *g);

void rp_graph_free(struct rp_graph *g);

/* Sum of cost over all nodes: the cost of computing each node once. */
double rp_graph_baseline_cost(const struct rp_graph *g);

/* Number of predecessors / successors of v. */
static inline int
rp_npred(const struct rp_graph *g, int v)
{
	return g->pred_off[v + 1] - g->pred_off[v];
}
static inline int
rp_nsucc(const struct rp_graph *g, int v)
{
	return g->succ_off[v + 1] - g->succ_off[v];
}
/* The last reader of v in execution order (successors are sorted), or -1
 * when nothing reads v. */
static inline int
rp_last_succ(const struct rp_graph *g, int v)
{
	return rp_nsucc(g, v) > 0 ? g->succ[g->succ_off[v + 1] - 1] : -1;
}

#endif
