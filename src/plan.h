/* plan.h: execution plans, sequences of compute/free statements over
 * virtual registers (remat-plan(5), "Plan file"). */
#ifndef RP_PLAN_H
#define RP_PLAN_H

enum rp_op { RP_COMPUTE = 0, RP_FREE = 1 };

struct rp_stmt {
	int op;		/* enum rp_op */
	int node;	/* RP_COMPUTE: node index; RP_FREE: -1 */
	int reg;	/* register number, 0 .. nregs-1 */
};

struct rp_plan {
	struct rp_stmt *s;
	int len, cap;
	int nregs;	/* register numbers are below this */
	char **regname;	/* names read from a file (nregs entries), or NULL
			 * when registers are written as their numbers */
	int *line;	/* source line of each statement, or NULL */
};

void rp_plan_init(struct rp_plan *p);
void rp_plan_destroy(struct rp_plan *p);
void rp_plan_add_compute(struct rp_plan *p, int node, int reg);
void rp_plan_add_free(struct rp_plan *p, int reg);
/* Makes dst (initialized, emptied first) a copy of src's statements and
 * register count; names and source lines are not copied. */
void rp_plan_copy(struct rp_plan *dst, const struct rp_plan *src);
/* Moves src into dst (destroying what dst held); src is left empty. */
void rp_plan_move(struct rp_plan *dst, struct rp_plan *src);
/* Whether p, over a graph of n nodes numbered in execution order, is
 * frontier-advancing (Checkmate's form, which the MILP and the stage
 * memory bound hold for): each node computed for the first time in
 * execution order, and between two such first computations (a stage)
 * the recomputations in execution order too (so none twice): the model
 * fixes that order, and another can need less memory. */
int rp_plan_frontier_advancing(const struct rp_plan *p, int n);
/* That form in the reports' words. */
#define RP_FA_FORM "(each node computed first in execution order, and the " \
	"computations between two first ones in that order too)"

#endif
