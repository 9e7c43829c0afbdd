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

#include "planxml.h"
#include "util.h"
#include "xmlutil.h"

/* Writes all of buf to fd; returns 0 or -1 with errno set. */
static int
write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t w = write(fd, buf, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

/* The path a symbolic link points to, relative to the link's folder when
 * it is relative; NULL when it cannot be read. */
static char *
link_target(const char *path)
{
	char buf[PATH_MAX];
	ssize_t n = readlink(path, buf, sizeof buf - 1);
	const char *slash;

	if (n < 0)
		return NULL;
	buf[n] = '\0';
	slash = strrchr(path, '/');
	if (buf[0] == '/' || slash == NULL)
		return rp_xstrdup(buf);
	return rp_xasprintf("%.*s/%s", (int)(slash - path), path, buf);
}

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
	char *tmp;
	int fd, e;

	if (buf == NULL) {
		*cause = rp_xstrdup("cannot render the plan document");
		return -1;
	}
	data = (const char *)xmlBufferContent(buf);
	len = (size_t)xmlBufferLength(buf);
	if (strcmp(path, "-") == 0) {
		if (write_all(STDOUT_FILENO, data, len) != 0) {
			*cause = rp_xasprintf("cannot write the plan to standard "
			    "output: %s", strerror(errno));
			xmlBufferFree(buf);
			return -1;
		}
		xmlBufferFree(buf);
		return 0;
	}
	/* Write through symbolic links, and straight into what is not a
	 * regular file (a device, a pipe): renaming over them would replace
	 * them. Regular files get a temporary file and a rename. */
	{
		struct stat st;
		char *real = NULL;
		if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
			real = realpath(path, NULL);
			if (real == NULL)
				real = link_target(path);	/* dangling */
			if (real == NULL || (lstat(real, &st) == 0 &&
			    S_ISLNK(st.st_mode))) {
				*cause = rp_xasprintf("cannot write '%s': cannot "
				    "resolve the symbolic link", path);
				free(real);
				xmlBufferFree(buf);
				return -1;
			}
			{
				int rc = rp_planxml_write(real, g, p, meta, cause);
				free(real);
				xmlBufferFree(buf);
				return rc;
			}
		}
		if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
			fd = open(path, O_WRONLY | O_TRUNC);
			if (fd < 0 || write_all(fd, data, len) != 0) {
				e = errno;
				*cause = rp_xasprintf("cannot write '%s': %s", path,
				    strerror(e));
				if (fd >= 0)
					close(fd);
				xmlBufferFree(buf);
				return -1;
			}
			close(fd);
			xmlBufferFree(buf);
			return 0;
		}
	}
	tmp = rp_xasprintf("%s.tmpXXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		*cause = rp_xasprintf("cannot write '%s': %s", path, strerror(errno));
		free(tmp);
		xmlBufferFree(buf);
		return -1;
	}
	if (write_all(fd, data, len) != 0 || fsync(fd) != 0) {
		e = errno;
		close(fd);
		unlink(tmp);
		*cause = rp_xasprintf("cannot write '%s': %s", path, strerror(e));
		free(tmp);
		xmlBufferFree(buf);
		return -1;
	}
	/* mkstemp creates 0600; plans are ordinary files. */
	{
		mode_t um = umask(0);
		umask(um);
		fchmod(fd, 0666 & ~um);
	}
	if (close(fd) != 0 || rename(tmp, path) != 0) {
		e = errno;
		unlink(tmp);
		*cause = rp_xasprintf("cannot write '%s': %s", path, strerror(e));
		free(tmp);
		xmlBufferFree(buf);
		return -1;
	}
	free(tmp);
	xmlBufferFree(buf);
	return 0;
}

struct reader {
	const char *file;
	const struct rp_graph *g;
	struct rp_strmap nodes;	/* node id -> index */
	struct rp_strmap regs;	/* register name -> number */
	int rcap, lcap;
	struct rp_plan *p;
	char *cause;
};

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
		if (rp_xml_is(c, "compute") || rp_xml_is(c, "free")) {
			int is_compute = rp_xml_is(c, "compute");
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
				free(reg);
				return rfail(r, c, rp_xasprintf("<%s> has no reg "
				    "attribute", is_compute ? "compute" : "free"));
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
	struct reader r;
	xmlDocPtr doc;
	xmlNodePtr root;
	char *buf, *ver;
	size_t len;
	int v, rc = -1;

	if (rp_xml_slurp(path, &buf, &len, cause) != 0)
		return -1;
	doc = rp_xml_parse(buf, len, path, cause);
	free(buf);
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
