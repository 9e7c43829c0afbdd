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

#include <libxml/SAX2.h>
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
	struct rp_sax_base base;	/* first: the entity callbacks' fail */
	const char *file;
	const char *buf;	/* the document, read by the parser from pos */
	size_t len, pos;
	int cr;			/* what it read ended with a CR */
	xmlParserCtxtPtr ctxt;
	const struct rp_graph *g;
	struct rp_strmap nodes;	/* node id -> index */
	struct rp_strmap regs;	/* register name -> number */
	int rcap, lcap;
	struct rp_plan *p;
	char *cause;
	int have_root;
	char *ns;		/* the root's namespace URI, NULL for none */
};

/* The first error stops the parser; msg is freed. The line is the
 * parser's: in a start-element event, the line of the tag's end. */
static void
rfail(struct reader *r, char *msg)
{
	if (r->cause == NULL) {
		int line = xmlSAX2GetLineNumber(r->ctxt);
		r->cause = rp_xasprintf("%s:%d: %s", r->file, line > 0 ? line :
		    1, msg);
	}
	free(msg);
	xmlStopParser(r->ctxt);
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

/* One statement (compute or free) appended to the plan. */
static void
read_stmt(struct reader *r, int is_compute, int nat, const xmlChar **at)
{
	char *node, *reg;
	int v = -1, k, line = xmlSAX2GetLineNumber(r->ctxt);

	if (is_compute) {
		node = rp_sax_attr_raw(nat, at, "node");
		if (node == NULL || *node == '\0') {
			free(node);
			rfail(r, rp_xstrdup("<compute> has no node attribute"));
			return;
		}
		v = rp_strmap_get(&r->nodes, node);
		if (v < 0) {
			rfail(r, rp_xasprintf("compute of '%s', which is not a "
			    "node of graph '%s'", node, r->g->name));
			free(node);
			return;
		}
		free(node);
	}
	reg = rp_sax_attr_raw(nat, at, "reg");
	if (reg == NULL || *reg == '\0') {
		const char *what = reg == NULL ? "no reg attribute" :
		    "an empty reg attribute";
		free(reg);
		rfail(r, rp_xasprintf("<%s> has %s", is_compute ? "compute" :
		    "free", what));
		return;
	}
	k = reg_of(r, reg);
	if (is_compute)
		rp_plan_add_compute(r->p, v, k);
	else
		rp_plan_add_free(r->p, k);
	rp_grow(&r->p->line, &r->lcap, r->p->len, sizeof *r->p->line);
	r->p->line[r->p->len - 1] = line > 0 ? line : 0;
}

/* A start tag: the root (a plan of a version this reads), then the
 * statements anywhere below it, in document order: also inside grouping
 * elements and statements. A statement is a compute or free in the plan's
 * own namespace (none, or the root's default one); elements of other
 * namespaces are extensions, never executed, as foreign elements in a
 * graph are ignored. */
static void
on_start(void *ctx, const xmlChar *name, const xmlChar *prefix,
    const xmlChar *uri, int nns, const xmlChar **nss, int nat, int ndef,
    const xmlChar **at)
{
	struct reader *r = ctx;
	const char *local = (const char *)name;

	(void)nns;
	(void)nss;
	if (r->cause != NULL)
		return;
	/* Attributes defaulted by a DTD are not the file's: ignored, as in
	 * graph files (they come last). */
	nat -= ndef;
	if (!r->have_root) {
		char *ver;
		r->have_root = 1;
		/* (a prefix no namespace is declared for: a name of its own,
		 * as the tree reader saw it) */
		if (strcmp(local, "plan") != 0 || (prefix != NULL &&
		    uri == NULL)) {
			rfail(r, rp_xasprintf("root element is '%s%s%s', "
			    "expected 'plan'", prefix != NULL && uri == NULL ?
			    (const char *)prefix : "", prefix != NULL &&
			    uri == NULL ? ":" : "", local));
			return;
		}
		if ((ver = rp_sax_attr_trim(nat, at, "version")) != NULL &&
		    strcmp(ver, "1") != 0)
			rfail(r, rp_xasprintf("plan format version '%s' is not "
			    "supported (this is version 1)", ver));
		free(ver);
		r->ns = uri != NULL ? rp_xstrdup((const char *)uri) : NULL;
		return;
	}
	if (strcmp(local, "compute") != 0 && strcmp(local, "free") != 0)
		return;
	if (prefix != NULL && uri == NULL)
		return;		/* an undeclared prefix: not a statement */
	if (uri == NULL ? r->ns != NULL : r->ns == NULL ||
	    strcmp((const char *)uri, r->ns) != 0)
		return;
	read_stmt(r, strcmp(local, "compute") == 0, nat, at);
}

/* rfail for the entity callbacks (rp_sax_refuse_entities). */
static void
sax_fail(void *ctx, char *msg)
{
	rfail(ctx, msg);
}

/* The parser's input: the document in memory. */
static int
on_read(void *ctx, char *out, int n)
{
	struct reader *r = ctx;
	size_t k, m;

	if (n < 0)
		return -1;
	do {
		k = r->len - r->pos;
		if (k > (size_t)n)
			k = (size_t)n;
		if (k == 0)
			return 0;
		memcpy(out, r->buf + r->pos, k);
		r->pos += k;
		m = rp_xml_line_ends(out, k, &r->cr);
	} while (m == 0);
	return (int)m;
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
	xmlSAXHandler sax;
	int v, rc = -1;

	/* Read as a stream of events, statement by statement: the tree of a
	 * plan of millions of statements takes many times the file's size. */
	if (rp_xml_precheck(buf, len, path, cause) != 0)
		return -1;
	rp_xml_setup();
	memset(&sax, 0, sizeof sax);
	sax.initialized = XML_SAX2_MAGIC;
	sax.startElementNs = on_start;
	rp_sax_refuse_entities(&sax);
	memset(&r, 0, sizeof r);
	r.base.fail = sax_fail;
	r.file = path;
	r.buf = buf;
	r.len = len;
	r.g = g;
	r.p = out;
	r.ctxt = xmlCreateIOParserCtxt(&sax, &r, on_read, NULL, &r,
	    XML_CHAR_ENCODING_NONE);
	if (r.ctxt == NULL) {
		*cause = rp_xasprintf("%s: cannot create XML parser", path);
		return -1;
	}
	rp_strmap_init(&r.nodes, (size_t)g->n);
	rp_strmap_init(&r.regs, 1024);
	for (v = 0; v < g->n; v++)
		rp_strmap_put(&r.nodes, g->id[v], v);
	/* NOENT: attribute values arrive with '&amp;' and the like replaced;
	 * no entity is declared to expand (rp_sax_refuse_entities). */
	xmlCtxtUseOptions(r.ctxt, XML_PARSE_NONET | XML_PARSE_NOERROR |
	    XML_PARSE_NOWARNING | XML_PARSE_NOENT | XML_PARSE_BIG_LINES);
	(void)xmlParseDocument(r.ctxt);
	if (r.cause == NULL && !r.ctxt->wellFormed)
		r.cause = rp_xml_malformed(r.ctxt, &r.base, path);
	if (r.cause == NULL)
		rc = 0;
	else {
		*cause = rp_oneline(r.cause);
		rp_plan_destroy(out);
	}
	free(r.ns);
	free(r.base.error);
	rp_strmap_destroy(&r.nodes);
	rp_strmap_destroy(&r.regs);
	if (r.ctxt->myDoc != NULL)
		xmlFreeDoc(r.ctxt->myDoc);
	xmlFreeParserCtxt(r.ctxt);
	return rc;
}
