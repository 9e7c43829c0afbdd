/* units.h: byte quantities as users write and read them. */
#ifndef RP_UNITS_H
#define RP_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* A parsed --budget: either absolute bytes or a percentage of the
 * checkpoint-all peak. */
struct rp_budget_spec {
	int is_percent;
	int64_t bytes;		/* when !is_percent */
	double percent;		/* when is_percent, > 0 */
	const char *text;	/* as the user wrote it, for messages (borrowed) */
};

/* A budget of bytes, or of a percentage, as a spec. */
struct rp_budget_spec rp_budget_bytes(int64_t bytes);
struct rp_budget_spec rp_budget_percent(double percent);

/* The budget spec comes to *bytes, a percentage taken of reference bytes.
 * Returns 0, or -1 with *cause set (caller frees) when that is less than a
 * byte or more than int64_t holds. */
int rp_budget_resolve(const struct rp_budget_spec *spec, int64_t reference,
    int64_t *bytes, char **cause);

/* Parses "123", "1.5G" (powers of 1024: K M G T, also KiB..TiB), "16GB"
 * (powers of 1000: KB MB GB TB) or "60%". Returns 0, or -1 with *cause set
 * (caller frees). */
int rp_parse_budget(const char *s, struct rp_budget_spec *out, char **cause);

/* "byte" for one, else "bytes": for "(%lld %s)" after a figure. */
static inline const char *
rp_bytes_word(int64_t bytes)
{
	return bytes == 1 ? "byte" : "bytes";
}

/* Formats bytes as "512 B", "1.50 KiB", "16.0 GiB" into buf. */
void rp_format_bytes(int64_t bytes, char *buf, size_t len);

/* Formats seconds as "0.12 ms", "3.40 s" into buf. */
void rp_format_seconds(double s, char *buf, size_t len);

#endif
