/* xmlutil.c: libxml2 set-up, safe parsing and small tree helpers. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include "util.h"
#include "xmlutil.h"

/* libxml2 prints through its generic error hook unless told otherwise;
 * library code must stay silent, errors come back as causes. */
static void
xml_silent(void *ctx, const char *msg, ...)
{
	(void)ctx;
	(void)msg;
}

/* libxml2's allocations go through the wrappers, so that running out of
 * memory while reading a file is reported as that (status 4), not as
 * whatever the library makes of a NULL (an empty attribute, a bad
 * number). */
static void *
xml_malloc(size_t n)
{
	return rp_xmalloc(n);
}

static void *
xml_realloc(void *p, size_t n)
{
	return rp_xreallocarray(p, n, 1);
}

static char *
xml_strdup(const char *s)
{
	return rp_xstrdup(s);
}

void
rp_xml_setup(void)
{
	static int done;
	if (!done) {
		xmlMemSetup(free, xml_malloc, xml_realloc, xml_strdup);
		xmlInitParser();
		xmlSetGenericErrorFunc(NULL, xml_silent);
		done = 1;
	}
}

static void
xml_init(void)
{
	rp_xml_setup();
}

xmlDocPtr
rp_xml_parse(const char *buf, size_t len, const char *name, char **cause)
{
	xmlParserCtxtPtr ctxt;
	xmlDocPtr doc;
	const xmlError *err;
	char *msg;
	size_t k;

	xml_init();
	if (len > (size_t)0x7fffffff) {
		*cause = rp_xasprintf("%s: file is too large (over 2 GiB)", name);
		return NULL;
	}
	{
		/* libxml2 stops at a NUL byte: what follows would be lost
		 * without a word. */
		const char *z = memchr(buf, '\0', len);
		if (z != NULL) {
			int line = 1;
			const char *q;
			for (q = buf; q < z; q++)
				line += *q == '\n';
			*cause = rp_xasprintf("%s:%d: a NUL byte in the file (it "
			    "is not a text document)", name, line);
			return NULL;
		}
	}
	ctxt = xmlNewParserCtxt();
	if (ctxt == NULL) {
		*cause = rp_xasprintf("%s: cannot create XML parser", name);
		return NULL;
	}
	doc = xmlCtxtReadMemory(ctxt, buf, (int)len, name, NULL,
	    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
	    XML_PARSE_BIG_LINES | XML_PARSE_NOCDATA);
	if (doc == NULL || !ctxt->wellFormed) {
		err = xmlCtxtGetLastError(ctxt);
		msg = rp_xstrdup(err != NULL && err->message != NULL ?
		    err->message : "cannot parse document");
		k = strlen(msg);
		while (k > 0 && (msg[k - 1] == '\n' || msg[k - 1] == ' '))
			msg[--k] = '\0';
		*cause = rp_xasprintf("%s:%d: malformed XML: %s", name,
		    err != NULL && err->line > 0 ? err->line : 1, msg);
		free(msg);
		if (doc != NULL)
			xmlFreeDoc(doc);
		xmlFreeParserCtxt(ctxt);
		return NULL;
	}
	xmlFreeParserCtxt(ctxt);
	if (doc->intSubset != NULL && (doc->intSubset->entities != NULL ||
	    doc->intSubset->pentities != NULL)) {
		/* as for graph files: expansion is how XML files blow up or
		 * reach into other files, and a plan needs none */
		const char *d = strstr(buf, "<!ENTITY"), *q, *nm;
		int line = 1, nlen;
		if (d == NULL)
			d = buf;
		for (q = buf; q < d; q++)
			line += *q == '\n';
		nm = d + (strncmp(d, "<!ENTITY", 8) == 0 ? 8 : 0);
		nm += strspn(nm, " \t\r\n%");
		nm += strspn(nm, " \t\r\n");
		nlen = (int)strcspn(nm, " \t\r\n>\"'");
		*cause = rp_xasprintf("%s:%d: entity declarations are not "
		    "supported (entity '%.*s')", name, line, nlen > 64 ? 64 :
		    nlen, nm);
		xmlFreeDoc(doc);
		return NULL;
	}
	return doc;
}

int
rp_xml_is(xmlNodePtr n, const char *s)
{
	return n != NULL && n->type == XML_ELEMENT_NODE &&
	    strcmp((const char *)n->name, s) == 0;
}

static int
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

char *
rp_xml_trim(const char *s, size_t n)
{
	char *r;

	while (n > 0 && is_blank(*s)) {
		s++;
		n--;
	}
	while (n > 0 && is_blank(s[n - 1]))
		n--;
	r = rp_xmalloc(n + 1);
	memcpy(r, s, n);
	r[n] = '\0';
	return r;
}

char *
rp_xml_attr(xmlNodePtr n, const char *a)
{
	xmlChar *v = xmlGetNoNsProp(n, (const xmlChar *)a);
	char *r;

	if (v == NULL)
		return NULL;
	r = rp_xml_trim((const char *)v, strlen((const char *)v));
	xmlFree(v);
	return r;
}

char *
rp_xml_attr_raw(xmlNodePtr n, const char *a)
{
	xmlChar *v = xmlGetNoNsProp(n, (const xmlChar *)a);
	char *r;

	if (v == NULL)
		return NULL;
	r = rp_xstrdup((const char *)v);
	xmlFree(v);
	return r;
}

char *
rp_xml_text(xmlNodePtr n)
{
	xmlChar *v = xmlNodeGetContent(n);
	const char *t = v != NULL ? (const char *)v : "";
	char *r = rp_xml_trim(t, strlen(t));
	xmlFree(v);
	return r;
}

int
rp_xml_line(xmlNodePtr n)
{
	long l = xmlGetLineNo(n);
	return l > 0 && l < 0x7fffffff ? (int)l : 0;
}
