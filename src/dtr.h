/* dtr.h: Dynamic Tensor Rematerialization (Kirisame et al., ICLR 2021) run
 * as a simulation over the graph, yielding a static plan. */
#ifndef RP_DTR_H
#define RP_DTR_H

enum rp_dtr_heuristic {
	RP_DTR_FULL,		/* "dtr": h_DTR with the exact evicted neighborhood e* */
	RP_DTR_EQCLASS,		/* "dtr-eqclass": union-find relaxation of e* */
	RP_DTR_LOCAL,		/* "dtr-local": own cost only */
	RP_DTR_LRU,		/* "lru": least recently used */
	RP_DTR_LARGEST,		/* "largest": largest value */
	RP_DTR_MSPS,		/* "msps": memory saved per second of recomputation */
	RP_DTR_RANDOM,		/* "random": seeded, reproducible */
	RP_DTR_NHEURISTICS
};

/* The default: the best on the shipped graphs (see remat-plan(1)). */
#define RP_DTR_DEFAULT RP_DTR_FULL

/* The heuristic's name for the command line and reports. */
const char *rp_dtr_heuristic_name(enum rp_dtr_heuristic h);
/* The heuristic called name, or -1. */
int rp_dtr_heuristic_find(const char *name);

#endif
