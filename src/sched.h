/* sched.h: from checkpoint decisions to plans, shared by the strategies.
 *
 * Stages follow Checkmate's frontier-advancing form: stage t computes node t
 * for the first time, after recomputing whatever it needs. A retention
 * (the S matrix) says which values are kept resident into which stages; the
 * R solver then finds the fewest recomputations that make it correct
 * (Checkmate section 5.2 and appendix B.1), and plan generation turns the
 * resulting compute sequence into statements with each register freed right
 * after its last reader (Algorithm 1 with early deallocation). */
#ifndef RP_SCHED_H
#define RP_SCHED_H

#include "graph.h"
#include "plan.h"

/* S[t][node] = 1 for from <= t <= to. Stage g->n stands for "the end". */
struct rp_retain {
	int node;
	int from, to;
};

/* A growable compute sequence (node indices in execution order). */
struct rp_seq {
	int *node;
	int len, cap;
};
void rp_seq_push(struct rp_seq *q, int node);
void rp_seq_destroy(struct rp_seq *q);

/* Solves for the minimal R given retentions s[0..ns) (which it sorts and
 * normalizes in place: a value cannot be retained before the stage after its
 * first computation). recompute=false values are retained from their
 * computation on regardless of s, so they are never recomputed. Appends the
 * compute sequence, stage by stage, to out. Time: O(ns log ns + the size
 * and in-edges of every stage's recomputed subgraph, with a log factor for
 * sorting each stage). */
void rp_solve_r(const struct rp_graph *g, struct rp_retain *s, int ns,
    struct rp_seq *out);
/* rp_solve_r that stops, returning -1 with out incomplete, where the
 * sequence would grow past max computations (max > 0), so that its time
 * and memory stay within O(max) beyond the retentions', or once the
 * deadline (rp_now() time, > 0) has passed; 0 when done. */
int rp_solve_r_max(const struct rp_graph *g, struct rp_retain *s, int ns,
    struct rp_seq *out, long max, double deadline);

/* Turns a valid compute sequence into a plan: drops recomputations whose
 * value is never read, numbers registers in order and frees each register
 * right after its last reader (outputs are kept to the end). The plan goes
 * into out (initialized by the caller). Time: O(len + reads). */
void rp_plan_from_seq(const struct rp_graph *g, const int *seq, int len,
    struct rp_plan *out);

#endif
