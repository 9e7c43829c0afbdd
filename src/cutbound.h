/* cutbound.h: a lower bound on the cost of every plan, whatever its order
 * and recomputations, by minimum cuts.
 *
 * Take any plan and any node v, and the moment the plan first computes v.
 * Let A be the nodes computed before that moment: every ancestor of v is
 * in A, v and its descendants are not, and with a node A holds its inputs
 * (A is an ideal of the graph). Each node u of A is then in one of three
 * states: held (live at that moment: its bytes count beside v's), computed
 * again after it (its cost is paid again), or neither. A node of A that a
 * node outside A reads, or an output, must be held or computed again; v's
 * inputs must be held; and a node computed again after the moment, or
 * first computed after it, needs each of its inputs then: each is outside
 * A, held, or computed again after the moment as well. (The stage bound of
 * stagebound.h is this with A the nodes before v in execution order; here
 * A is free, so the bound holds for plans in any order.)
 *
 * With a price mu per byte held, the cheapest choice of A and of the
 * states, costs of recomputations plus mu times the bytes held, is a
 * minimum cut: each node takes one of four ordered labels (neither,
 * held, computed again, outside A), every rule above says "label of a at
 * least i implies label of b at least j", and such rules and any costs per
 * label are a cut in a graph of three vertices per node (Ishikawa's
 * construction). Lagrangian duality then bounds the extra cost of every
 * plan that fits the budget at that moment by the largest over mu of
 * (cheapest choice) - mu * (room beside v): a search over mu by the
 * intersections of the choices' lines. Where even the choice that holds
 * fewest bytes does not fit, no plan fits.
 *
 * It ignores the memory the recomputations need when they run, and counts
 * held bytes in part (the price is the LP relaxation of the budget), so
 * it is weaker than what the plans reach where the budget is far below
 * what the graph needs at once (random layered DAGs), but on training
 * graphs, where a backward node's ideal is the whole forward pass, it is
 * close to the stage bound and holds for every plan. */
#ifndef RP_CUTBOUND_H
#define RP_CUTBOUND_H

#include "problem.h"

/* The bound for pb's graph at pb's budget, for every plan: at least the
 * baseline, INFINITY where it proves that no plan fits. *node is the node
 * whose first computation gives it (-1: the baseline). It is tried at 24
 * nodes, those whose stage in checkpoint-all holds the most bytes (8
 * spread apart first) and those that need the most beside them, each with
 * a fixed number of cuts, then at the rest while the maximum flows' work
 * (a count) stays within a small multiple of theirs and a fixed cap
 * (every node on small graphs), and
 * stops early by deadline (rp_now() time; <= 0: none); *stopped is then
 * 1 (the bound is valid, but its search was not finished). Where every cost
 * is an integer, the bound is rounded up. Time: O(n + m) to build each
 * cut, and the maximum flows (Dinic's) of at most 24 x 42 cuts and then
 * that work; memory: one network of 3 n vertices and about 6 n + 2 m
 * edges. */
double rp_cut_bound(const struct rp_problem *pb, double deadline, int *node,
    int *stopped);

#endif
