/* xmlutil.h: libxml2 set-up for the XML modules, and the tree helpers of
 * the plan reader (planxml.c); the graph loader reads a stream (graphml.c). */
#ifndef RP_XMLUTIL_H
#define RP_XMLUTIL_H

#include <stddef.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

/* Sets libxml2 up: allocations through rp_xmalloc (out of memory ends the
 * run with status 4), no messages of its own. Programs call it before
 * any other libxml2 use; the parser calls it too. */
void rp_xml_setup(void);

/* Parses a document safely (no network, no entity expansion into the tree,
 * no output on stderr). Returns the document, or NULL with *cause set to
 * "name:line: malformed XML: reason". */
xmlDocPtr rp_xml_parse(const char *buf, size_t len, const char *name, char **cause);

/* A copy of s[0..n) without leading and trailing XML blanks (space, tab,
 * CR, LF); caller frees. */
char *rp_xml_trim(const char *s, size_t n);

/* Element's local name equals s (any namespace). */
int rp_xml_is(xmlNodePtr n, const char *s);

/* A copy of attribute a of n with surrounding blanks removed, or NULL. */
char *rp_xml_attr(xmlNodePtr n, const char *a);

/* A copy of attribute a of n exactly as written, or NULL: for identifiers
 * (node ids, register names), where blanks are significant. */
char *rp_xml_attr_raw(xmlNodePtr n, const char *a);

/* The element's text content, trimmed (caller frees). */
char *rp_xml_text(xmlNodePtr n);

/* Line of a node for messages. */
int rp_xml_line(xmlNodePtr n);

#endif
