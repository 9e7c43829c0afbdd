/* util.c: allocation wrappers, string map and clock shared by all modules. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(HAVE_MALLOC_H) && defined(HAVE_MALLOPT)
#include <malloc.h>
#endif

#include "util.h"

/* Out of memory is not recoverable for a planner: say so and stop. */
static void
oom(void)
{
	fputs("remat-plan: out of memory\n", stderr);
	exit(4);
}

void *
rp_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (p == NULL)
		oom();
	return p;
}

void *
rp_xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (p == NULL)
		oom();
	return p;
}

void *
rp_xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	void *p;
	if (size != 0 && nmemb > SIZE_MAX / size)
		oom();
	p = realloc(ptr, nmemb * size != 0 ? nmemb * size : 1);
	if (p == NULL)
		oom();
	return p;
}

char *
rp_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = rp_xmalloc(n);
	memcpy(p, s, n);
	return p;
}

char *
rp_xvasprintf(const char *fmt, va_list ap)
{
	va_list aq;
	int n;
	char *p;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		oom();
	p = rp_xmalloc((size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

char *
rp_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = rp_xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

char *
rp_oneline(char *s)
{
	size_t n = 0, i;
	char *r, *w;

	if (s == NULL)
		return NULL;
	for (i = 0; s[i]; i++)
		n += (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? 4 : 1;
	r = w = rp_xmalloc(n + 1);
	for (i = 0; s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\n')
			w += sprintf(w, "\\n");
		else if (c == '\t')
			w += sprintf(w, "\\t");
		else if (c < 0x20 || c == 0x7f)
			w += sprintf(w, "\\x%02x", c);
		else
			*w++ = (char)c;
	}
	*w = '\0';
	free(s);
	return r;
}

void
rp_grow(void *arr, int *cap, int need, size_t sz)
{
	void **pp = arr;
	int c = *cap;

	if (need <= c)
		return;
	if (c < 16)
		c = 16;
	while (c < need) {
		if (c > (1 << 29))
			oom();
		c *= 2;
	}
	*pp = rp_xreallocarray(*pp, (size_t)c, sz);
	*cap = c;
}

/* GLPK allocates and frees its working arrays at every node LP and every
 * strong-branching probe of its branch and bound (a copy of the whole
 * problem each). With glibc's defaults the freed top of the heap goes back
 * to the kernel and is faulted in again at once: on the 2-core machine a
 * third of a search's time was system time (bench/milp-results.md). A
 * 64 MiB pad keeps that memory in the process. Programs call this first;
 * it changes how fast a search runs, not what it computes (a search cut
 * short by a time limit may of course get further). */
void
rp_malloc_tune(void)
{
#if defined(HAVE_MALLOC_H) && defined(HAVE_MALLOPT)
	(void)mallopt(M_TOP_PAD, 64 << 20);
#endif
}

double
rp_random_unit(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

double
rp_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* FNV-1a: simple, deterministic, good enough for identifiers. */
static size_t
hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return (size_t)h;
}

void
rp_strmap_init(struct rp_strmap *m, size_t expected)
{
	size_t cap = 16;
	while (cap < expected * 2)
		cap *= 2;
	m->keys = rp_xcalloc(cap, sizeof *m->keys);
	m->vals = rp_xcalloc(cap, sizeof *m->vals);
	m->cap = cap;
	m->len = 0;
}

void
rp_strmap_destroy(struct rp_strmap *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->cap = m->len = 0;
}

int
rp_strmap_get(const struct rp_strmap *m, const char *key)
{
	size_t i = hash(key) & (m->cap - 1);
	while (m->keys[i] != NULL) {
		if (strcmp(m->keys[i], key) == 0)
			return m->vals[i];
		i = (i + 1) & (m->cap - 1);
	}
	return -1;
}

/* Doubles the table and reinserts every key. */
static void
strmap_rehash(struct rp_strmap *m)
{
	struct rp_strmap n;
	size_t i;

	rp_strmap_init(&n, m->cap);
	for (i = 0; i < m->cap; i++)
		if (m->keys[i] != NULL)
			rp_strmap_put(&n, m->keys[i], m->vals[i]);
	rp_strmap_destroy(m);
	*m = n;
}

int
rp_strmap_put(struct rp_strmap *m, const char *key, int val)
{
	size_t i;

	if ((m->len + 1) * 2 > m->cap)
		strmap_rehash(m);
	i = hash(key) & (m->cap - 1);
	while (m->keys[i] != NULL) {
		if (strcmp(m->keys[i], key) == 0)
			return m->vals[i];
		i = (i + 1) & (m->cap - 1);
	}
	m->keys[i] = key;
	m->vals[i] = val;
	m->len++;
	return -1;
}
