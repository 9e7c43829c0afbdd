/* graph.c: graph construction, validation, execution order and adjacency. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "util.h"

int
rp_graph_input_add_node(struct rp_graph_input *in)
{
	struct rp_graph *g = &in->g;
	int v = g->n;

	if (v == in->cap) {
		int c = in->cap;
		rp_grow(&g->id, &c, v + 1, sizeof *g->id);
		c = in->cap;
		rp_grow(&g->op, &c, v + 1, sizeof *g->op);
		c = in->cap;
		rp_grow(&g->cost, &c, v + 1, sizeof *g->cost);
		c = in->cap;
		rp_grow(&g->mem, &c, v + 1, sizeof *g->mem);
		c = in->cap;
		rp_grow(&g->workspace, &c, v + 1, sizeof *g->workspace);
		c = in->cap;
		rp_grow(&g->kind, &c, v + 1, sizeof *g->kind);
		c = in->cap;
		rp_grow(&g->recompute, &c, v + 1, sizeof *g->recompute);
		c = in->cap;
		rp_grow(&g->output, &c, v + 1, sizeof *g->output);
		c = in->cap;
		rp_grow(&g->line, &c, v + 1, sizeof *g->line);
		in->cap = c;
	}
	g->id[v] = NULL;
	g->op[v] = NULL;
	g->cost[v] = 0;
	g->mem[v] = 0;
	g->workspace[v] = 0;
	g->kind[v] = RP_FORWARD;
	g->recompute[v] = 1;
	g->output[v] = 0;
	g->line[v] = 0;
	g->n++;
	return v;
}

void
rp_graph_input_add_edge(struct rp_graph_input *in, int src, int dst, int line)
{
	int n = in->nedges, c;

	c = in->ecap;
	rp_grow(&in->esrc, &c, n + 1, sizeof *in->esrc);
	c = in->ecap;
	rp_grow(&in->edst, &c, n + 1, sizeof *in->edst);
	c = in->ecap;
	rp_grow(&in->eline, &c, n + 1, sizeof *in->eline);
	in->ecap = c;
	in->esrc[n] = src;
	in->edst[n] = dst;
	in->eline[n] = line;
	in->nedges++;
}

/* Frees the node arrays of g (not g itself). */
static void
graph_free_arrays(struct rp_graph *g)
{
	int v;

	if (g->id != NULL)
		for (v = 0; v < g->n; v++)
			free(g->id[v]);
	if (g->op != NULL)
		for (v = 0; v < g->n; v++)
			free(g->op[v]);
	free(g->id);
	free(g->op);
	free(g->cost);
	free(g->mem);
	free(g->workspace);
	free(g->kind);
	free(g->recompute);
	free(g->output);
	free(g->line);
	free(g->pred_off);
	free(g->pred);
	free(g->succ_off);
	free(g->succ);
	free(g->cost_unit);
	free(g->name);
	free(g->file);
}

void
rp_graph_input_destroy(struct rp_graph_input *in)
{
	graph_free_arrays(&in->g);
	free(in->esrc);
	free(in->edst);
	free(in->eline);
	memset(in, 0, sizeof *in);
}

void
rp_graph_free(struct rp_graph *g)
{
	if (g == NULL)
		return;
	graph_free_arrays(g);
	free(g);
}

double
rp_graph_baseline_cost(const struct rp_graph *g)
{
	double s = 0;
	int v;
	for (v = 0; v < g->n; v++)
		s += g->cost[v];
	return s;
}

/* Builds CSR arrays (off has n+1 entries) grouping edge targets by source.
 * Entries within a group keep the order of the edge arrays. */
static void
csr_build(int n, int m, const int *from, const int *to, int **offp, int **adjp)
{
	int *off = rp_xcalloc((size_t)n + 1, sizeof *off);
	int *adj = rp_xmalloc(sizeof *adj * (size_t)(m ? m : 1));
	int *pos = rp_xmalloc(sizeof *pos * (size_t)n);
	int i, v;

	for (i = 0; i < m; i++)
		off[from[i] + 1]++;
	for (v = 0; v < n; v++)
		off[v + 1] += off[v];
	memcpy(pos, off, sizeof *pos * (size_t)n);
	for (i = 0; i < m; i++)
		adj[pos[from[i]]++] = to[i];
	free(pos);
	*offp = off;
	*adjp = adj;
}

/* Sorts edges by (src, dst) with a two-pass counting sort and drops
 * duplicates; returns the new count. O(n + m). */
static int
edges_sort_dedup(int n, int m, int *src, int *dst, int *line)
{
	int *s2 = rp_xmalloc(sizeof *s2 * (size_t)(m ? m : 1));
	int *d2 = rp_xmalloc(sizeof *d2 * (size_t)(m ? m : 1));
	int *l2 = rp_xmalloc(sizeof *l2 * (size_t)(m ? m : 1));
	int *cnt = rp_xcalloc((size_t)n + 1, sizeof *cnt);
	int i, k, pass;

	if (m == 0) {
		free(s2);
		free(d2);
		free(l2);
		free(cnt);
		return 0;
	}
	/* Stable LSD radix sort: by dst, then by src. */
	for (pass = 0; pass < 2; pass++) {
		const int *key = pass == 0 ? dst : src;
		memset(cnt, 0, sizeof *cnt * ((size_t)n + 1));
		for (i = 0; i < m; i++)
			cnt[key[i] + 1]++;
		for (i = 0; i < n; i++)
			cnt[i + 1] += cnt[i];
		for (i = 0; i < m; i++) {
			k = cnt[key[i]]++;
			s2[k] = src[i];
			d2[k] = dst[i];
			l2[k] = line[i];
		}
		memcpy(src, s2, sizeof *src * (size_t)m);
		memcpy(dst, d2, sizeof *dst * (size_t)m);
		memcpy(line, l2, sizeof *line * (size_t)m);
	}
	for (i = 0, k = 0; i < m; i++) {
		if (k > 0 && src[k - 1] == src[i] && dst[k - 1] == dst[i])
			continue;
		src[k] = src[i];
		dst[k] = dst[i];
		line[k] = line[i];
		k++;
	}
	free(s2);
	free(d2);
	free(l2);
	free(cnt);
	return k;
}

/* Finds a directed cycle (the graph is known not to be a DAG) with an
 * iterative DFS started from the lowest-numbered vertices, and describes it
 * as "'a' -> 'b' -> 'a'", naming at most 8 nodes. Returns the first node. */
static int
find_cycle(const struct rp_graph *g, const int *off, const int *adj, char **desc)
{
	int n = g->n;
	unsigned char *color = rp_xcalloc((size_t)n, 1);
	int *stack = rp_xmalloc(sizeof *stack * (size_t)n);
	int *it = rp_xmalloc(sizeof *it * (size_t)n);
	int r, sp, head = -1, tail = -1, i, len;
	char *s, *t;

	for (r = 0; r < n && head < 0; r++) {
		if (color[r])
			continue;
		sp = 0;
		stack[sp++] = r;
		it[r] = off[r];
		color[r] = 1;
		while (sp > 0 && head < 0) {
			int u = stack[sp - 1];
			if (it[u] < off[u + 1]) {
				int w = adj[it[u]++];
				if (color[w] == 1) {
					head = w;	/* back edge u -> w */
					tail = sp - 1;
				} else if (color[w] == 0) {
					color[w] = 1;
					it[w] = off[w];
					stack[sp++] = w;
				}
			} else {
				color[u] = 2;
				sp--;
			}
		}
	}
	/* The cycle is stack[j..tail] where stack[j] == head. */
	for (i = tail; i >= 0 && stack[i] != head; i--)
		;
	len = tail - i + 1;
	s = rp_xasprintf("'%s'", g->id[head]);
	for (r = i + 1; r <= tail && r - i < 8; r++) {
		t = rp_xasprintf("%s -> '%s'", s, g->id[stack[r]]);
		free(s);
		s = t;
	}
	if (len > 8)
		t = rp_xasprintf("%s -> ... -> '%s'", s, g->id[head]);
	else
		t = rp_xasprintf("%s -> '%s'", s, g->id[head]);
	free(s);
	*desc = t;
	free(color);
	free(stack);
	free(it);
	return head;
}

/* Min-heap of vertex numbers, used for the stable topological order. */
static void
heap_push(int *h, int *len, int v)
{
	int i = (*len)++;
	while (i > 0 && h[(i - 1) / 2] > v) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = v;
}

static int
heap_pop(int *h, int *len)
{
	int top = h[0], last = h[--(*len)], i = 0, c;
	while ((c = 2 * i + 1) < *len) {
		if (c + 1 < *len && h[c + 1] < h[c])
			c++;
		if (last <= h[c])
			break;
		h[i] = h[c];
		i = c;
	}
	if (*len > 0)
		h[i] = last;
	return top;
}

/* Kahn's algorithm always taking the earliest node in document order: the
 * order stays as close to the document as the dependencies allow. Returns
 * the number of nodes ordered, fewer than n when there is a cycle.
 * O((n + m) log n). */
static int
stable_topo_order(int n, const int *off, const int *adj, int *order)
{
	int *indeg = rp_xcalloc((size_t)n, sizeof *indeg);
	int *heap = rp_xmalloc(sizeof *heap * (size_t)n);
	int hlen = 0, k = 0, v, i;

	for (i = 0; i < off[n]; i++)
		indeg[adj[i]]++;
	for (v = 0; v < n; v++)
		if (indeg[v] == 0)
			heap_push(heap, &hlen, v);
	while (hlen > 0) {
		v = heap_pop(heap, &hlen);
		order[k++] = v;
		for (i = off[v]; i < off[v + 1]; i++)
			if (--indeg[adj[i]] == 0)
				heap_push(heap, &hlen, adj[i]);
	}
	free(indeg);
	free(heap);
	return k;
}

/* Applies the permutation order[new] = old to every node array. */
#define PERMUTE(arr, type) do {						\
	type *tmp_ = rp_xmalloc(sizeof *tmp_ * (size_t)n);		\
	for (i = 0; i < n; i++)						\
		tmp_[i] = (arr)[order[i]];				\
	free(arr);							\
	(arr) = tmp_;							\
} while (0)

int
rp_graph_finish(struct rp_graph_input *in, struct rp_graph **out, char **cause)
{
	struct rp_graph *g = &in->g;
	int n = g->n, m, i, topo = 1;
	int *off = NULL, *adj = NULL, *order = NULL, *rank = NULL;
	const char *file = g->file != NULL ? g->file : "graph";

	*out = NULL;
	if (n == 0) {
		*cause = rp_xasprintf("%s: graph has no nodes", file);
		goto fail;
	}
	for (i = 0; i < in->nedges; i++)
		if (in->esrc[i] == in->edst[i]) {
			*cause = rp_xasprintf("%s:%d: edge from '%s' to itself "
			    "(self loops are not allowed)", file, in->eline[i],
			    g->id[in->esrc[i]]);
			goto fail;
		}
	m = edges_sort_dedup(n, in->nedges, in->esrc, in->edst, in->eline);
	csr_build(n, m, in->esrc, in->edst, &off, &adj);

	/* Edges that all go forward in the document make it a topological
	 * order, and the graph a DAG; otherwise the stable order is the
	 * check: it orders every node exactly when there is no cycle. */
	order = rp_xmalloc(sizeof *order * (size_t)n);
	for (i = 0; i < m; i++)
		if (in->esrc[i] > in->edst[i])
			topo = 0;
	if (topo)
		for (i = 0; i < n; i++)
			order[i] = i;
	else if (stable_topo_order(n, off, adj, order) < n) {
		char *desc;
		int v = find_cycle(g, off, adj, &desc);
		*cause = rp_xasprintf("%s:%d: graph has a cycle through node "
		    "'%s': %s", file, g->line[v], g->id[v], desc);
		free(desc);
		goto fail;
	}
	free(off);
	free(adj);
	off = adj = NULL;

	PERMUTE(g->id, char *);
	PERMUTE(g->op, char *);
	PERMUTE(g->cost, double);
	PERMUTE(g->mem, int64_t);
	PERMUTE(g->workspace, int64_t);
	PERMUTE(g->kind, unsigned char);
	PERMUTE(g->recompute, unsigned char);
	PERMUTE(g->output, unsigned char);
	PERMUTE(g->line, int);
	rank = rp_xmalloc(sizeof *rank * (size_t)n);
	for (i = 0; i < n; i++)
		rank[order[i]] = i;
	for (i = 0; i < m; i++) {
		in->esrc[i] = rank[in->esrc[i]];
		in->edst[i] = rank[in->edst[i]];
	}
	/* Re-sort so that adjacency lists come out ascending. */
	m = edges_sort_dedup(n, m, in->esrc, in->edst, in->eline);
	csr_build(n, m, in->esrc, in->edst, &g->succ_off, &g->succ);
	{
		/* Edges sorted by src give each pred list ascending. */
		csr_build(n, m, in->edst, in->esrc, &g->pred_off, &g->pred);
	}
	g->m = m;
	g->doc_order = topo;
	if (g->cost_unit == NULL)
		g->cost_unit = rp_xstrdup("ms");
	if (g->name == NULL)
		g->name = rp_xstrdup("graph");
	*out = rp_xmalloc(sizeof **out);
	**out = *g;
	memset(g, 0, sizeof *g);
	free(order);
	free(rank);
	rp_graph_input_destroy(in);
	return 0;

fail:
	free(off);
	free(adj);
	free(order);
	free(rank);
	rp_graph_input_destroy(in);
	return -1;
}

int
rp_graph_int_cost(const struct rp_graph *g)
{
	int i;

	for (i = 0; i < g->n; i++)
		if (g->cost[i] != floor(g->cost[i]) || fabs(g->cost[i]) > 0x1p50)
			return 0;
	return 1;
}
