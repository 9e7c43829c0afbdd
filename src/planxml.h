/* planxml.h: plan files (remat-plan(5), "Plan file"). */
#ifndef RP_PLANXML_H
#define RP_PLANXML_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"
#include "plan.h"
#include "sim.h"

/* Summary figures written as attributes of <plan>. */
struct rp_plan_meta {
	const char *strategy;
	int64_t budget;
	double baseline;
	const struct rp_sim *sim;	/* cost, peak, counts of the plan */
	const char *input;	/* the graph file, never overwritten; or NULL */
};

/* Writes plan p of graph g to path ("-" for standard output), never over
 * meta->input, through rp_write_output: a failure never leaves a partial
 * file. Output is byte-for-byte deterministic. Returns 0,
 * or -1 with *cause set (caller frees). */
int rp_planxml_write(const char *path, const struct rp_graph *g,
    const struct rp_plan *p, const struct rp_plan_meta *meta, char **cause);

/* Reads the plan at path for graph g into out (initialized by the caller;
 * register names and statement lines are recorded). Structural problems
 * (malformed XML, a missing attribute, an unknown node) fail with -1 and
 * *cause = "path:line: message"; the semantics are left to the simulator. */
int rp_planxml_read(const char *path, const struct rp_graph *g,
    struct rp_plan *out, char **cause);
/* The same for the len bytes at buf, named path in messages. */
int rp_planxml_read_memory(const char *buf, size_t len, const char *path,
    const struct rp_graph *g, struct rp_plan *out, char **cause);

#endif
