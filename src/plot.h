/* plot.h: a sweep drawn as a standalone SVG picture: overhead against
 * budget, one line per strategy, the lower bound as a band. No library:
 * the file is written as text. */
#ifndef RP_PLOT_H
#define RP_PLOT_H

#include "problem.h"
#include "sweep.h"

/* Draws sweep sw of problem pb into the SVG file path, atomically (as
 * rp_write_output does; never over refuse). Returns 0, or -1 with *cause
 * set (caller frees). Output is byte-for-byte deterministic. */
int rp_plot_svg(const char *path, const char *refuse,
    const struct rp_problem *pb, const struct rp_sweep *sw, char **cause);

#endif
