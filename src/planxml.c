/* planxml.c: writing and reading plan files with libxml2. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <libxml/xmlwriter.h>

#include "files.h"
#include "planxml.h"
#include "util.h"
#include "xmlutil.h"

/* Renders the plan document into a new xmlBuffer. */
static xmlBufferPtr
render(const struct rp_graph *g, const struct rp_plan *p,
    const struct rp_plan_meta *m)
{
	xmlBufferPtr buf = xmlBufferCreate();
	xmlTextWriterPtr w;
	char num[64];
	int i, ok = 1;

	if (buf == NULL)
		return NULL;
	w = xmlNewTextWriterMemory(buf, 0);
	if (w == NULL) {
		xmlBufferFree(buf);
		return NULL;
	}
	xmlTextWriterSetIndent(w, 1);
	xmlTextWriterSetIndentString(w, (const xmlChar *)"  ");
#define W(call) do { if ((call) < 0) ok = 0; } while (0)
#define ATTR(k, v) W(xmlTextWriterWriteAttribute(w, (const xmlChar *)(k), (const xmlChar *)(v)))
	W(xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL));
	W(xmlTextWriterStartElement(w, (const xmlChar *)"plan"));
	ATTR("version", "1");
	ATTR("graph", g->name);
	ATTR("strategy", m->strategy);
	snprintf(num, sizeof num, "%lld", (long long)m->budget);
	ATTR("budget", num);
	snprintf(num, sizeof num, "%.10g", m->sim->cost);
	ATTR("cost", num);
	snprintf(num, sizeof num, "%.10g", m->baseline);
	ATTR("baseline_cost", num);
	ATTR("cost_unit", g->cost_unit);
	snprintf(num, sizeof num, "%lld", (long long)m->sim->peak);
	ATTR("peak", num);
	snprintf(num, sizeof num, "%d", m->sim->ncompute);
	ATTR("computes", num);
	snprintf(num, sizeof num, "%d", m->sim->nrecompute);
	ATTR("recomputes", num);
	for (i = 0; i < p->len && ok; i++) {
		const struct rp_stmt *s = &p->s[i];
		const char *rn;
		if (p->regname != NULL)
			rn = p->regname[s->reg];
		else {
			snprintf(num, sizeof num, "%d", s->reg);
			rn = num;
		}
		if (s->op == RP_COMPUTE) {
			W(xmlTextWriterStartElement(w, (const xmlChar *)"compute"));
			ATTR("node", g->id[s->node]);
			ATTR("reg", rn);
		} else {
			W(xmlTextWriterStartElement(w, (const xmlChar *)"free"));
			ATTR("reg", rn);
		}
		W(xmlTextWriterEndElement(w));
	}
	W(xmlTextWriterEndElement(w));
	W(xmlTextWriterEndDocument(w));
#undef ATTR
#undef W
	xmlFreeTextWriter(w);
	if (!ok) {
		xmlBufferFree(buf);
		return NULL;
	}
	return buf;
}

int
rp_planxml_write(const char *path, const struct rp_graph *g,
    const struct rp_plan *p, const struct rp_plan_meta *meta, char **cause)
{
	xmlBufferPtr buf = render(g, p, meta);
	const char *data;
	size_t len;
	int rc;

	if (buf == NULL) {
		*cause = rp_xstrdup("cannot render the plan document");
		return -1;
	}
	data = (const char *)xmlBufferContent(buf);
	len = (size_t)xmlBufferLength(buf);
	if (strcmp(path, "-") == 0) {
		rc = rp_write_all(STDOUT_FILENO, data, len);
		if (rc != 0)
			*cause = rp_xasprintf("cannot write the plan to standard "
			    "output: %s", strerror(errno));
	} else
		rc = rp_write_buffer(path, meta->input, data, len, cause);
	xmlBufferFree(buf);
	return rc;
}

struct reader {
	const char *file;
	const struct rp_graph *g;
	struct rp_strmap nodes;	/* node id -> index */
	struct rp_strmap regs;	/* register name -> number */
	int rcap, lcap;
	struct rp_plan *p;
	char *cause;
	xmlNsPtr ns;		/* the root's namespace, NULL for none */
};

/* A statement: compute or free in the plan's own namespace (none, or
 * the root's default one). Elements of other namespaces are extensions,
 * never executed, as foreign elements in a graph are ignored. */
static int
stmt_is(const struct reader *r, xmlNodePtr c, const char *name)
{
	const xmlChar *a, *b;

	if (!rp_xml_is(c, name))
		return 0;
	a = c->ns != NULL ? c->ns->href : NULL;
	b = r->ns != NULL ? r->ns->href : NULL;
	if (a == NULL || b == NULL)
		return a == b;
	return xmlStrEqual(a, b);
}

static int
rfail(struct reader *r, xmlNodePtr at, char *msg)
{
	r->cause = rp_xasprintf("%s:%d: %s", r->file, rp_xml_line(at), msg);
	free(msg);
	return -1;
}

/* The register number for a name, interning new names. */
static int
reg_of(struct reader *r, char *name)
{
	struct rp_plan *p = r->p;
	int k = rp_strmap_get(&r->regs, name);

	if (k >= 0) {
		free(name);
		return k;
	}
	k = p->nregs;
	rp_grow(&p->regname, &r->rcap, k + 1, sizeof *p->regname);
	p->regname[k] = name;
	p->nregs = k + 1;
	rp_strmap_put(&r->regs, name, k);
	return k;
}

/* Reads the statements below e in document order (recursion is bounded:
 * libxml2 limits nesting to 256 levels). */
static int
read_stmts(struct reader *r, xmlNodePtr e)
{
	xmlNodePtr c;
	char *node, *reg;
	int v, k, line;

	for (c = e->children; c != NULL; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (stmt_is(r, c, "compute") || stmt_is(r, c, "free")) {
			int is_compute = stmt_is(r, c, "compute");
			line = rp_xml_line(c);
			v = -1;
			if (is_compute) {
				node = rp_xml_attr_raw(c, "node");
				if (node == NULL || *node == '\0') {
					free(node);
					return rfail(r, c, rp_xstrdup("<compute> has "
					    "no node attribute"));
				}
				v = rp_strmap_get(&r->nodes, node);
				if (v < 0) {
					char *m = rp_xasprintf("compute of '%s', which "
					    "is not a node of graph '%s'", node,
					    r->g->name);
					free(node);
					return rfail(r, c, m);
				}
				free(node);
			}
			reg = rp_xml_attr_raw(c, "reg");
			if (reg == NULL || *reg == '\0') {
				const char *what = reg == NULL ? "no reg attribute" :
				    "an empty reg attribute";
				free(reg);
				return rfail(r, c, rp_xasprintf("<%s> has %s",
				    is_compute ? "compute" : "free", what));
			}
			k = reg_of(r, reg);
			if (is_compute)
				rp_plan_add_compute(r->p, v, k);
			else
				rp_plan_add_free(r->p, k);
			rp_grow(&r->p->line, &r->lcap, r->p->len, sizeof *r->p->line);
			r->p->line[r->p->len - 1] = line;
		}
		/* Statements anywhere below the root count, in document
		 * order: also inside grouping elements and statements. */
		if (read_stmts(r, c) != 0)
			return -1;
	}
	return 0;
}

int
rp_planxml_read(const char *path, const struct rp_graph *g,
    struct rp_plan *out, char **cause)
{
	char *buf;
	size_t len;
	int rc;

	if (rp_read_input(path, &buf, &len, cause) != 0)
		return -1;
	rc = rp_planxml_read_memory(buf, len, path, g, out, cause);
	free(buf);
	return rc;
}

int
rp_planxml_read_memory(const char *buf, size_t len, const char *path,
    const struct rp_graph *g, struct rp_plan *out, char **cause)
{
	struct reader r;
	xmlDocPtr doc;
	xmlNodePtr root;
	char *ver;
	int v, rc = -1;

	doc = rp_xml_parse(buf, len, path, cause);
	if (doc == NULL) {
		*cause = rp_oneline(*cause);
		return -1;
	}
	memset(&r, 0, sizeof r);
	r.file = path;
	r.g = g;
	r.p = out;
	rp_strmap_init(&r.nodes, (size_t)g->n);
	rp_strmap_init(&r.regs, 1024);
	for (v = 0; v < g->n; v++)
		rp_strmap_put(&r.nodes, g->id[v], v);
	root = xmlDocGetRootElement(doc);
	if (root == NULL || !rp_xml_is(root, "plan")) {
		rfail(&r, root != NULL ? root : (xmlNodePtr)doc,
		    rp_xasprintf("root element is '%s', expected 'plan'",
		    root != NULL ? (const char *)root->name : ""));
		goto out;
	}
	ver = rp_xml_attr(root, "version");
	if (ver != NULL && strcmp(ver, "1") != 0) {
		rfail(&r, root, rp_xasprintf("plan format version '%s' is not "
		    "supported (this is version 1)", ver));
		free(ver);
		goto out;
	}
	free(ver);
	r.ns = root->ns;
	if (read_stmts(&r, root) != 0)
		goto out;
	rc = 0;
out:
	if (rc != 0) {
		*cause = rp_oneline(r.cause);
		rp_plan_destroy(out);
	}
	rp_strmap_destroy(&r.nodes);
	rp_strmap_destroy(&r.regs);
	xmlFreeDoc(doc);
	return rc;
}
