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

static void
xml_init(void)
{
	static int done;
	if (!done) {
		xmlInitParser();
		xmlSetGenericErrorFunc(NULL, xml_silent);
		done = 1;
	}
}

int
rp_xml_slurp(const char *path, char **bufp, size_t *lenp, char **cause)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, r;

	if (f == NULL) {
		*cause = rp_oneline(rp_xasprintf("cannot open '%s': %s", path,
		    strerror(errno)));
		return -1;
	}
	for (;;) {
		if (len + 65536 > cap) {
			cap = cap ? cap * 2 : 65536 * 2;
			buf = rp_xreallocarray(buf, cap, 1);
		}
		r = fread(buf + len, 1, cap - len - 1, f);
		len += r;
		if (r == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno;
		fclose(f);
		free(buf);
		*cause = rp_xasprintf("cannot read '%s': %s", path,
		    strerror(e ? e : EIO));
		return -1;
	}
	fclose(f);
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
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
	return doc;
}

int
rp_xml_is(xmlNodePtr n, const char *s)
{
	return n != NULL && n->type == XML_ELEMENT_NODE &&
	    strcmp((const char *)n->name, s) == 0;
}

/* Copies s without leading and trailing XML blanks. */
static char *
trim_copy(const char *s)
{
	size_t a = 0, b = strlen(s);
	char *r;

	while (s[a] == ' ' || s[a] == '\t' || s[a] == '\n' || s[a] == '\r')
		a++;
	while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t' ||
	    s[b - 1] == '\n' || s[b - 1] == '\r'))
		b--;
	r = rp_xmalloc(b - a + 1);
	memcpy(r, s + a, b - a);
	r[b - a] = '\0';
	return r;
}

char *
rp_xml_attr(xmlNodePtr n, const char *a)
{
	xmlChar *v = xmlGetNoNsProp(n, (const xmlChar *)a);
	char *r;

	if (v == NULL)
		return NULL;
	r = trim_copy((const char *)v);
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
	char *r = trim_copy(v != NULL ? (const char *)v : "");
	xmlFree(v);
	return r;
}

int
rp_xml_line(xmlNodePtr n)
{
	long l = xmlGetLineNo(n);
	return l > 0 && l < 0x7fffffff ? (int)l : 0;
}
