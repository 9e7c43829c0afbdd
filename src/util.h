/* util.h: allocation wrappers, string helpers, a string->index map, clock. */
#ifndef RP_UTIL_H
#define RP_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* Allocation wrappers: on out-of-memory they print one line and exit(4), so
 * no other code has to check for NULL (the one exception to "library code
 * never exits", as in tmux's xmalloc). */
void *rp_xmalloc(size_t size);
void *rp_xcalloc(size_t nmemb, size_t size);
void *rp_xreallocarray(void *ptr, size_t nmemb, size_t size);
char *rp_xstrdup(const char *s);
/* Returns a newly allocated formatted string; the caller frees it. */
char *rp_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *rp_xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* a + b for sizes (never negative), saturating at INT64_MAX: sums of
 * hostile sizes must not overflow. */
static inline int64_t
rp_size_add(int64_t a, int64_t b)
{
	return a > INT64_MAX - b ? INT64_MAX : a + b;
}

/* FNV-1a over len ints, mixed with len: a hash of a set or sequence of
 * nodes (pebble's sets, reorder's orders). */
static inline uint64_t
rp_hash_ints(const int *e, int len)
{
	uint64_t h = 1469598103934665603ULL;
	int i;

	for (i = 0; i < len; i++) {
		h ^= (uint64_t)(unsigned)e[i];
		h *= 1099511628211ULL;
	}
	return h ^ (uint64_t)len;
}

/* An id (a node, a stage) with a size; rp_keyed_cmp, for qsort, puts
 * the largest key first, then the smallest id: a total order, so the
 * result does not depend on qsort. */
struct rp_keyed {
	int64_t key;
	int id;
};
int rp_keyed_cmp(const void *a, const void *b);

/* Makes a newly allocated message one printable line: control characters become C escapes (\n, \t, \xNN).
 * Frees s and returns the new string. */
char *rp_oneline(char *s);

/* The length of the well-formed UTF-8 character at s (1 to 4 bytes, no
 * overlong forms, surrogates or code points above U+10FFFF), or 0 where
 * s does not start one (a NUL included). */
int rp_utf8_len(const char *s);

/* Whether s, after blanks and a sign, starts as a hexadecimal number
 * ("0x"), which strtod() would take: the formats are decimal. */
int rp_is_hex(const char *s);

/* The directory part of path, as the file's directory for stat(): "." for
 * a bare name, "/" for a file in the root (caller frees). */
char *rp_dir_of(const char *path);

/* Grows *arr (element size sz) so that it holds at least need elements. */
void rp_grow(void *arr, int *cap, int need, size_t sz);

/* Sorts a[0..n) ascending, in place: qsort's result without its calls
 * through a pointer for each comparison (plans are built from sorted
 * stages many times a second). O(n log n) at worst. */
void rp_sort_ints(int *a, int n);

/* The next number of the splitmix64 sequence at *state, as a double in
 * [0, 1) from its top 53 bits: reproducible for a given seed, the same on
 * every platform. */
double rp_random_unit(uint64_t *state);

/* Monotonic wall clock in seconds. */
double rp_now(void);
/* Process-wide allocator settings suited to GLPK's searches; programs
 * call it before anything else. */
void rp_malloc_tune(void);

/* An open-addressing map from strings to non-negative ints. Keys are
 * borrowed, not copied: they must outlive the map. */
struct rp_strmap {
	const char **keys;
	int *vals;
	size_t cap;
	size_t len;
};
void rp_strmap_init(struct rp_strmap *m, size_t expected);
void rp_strmap_destroy(struct rp_strmap *m);
/* Returns the value for key, or -1 when absent. */
int rp_strmap_get(const struct rp_strmap *m, const char *key);
/* Inserts key->val; returns the existing value (and changes nothing) when
 * the key is already present, else -1. */
int rp_strmap_put(struct rp_strmap *m, const char *key, int val);

#endif
