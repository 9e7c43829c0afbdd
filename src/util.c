/* util.c: allocation wrappers, string map and clock shared by all modules. */
#include "config.h"

#include <ctype.h>
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

int
rp_is_hex(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	if (*s == '+' || *s == '-')
		s++;
	return s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

int
rp_utf8_len(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	int n, k;
	uint32_t cp;

	if (u[0] == 0)
		return 0;
	if (u[0] < 0x80)
		return 1;
	if (u[0] >= 0xc2 && u[0] <= 0xdf)
		n = 2, cp = u[0] & 0x1f;
	else if (u[0] >= 0xe0 && u[0] <= 0xef)
		n = 3, cp = u[0] & 0x0f;
	else if (u[0] >= 0xf0 && u[0] <= 0xf4)
		n = 4, cp = u[0] & 0x07;
	else
		return 0;
	for (k = 1; k < n; k++) {
		if ((u[k] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (u[k] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

char *
rp_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return rp_xstrdup(".");
	if (slash == path)
		return rp_xstrdup("/");
	return rp_xasprintf("%.*s", (int)(slash - path), path);
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

static void
sift_down(int *a, int root, int n)
{
	int c, t;

	while ((c = 2 * root + 1) < n) {
		if (c + 1 < n && a[c + 1] > a[c])
			c++;
		if (a[root] >= a[c])
			return;
		t = a[root];
		a[root] = a[c];
		a[c] = t;
		root = c;
	}
}

/* Quicksort on the median of three, insertion sort for short runs, and
 * heapsort where the partitions keep coming out lopsided (introsort): the
 * smaller side is sorted first by recursion, so the stack stays O(log n). */
static void
sort_ints(int *a, int n, int depth)
{
	int i, j, p, t;

	while (n > 16) {
		if (depth-- == 0) {
			for (i = n / 2 - 1; i >= 0; i--)
				sift_down(a, i, n);
			for (i = n - 1; i > 0; i--) {
				t = a[0];
				a[0] = a[i];
				a[i] = t;
				sift_down(a, 0, i);
			}
			return;
		}
		/* a[0] <= a[n/2] <= a[n-1], then the median to a[1] as the
		 * pivot, with a[0] and a[n-1] as the partition's sentinels */
		if (a[n / 2] < a[0]) { t = a[0]; a[0] = a[n / 2]; a[n / 2] = t; }
		if (a[n - 1] < a[0]) { t = a[0]; a[0] = a[n - 1]; a[n - 1] = t; }
		if (a[n - 1] < a[n / 2]) {
			t = a[n / 2]; a[n / 2] = a[n - 1]; a[n - 1] = t;
		}
		t = a[1]; a[1] = a[n / 2]; a[n / 2] = t;
		p = a[1];
		i = 1;
		j = n - 1;
		for (;;) {
			while (a[++i] < p)
				;
			while (a[--j] > p)
				;
			if (i >= j)
				break;
			t = a[i];
			a[i] = a[j];
			a[j] = t;
		}
		a[1] = a[j];
		a[j] = p;
		/* a[0..j) <= p <= a[j+1..n) */
		if (j < n - 1 - j) {
			sort_ints(a, j, depth);
			a += j + 1;
			n -= j + 1;
		} else {
			sort_ints(a + j + 1, n - 1 - j, depth);
			n = j;
		}
	}
	for (i = 1; i < n; i++) {
		t = a[i];
		for (j = i; j > 0 && a[j - 1] > t; j--)
			a[j] = a[j - 1];
		a[j] = t;
	}
}

void
rp_sort_ints(int *a, int n)
{
	int depth = 0, k;

	for (k = n; k > 1; k >>= 1)
		depth += 2;
	sort_ints(a, n, depth);
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

int
rp_keyed_cmp(const void *a, const void *b)
{
	const struct rp_keyed *x = a, *y = b;

	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
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
