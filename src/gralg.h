/* gralg.h: graph algorithms delegated to igraph, for what the core does not
 * do itself (the core validates and orders graphs on its own, graph.c).
 * This is the only module that includes igraph; everything crosses the
 * boundary as plain int arrays. */
#ifndef RP_GRALG_H
#define RP_GRALG_H

/* Articulation points of the undirected graph with n vertices and m edges.
 * On success *aps is a newly allocated ascending array of *naps vertex ids
 * (caller frees). Returns 0, or -1 with *cause set. Time: O(n + m). */
int rp_gralg_articulation_points(int n, int m, const int *src, const int *dst,
    int **aps, int *naps, char **cause);

#endif
