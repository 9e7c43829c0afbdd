/* xmlutil.h: libxml2 set-up and small helpers for the XML readers, which
 * read streams of SAX events (graphml.c, planxml.c). */
#ifndef RP_XMLUTIL_H
#define RP_XMLUTIL_H

#include <stddef.h>

#include <libxml/parser.h>

/* Sets libxml2 up: allocations through rp_xmalloc (out of memory ends the
 * run with status 4), no messages of its own. Programs call it before
 * any other libxml2 use; the parser calls it too. */
void rp_xml_setup(void);

/* What a document in memory must be before it is parsed: at most 2 GiB,
 * and text (libxml2 stops at a NUL byte without a word). Returns 0, or -1
 * with *cause set ("name:line: ..."). */
int rp_xml_precheck(const char *buf, size_t len, const char *name,
    char **cause);

/* The first member of the context of a SAX reader (graphml.c, planxml.c):
 * how it fails, at the parser's line, taking msg; and the parser's first
 * error (its message, or NULL, and line), which names the cause where
 * the last one ("Premature end of data") names where the parser gave up.
 * The reader frees error. */
struct rp_sax_base {
	void (*fail)(void *ctx, char *msg);
	char *error;
	int error_line;
	/* A namespace that reads as none (a graph's GraphML one): a DTD
	 * default may declare it as the default namespace, and no prefix
	 * may get it so. NULL: every namespace default is refused. */
	const char *ns_as_none;
};

/* Sets the entity callbacks of sax to refuse every entity declaration
 * and reference to one (through the context's fail): a graph or a plan
 * needs none, and expansion is how XML files blow up or reach into other
 * files. Predefined entities (&amp;) and character references do not
 * reach them. Refuses a DTD's default for a namespace declaration too,
 * where it could change how an element reads (the parser would apply it;
 * see ns_as_none). Also keeps the parser's first error in the context's
 * base. */
void rp_sax_refuse_entities(xmlSAXHandler *sax);

/* Attribute a of a SAX2 start-element event (nb attributes, five pointers
 * each: name, prefix, URI, value, end of value), in no namespace and with
 * no prefix (one no namespace is declared for makes a name of its own):
 * its value and length, or NULL. */
const char *rp_sax_attr(int nb, const xmlChar **at, const char *a,
    size_t *len);

/* A copy of that attribute exactly as written (identifiers: blanks
 * count), or NULL. */
char *rp_sax_attr_raw(int nb, const xmlChar **at, const char *a);

/* A copy of that attribute without surrounding blanks, or NULL. */
char *rp_sax_attr_trim(int nb, const xmlChar **at, const char *a);

/* The message for a document the parser found malformed (ctxt not well
 * formed), from its first error (base's, else the context's last):
 * "file:line: malformed XML: reason"; caller frees. */
char *rp_xml_malformed(xmlParserCtxtPtr ctxt, const struct rp_sax_base *base,
    const char *file);

/* Line ends in buf[0..n), a chunk of a document, made as XML reads them,
 * in place: CR LF and a lone CR become LF, so that the parser counts
 * lines as an editor does (it counted none at a lone CR); what the
 * document says is the same. *cr: the chunk before ended with a CR (0 at
 * the first). Returns the new length (0 where the chunk was the LF of a
 * CR LF alone: read on). */
size_t rp_xml_line_ends(char *buf, size_t n, int *cr);

/* A copy of s[0..n) without leading and trailing XML blanks (space, tab,
 * CR, LF); caller frees. */
char *rp_xml_trim(const char *s, size_t n);

#endif
