/* graphml.c: the GraphML graph loader (remat-plan(5), section "Graph file").
 *
 * The document is read as a stream of SAX2 events, fed from the file a
 * few kilobytes at a time, and never held as a tree: the loader's memory
 * is that of the graph it builds, whatever the size of the file, and every
 * message names the line of the element at fault. Keys are therefore read
 * before the graph that uses them, as the GraphML schema orders them. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/SAX2.h>

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

/* What an open element is, from its name and its parent's kind. Only the
 * elements of the contract matter, all within four levels of the root;
 * everything else (foreign elements, and whatever they contain) is
 * E_OTHER and ignored. */
enum elem {
	E_OTHER, E_ROOT, E_KEY, E_DEFAULT, E_GRAPH, E_NODE, E_EDGE,
	E_NDATA,	/* <data> of a <node> */
	E_GDATA,	/* <data> of the <graph> */
	E_ODATA		/* <data> of the file or of an edge: not read, but its
			 * key must be declared */
};
#define KIND_DEPTH 4

struct key {
	char *id;
	enum field node_field;	/* meaning on <node> data, F_NONE if none */
	enum field graph_field;	/* meaning on <graph> data */
	char *def;		/* <default> value or NULL */
	int line;
};

/* An edge read before a node it names: resolved when the graph ends. An
 * end already resolved has its index and a NULL id. */
struct late_edge {
	char *src, *dst;
	int s, t, line, has_dst;
};

/* A growable byte buffer holding a NUL-terminated string. */
struct sbuf {
	char *s;
	int len, cap;
};

struct loader {
	struct rp_sax_base base;	/* first: the entity callbacks' fail */
	const char *file;
	xmlParserCtxtPtr ctxt;
	struct rp_graph_input in;
	char *cause;			/* the first error; parsing stops there */

	/* The input: a descriptor, or a buffer when fd < 0. */
	int fd;
	const char *buf;
	size_t len, off;
	size_t nread;			/* bytes read */
	int newlines;			/* '\n' among them */
	int cr;				/* they ended with a CR */

	struct key *keys;
	int nkeys, kcap;
	struct rp_strmap keymap;	/* key id -> index */
	int node_def[F_COUNT];		/* first key defaulting each field */
	int graph_def[F_COUNT];
	struct rp_strmap ids;		/* node id -> index, once in <graph> */

	int depth;			/* open elements, the root is 1 */
	enum elem kind[KIND_DEPTH + 1];
	int root_line, graph_line, ngraphs;

	/* The <key> or <node> open, and the fields a node has set (1: by a
	 * default, 2: by its own <data>). */
	int cur;
	unsigned char seen[F_COUNT];
	unsigned char gseen[F_COUNT];	/* the graph's <data> read */

	/* The text of the open <default> or <data>. */
	int text_on;
	struct sbuf text;
	enum field data_field;
	int data_line;

	/* The open <edge>. */
	struct sbuf esrc, edst;
	int eline, es, et, has_src, has_dst, undirected;

	struct late_edge *late;
	int nlate, latecap;
};

/* Records the first error, "file:line: msg" (no line when line is 0), and
 * stops the parser. Returns -1. */
static int
fail(struct loader *l, int line, const char *msg)
{
	if (l->cause == NULL) {
		if (line > 0)
			l->cause = rp_xasprintf("%s:%d: %s", l->file, line, msg);
		else
			l->cause = rp_xasprintf("%s: %s", l->file, msg);
	}
	if (l->ctxt != NULL)
		xmlStopParser(l->ctxt);
	return -1;
}

/* fail(), freeing msg. */
static int
fail_free(struct loader *l, int line, char *msg)
{
	fail(l, line, msg);
	free(msg);
	return -1;
}

/* The line the parser is on: in a start-element event, the line of the
 * tag's end. */
static int
cur_line(struct loader *l)
{
	int n = xmlSAX2GetLineNumber(l->ctxt);
	return n > 0 ? n : 0;
}

static void
sbuf_set(struct sbuf *b, const char *s, size_t n)
{
	if (n > (size_t)INT32_MAX - 1)
		n = (size_t)INT32_MAX - 1;	/* the parser never gets here */
	rp_grow(&b->s, &b->cap, (int)n + 1, 1);
	memcpy(b->s, s, n);
	b->s[n] = '\0';
	b->len = (int)n;
}

static void
sbuf_add(struct sbuf *b, const char *s, size_t n)
{
	if (n > (size_t)INT32_MAX - 1 - (size_t)b->len)
		n = (size_t)INT32_MAX - 1 - (size_t)b->len;
	rp_grow(&b->s, &b->cap, b->len + (int)n + 1, 1);
	memcpy(b->s + b->len, s, n);
	b->len += (int)n;
	b->s[b->len] = '\0';
}

/* A GraphML element: the right local name in the GraphML namespace or in
 * none (hand-written files). Elements of other namespaces are ignored, and
 * so are those with a prefix no namespace is declared for: a name of its
 * own, as attributes with one are. */
static int
gml_is(const xmlChar *local, const xmlChar *prefix, const xmlChar *uri,
    const char *name)
{
	return strcmp((const char *)local, name) == 0 && (uri == NULL ?
	    prefix == NULL : strcmp((const char *)uri, GRAPHML_NS) == 0);
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

/* Parses a finite, non-negative double. */
static int
parse_cost(const char *s, double *out)
{
	char *end;
	double v;

	if (*s == '\0' || rp_is_hex(s))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	/* ERANGE also flags underflow: tiny costs are fine, infinite not. */
	if (*end != '\0' || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

/* Parses a byte count: a decimal number whose value is whole, in any
 * form (some exporters write 1048576.0, or 1e6), read exactly: the digits
 * and the exponent are read as they are written, never rounded through a
 * double. Returns 0 with *out (a negative count as -1, for the caller to
 * refuse), -1 when s is not a whole number, -2 when it is one but past
 * 19 digits. */
static int
parse_bytes(const char *s, int64_t *out)
{
	const char *p = s, *ip, *fp = "";
	size_t ni, nf = 0, nd, lead, trail, k;
	long long e = 0, pt;
	int neg = 0, esign = 1;
	uint64_t v = 0;

	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	ip = p;
	ni = strspn(ip, "0123456789");
	p += ni;
	if (*p == '.') {
		fp = ++p;
		nf = strspn(fp, "0123456789");
		p += nf;
	}
	if (ni + nf == 0)
		return -1;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			esign = *p++ == '-' ? -1 : 1;
		if (!isdigit((unsigned char)*p))
			return -1;
		for (; isdigit((unsigned char)*p); p++)
			if (e < 100000)	/* past it, only the sign matters */
				e = e * 10 + (*p - '0');
		e *= esign;
	}
	if (*p != '\0')
		return -1;
	/* the digits, integer part then fraction (digit k is DIGIT(k)),
	 * without the zeros at either end; the point then lies after
	 * ni - lead + e of them */
#define DIGIT(k) ((k) < ni ? ip[(k)] : fp[(k) - ni])
	nd = ni + nf;
	for (lead = 0; lead < nd && DIGIT(lead) == '0'; lead++)
		;
	if (lead == nd) {		/* zero */
		*out = 0;
		return 0;
	}
	for (trail = 0; DIGIT(nd - 1 - trail) == '0'; trail++)
		;
	/* whole where every digit left lies before the point, pt digits
	 * from the first */
	pt = (long long)ni - (long long)lead + e;
	if ((long long)(nd - lead - trail) > pt)
		return -1;
	if (neg) {
		*out = -1;
		return 0;
	}
	if (pt > 19)
		return -2;
	/* the digits, then as many zeros as the point lies past them */
	for (k = lead; k < nd - trail; k++)
		v = v * 10 + (uint64_t)(DIGIT(k) - '0');
#undef DIGIT
	for (k = nd - lead - trail; (long long)k < pt; k++)
		v *= 10;	/* 19 digits at most: no overflow of 2^64 */
	if (v > (uint64_t)INT64_MAX)
		return -2;
	*out = (int64_t)v;
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

/* Stores value s of field f on node v; line is where s was written. */
static int
set_node_field(struct loader *l, struct rp_graph *g, int v, enum field f,
    const char *s, int line)
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
		return fail_free(l, line, msg);
	}
	return 0;
}

/* The base name of path without directories and a .xml/.graphml suffix,
 * as a name that XML and JSON can carry: a byte that is not part of a
 * UTF-8 character, or a control character, becomes '?'. */
static char *
base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	char *r = rp_xstrdup(s != NULL ? s + 1 : path), *p;
	size_t n = strlen(r);
	int k;

	if (n > 8 && strcmp(r + n - 8, ".graphml") == 0)
		r[n - 8] = '\0';
	else if (n > 4 && strcmp(r + n - 4, ".xml") == 0)
		r[n - 4] = '\0';
	for (p = r; *p != '\0'; p += k)
		if ((k = rp_utf8_len(p)) == 0 || (unsigned char)*p < 0x20 ||
		    *p == 0x7f) {
			*p = '?';
			k = 1;
		}
	return r;
}

/* Starts a <key>: its id, and what its attr.name means. */
static int
key_start(struct loader *l, int nb, const xmlChar **at, int line)
{
	struct key *k;
	char *forv, *aname;
	int prev;

	if (l->ngraphs > 0)
		return fail(l, line, "<key> after the <graph> (keys are "
		    "declared before the graph that uses them)");
	rp_grow(&l->keys, &l->kcap, l->nkeys + 1, sizeof *l->keys);
	k = &l->keys[l->nkeys];
	memset(k, 0, sizeof *k);
	k->line = line;
	k->id = rp_sax_attr_raw(nb, at, "id");
	if (k->id == NULL || *k->id == '\0') {
		free(k->id);
		return fail(l, line, "<key> has no id attribute");
	}
	l->nkeys++;
	prev = rp_strmap_put(&l->keymap, k->id, l->nkeys - 1);
	if (prev >= 0)
		return fail_free(l, line, rp_xasprintf("duplicate key id '%s' "
		    "(first declared at line %d)", k->id, l->keys[prev].line));
	forv = rp_sax_attr_trim(nb, at, "for");
	aname = rp_sax_attr_trim(nb, at, "attr.name");
	if (forv == NULL || strcmp(forv, "all") == 0 ||
	    strcmp(forv, "node") == 0)
		k->node_field = field_of(aname, 1);
	if (forv == NULL || strcmp(forv, "all") == 0 ||
	    strcmp(forv, "graph") == 0)
		k->graph_field = field_of(aname, 0);
	free(forv);
	free(aname);
	l->cur = l->nkeys - 1;
	return 0;
}

/* Ends a <key>. Two keys for one attribute must not disagree on its
 * default: which one would hold? Compared with the first key that gave
 * the attribute a default. */
static int
key_end(struct loader *l)
{
	struct key *k = &l->keys[l->cur];
	int pass;

	for (pass = 0; k->def != NULL && pass < 2; pass++) {
		enum field f = pass ? k->graph_field : k->node_field;
		int *first = pass ? l->graph_def : l->node_def;
		const struct key *o;

		if (f == F_NONE)
			continue;
		if (first[f] < 0) {
			first[f] = l->cur;
			continue;
		}
		o = &l->keys[first[f]];
		if (strcmp(o->def, k->def) == 0)
			continue;
		return fail_free(l, k->line, rp_xasprintf("key '%s' gives '%s' "
		    "the default '%s', but key '%s' (line %d) gives it '%s'",
		    k->id, field_names[f], k->def, o->id, o->line, o->def));
	}
	return 0;
}

/* Starts the <graph>: its direction and name, and the graph-level key
 * defaults, which its <data> may override. */
static int
graph_start(struct loader *l, int nb, const xmlChar **at, int line)
{
	struct rp_graph *g = &l->in.g;
	char *ed, *gid;
	int i;

	if (l->ngraphs++ > 0)
		return fail(l, line, "more than one <graph> element (one graph "
		    "per file)");
	l->graph_line = line;
	for (i = 0; i < l->nkeys; i++) {
		struct key *k = &l->keys[i];
		if (k->def == NULL)
			continue;
		if (k->graph_field == F_FIXED_MEM) {
			if (parse_bytes(k->def, &g->fixed_mem) != 0 ||
			    g->fixed_mem < 0 || g->fixed_mem > MAX_BYTES)
				return fail(l, l->root_line, "default fixed_mem "
				    "is not a non-negative whole number of bytes");
		} else if (k->graph_field == F_COST_UNIT) {
			free(g->cost_unit);
			g->cost_unit = rp_xstrdup(k->def);
		}
	}
	ed = rp_sax_attr_trim(nb, at, "edgedefault");
	if (ed != NULL && strcmp(ed, "directed") != 0) {
		free(ed);
		return fail(l, line, "graph must be directed "
		    "(edgedefault=\"directed\")");
	}
	free(ed);
	gid = rp_sax_attr_trim(nb, at, "id");
	if (gid != NULL && *gid != '\0' && strcmp(gid, "G") != 0)
		g->name = gid;
	else
		free(gid);
	return 0;
}

/* Starts a <node>: its id; its fields come from its <data> and then from
 * the key defaults. */
static int
node_start(struct loader *l, int nb, const xmlChar **at, int line)
{
	struct rp_graph *g = &l->in.g;
	char *id = rp_sax_attr_raw(nb, at, "id");
	int v, prev;

	if (id == NULL || *id == '\0') {
		free(id);
		return fail(l, line, "<node> has no id attribute");
	}
	v = rp_graph_input_add_node(&l->in);
	g->id[v] = id;
	g->line[v] = line;
	prev = rp_strmap_put(&l->ids, id, v);
	if (prev >= 0)
		return fail_free(l, line, rp_xasprintf("duplicate node id '%s' "
		    "(first defined at line %d)", id, g->line[prev]));
	memset(l->seen, 0, sizeof l->seen);
	l->cur = v;
	return 0;
}

/* Ends a <node>: key defaults fill what it left out (a bad default is
 * reported at its key), and cost and mem must be known. */
static int
node_end(struct loader *l)
{
	struct rp_graph *g = &l->in.g;
	int v = l->cur, i, declared = 0;
	enum field need;

	for (i = 0; i < l->nkeys; i++) {
		enum field f = l->keys[i].node_field;
		if (f == F_NONE || l->keys[i].def == NULL || l->seen[f])
			continue;
		if (set_node_field(l, g, v, f, l->keys[i].def,
		    l->keys[i].line) != 0)
			return -1;
		l->seen[f] = 1;
	}
	if (l->seen[F_COST] && l->seen[F_MEM])
		return 0;
	need = !l->seen[F_COST] ? F_COST : F_MEM;
	for (i = 0; i < l->nkeys; i++)
		if (l->keys[i].node_field == need)
			declared = 1;
	return fail_free(l, g->line[v], declared ?
	    rp_xasprintf("node '%s' has no %s", g->id[v], field_names[need]) :
	    rp_xasprintf("node '%s' has no %s (no <key for=\"node\" "
	    "attr.name=\"%s\"> is declared)", g->id[v], field_names[need],
	    field_names[need]));
}

/* The key a <data> element refers to, or -1 (failing). */
static int
data_key(struct loader *l, int nb, const xmlChar **at, int line)
{
	char *key = rp_sax_attr_raw(nb, at, "key");
	int k;

	if (key == NULL)
		return fail(l, line, "<data> has no key attribute");
	k = rp_strmap_get(&l->keymap, key);
	if (k < 0)
		fail_free(l, line, rp_xasprintf("<data> refers to undeclared "
		    "key '%s'", key));
	free(key);
	return k;
}

/* Starts a <data> of a node (node != 0) or of the graph. */
static int
data_start(struct loader *l, int nb, const xmlChar **at, int line, int node)
{
	int k = data_key(l, nb, at, line);
	enum field f;

	if (k < 0)
		return -1;
	f = node ? l->keys[k].node_field : l->keys[k].graph_field;
	if (f == F_NONE)
		return 0;
	if (node && l->seen[f] == 2)
		return fail_free(l, line, rp_xasprintf("node '%s' has two values "
		    "for '%s'", l->in.g.id[l->cur], field_names[f]));
	if (!node && l->gseen[f])
		return fail_free(l, line, rp_xasprintf("the graph has two values "
		    "for '%s'", field_names[f]));
	if (node)
		l->seen[f] = 2;
	else
		l->gseen[f] = 1;
	l->data_field = f;
	l->data_line = line;
	l->text_on = 1;
	l->text.len = 0;
	return 0;
}

/* Ends a <data> of the graph. */
static int
graph_data_end(struct loader *l, const char *val)
{
	struct rp_graph *g = &l->in.g;

	switch (l->data_field) {
	case F_FIXED_MEM:
		if (parse_bytes(val, &g->fixed_mem) != 0 || g->fixed_mem < 0 ||
		    g->fixed_mem > MAX_BYTES)
			return fail_free(l, l->data_line, rp_xasprintf("fixed_mem "
			    "'%s' is not a non-negative whole number of bytes",
			    val));
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
	return 0;
}

/* Starts an <edge>: its attributes are kept until it ends, since what it
 * contains is checked first. */
static void
edge_start(struct loader *l, int nb, const xmlChar **at, int line)
{
	const char *v;
	size_t n;
	char *dir = rp_sax_attr_trim(nb, at, "directed");
	unsigned char directed = 1;

	if (dir != NULL && parse_bool(dir, &directed) != 0) {
		fail_free(l, line, rp_xasprintf("edge attribute directed='%s' "
		    "is not a boolean (true, false, 1 or 0)", dir));
		free(dir);
		return;
	}
	l->undirected = !directed;
	free(dir);
	l->eline = line;
	l->has_src = (v = rp_sax_attr(nb, at, "source", &n)) != NULL;
	if (l->has_src) {
		sbuf_set(&l->esrc, v, n);
		l->es = rp_strmap_get(&l->ids, l->esrc.s);
	}
	l->has_dst = (v = rp_sax_attr(nb, at, "target", &n)) != NULL;
	if (l->has_dst) {
		sbuf_set(&l->edst, v, n);
		l->et = rp_strmap_get(&l->ids, l->edst.s);
	}
}

static int
end_missing(struct loader *l, int line, const char *which)
{
	return fail_free(l, line, rp_xasprintf("<edge> has no %s attribute",
	    which));
}

static int
end_unknown(struct loader *l, int line, const char *which, const char *id)
{
	return fail_free(l, line, rp_xasprintf("edge %s '%s' is not a node",
	    which, id));
}

/* Ends an <edge>. An end that names no node yet is resolved when the
 * graph ends (edges may precede their nodes); from then on every edge
 * waits, so that the graph keeps the edges in document order. */
static int
edge_end(struct loader *l)
{
	struct late_edge *e;

	if (l->undirected)
		return fail(l, l->eline, "undirected edge in a directed graph");
	if (!l->has_src)
		return end_missing(l, l->eline, "source");
	if (l->es >= 0 && !l->has_dst)
		return end_missing(l, l->eline, "target");
	if (l->nlate == 0 && l->es >= 0 && l->et >= 0) {
		rp_graph_input_add_edge(&l->in, l->es, l->et, l->eline);
		return 0;
	}
	rp_grow(&l->late, &l->latecap, l->nlate + 1, sizeof *l->late);
	e = &l->late[l->nlate++];
	e->line = l->eline;
	e->s = l->es;
	e->src = l->es < 0 ? rp_xstrdup(l->esrc.s) : NULL;
	e->has_dst = l->has_dst;
	e->t = l->has_dst ? l->et : -1;
	e->dst = l->has_dst && l->et < 0 ? rp_xstrdup(l->edst.s) : NULL;
	return 0;
}

/* Ends the <graph>: the edges that waited, then the checks on the whole. */
static int
graph_end(struct loader *l)
{
	struct rp_graph *g = &l->in.g;
	int64_t total = g->fixed_mem;
	double cost = 0, cmax;
	int i, v, over = 0;

	for (i = 0; i < l->nlate; i++) {
		struct late_edge *e = &l->late[i];
		if (e->s < 0 && (e->s = rp_strmap_get(&l->ids, e->src)) < 0)
			return end_unknown(l, e->line, "source", e->src);
		if (!e->has_dst)
			return end_missing(l, e->line, "target");
		if (e->t < 0 && (e->t = rp_strmap_get(&l->ids, e->dst)) < 0)
			return end_unknown(l, e->line, "target", e->dst);
		rp_graph_input_add_edge(&l->in, e->s, e->t, e->line);
	}
	if (g->n == 0)
		return fail(l, l->graph_line, "graph has no nodes");
	/* Bound every sum of byte counts a plan can form: each count is at
	 * most 2^62, and so is every partial sum, so no addition here or in
	 * a plan overflows. */
	for (v = 0; v < g->n && !over; v++) {
		over = g->mem[v] > MAX_BYTES - total;
		if (!over)
			total += g->mem[v];
		over = over || g->workspace[v] > MAX_BYTES - total;
		if (!over)
			total += g->workspace[v];
		cost += g->cost[v];
	}
	if (over)
		return fail(l, l->graph_line, "the graph's memory (fixed_mem plus "
		    "every node's mem and workspace) exceeds 4 EiB");
	/* A plan computes each node at most n times in practice, and the
	 * solvers add such sums: they must stay finite. */
	cmax = 1e300 / ((double)g->n + 1) / ((double)g->n + 1);
	if (!(cost <= cmax))
		return fail_free(l, l->graph_line, rp_xasprintf("the node costs "
		    "sum to %.4g, more than the %.4g supported for %d nodes (a "
		    "plan's cost, with its recomputations, must stay finite)",
		    cost, cmax, g->n));
	return 0;
}

/* What a start tag opens, from its name and its parent; fails on what
 * the contract rules out. */
static enum elem
classify(struct loader *l, enum elem parent, const xmlChar *local,
    const xmlChar *prefix, const xmlChar *uri, int line)
{
	switch (parent) {
	case E_ROOT:
		if (gml_is(local, prefix, uri, "key"))
			return E_KEY;
		if (gml_is(local, prefix, uri, "data"))
			return E_ODATA;
		if (gml_is(local, prefix, uri, "graph"))
			return E_GRAPH;
		break;
	case E_KEY:
		if (gml_is(local, prefix, uri, "default"))
			return E_DEFAULT;
		break;
	case E_GRAPH:
		if (gml_is(local, prefix, uri, "node"))
			return E_NODE;
		if (gml_is(local, prefix, uri, "edge"))
			return E_EDGE;
		if (gml_is(local, prefix, uri, "data"))
			return E_GDATA;
		if (gml_is(local, prefix, uri, "hyperedge"))
			fail(l, line, "hyperedges are not supported");
		break;
	case E_NODE:
		if (gml_is(local, prefix, uri, "data"))
			return E_NDATA;
		/* FALLTHROUGH */
	case E_EDGE:
		if (parent == E_EDGE && gml_is(local, prefix, uri, "data"))
			return E_ODATA;
		if (gml_is(local, prefix, uri, "graph"))
			fail(l, line, "nested graphs are not supported");
		else if (gml_is(local, prefix, uri, "hyperedge"))
			fail(l, line, "hyperedges are not supported");
		break;
	default:
		break;
	}
	return E_OTHER;
}

static void
on_start(void *ctx, const xmlChar *local, const xmlChar *prefix,
    const xmlChar *uri, int nns, const xmlChar **ns, int nb, int ndef,
    const xmlChar **at)
{
	struct loader *l = ctx;
	enum elem parent, kind;
	int line;

	(void)nns;
	(void)ns;
	/* Depth is kept even after an error: the parser may still report
	 * what it has buffered (an input error does not stop it at once). */
	l->depth++;
	if (l->depth <= KIND_DEPTH)
		l->kind[l->depth] = E_OTHER;
	if (l->cause != NULL)
		return;
	/* Attributes defaulted by a DTD are not the file's: ignored, as a
	 * tree reader without DTD attribute completion does. */
	nb -= ndef;
	line = cur_line(l);
	if (l->depth == 1) {
		l->root_line = line;
		if (strcmp((const char *)local, "graphml") != 0 ||
		    (prefix != NULL && uri == NULL)) {
			fail_free(l, line, rp_xasprintf("root element is "
			    "'%s%s%s', expected 'graphml'", prefix != NULL &&
			    uri == NULL ? (const char *)prefix : "", prefix !=
			    NULL && uri == NULL ? ":" : "",
			    (const char *)local));
			return;
		}
		if (!gml_is(local, prefix, uri, "graphml")) {
			fail_free(l, line, rp_xasprintf("root element 'graphml' "
			    "is in namespace '%s', expected %s or none",
			    (const char *)uri, GRAPHML_NS));
			return;
		}
		kind = E_ROOT;
	} else {
		parent = l->depth - 1 <= KIND_DEPTH ? l->kind[l->depth - 1] :
		    E_OTHER;
		kind = classify(l, parent, local, prefix, uri, line);
	}
	if (l->depth <= KIND_DEPTH)
		l->kind[l->depth] = kind;
	switch (kind) {
	case E_KEY:
		key_start(l, nb, at, line);
		break;
	case E_DEFAULT:
		l->text_on = 1;
		l->text.len = 0;
		break;
	case E_GRAPH:
		graph_start(l, nb, at, line);
		break;
	case E_NODE:
		node_start(l, nb, at, line);
		break;
	case E_EDGE:
		edge_start(l, nb, at, line);
		break;
	case E_NDATA:
	case E_GDATA:
		data_start(l, nb, at, line, kind == E_NDATA);
		break;
	case E_ODATA:
		data_key(l, nb, at, line);
		break;
	default:
		break;
	}
}

static void
on_end(void *ctx, const xmlChar *local, const xmlChar *prefix,
    const xmlChar *uri)
{
	struct loader *l = ctx;
	enum elem kind = l->depth >= 1 && l->depth <= KIND_DEPTH ?
	    l->kind[l->depth] : E_OTHER;
	char *val;

	(void)local;
	(void)prefix;
	(void)uri;
	if (l->depth > 0)
		l->depth--;
	if (l->cause != NULL)
		return;
	switch (kind) {
	case E_KEY:
		key_end(l);
		break;
	case E_DEFAULT:
		free(l->keys[l->cur].def);
		l->keys[l->cur].def = rp_xml_trim(l->text.s != NULL ? l->text.s :
		    "", (size_t)l->text.len);
		l->text_on = 0;
		break;
	case E_GRAPH:
		graph_end(l);
		break;
	case E_NODE:
		node_end(l);
		break;
	case E_EDGE:
		edge_end(l);
		break;
	case E_NDATA:
	case E_GDATA:
		if (!l->text_on)
			break;	/* a key the contract does not know */
		l->text_on = 0;
		val = rp_xml_trim(l->text.s != NULL ? l->text.s : "",
		    (size_t)l->text.len);
		if (kind == E_NDATA)
			set_node_field(l, &l->in.g, l->cur, l->data_field, val,
			    l->data_line);
		else
			graph_data_end(l, val);
		free(val);
		break;
	default:
		break;
	}
}

/* Character data, CDATA sections and blanks alike: the text of a <data>
 * or <default> is all the text inside it. */
static void
on_text(void *ctx, const xmlChar *s, int n)
{
	struct loader *l = ctx;

	if (l->text_on && l->cause == NULL && n > 0)
		sbuf_add(&l->text, (const char *)s, (size_t)n);
}

/* A failure met by the entity callbacks (rp_sax_refuse_entities). */
static void
sax_fail(void *ctx, char *msg)
{
	struct loader *l = ctx;

	fail_free(l, cur_line(l), msg);
}

/* An input error: the parser, which is reading, sees an I/O error and
 * stops by itself (stopping it here would pull the input from under it). */
static void
read_fail(struct loader *l, char *cause)
{
	if (l->cause == NULL)
		l->cause = cause;
	else
		free(cause);
}

/* Hands the parser the next bytes of the input, refusing a NUL byte
 * (the file is not text; libxml2 would stop there without a word) and
 * more than RP_INPUT_MAX bytes in all. */
static int
on_read(void *ctx, char *buf, int len)
{
	struct loader *l = ctx;
	const char *z, *p, *end;
	ssize_t k;

	if (len <= 0)
		return 0;
	do {
		if (l->fd >= 0) {
			do
				k = read(l->fd, buf, (size_t)len);
			while (k < 0 && errno == EINTR);
			if (k < 0) {
				read_fail(l, rp_xasprintf("cannot read '%s': %s",
				    l->file, strerror(errno)));
				return -1;
			}
		} else {
			k = l->len - l->off < (size_t)len ?
			    (ssize_t)(l->len - l->off) : len;
			memcpy(buf, l->buf + l->off, (size_t)k);
			l->off += (size_t)k;
		}
		if (k == 0)
			return 0;
		if ((size_t)k > RP_INPUT_MAX - l->nread) {
			read_fail(l, rp_xasprintf("%s: file is too large (over "
			    "2 GiB)", l->file));
			return -1;
		}
		l->nread += (size_t)k;
		k = (ssize_t)rp_xml_line_ends(buf, (size_t)k, &l->cr);
	} while (k == 0);
	z = memchr(buf, '\0', (size_t)k);
	end = z != NULL ? z : buf + k;
	for (p = buf; p < end && (p = memchr(p, '\n', (size_t)(end - p))) !=
	    NULL; p++)
		l->newlines++;
	if (z != NULL) {
		read_fail(l, rp_xasprintf("%s:%d: a NUL byte in the file (it is "
		    "not a text document)", l->file, l->newlines + 1));
		return -1;
	}
	return (int)k;
}

/* Reads the graph from l's input. */
static int
load(struct loader *l, struct rp_graph **out, char **cause)
{
	xmlSAXHandler sax;
	int i, rc = -1;

	rp_xml_setup();
	memset(&sax, 0, sizeof sax);
	sax.initialized = XML_SAX2_MAGIC;
	sax.startElementNs = on_start;
	sax.endElementNs = on_end;
	sax.characters = on_text;
	sax.cdataBlock = on_text;
	sax.ignorableWhitespace = on_text;
	rp_sax_refuse_entities(&sax);
	l->base.fail = sax_fail;
	l->base.ns_as_none = GRAPHML_NS;
	for (i = 0; i < F_COUNT; i++)
		l->node_def[i] = l->graph_def[i] = -1;
	rp_strmap_init(&l->keymap, 16);
	rp_strmap_init(&l->ids, 1024);
	l->ctxt = xmlCreateIOParserCtxt(&sax, l, on_read, NULL, l,
	    XML_CHAR_ENCODING_NONE);
	if (l->ctxt == NULL) {
		*cause = rp_xasprintf("%s: cannot create XML parser", l->file);
		goto done;
	}
	/* NOENT: attribute values arrive with '&amp;' and the like
	 * replaced; no entity is declared to expand (rp_sax_refuse_entities). */
	xmlCtxtUseOptions(l->ctxt, XML_PARSE_NONET | XML_PARSE_NOERROR |
	    XML_PARSE_NOWARNING | XML_PARSE_NOENT);
	(void)xmlParseDocument(l->ctxt);
	if (l->cause == NULL && !l->ctxt->wellFormed)
		l->cause = rp_xml_malformed(l->ctxt, &l->base, l->file);
	if (l->cause == NULL && l->ngraphs == 0)
		fail(l, l->root_line, "no <graph> element");
	if (l->cause != NULL) {
		*cause = l->cause;
		l->cause = NULL;
		goto done;
	}
	l->in.g.file = rp_xstrdup(l->file);
	if (l->in.g.name == NULL)
		l->in.g.name = base_name(l->file);
	rc = rp_graph_finish(&l->in, out, cause);
done:
	if (rc != 0)
		rp_graph_input_destroy(&l->in);
	if (l->ctxt != NULL) {
		if (l->ctxt->myDoc != NULL)
			xmlFreeDoc(l->ctxt->myDoc);
		xmlFreeParserCtxt(l->ctxt);
	}
	for (i = 0; i < l->nkeys; i++) {
		free(l->keys[i].id);
		free(l->keys[i].def);
	}
	free(l->keys);
	free(l->base.error);
	for (i = 0; i < l->nlate; i++) {
		free(l->late[i].src);
		free(l->late[i].dst);
	}
	free(l->late);
	free(l->text.s);
	free(l->esrc.s);
	free(l->edst.s);
	rp_strmap_destroy(&l->keymap);
	rp_strmap_destroy(&l->ids);
	if (rc != 0)
		*cause = rp_oneline(*cause);
	return rc;
}

int
rp_graphml_read_memory(const char *buf, size_t len, const char *name,
    struct rp_graph **out, char **cause)
{
	struct loader l;

	*out = NULL;
	memset(&l, 0, sizeof l);
	l.file = name;
	l.fd = -1;
	l.buf = buf;
	l.len = len;
	return load(&l, out, cause);
}

int
rp_graphml_read(const char *path, struct rp_graph **out, char **cause)
{
	struct loader l;
	size_t size;
	int rc;

	*out = NULL;
	memset(&l, 0, sizeof l);
	l.file = path;
	l.fd = rp_open_input(path, &size, cause);
	if (l.fd < 0)
		return -1;
	rc = load(&l, out, cause);
	close(l.fd);
	return rc;
}
