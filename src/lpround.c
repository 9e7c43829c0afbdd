/* lpround.c: two-phase LP rounding, and the lp-round strategy. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lpround.h"
#include "sched.h"
#include "util.h"

/* Thresholds tried after the paper's 0.5. */
static const double thresholds[] = { 0.5, 0.3, 0.7, 0.1, 0.9, 0.2, 0.4, 0.6, 0.8 };
/* Budget allowances tried: the LP is solved at (1 - eps) of the budget. */
static const double allowances[] = { 0, 0.05, 0.1, 0.2, 0.3 };
#define RANDOM_SAMPLES 8

static uint64_t
splitmix(uint64_t *st)
{
	uint64_t z = (*st += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Rounds the fractional S (sstar, by stage and node) with threshold th, or
 * randomly when th < 0, and offers the completed plan. */
static int
round_once(const struct rp_problem *pb, const double *sstar, double th,
    uint64_t *rng, struct rp_best *best, char *note, char **cause)
{
	const struct rp_graph *g = pb->g;
	int n = g->n, t, i, nr = 0, cap = 0;
	struct rp_retain *ret = NULL;
	struct rp_seq seq = { 0 };
	struct rp_plan plan;

	/* Runs of consecutive stages with S = 1 become retentions. */
	for (i = 0; i < n; i++) {
		int from = -1;
		for (t = i + 1; t <= n; t++) {
			int on = 0;
			if (t < n) {
				double v = sstar[(long)t * (t + 1) / 2 + i];
				on = th >= 0 ? v > th :
				    (double)(splitmix(rng) >> 11) / 9007199254740992.0 < v;
			}
			if (on && from < 0)
				from = t;
			if (!on && from >= 0) {
				rp_grow(&ret, &cap, nr + 1, sizeof *ret);
				ret[nr++] = (struct rp_retain){ i, from, t - 1 };
				from = -1;
			}
		}
	}
	/* Outputs stay to the end. */
	for (i = 0; i < n; i++)
		if (g->output[i]) {
			rp_grow(&ret, &cap, nr + 1, sizeof *ret);
			ret[nr++] = (struct rp_retain){ i, n, n };
		}
	rp_solve_r(g, ret, nr, &seq);
	free(ret);
	rp_plan_init(&plan);
	rp_plan_from_seq(g, seq.node, seq.len, &plan);
	rp_seq_destroy(&seq);
	return rp_best_offer(best, g, pb->budget, &plan, note, cause);
}

void
rp_lp_memo_init(struct rp_lp_memo *mm)
{
	memset(mm, 0, sizeof *mm);
	rp_plan_init(&mm->plan);
	mm->bound = NAN;
	mm->lp = RP_MILP_NOSOLUTION;
}

void
rp_lp_memo_destroy(struct rp_lp_memo *mm)
{
	rp_plan_destroy(&mm->plan);
	free(mm->note);
	rp_lp_memo_init(mm);
}

/* Offers a copy of the kept rounding to best; a reused one says so, as
 * its time was counted where it was computed. */
static int
memo_offer(const struct rp_problem *pb, const struct rp_lp_memo *mm,
    int reused, struct rp_best *best, double *bound, char **cause)
{
	struct rp_plan p;
	const char *note = mm->note != NULL ? mm->note : "LP rounding";

	*bound = mm->bound;
	if (!mm->have)
		return 0;
	rp_plan_init(&p);
	rp_plan_copy(&p, &mm->plan);
	return rp_best_offer(best, pb->g, pb->budget, &p, reused ?
	    rp_xasprintf("%s (LP solved and rounded once in this run, timed "
	    "where first needed)", note) : rp_xstrdup(note), cause);
}

static int round_lp(const struct rp_problem *pb, struct rp_milp *m,
    double deadline, struct rp_best *best, double *bound,
    enum rp_milp_result *lp, char **cause);

int
rp_lp_round(const struct rp_problem *pb, struct rp_milp *m, double deadline,
    struct rp_best *best, double *bound, enum rp_milp_result *lp,
    char **cause)
{
	struct rp_lp_memo *mm = pb->lp_memo;
	struct rp_best lb;
	enum rp_milp_result r;
	int rc;

	if (lp == NULL)
		lp = &r;
	if (mm != NULL && mm->done) {
		*lp = mm->lp;
		return memo_offer(pb, mm, 1, best, bound, cause);
	}
	if (mm == NULL)
		return round_lp(pb, m, deadline, best, bound, lp, cause);
	rp_best_init(&lb);
	rc = round_lp(pb, m, deadline, &lb, bound, lp, cause);
	if (rc == 0) {
		rp_lp_memo_destroy(mm);
		mm->done = 1;
		mm->bound = *bound;
		mm->lp = *lp;
		if (lb.have) {
			mm->have = 1;
			rp_plan_copy(&mm->plan, &lb.plan);
			mm->note = rp_xstrdup(lb.note != NULL ? lb.note : "LP rounding");
		}
		rc = memo_offer(pb, mm, 0, best, bound, cause);
	}
	rp_best_destroy(&lb);
	return rc;
}

/* rp_lp_round without the memo. */
static int
round_lp(const struct rp_problem *pb, struct rp_milp *m, double deadline,
    struct rp_best *best, double *bound, enum rp_milp_result *lp,
    char **cause)
{
	const struct rp_graph *g = pb->g;
	int n = g->n, t, i, a, k, rc = 0;
	double *sstar = rp_xcalloc((size_t)((long)n * (n + 1) / 2 + 1), sizeof *sstar);
	uint64_t rng = pb->opt != NULL ? pb->opt->seed : 1;
	double obj;

	*bound = NAN;
	*lp = RP_MILP_NOSOLUTION;	/* no time left to try */
	for (a = 0; a < (int)(sizeof allowances / sizeof allowances[0]); a++) {
		double eps = allowances[a], left = 0;
		enum rp_milp_result r;
		if (deadline > 0) {
			left = deadline - rp_now();
			if (left <= 0)
				break;
		}
		if (a > 0)
			rp_milp_set_budget(m, (int64_t)floor((1 - eps) *
			    (double)pb->budget));
		r = rp_milp_solve_lp(m, left, &obj);
		if (a == 0)
			*lp = r;
		if (r != RP_MILP_OPTIMAL)
			break;	/* tighter allowances are infeasible too */
		if (a == 0)
			*bound = obj;
		for (t = 1; t < n; t++)
			for (i = 0; i < t; i++)
				sstar[(long)t * (t + 1) / 2 + i] = rp_milp_lp_s(m, t, i);
		for (k = 0; k < (int)(sizeof thresholds / sizeof thresholds[0]); k++) {
			char *note = rp_xasprintf("two-phase rounding of the LP at "
			    "%g%% of the budget, threshold %g", 100 * (1 - eps),
			    thresholds[k]);
			if ((rc = round_once(pb, sstar, thresholds[k], &rng, best,
			    note, cause)) != 0)
				goto out;
		}
		for (k = 0; k < RANDOM_SAMPLES; k++) {
			char *note = rp_xasprintf("two-phase rounding of the LP at "
			    "%g%% of the budget, randomized (seed %llu)",
			    100 * (1 - eps), pb->opt != NULL ? pb->opt->seed : 1ULL);
			if ((rc = round_once(pb, sstar, -1, &rng, best, note,
			    cause)) != 0)
				goto out;
			if (deadline > 0 && rp_now() > deadline)
				break;
		}
	}
out:
	if (a > 0)
		rp_milp_set_budget(m, pb->budget);
	free(sstar);
	return rc;
}

static int
lp_round_run(const struct rp_problem *pb, struct rp_plan *plan, char **note,
    double *bound, char **cause)
{
	struct rp_milp *m;
	struct rp_best best;
	double deadline = pb->opt != NULL && pb->opt->time_limit > 0 ?
	    rp_now() + pb->opt->time_limit : 0;
	char *why = NULL;
	enum rp_milp_result lp;
	int rc;

	/* A rounding kept by an earlier ilp needs no model. */
	m = pb->lp_memo != NULL && pb->lp_memo->done ? NULL :
	    rp_milp_build(pb->g, pb->budget, &why);
	if (m == NULL && why != NULL) {
		*note = why;	/* too large for the model: no plan, said so */
		return 0;
	}
	if (m != NULL && pb->opt != NULL)
		rp_milp_set_engine(m, pb->opt->solver, pb->opt->threads);
	rp_best_init(&best);
	rc = rp_lp_round(pb, m, deadline, &best, bound, &lp, cause);
	if (rc == 0) {
		if (best.have)
			rp_best_take(&best, plan, note);
		else if (lp == RP_MILP_INFEASIBLE)
			*note = rp_xstrdup("the LP relaxation is infeasible: no "
			    "frontier-advancing plan fits this budget");
		else if (lp == RP_MILP_NOSOLUTION)
			*note = rp_xstrdup("the LP relaxation was not solved "
			    "within the time limit (--time-limit)");
		else if (lp == RP_MILP_ERROR)
			*note = rp_xstrdup("the LP solver failed");
		else
			*note = rp_xstrdup("no rounding gave a plan");
	}
	rp_best_destroy(&best);
	rp_milp_free(m);
	return rc;
}

const struct rp_strategy rp_strategy_lp_round = {
	"lp-round",
	"Checkmate two-phase rounding of the MILP's LP relaxation (GLPK, or --solver cbc)",
	lp_round_run,
};
