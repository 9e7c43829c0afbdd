/* polish.c: dropping recomputations the budget does not need (polish.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "polish.h"
#include "sched.h"
#include "sim.h"
#include "util.h"

struct cand {
	int at;			/* position in the compute sequence */
	double cost;
};

static int
cmp_cand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	return (x->at > y->at) - (x->at < y->at);
}

int
rp_polish_fill(const struct rp_problem *pb, struct rp_plan *plan,
    double deadline)
{
	const struct rp_graph *g = pb->g;
	int n = g->n, len = 0, k, nc = 0, dropped = 0, m;
	int *seq = rp_xmalloc(sizeof *seq * (size_t)(plan->len ? plan->len : 1));
	int *tmp = rp_xmalloc(sizeof *tmp * (size_t)(plan->len ? plan->len : 1));
	unsigned char *gone, *seen = rp_xcalloc((size_t)(n ? n : 1), 1);
	struct cand *cs;
	struct rp_sim s0;
	double cost;

	if (rp_simulate(g, plan, &s0) != 0 || !rp_fits(pb, s0.peak)) {
		rp_sim_destroy(&s0);
		free(seq);
		free(tmp);
		free(seen);
		return 0;
	}
	cost = s0.cost;
	rp_sim_destroy(&s0);
	for (k = 0; k < plan->len; k++)
		if (plan->s[k].op == RP_COMPUTE)
			seq[len++] = plan->s[k].node;
	gone = rp_xcalloc((size_t)(len ? len : 1), 1);
	cs = rp_xmalloc(sizeof *cs * (size_t)(len ? len : 1));
	for (k = 0; k < len; k++) {
		if (seen[seq[k]])
			cs[nc++] = (struct cand){ k, g->cost[seq[k]] };
		seen[seq[k]] = 1;
	}
	qsort(cs, (size_t)nc, sizeof *cs, cmp_cand);
	for (k = 0; k < nc; k++) {
		struct rp_plan p;
		struct rp_sim s;
		int i, ok;

		if (deadline > 0 && rp_now() > deadline)
			break;
		gone[cs[k].at] = 1;
		for (i = 0, m = 0; i < len; i++)
			if (!gone[i])
				tmp[m++] = seq[i];
		rp_plan_init(&p);
		rp_plan_from_seq(g, tmp, m, &p);
		ok = rp_simulate(g, &p, &s) == 0 && rp_fits(pb, s.peak) &&
		    s.cost < cost;
		if (ok)
			cost = s.cost;
		rp_sim_destroy(&s);
		if (ok) {
			rp_plan_move(plan, &p);
			dropped++;
		} else {
			gone[cs[k].at] = 0;
			rp_plan_destroy(&p);
		}
	}
	free(seq);
	free(tmp);
	free(gone);
	free(seen);
	free(cs);
	return dropped;
}

char *
rp_polish(const struct rp_problem *pb, struct rp_plan *plan, double deadline,
    char *note)
{
	int k = plan->len > 0 ? rp_polish_fill(pb, plan, deadline) : 0;
	char *t;

	if (k == 0)
		return note;
	t = rp_xasprintf("%s%sthen %d recomputation%s dropped (fill pass)",
	    note != NULL ? note : "", note != NULL ? ", " : "", k,
	    k == 1 ? "" : "s");
	free(note);
	return t;
}
