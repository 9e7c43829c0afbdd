/* polish.h: a last pass over a plan that fits: recomputations that the
 * budget does not need are dropped. */
#ifndef RP_POLISH_H
#define RP_POLISH_H

#include "plan.h"
#include "problem.h"

/* Drops recomputations from plan (which must be valid and fit pb's budget)
 * one at a time, the most expensive first: the value is kept from its
 * computation before instead, and computations that nothing reads any
 * more go too. A drop is kept when the plan still fits. Stops at the
 * deadline (rp_now() time, <= 0: none). Returns the number of
 * recomputations dropped (the plan is then replaced), or 0. Time: the
 * plan's length per recomputation tried. */
int rp_polish_fill(const struct rp_problem *pb, struct rp_plan *plan,
    double deadline);

/* rp_polish_fill on a strategy's plan and note: the note (taken, may be
 * NULL) comes back with the number of recomputations dropped added. */
char *rp_polish(const struct rp_problem *pb, struct rp_plan *plan,
    double deadline, char *note);

#endif
