/* strategy.c: the strategy registry, the runner and the pick rule. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dtr.h"
#include "strategy.h"
#include "util.h"

static const struct rp_strategy *const strategies[] = {
	&rp_strategy_checkpoint_all,
	&rp_strategy_chen_sqrtn,
	&rp_strategy_chen_greedy,
	&rp_strategy_dtr,
	&rp_strategy_lp_round,
	&rp_strategy_ilp,
};

const struct rp_strategy *const *
rp_strategy_list(int *n)
{
	*n = (int)(sizeof strategies / sizeof strategies[0]);
	return strategies;
}

const struct rp_strategy *
rp_strategy_find(const char *name)
{
	size_t i;
	for (i = 0; i < sizeof strategies / sizeof strategies[0]; i++)
		if (strcmp(strategies[i]->name, name) == 0)
			return strategies[i];
	return NULL;
}

void
rp_options_init(struct rp_options *opt)
{
	memset(opt, 0, sizeof *opt);
	opt->dtr_heuristic = RP_DTR_DEFAULT;
	opt->dtr_banish = -1;
	opt->dtr_thrash = 3.0;
	opt->seed = 1;
	opt->solver = 0;	/* RP_MILP_GLPK */
	opt->threads = 1;
}

double
rp_solver_seconds(const struct rp_problem *pb)
{
	return pb->opt != NULL && pb->opt->time_limit > 0 ?
	    pb->opt->time_limit : RP_SOLVER_DEFAULT_SECONDS;
}

void
rp_problem_init(struct rp_problem *pb, const struct rp_graph *g, int64_t budget,
    const struct rp_options *opt)
{
	struct rp_plan p;
	struct rp_sim s;

	memset(pb, 0, sizeof *pb);
	pb->g = g;
	pb->budget = budget;
	pb->opt = opt;
	pb->baseline = rp_graph_baseline_cost(g);
	pb->min_budget = rp_min_budget(g, &pb->min_node);
	rp_plan_init(&p);
	rp_plan_checkpoint_all(g, &p);
	rp_simulate(g, &p, &s);
	pb->ckpt_all_peak = s.peak;
	rp_sim_destroy(&s);
	rp_plan_destroy(&p);
}

void
rp_strategy_run(const struct rp_strategy *s, const struct rp_problem *pb,
    struct rp_result *res)
{
	char *cause = NULL;
	double t0;

	memset(res, 0, sizeof *res);
	res->strategy = s;
	rp_plan_init(&res->plan);
	res->bound = NAN;
	t0 = rp_now();
	if (s->run(pb, &res->plan, &res->note, &res->bound, &cause) != 0) {
		res->seconds = rp_now() - t0;
		res->status = RP_FAILED;
		free(res->note);
		res->note = cause;
		rp_plan_destroy(&res->plan);
		return;
	}
	res->seconds = rp_now() - t0;
	if (res->plan.len == 0) {
		res->status = RP_NO_PLAN;
		return;
	}
	res->has_plan = 1;
	if (rp_simulate(pb->g, &res->plan, &res->sim) != 0) {
		char *msg = rp_xasprintf("internal error: plan rejected by the "
		    "validator at statement %d: %s", res->sim.bad_stmt + 1,
		    res->sim.error);
		free(res->note);
		res->note = msg;
		res->status = RP_FAILED;
		res->has_plan = 0;
		return;
	}
	res->status = res->sim.peak <= pb->budget ? RP_FITS : RP_OVER_BUDGET;
}

void
rp_result_destroy(struct rp_result *res)
{
	rp_plan_destroy(&res->plan);
	rp_sim_destroy(&res->sim);
	free(res->note);
	memset(res, 0, sizeof *res);
}

void
rp_best_init(struct rp_best *b)
{
	memset(b, 0, sizeof *b);
	rp_plan_init(&b->plan);
}

void
rp_best_destroy(struct rp_best *b)
{
	rp_plan_destroy(&b->plan);
	free(b->note);
	memset(b, 0, sizeof *b);
}

int
rp_best_offer(struct rp_best *b, const struct rp_graph *g, int64_t budget,
    struct rp_plan *plan, char *note, char **cause)
{
	struct rp_sim sim;
	int fits, better;

	if (rp_simulate(g, plan, &sim) != 0) {
		*cause = rp_xasprintf("generated plan is invalid: %s", sim.error);
		rp_sim_destroy(&sim);
		rp_plan_destroy(plan);
		free(note);
		return -1;
	}
	fits = sim.peak <= budget;
	if (!b->have)
		better = 1;
	else if (fits != b->fits)
		better = fits;
	else if (fits)
		better = sim.cost < b->cost ||
		    (sim.cost == b->cost && sim.peak < b->peak);
	else
		better = sim.peak < b->peak ||
		    (sim.peak == b->peak && sim.cost < b->cost);
	if (better) {
		rp_plan_move(&b->plan, plan);
		b->have = 1;
		b->fits = fits;
		b->cost = sim.cost;
		b->peak = sim.peak;
		free(b->note);
		b->note = note;
	} else {
		rp_plan_destroy(plan);
		free(note);
	}
	rp_sim_destroy(&sim);
	return 0;
}

void
rp_best_take(struct rp_best *b, struct rp_plan *plan, char **note)
{
	rp_plan_move(plan, &b->plan);
	*note = b->note;
	b->note = NULL;
}

int
rp_pick(const struct rp_result *res, int n)
{
	int i, best = -1;

	for (i = 0; i < n; i++) {
		if (res[i].status != RP_FITS)
			continue;
		if (best < 0 || res[i].sim.cost < res[best].sim.cost ||
		    (res[i].sim.cost == res[best].sim.cost &&
		    res[i].sim.peak < res[best].sim.peak))
			best = i;
	}
	return best;
}

const char *
rp_status_name(enum rp_status st)
{
	switch (st) {
	case RP_FITS:
		return "fits";
	case RP_OVER_BUDGET:
		return "over budget";
	case RP_NO_PLAN:
		return "no plan";
	default:
		return "failed";
	}
}
