/* xmlutil.c: libxml2 set-up, the check before parsing and small helpers. */
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

int
rp_xml_precheck(const char *buf, size_t len, const char *name, char **cause)
{
	const char *z, *q;
	int line = 1;

	if (len > (size_t)0x7fffffff) {
		*cause = rp_xasprintf("%s: file is too large (over 2 GiB)", name);
		return -1;
	}
	/* libxml2 stops at a NUL byte: what follows would be lost without a
	 * word. */
	if ((z = memchr(buf, '\0', len)) == NULL)
		return 0;
	for (q = buf; q < z; q++)
		line += *q == '\n';
	*cause = rp_xasprintf("%s:%d: a NUL byte in the file (it is not a text "
	    "document)", name, line);
	return -1;
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

size_t
rp_xml_line_ends(char *buf, size_t n, int *cr)
{
	size_t i = 0, o = 0;

	if (!*cr && memchr(buf, '\r', n) == NULL)
		return n;
	if (*cr && n > 0 && buf[0] == '\n')
		i = 1;		/* the LF of a CR LF split between chunks */
	*cr = 0;
	for (; i < n; i++) {
		if (buf[i] != '\r') {
			buf[o++] = buf[i];
			continue;
		}
		buf[o++] = '\n';
		if (i + 1 == n)
			*cr = 1;
		else if (buf[i + 1] == '\n')
			i++;
	}
	return o;
}

static void
on_entity(void *ctx, const xmlChar *name, int type, const xmlChar *pub,
    const xmlChar *sys, xmlChar *content)
{
	const struct rp_sax_base *b = ctx;

	(void)type;
	(void)pub;
	(void)sys;
	(void)content;
	b->fail(ctx, rp_xasprintf("entity declarations are not supported "
	    "(entity '%s')", (const char *)name));
}

static void
on_unparsed_entity(void *ctx, const xmlChar *name, const xmlChar *pub,
    const xmlChar *sys, const xmlChar *notation)
{
	(void)notation;
	on_entity(ctx, name, 0, pub, sys, NULL);
}

static void
on_reference(void *ctx, const xmlChar *name)
{
	const struct rp_sax_base *b = ctx;

	b->fail(ctx, rp_xasprintf("entity reference '&%s;' is not supported",
	    (const char *)name));
}

static void
on_error(void *ctx, xmlErrorPtr err)
{
	struct rp_sax_base *b = ctx;

	if (b->error == NULL && err != NULL && err->level >= XML_ERR_ERROR &&
	    err->message != NULL) {
		b->error = rp_xstrdup(err->message);
		b->error_line = err->line;
	}
}

/* A DTD's attribute declaration. Defaults of ordinary attributes are
 * dropped where elements start (the file's attributes only count), but
 * the parser applies a namespace declaration's default before then: it
 * could move the elements it names into another namespace, unseen. So it
 * is refused, but where it cannot change what is read: the default
 * namespace made base->ns_as_none, which reads as none, and a prefix
 * made another namespace (its elements are foreign either way). */
static void
on_attribute_decl(void *ctx, const xmlChar *elem, const xmlChar *name,
    int type, int def, const xmlChar *value, xmlEnumerationPtr tree)
{
	const struct rp_sax_base *b = ctx;
	const char *a = (const char *)name, *v = (const char *)value;
	int same;

	(void)type;
	xmlFreeEnumeration(tree);
	if (value == NULL || def == XML_ATTRIBUTE_IMPLIED ||
	    def == XML_ATTRIBUTE_REQUIRED || strncmp(a, "xmlns", 5) != 0 ||
	    (a[5] != '\0' && a[5] != ':'))
		return;
	same = b->ns_as_none != NULL && strcmp(v, b->ns_as_none) == 0;
	if (b->ns_as_none != NULL && (a[5] == '\0' ? same : !same))
		return;
	b->fail(ctx, rp_xasprintf("a DTD default for the namespace "
	    "declaration '%s' of element '%s' is not supported", a,
	    (const char *)elem));
}

void
rp_sax_refuse_entities(xmlSAXHandler *sax)
{
	sax->attributeDecl = on_attribute_decl;
	sax->entityDecl = on_entity;
	sax->unparsedEntityDecl = on_unparsed_entity;
	sax->reference = on_reference;
	sax->serror = on_error;
}

const char *
rp_sax_attr(int nb, const xmlChar **at, const char *a, size_t *len)
{
	int i;

	for (i = 0; i < nb; i++, at += 5)
		if (at[1] == NULL && at[2] == NULL &&
		    strcmp((const char *)at[0], a) == 0) {
			*len = (size_t)(at[4] - at[3]);
			return (const char *)at[3];
		}
	return NULL;
}

char *
rp_sax_attr_raw(int nb, const xmlChar **at, const char *a)
{
	size_t n;
	const char *v = rp_sax_attr(nb, at, a, &n);
	char *r;

	if (v == NULL)
		return NULL;
	r = rp_xmalloc(n + 1);
	memcpy(r, v, n);
	r[n] = '\0';
	return r;
}

char *
rp_sax_attr_trim(int nb, const xmlChar **at, const char *a)
{
	size_t n;
	const char *v = rp_sax_attr(nb, at, a, &n);

	return v != NULL ? rp_xml_trim(v, n) : NULL;
}

char *
rp_xml_malformed(xmlParserCtxtPtr ctxt, const struct rp_sax_base *base,
    const char *file)
{
	const xmlError *err = xmlCtxtGetLastError(ctxt);
	const char *m = base->error != NULL ? base->error :
	    err != NULL && err->message != NULL ? err->message :
	    "cannot parse document";
	int line = base->error != NULL ? base->error_line :
	    err != NULL ? err->line : 0;
	char *msg = rp_xstrdup(m), *r;
	const char *why = "";
	size_t k = strlen(msg);

	while (k > 0 && (msg[k - 1] == '\n' || msg[k - 1] == ' '))
		msg[--k] = '\0';
	/* libxml2's limits, in the file's terms (the option it names is
	 * not one of remat-plan's) */
	if (strstr(msg, "Huge input lookup") != NULL ||
	    strstr(msg, "length too long") != NULL)
		why = " (a tag or text longer than the parser takes, about "
		    "10 MB)";
	else if (strstr(msg, "Excessive depth") != NULL)
		why = " (elements nested more than 256 deep inside the root)";
	r = rp_xasprintf("%s:%d: malformed XML: %s%s", file,
	    line > 0 ? line : 1, msg, why);
	free(msg);
	return r;
}
