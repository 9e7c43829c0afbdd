/* lp_bench.c: the LP relaxation of one graph at one budget, solved by
 * GLPK from checkpoint-all's basis (start "ckpt", what remat-plan does) or
 * from GLPK's all-slack basis ("slack"). Prints one CSV line:
 * graph,nodes,budget_pct,start,rows,cols,nonzeros,lp_s,iterations,result,
 * bound
 * where result is optimal, infeasible, limit (stopped after SECONDS; bound
 * is then what the row prices prove) or error.
 * Usage: lp_bench GRAPH PERCENT SECONDS [ckpt|slack] */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphml.h"
#include "milp.h"
#include "strategy.h"
#include "util.h"

int
main(int argc, char **argv)
{
	static const char *const results[] = { "optimal", "feasible",
		"infeasible", "limit", "error" };
	struct rp_graph *g;
	struct rp_problem pb;
	struct rp_budget_spec spec;
	struct rp_milp *m;
	struct rp_milp_stats st;
	enum rp_milp_result r;
	char *cause = NULL;
	const char *start = argc > 4 ? argv[4] : "ckpt";
	double t0, lp_s, obj = NAN;
	int flags = RP_MILP_REDUCE | RP_MILP_SPLIT_FREE | RP_MILP_STAGE_ROWS;

	rp_malloc_tune();
	if (argc < 4 || (strcmp(start, "ckpt") != 0 &&
	    strcmp(start, "slack") != 0)) {
		fprintf(stderr, "usage: lp_bench GRAPH PERCENT SECONDS "
		    "[ckpt|slack]\n");
		return 2;
	}
	if (strcmp(start, "slack") == 0)
		flags |= RP_MILP_SLACK_START;
	if (rp_graphml_read(argv[1], &g, &cause) != 0) {
		fprintf(stderr, "%s\n", cause);
		return 3;
	}
	spec = rp_budget_percent(atof(argv[2]));
	if (rp_problem_init(&pb, g, &spec, &cause) != 0) {
		fprintf(stderr, "%s\n", cause);
		return 2;
	}
	m = rp_milp_build_ex(g, pb.budget, flags, &cause);
	if (m == NULL) {
		fprintf(stderr, "%s\n", cause);
		return 4;
	}
	t0 = rp_now();
	r = rp_milp_solve_lp(m, pb.budget, t0 + atof(argv[3]), &obj);
	lp_s = rp_now() - t0;
	rp_milp_stats(m, &st);
	printf("%s,%d,%s,%s,%d,%d,%ld,%.3f,%d,%s,%.10g\n", g->name, g->n,
	    argv[2], start, st.rows, st.cols, st.nonzeros, lp_s,
	    st.lp_iterations, results[r], rp_milp_lp_bound(m));
	rp_milp_free(m);
	rp_graph_free(g);
	return 0;
}
