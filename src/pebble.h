/* pebble.h: a proven lower bound on the smallest budget of any plan, by a
 * search over which of the values a plan needs at once it made last (the
 * black pebble game with recomputation, searched best first; pebble.c).
 * The strategy that runs the same search for cost, rp_strategy_pebble, is
 * declared with the others in strategy.h. */
#ifndef RP_PEBBLE_H
#define RP_PEBBLE_H

#include <stdint.h>

#include "graph.h"

/* The largest of floor and what the search proves every plan needs: to
 * hold all outputs at the end, or to compute one node. *node is that node,
 * -1 for the outputs, or -2 when nothing proved more than floor. The
 * search stops after about `work` elements touched (2^24 take about 0.1 s
 * on the development machine), so the result depends on the graph and
 * work alone, never on the clock. Memory: O(n + m), and at most about
 * 40 MiB for the sets searched. */
int64_t rp_pebble_bound(const struct rp_graph *g, int64_t floor, long work,
    int *node);

/* rp_pebble_bound searched further: the sets of one search hold up to
 * max_elems elements (4 bytes each) in all, and the search stops at
 * deadline where that is > 0 (rp_now() time): *stopped is then 1, and the
 * figure, still a proof, may be below what the same work reaches. */
int64_t rp_pebble_bound_deep(const struct rp_graph *g, int64_t floor,
    long work, long max_elems, double deadline, int *node, int *stopped);

/* The work of the search done for every problem (rp_problem_init), and of
 * the deeper one where the smallest budget is sought; from 1,000 nodes,
 * 1000/n of them (problem.c). */
#define RP_PEBBLE_WORK		(1L << 24)
#define RP_PEBBLE_WORK_DEEP	(1L << 26)

/* The search before a run whose budget is near the smallest known
 * (rp_problem_prove): 8 times the deep work, with sets of up to 2^24
 * elements (64 MiB). */
#define RP_PEBBLE_WORK_PROOF	(1L << 29)
#define RP_PEBBLE_PROOF_ELEMS	(1L << 24)

#endif
