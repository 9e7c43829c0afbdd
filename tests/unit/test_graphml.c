/* The GraphML loader and the graph model: attributes, defaults, order,
 * adjacency, and messages for bad input read from memory. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "graphml.h"
#include "gralg.h"
#include "t.h"
#include "util.h"
#include "xmlutil.h"

#define HEAD "<?xml version=\"1.0\"?>\n" \
	"<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n" \
	"<key id=\"a\" for=\"node\" attr.name=\"cost\"/>\n" \
	"<key id=\"b\" for=\"node\" attr.name=\"mem\"/>\n" \
	"<key id=\"k\" for=\"node\" attr.name=\"kind\"/>\n" \
	"<key id=\"w\" for=\"node\" attr.name=\"workspace\"><default>7</default></key>\n" \
	"<key id=\"r\" for=\"node\" attr.name=\"recompute\"/>\n" \
	"<key id=\"o\" for=\"node\" attr.name=\"output\"/>\n" \
	"<key id=\"p\" for=\"node\" attr.name=\"op\"/>\n" \
	"<key id=\"f\" for=\"graph\" attr.name=\"fixed_mem\"/>\n" \
	"<key id=\"u\" for=\"all\" attr.name=\"cost_unit\"><default>us</default></key>\n"

static struct rp_graph *
load(const char *doc, char **cause)
{
	struct rp_graph *g = NULL;
	*cause = NULL;
	if (rp_graphml_read_memory(doc, strlen(doc), "t.xml", &g, cause) != 0)
		return NULL;
	return g;
}

static void
bad(const char *doc, const char *want)
{
	char *cause;
	struct rp_graph *g = load(doc, &cause);
	CHECK(g == NULL);
	CHECK_STR(cause, want);
	free(cause);
	rp_graph_free(g);
}

/* The index of node id in g, -1 if absent. */
static int
idx(const struct rp_graph *g, const char *id)
{
	int v;
	for (v = 0; v < g->n; v++)
		if (strcmp(g->id[v], id) == 0)
			return v;
	return -1;
}

int
main(void)
{
	char *cause;
	struct rp_graph *g;
	int *aps, naps;

	t_case("every attribute read, a non-topological document put in stable order");
	/* All attributes. Document order c, a, b is not topological (c reads
	 * a and b): the stable order takes the earliest ready node each time,
	 * giving a, b, c. */
	g = load(HEAD "<graph id=\"demo\" edgedefault=\"directed\">\n"
	    "<data key=\"f\">4096</data>\n"
	    "<node id=\"c\"><data key=\"a\">3</data><data key=\"b\">30</data>"
	    "<data key=\"k\">backward</data><data key=\"o\">true</data></node>\n"
	    "<node id=\"a\"><data key=\"a\">1.5</data><data key=\"b\">10</data>"
	    "<data key=\"p\">conv</data><data key=\"r\">false</data>"
	    "<data key=\"w\">0</data></node>\n"
	    "<node id=\"b\"><data key=\"a\">2</data><data key=\"b\">20.0</data></node>\n"
	    "<edge source=\"a\" target=\"c\"/><edge source=\"a\" target=\"c\"/>\n"
	    "<edge source=\"b\" target=\"c\"/>\n"
	    "</graph></graphml>\n", &cause);
	CHECK(g != NULL);
	if (g == NULL) {
		printf("# %s\n", cause);
		return t_done("test_graphml");
	}
	CHECK(g->n == 3 && g->m == 2);
	CHECK_STR(g->name, "demo");
	CHECK_STR(g->cost_unit, "us");
	CHECK(g->fixed_mem == 4096);
	CHECK(!g->doc_order);
	/* Stable order: a (first ready in document order), then b, then c. */
	CHECK_STR(g->id[0], "a");
	CHECK_STR(g->id[1], "b");
	CHECK_STR(g->id[2], "c");
	CHECK(g->cost[0] == 1.5 && g->mem[0] == 10 && g->workspace[0] == 0);
	CHECK(!g->recompute[0] && g->recompute[1]);
	CHECK_STR(g->op[0], "conv");
	CHECK(g->op[1] == NULL);
	CHECK(g->mem[1] == 20 && g->workspace[1] == 7);
	CHECK(g->kind[2] == RP_BACKWARD && g->output[2] && !g->output[0]);
	CHECK(rp_npred(g, 2) == 2 && g->pred[g->pred_off[2]] == 0 &&
	    g->pred[g->pred_off[2] + 1] == 1);
	CHECK(rp_nsucc(g, 0) == 1 && g->succ[g->succ_off[0]] == 2);
	CHECK(g->line[idx(g, "c")] == 14);
	CHECK(rp_graph_baseline_cost(g) == 6.5);
	rp_graph_free(g);

	t_case("a graph without an id is named after its file");
	/* Name from the file when the graph has no id. */
	g = load(HEAD "<graph edgedefault=\"directed\"><node id=\"x\">"
	    "<data key=\"a\">0</data><data key=\"b\">0</data></node>"
	    "</graph></graphml>", &cause);
	CHECK(g != NULL && strcmp(g->name, "t") == 0 && g->doc_order);
	rp_graph_free(g);

	t_case("bad documents are refused with file and line");
	bad(HEAD "<graph edgedefault=\"directed\"><node id=\"x\">"
	    "<data key=\"a\">1</data></node></graph></graphml>",
	    "t.xml:12: node 'x' has no mem");
	bad(HEAD "<graph edgedefault=\"directed\">\n<node id=\"x\">"
	    "<data key=\"a\">1</data><data key=\"b\">1</data></node>\n"
	    "<node id=\"y\"><data key=\"a\">1</data><data key=\"b\">1</data></node>\n"
	    "<edge source=\"x\" target=\"y\"/><edge source=\"y\" target=\"x\"/>\n"
	    "</graph></graphml>",
	    "t.xml:13: graph has a cycle through node 'x': 'x' -> 'y' -> 'x'");
	bad("<graphml>\n<graph>", "t.xml:2: malformed XML: Premature end of "
	    "data in tag graph line 2");
	bad("<?xml version=\"1.0\"?>\n<!DOCTYPE graphml [<!ENTITY x SYSTEM "
	    "\"file:///etc/passwd\">]>\n<graphml><graph>&x;</graph></graphml>",
	    "t.xml:2: entity declarations are not supported (entity 'x')");
	bad("<?xml version=\"1.0\"?>\n<!DOCTYPE graphml [<!ENTITY a \"aaaa\">\n"
	    "<!ENTITY b \"&a;&a;&a;&a;\">]>\n<graphml><graph>&b;</graph></graphml>",
	    "t.xml:2: entity declarations are not supported (entity 'a')");
	bad("<?xml version=\"1.0\"?>\n<!DOCTYPE graphml SYSTEM \"g.dtd\">\n"
	    "<graphml>\n<graph>&x;</graph></graphml>",
	    "t.xml:4: entity reference '&x;' is not supported");
	bad("<graphml><graph>&x;</graph></graphml>",
	    "t.xml:1: malformed XML: Entity 'x' not defined");
	bad(HEAD "<graph edgedefault=\"directed\">\n<node id=\"x\">"
	    "<data key=\"a\">1</data><data key=\"b\">1</data></node>\n"
	    "</graph>\n<key id=\"z\" for=\"node\" attr.name=\"op\"/>\n"
	    "</graphml>", "t.xml:15: <key> after the <graph> (keys are "
	    "declared before the graph that uses them)");
	bad(HEAD "<graph edgedefault=\"directed\">\n"
	    "<edge source=\"x\" target=\"y\"/>\n"
	    "<node id=\"x\"><data key=\"a\">1</data><data key=\"b\">1</data>"
	    "</node>\n</graph></graphml>",
	    "t.xml:13: edge target 'y' is not a node");
	bad(HEAD "<graph edgedefault=\"directed\">\n"
	    "<edge source=\"y\"/>\n"
	    "<node id=\"x\"><data key=\"a\">1</data><data key=\"b\">1</data>"
	    "</node>\n</graph></graphml>",
	    "t.xml:13: edge source 'y' is not a node");
	bad(HEAD "<graph edgedefault=\"directed\">\n<node id=\"x\">"
	    "<data key=\"a\">1</data><data key=\"b\">1</data></node>\n"
	    "</graph>\n<graph/>\n</graphml>",
	    "t.xml:15: more than one <graph> element (one graph per file)");
	bad("<graphml>\n</graphml>", "t.xml:1: no <graph> element");
	bad("<graph/>", "t.xml:1: root element is 'graph', expected 'graphml'");

	t_case("read as a stream: exact lines in long files, entities in "
	    "attributes, edges before their nodes in document order");
	{
		/* Element lines past 65,535 are exact (a tree keeps 16 bits). */
		size_t cap = 80000 * 80, len = 0;
		char *doc = malloc(cap);
		int i;
		CHECK(doc != NULL);
		len += (size_t)snprintf(doc + len, cap - len, "%s%s", HEAD,
		    "<graph edgedefault=\"directed\">\n");
		for (i = 0; i < 70000; i++)
			len += (size_t)snprintf(doc + len, cap - len, "<node id="
			    "\"n%d\"><data key=\"a\">1</data><data key=\"b\">1"
			    "</data></node>\n", i);
		len += (size_t)snprintf(doc + len, cap - len, "<edge source="
		    "\"n1\" target=\"q\"/>\n<edge source=\"n1\" target=\"n2\"/>"
		    "\n</graph></graphml>\n");
		bad(doc, "t.xml:70013: edge target 'q' is not a node");
		free(doc);
	}
	g = load(HEAD "<graph edgedefault=\"directed\">\n"
	    "<edge source=\"a&amp;b\" target=\"c\"/>\n"
	    "<edge source=\"c\" target=\"d\"/>\n"
	    "<node id=\"d\"><data key=\"a\">1</data><data key=\"b\">1</data>"
	    "</node>\n"
	    "<node id=\"c\"><data key=\"a\">1</data><data key=\"b\">"
	    "<![CDATA[2]]>0</data><data key=\"p\">a&lt;b</data></node>\n"
	    "<node id=\"a&amp;b\"><data key=\"a\">1</data><data key=\"b\">1"
	    "</data></node>\n"
	    "</graph></graphml>\n", &cause);
	CHECK(g != NULL);
	if (g != NULL) {
		int ab = idx(g, "a&b"), c = idx(g, "c"), d = idx(g, "d");
		CHECK(ab >= 0 && c >= 0 && d >= 0);
		CHECK(g->m == 2 && rp_nsucc(g, ab) == 1 &&
		    g->succ[g->succ_off[ab]] == c && rp_nsucc(g, c) == 1 &&
		    g->succ[g->succ_off[c]] == d);
		CHECK(g->mem[c] == 20);
		CHECK_STR(g->op[c], "a<b");
		CHECK(g->line[ab] == 17);
	}
	rp_graph_free(g);

	t_case("line ends as XML reads them, a CR LF split between chunks");
	/* CR LF and a lone CR become LF; a chunk that ends with CR drops the
	 * LF the next one starts with; a chunk that was that LF alone is
	 * empty (the reader reads on). */
	{
		char a[] = "a\r\nb\rc\r", b[] = "\nd", c[] = "\n", e[] = "x\r";
		int cr = 0;
		size_t n = rp_xml_line_ends(a, strlen(a), &cr);
		CHECK(n == 6 && memcmp(a, "a\nb\nc\n", 6) == 0 && cr == 1);
		n = rp_xml_line_ends(b, strlen(b), &cr);
		CHECK(n == 1 && b[0] == 'd' && cr == 0);
		n = rp_xml_line_ends(e, strlen(e), &cr);
		CHECK(n == 2 && cr == 1);
		n = rp_xml_line_ends(c, strlen(c), &cr);
		CHECK(n == 0 && cr == 0);
	}
	/* and the lines are counted so: a bad value on line 4 */
	{
		const char *docs[] = { "\r", "\r\n" };
		int k;
		for (k = 0; k < 2; k++) {
			char *doc = rp_xasprintf("<graphml>%s<graph>%s<node id="
			    "\"a\"><data key=\"c\">1</data>%s<data key=\"m\">"
			    "x</data></node>%s</graph></graphml>", docs[k],
			    docs[k], docs[k], docs[k]);
			char *d2 = rp_xasprintf("<graphml><key id=\"c\" for="
			    "\"node\" attr.name=\"cost\"/><key id=\"m\" for="
			    "\"node\" attr.name=\"mem\"/>%s", doc + 9);
			g = load(d2, &cause);
			CHECK(g == NULL && cause != NULL && strncmp(cause,
			    "t.xml:4:", 8) == 0);
			if (cause != NULL && strncmp(cause, "t.xml:4:", 8) != 0)
				printf("# %s\n", cause);
			free(cause);
			free(doc);
			free(d2);
		}
	}

	t_case("articulation points through igraph");
	/* Articulation points of a path 0-1-2-3 plus a triangle 3-4-5. */
	{
		int s[] = { 0, 1, 2, 3, 4, 5 }, d[] = { 1, 2, 3, 4, 5, 3 };
		CHECK(rp_gralg_articulation_points(6, 6, s, d, &aps, &naps,
		    &cause) == 0);
		CHECK(naps == 3 && aps[0] == 1 && aps[1] == 2 && aps[2] == 3);
		free(aps);
	}
	return t_done("test_graphml");
}
