/* report.h: the comparison of strategies as a table, CSV or JSON. */
#ifndef RP_REPORT_H
#define RP_REPORT_H

#include <stdio.h>

#include "strategy.h"
#include "sweep.h"

enum rp_format { RP_FMT_TABLE, RP_FMT_CSV, RP_FMT_JSON };

/* Writes the comparison of results res[0..n) for problem pb to f; picked is
 * the index of the chosen plan or -1, lb the run's bound
 * (rp_results_bound). */
void rp_report(FILE *f, enum rp_format fmt, const struct rp_problem *pb,
    const struct rp_result *res, int n, int picked, const struct rp_bound *lb);

/* Writes the verdict of --check for the valid plan at path with figures s;
 * when pb has a budget, also whether it fits. */
void rp_report_check(FILE *f, enum rp_format fmt, const struct rp_problem *pb,
    const char *path, const struct rp_sim *s);

/* Writes the graph summary used by --info. */
void rp_report_info(FILE *f, enum rp_format fmt, const struct rp_problem *pb);

/* Writes a sweep: one row per budget, one column per strategy (cost
 * ratio, or why there is none), the picked strategy and the bound. */
void rp_report_sweep(FILE *f, enum rp_format fmt, const struct rp_problem *pb,
    const struct rp_sweep *sw);

struct rp_milp_stats;

/* Writes what --write-mps and --write-lp wrote: the MILP's size at pb's
 * budget and the files (NULL where not asked for). */
void rp_report_milp(FILE *f, enum rp_format fmt, const struct rp_problem *pb,
    const struct rp_milp_stats *st, const char *mps, const char *lp);

/* Writes --budget min: for each of strats[0..n), the smallest budget m[i]
 * found; lowest is the strategy that reaches lowest, or -1. */
void rp_report_min(FILE *f, enum rp_format fmt, const struct rp_problem *pb,
    const struct rp_strategy *const *strats, const struct rp_budget_min *m,
    int n, int lowest);

#endif
