/* graphml.h: reading graphs from GraphML (the format in remat-plan(5)). */
#ifndef RP_GRAPHML_H
#define RP_GRAPHML_H

#include <stddef.h>

#include "graph.h"

/* Reads and validates the graph in the file at path. On success *out is a
 * new graph (caller frees with rp_graph_free) and 0 is returned; on failure
 * -1 with *cause = "path:line: message" (caller frees). */
int rp_graphml_read(const char *path, struct rp_graph **out, char **cause);

/* The same for a document already in memory; name is used in messages. */
int rp_graphml_read_memory(const char *buf, size_t len, const char *name,
    struct rp_graph **out, char **cause);

#endif
