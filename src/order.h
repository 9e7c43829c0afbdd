/* order.h: execution orders chosen for memory.
 *
 * Every strategy but this one plans over the graph's execution order
 * (graph.h). Any topological order is a valid plan, though, and the peak
 * of checkpoint-all depends on the order a great deal on graphs without a
 * single chain (a random layered DAG: 10 to 20% lower; VGG16, whose large
 * weight gradient can be computed last: 30% lower). */
#ifndef RP_ORDER_H
#define RP_ORDER_H

#include <stdint.h>

#include "graph.h"
#include "plan.h"

/* A topological order of g chosen greedily for a low checkpoint-all peak:
 * of the nodes whose inputs are computed, the one that adds the least
 * memory once the inputs it reads last are freed (rule 0); the one that
 * frees the most (rule 1); and rule 0 again with each node's added memory
 * scaled by a random factor from 1 to 1.5 (rule 2, seeded by seed,
 * restarted up to 64 times, fewer on large graphs: the count depends on
 * the graph's size only). The order with the lowest peak is kept: written
 * to order[0..n), its rule to *rule, and its peak returned; -1 when the
 * deadline (rp_now() time, <= 0: none) passed before the first order was
 * done. Time: O((n + m) log n) per order. */
int64_t rp_order_memory(const struct rp_graph *g, double deadline,
    unsigned long long seed, int *order, int *rule);

/* The same, keeping up to max (at most RP_ORDER_MAX) of the orders the
 * local search ends with, lowest peak first, each once: order k at
 * orders[k * n .. k * n + n), its rule in rules[k], its peak in peaks[k].
 * The first is rp_order_memory's. Returns how many, or -1 as
 * rp_order_memory. Orders of equal or near peaks can need very different
 * recomputation under a budget below them (bench/layered-results.md). */
#define RP_ORDER_MAX 4
int rp_order_memory_many(const struct rp_graph *g, double deadline,
    unsigned long long seed, int max, int *orders, int *rules,
    int64_t *peaks);

/* A copy of g with node i of the copy being node order[i] of g; order
 * must be topological. Free with rp_graph_free. */
struct rp_graph *rp_graph_reorder(const struct rp_graph *g, const int *order);

/* The subgraph of g on the nodes keep[0..k) (ascending, so that the
 * execution order stays topological), node i of it being node keep[i]
 * of g: the edges between them only, node v's output flag output[v],
 * fixed memory fixed_mem. Free with rp_graph_free. Time: O(n + m). */
struct rp_graph *rp_graph_sub(const struct rp_graph *g, const int *keep,
    int k, const unsigned char *output, int64_t fixed_mem);

/* Maps plan p, made over rp_graph_reorder(g, order), back to g: each
 * compute of node i becomes one of node order[i]. */
void rp_order_map_plan(struct rp_plan *p, const int *order);

/* Into dst: the order src of n nodes with the node at position from moved
 * to position to (the nodes between shift by one). */
void rp_order_move(const int *src, int n, int from, int to, int *dst);

#endif
