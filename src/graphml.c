/* graphml.c: the GraphML graph loader (remat-plan(5), section "Graph file"). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "graph.h"
#include "files.h"
#include "graphml.h"
#include "util.h"
#include "xmlutil.h"

#define GRAPHML_NS "http://graphml.graphdrawing.org/xmlns"

/* The attributes of the contract, matched by attr.name. */
enum field {
	F_NONE = 0,	/* a key we do not know: ignored */
	F_COST, F_MEM, F_KIND, F_OP, F_WORKSPACE, F_RECOMPUTE, F_OUTPUT,
	F_FIXED_MEM, F_COST_UNIT, F_NAME,
	F_COUNT
};

static const char *const field_names[F_COUNT] = {
	"", "cost", "mem", "kind", "op", "workspace", "recompute", "output",
	"fixed_mem", "cost_unit", "name",
};

struct key {
	char *id;
	enum field node_field;	/* meaning on <node> data, F_NONE if none */
	enum field graph_field;	/* meaning on <graph> data */
	char *def;		/* <default> value or NULL */
	int line;
	xmlNodePtr elem;	/* the <key>, for messages about its default */
};

struct loader {
	const char *file;
	struct key *keys;
	int nkeys, kcap;
	struct rp_strmap keymap;	/* key id -> index */
	char *cause;
	int line;			/* line for the current error */
};

/* A GraphML element: the right local name in the GraphML namespace or in
 * none (hand-written files). Elements of other namespaces are ignored. */
static int
gml_is(xmlNodePtr n, const char *name)
{
	if (!rp_xml_is(n, name))
		return 0;
	return n->ns == NULL || n->ns->href == NULL ||
	    strcmp((const char *)n->ns->href, GRAPHML_NS) == 0;
}

static int
fail(struct loader *l, xmlNodePtr at, const char *msg)
{
	int line = at != NULL ? rp_xml_line(at) : 0;
	if (line > 0)
		l->cause = rp_xasprintf("%s:%d: %s", l->file, line, msg);
	else
		l->cause = rp_xasprintf("%s: %s", l->file, msg);
	return -1;
}

static enum field
field_of(const char *attr_name, int for_node)
{
	static const enum field node_fields[] = {
		F_COST, F_MEM, F_KIND, F_OP, F_WORKSPACE, F_RECOMPUTE, F_OUTPUT
	};
	static const enum field graph_fields[] = { F_FIXED_MEM, F_COST_UNIT, F_NAME };
	size_t i;

	if (attr_name == NULL)
		return F_NONE;
	if (for_node) {
		for (i = 0; i < sizeof node_fields / sizeof node_fields[0]; i++)
			if (strcmp(attr_name, field_names[node_fields[i]]) == 0)
				return node_fields[i];
	} else {
		for (i = 0; i < sizeof graph_fields / sizeof graph_fields[0]; i++)
			if (strcmp(attr_name, field_names[graph_fields[i]]) == 0)
				return graph_fields[i];
	}
	return F_NONE;
}

/* Reads every <key> child of the root. */
static int
read_keys(struct loader *l, xmlNodePtr root)
{
	xmlNodePtr c, d;
	char *msg;
	int node_def[F_COUNT], graph_def[F_COUNT], fi;

	for (fi = 0; fi < F_COUNT; fi++)
		node_def[fi] = graph_def[fi] = -1;
	for (c = root->children; c != NULL; c = c->next) {
		struct key *k;
		char *forv, *aname;
		int prev;

		if (!gml_is(c, "key"))
			continue;
		rp_grow(&l->keys, &l->kcap, l->nkeys + 1, sizeof *l->keys);
		k = &l->keys[l->nkeys];
		memset(k, 0, sizeof *k);
		k->line = rp_xml_line(c);
		k->elem = c;
		k->id = rp_xml_attr_raw(c, "id");
		if (k->id == NULL || *k->id == '\0') {
			free(k->id);
			return fail(l, c, "<key> has no id attribute");
		}
		l->nkeys++;
		prev = rp_strmap_put(&l->keymap, k->id, l->nkeys - 1);
		if (prev >= 0) {
			msg = rp_xasprintf("duplicate key id '%s' (first declared "
			    "at line %d)", k->id, l->keys[prev].line);
			fail(l, c, msg);
			free(msg);
			return -1;
		}
		forv = rp_xml_attr(c, "for");
		aname = rp_xml_attr(c, "attr.name");
		if (forv == NULL || strcmp(forv, "all") == 0 ||
		    strcmp(forv, "node") == 0)
			k->node_field = field_of(aname, 1);
		if (forv == NULL || strcmp(forv, "all") == 0 ||
		    strcmp(forv, "graph") == 0)
			k->graph_field = field_of(aname, 0);
		free(forv);
		free(aname);
		for (d = c->children; d != NULL; d = d->next)
			if (gml_is(d, "default")) {
				free(k->def);
				k->def = rp_xml_text(d);
			}
		/* Two keys for one attribute must not disagree on its
		 * default: which one would hold? Compared with the first key
		 * that gave the attribute a default. */
		for (prev = 0; k->def != NULL && prev < 2; prev++) {
			enum field f = prev ? k->graph_field : k->node_field;
			int *first = prev ? graph_def : node_def;
			const struct key *o;
			if (f == F_NONE)
				continue;
			if (first[f] < 0) {
				first[f] = l->nkeys - 1;
				continue;
			}
			o = &l->keys[first[f]];
			if (strcmp(o->def, k->def) == 0)
				continue;
			msg = rp_xasprintf("key '%s' gives '%s' the default '%s', "
			    "but key '%s' (line %d) gives it '%s'", k->id,
			    field_names[f], k->def, o->id, o->line, o->def);
			fail(l, c, msg);
			free(msg);
			return -1;
		}
	}
	return 0;
}

/* Parses a finite, non-negative double. */
static int
parse_cost(const char *s, double *out)
{
	char *end;
	double v;

	if (*s == '\0')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	/* ERANGE also flags underflow: tiny costs are fine, infinite not. */
	if (*end != '\0' || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

/* Parses a byte count: an integer, or a double with an integral value
 * (some exporters write 1048576.0). Returns 0, -1 when s is not a whole
 * number, -2 when it is one but too large for a byte count. */
static int
parse_bytes(const char *s, int64_t *out)
{
	char *end;
	long long v;
	double d;

	if (*s == '\0')
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end == '\0' && errno == 0) {
		*out = v;
		return 0;
	}
	errno = 0;
	d = strtod(s, &end);
	if (*end != '\0' || !isfinite(d) || d != floor(d))
		return -1;
	if (errno == ERANGE && fabs(d) < 1)
		return -1;	/* underflow: a fraction too small for a double */
	if (errno == ERANGE || fabs(d) > 4.6e18)
		return -2;
	*out = (int64_t)d;
	return 0;
}

static int
parse_bool(const char *s, unsigned char *out)
{
	if (strcasecmp(s, "true") == 0 || strcmp(s, "1") == 0) {
		*out = 1;
		return 0;
	}
	if (strcasecmp(s, "false") == 0 || strcmp(s, "0") == 0) {
		*out = 0;
		return 0;
	}
	return -1;
}

/* Byte counts above 2^62 would overflow sums of a few of them. */
#define MAX_BYTES ((int64_t)1 << 62)

/* The index of the key a <data> element refers to, or -1 (failing). */
static int
data_key(struct loader *l, xmlNodePtr d)
{
	char *key = rp_xml_attr_raw(d, "key"), *msg;
	int k;

	if (key == NULL)
		return fail(l, d, "<data> has no key attribute");
	k = rp_strmap_get(&l->keymap, key);
	if (k < 0) {
		msg = rp_xasprintf("<data> refers to undeclared key '%s'", key);
		fail(l, d, msg);
		free(msg);
	}
	free(key);
	return k;
}

/* Stores value s of field f on node v; at is the element for messages. */
static int
set_node_field(struct loader *l, struct rp_graph *g, int v, enum field f,
    const char *s, xmlNodePtr at)
{
	const char *name = field_names[f];
	char *msg = NULL;
	int64_t b;
	int rc;

	switch (f) {
	case F_COST:
		if (parse_cost(s, &g->cost[v]) != 0)
			msg = rp_xasprintf("node '%s': cost '%s' is not a number",
			    g->id[v], s);
		else if (g->cost[v] < 0)
			msg = rp_xasprintf("node '%s': cost %s is negative",
			    g->id[v], s);
		break;
	case F_MEM:
	case F_WORKSPACE:
		rc = parse_bytes(s, &b);
		if (rc == -1)
			msg = rp_xasprintf("node '%s': %s '%s' is not a whole "
			    "number of bytes", g->id[v], name, s);
		else if (rc == -2)
			msg = rp_xasprintf("node '%s': %s %s is too large",
			    g->id[v], name, s);
		else if (b < 0)
			msg = rp_xasprintf("node '%s': %s %s is negative",
			    g->id[v], name, s);
		else if (b > MAX_BYTES)
			msg = rp_xasprintf("node '%s': %s %s is too large",
			    g->id[v], name, s);
		else if (f == F_MEM)
			g->mem[v] = b;
		else
			g->workspace[v] = b;
		break;
	case F_KIND:
		if (strcmp(s, "forward") == 0)
			g->kind[v] = RP_FORWARD;
		else if (strcmp(s, "backward") == 0)
			g->kind[v] = RP_BACKWARD;
		else
			msg = rp_xasprintf("node '%s': kind '%s' is not "
			    "'forward' or 'backward'", g->id[v], s);
		break;
	case F_OP:
		free(g->op[v]);
		g->op[v] = rp_xstrdup(s);
		break;
	case F_RECOMPUTE:
	case F_OUTPUT:
		if (parse_bool(s, f == F_RECOMPUTE ? &g->recompute[v] :
		    &g->output[v]) != 0)
			msg = rp_xasprintf("node '%s': %s '%s' is not 'true' or "
			    "'false'", g->id[v], name, s);
		break;
	default:
		break;
	}
	if (msg != NULL) {
		fail(l, at, msg);
		free(msg);
		return -1;
	}
	return 0;
}

/* Reads one <node>: its id and data, applying key defaults first. */
static int
read_node(struct loader *l, struct rp_graph_input *in, struct rp_strmap *ids,
    xmlNodePtr c, unsigned char *seen)
{
	struct rp_graph *g = &in->g;
	xmlNodePtr d;
	char *id, *msg;
	int v, i, prev;

	id = rp_xml_attr_raw(c, "id");
	if (id == NULL || *id == '\0') {
		free(id);
		return fail(l, c, "<node> has no id attribute");
	}
	v = rp_graph_input_add_node(in);
	g->id[v] = id;
	g->line[v] = rp_xml_line(c);
	prev = rp_strmap_put(ids, id, v);
	if (prev >= 0) {
		msg = rp_xasprintf("duplicate node id '%s' (first defined at "
		    "line %d)", id, g->line[prev]);
		fail(l, c, msg);
		free(msg);
		return -1;
	}
	memset(seen, 0, F_COUNT);
	for (d = c->children; d != NULL; d = d->next) {
		char *val;
		int k, rc;
		enum field f;

		if (gml_is(d, "graph"))
			return fail(l, d, "nested graphs are not supported");
		if (gml_is(d, "hyperedge"))
			return fail(l, d, "hyperedges are not supported");
		if (!gml_is(d, "data"))
			continue;
		if ((k = data_key(l, d)) < 0)
			return -1;
		f = l->keys[k].node_field;
		if (f == F_NONE)
			continue;
		if (seen[f] == 2) {
			msg = rp_xasprintf("node '%s' has two values for '%s'",
			    id, field_names[f]);
			fail(l, d, msg);
			free(msg);
			return -1;
		}
		seen[f] = 2;
		val = rp_xml_text(d);
		rc = set_node_field(l, g, v, f, val, d);
		free(val);
		if (rc != 0)
			return -1;
	}
	/* Key defaults fill what the node leaves out; a bad default is
	 * reported at its key. */
	for (i = 0; i < l->nkeys; i++) {
		enum field f = l->keys[i].node_field;
		if (f == F_NONE || l->keys[i].def == NULL || seen[f])
			continue;
		if (set_node_field(l, g, v, f, l->keys[i].def, l->keys[i].elem) != 0)
			return -1;
		seen[f] = 1;
	}
	if (!seen[F_COST] || !seen[F_MEM]) {
		const char *what = !seen[F_COST] ? "cost" : "mem";
		int declared = 0;
		for (i = 0; i < l->nkeys; i++)
			if (l->keys[i].node_field == (!seen[F_COST] ? F_COST : F_MEM))
				declared = 1;
		msg = declared ?
		    rp_xasprintf("node '%s' has no %s", id, what) :
		    rp_xasprintf("node '%s' has no %s (no <key for=\"node\" "
		    "attr.name=\"%s\"> is declared)", id, what, what);
		fail(l, c, msg);
		free(msg);
		return -1;
	}
	return 0;
}

/* Reads one graph-level <data> element. */
static int
read_graph_data(struct loader *l, struct rp_graph *g, xmlNodePtr d)
{
	char *val, *msg;
	int k;

	if ((k = data_key(l, d)) < 0)
		return -1;
	val = rp_xml_text(d);
	switch (l->keys[k].graph_field) {
	case F_FIXED_MEM:
		if (parse_bytes(val, &g->fixed_mem) != 0 || g->fixed_mem < 0 ||
		    g->fixed_mem > MAX_BYTES) {
			msg = rp_xasprintf("fixed_mem '%s' is not a non-negative "
			    "whole number of bytes", val);
			free(val);
			fail(l, d, msg);
			free(msg);
			return -1;
		}
		break;
	case F_COST_UNIT:
		free(g->cost_unit);
		g->cost_unit = rp_xstrdup(val);
		break;
	case F_NAME:
		if (*val != '\0') {
			free(g->name);
			g->name = rp_xstrdup(val);
		}
		break;
	default:
		break;
	}
	free(val);
	return 0;
}

/* Resolves an edge endpoint id, failing with "edge source 'x' is not a node". */
static int
edge_end(struct loader *l, struct rp_strmap *ids, xmlNodePtr e,
    const char *which, int *out)
{
	char *id = rp_xml_attr_raw(e, which), *msg;

	if (id == NULL) {
		msg = rp_xasprintf("<edge> has no %s attribute", which);
		fail(l, e, msg);
		free(msg);
		return -1;
	}
	*out = rp_strmap_get(ids, id);
	if (*out < 0) {
		msg = rp_xasprintf("edge %s '%s' is not a node", which, id);
		free(id);
		fail(l, e, msg);
		free(msg);
		return -1;
	}
	free(id);
	return 0;
}

/* The base name of path without directories and a .xml/.graphml suffix. */
static char *
base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	char *r = rp_xstrdup(s != NULL ? s + 1 : path);
	size_t n = strlen(r);

	if (n > 8 && strcmp(r + n - 8, ".graphml") == 0)
		r[n - 8] = '\0';
	else if (n > 4 && strcmp(r + n - 4, ".xml") == 0)
		r[n - 4] = '\0';
	return r;
}

static int
read_graph(struct loader *l, xmlNodePtr gr, struct rp_graph_input *in)
{
	struct rp_graph *g = &in->g;
	struct rp_strmap ids;
	unsigned char seen[F_COUNT];
	xmlNodePtr c, d;
	char *ed, *gid;
	int rc = -1;

	ed = rp_xml_attr(gr, "edgedefault");
	if (ed != NULL && strcmp(ed, "directed") != 0) {
		free(ed);
		return fail(l, gr, "graph must be directed "
		    "(edgedefault=\"directed\")");
	}
	free(ed);
	gid = rp_xml_attr(gr, "id");
	if (gid != NULL && *gid != '\0' && strcmp(gid, "G") != 0)
		g->name = gid;
	else
		free(gid);
	rp_strmap_init(&ids, 1024);
	for (c = gr->children; c != NULL; c = c->next) {
		if (gml_is(c, "node")) {
			if (read_node(l, in, &ids, c, seen) != 0)
				goto out;
		} else if (gml_is(c, "data")) {
			if (read_graph_data(l, g, c) != 0)
				goto out;
		} else if (gml_is(c, "hyperedge")) {
			fail(l, c, "hyperedges are not supported");
			goto out;
		}
	}
	/* Edges may precede the nodes they name: resolve them afterwards. */
	for (c = gr->children; c != NULL; c = c->next) {
		char *dir;
		int s, t;

		if (!gml_is(c, "edge"))
			continue;
		for (d = c->children; d != NULL; d = d->next)
			if (gml_is(d, "graph") || gml_is(d, "hyperedge")) {
				fail(l, d, gml_is(d, "graph") ? "nested graphs are "
				    "not supported" : "hyperedges are not supported");
				goto out;
			}
		dir = rp_xml_attr(c, "directed");
		if (dir != NULL && strcmp(dir, "false") == 0) {
			free(dir);
			fail(l, c, "undirected edge in a directed graph");
			goto out;
		}
		free(dir);
		if (edge_end(l, &ids, c, "source", &s) != 0 ||
		    edge_end(l, &ids, c, "target", &t) != 0)
			goto out;
		rp_graph_input_add_edge(in, s, t, rp_xml_line(c));
	}
	if (g->n == 0) {
		fail(l, gr, "graph has no nodes");
		goto out;
	}
	{
		/* Bound every sum of byte counts a plan can form: each count
		 * is at most 2^62, and so is every partial sum, so no addition
		 * here or in a plan overflows. */
		int64_t total = g->fixed_mem;
		double cost = 0, cmax;
		int v, over = 0;
		for (v = 0; v < g->n && !over; v++) {
			over = g->mem[v] > MAX_BYTES - total;
			if (!over)
				total += g->mem[v];
			over = over || g->workspace[v] > MAX_BYTES - total;
			if (!over)
				total += g->workspace[v];
			cost += g->cost[v];
		}
		if (over) {
			fail(l, gr, "the graph's memory (fixed_mem plus every "
			    "node's mem and workspace) exceeds 4 EiB");
			goto out;
		}
		/* A plan computes each node at most n times in practice, and
		 * the solvers add such sums: they must stay finite. */
		cmax = 1e300 / ((double)g->n + 1) / ((double)g->n + 1);
		if (!(cost <= cmax)) {
			char *msg = rp_xasprintf("the node costs sum to %.4g, more "
			    "than the %.4g supported for %d nodes (a plan's cost, "
			    "with its recomputations, must stay finite)", cost,
			    cmax, g->n);
			fail(l, gr, msg);
			free(msg);
			goto out;
		}
	}
	rc = 0;
out:
	rp_strmap_destroy(&ids);
	return rc;
}

int
rp_graphml_read_memory(const char *buf, size_t len, const char *name,
    struct rp_graph **out, char **cause)
{
	struct loader l;
	struct rp_graph_input in;
	xmlDocPtr doc;
	xmlNodePtr root, c, gr = NULL;
	int i, rc = -1;

	*out = NULL;
	memset(&l, 0, sizeof l);
	memset(&in, 0, sizeof in);
	l.file = name;
	doc = rp_xml_parse(buf, len, name, cause);
	if (doc == NULL) {
		*cause = rp_oneline(*cause);
		return -1;
	}
	rp_strmap_init(&l.keymap, 16);
	root = xmlDocGetRootElement(doc);
	if (root == NULL || !rp_xml_is(root, "graphml")) {
		char *msg = rp_xasprintf("root element is '%s', expected 'graphml'",
		    root != NULL ? (const char *)root->name : "");
		fail(&l, root, msg);
		free(msg);
		goto out;
	}
	if (read_keys(&l, root) != 0)
		goto out;
	for (c = root->children; c != NULL; c = c->next)
		if (gml_is(c, "graph")) {
			if (gr != NULL) {
				fail(&l, c, "more than one <graph> element "
				    "(one graph per file)");
				goto out;
			}
			gr = c;
		}
	if (gr == NULL) {
		fail(&l, root, "no <graph> element");
		goto out;
	}
	in.g.file = rp_xstrdup(name);
	/* Graph-level key defaults, overridden by <data> below. */
	for (i = 0; i < l.nkeys; i++) {
		struct key *k = &l.keys[i];
		if (k->def == NULL)
			continue;
		if (k->graph_field == F_FIXED_MEM) {
			if (parse_bytes(k->def, &in.g.fixed_mem) != 0 ||
			    in.g.fixed_mem < 0 || in.g.fixed_mem > MAX_BYTES) {
				fail(&l, root, "default fixed_mem is not a "
				    "non-negative whole number of bytes");
				goto out;
			}
		} else if (k->graph_field == F_COST_UNIT) {
			free(in.g.cost_unit);
			in.g.cost_unit = rp_xstrdup(k->def);
		}
	}
	if (read_graph(&l, gr, &in) != 0)
		goto out;
	if (in.g.name == NULL)
		in.g.name = base_name(name);
	rc = rp_graph_finish(&in, out, cause);
	goto done;
out:
	*cause = l.cause;
	l.cause = NULL;
	rp_graph_input_destroy(&in);
done:
	for (i = 0; i < l.nkeys; i++) {
		free(l.keys[i].id);
		free(l.keys[i].def);
	}
	free(l.keys);
	free(l.cause);
	rp_strmap_destroy(&l.keymap);
	xmlFreeDoc(doc);
	if (rc != 0)
		*cause = rp_oneline(*cause);
	return rc;
}

int
rp_graphml_read(const char *path, struct rp_graph **out, char **cause)
{
	char *buf;
	size_t len;
	int rc;

	*out = NULL;
	if (rp_read_input(path, &buf, &len, cause) != 0)
		return -1;
	rc = rp_graphml_read_memory(buf, len, path, out, cause);
	free(buf);
	return rc;	/* causes are already one line */
}
