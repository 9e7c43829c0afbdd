/* units.c: parsing budgets and printing byte counts and durations. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "units.h"
#include "util.h"

/* The units a budget may have, for the message that lists them. */
#define UNITS "B, K, M, G, T, KiB, MiB, GiB, TiB, KB, MB, GB, TB or %"

static const struct {
	const char *suffix;
	double scale;
} suffixes[] = {
	{ "", 1.0 }, { "B", 1.0 },
	{ "K", 1024.0 }, { "KIB", 1024.0 }, { "KB", 1e3 },
	{ "M", 1048576.0 }, { "MIB", 1048576.0 }, { "MB", 1e6 },
	{ "G", 1073741824.0 }, { "GIB", 1073741824.0 }, { "GB", 1e9 },
	{ "T", 1099511627776.0 }, { "TIB", 1099511627776.0 }, { "TB", 1e12 },
};

int
rp_parse_budget(const char *s, struct rp_budget_spec *out, char **cause)
{
	char *end;
	double v, scale = -1;
	size_t i, len;

	memset(out, 0, sizeof *out);
	out->text = s;
	while (isspace((unsigned char)*s))
		s++;
	if (*s == '\0' || *s == '-' || *s == '+' || rp_is_hex(s) ||
	    !(isdigit((unsigned char)*s) || *s == '.')) {
		*cause = rp_xasprintf("budget '%s' is not a number of bytes or a percentage", s);
		return -1;
	}
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno == ERANGE || !isfinite(v)) {
		*cause = rp_xasprintf("budget '%s' is not a number of bytes or a percentage", s);
		return -1;
	}
	/* blanks around the figure are the shell's, not the budget's: the
	 * unit is the len characters at end */
	len = strlen(end);
	while (len > 0 && isspace((unsigned char)end[len - 1]))
		len--;
	if (len == 1 && *end == '%') {
		if (v <= 0) {
			*cause = rp_xasprintf("budget '%s' must be a percentage above 0%%", s);
			return -1;
		}
		if (v > 1e6) {
			*cause = rp_xasprintf("budget '%s' is too large (at most "
			    "1000000%%)", s);
			return -1;
		}
		out->is_percent = 1;
		out->percent = v;
		return 0;
	}
	for (i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++)
		if (strlen(suffixes[i].suffix) == len &&
		    strncasecmp(end, suffixes[i].suffix, len) == 0) {
			scale = suffixes[i].scale;
			break;
		}
	if (scale < 0) {
		*cause = rp_xasprintf("budget '%s' has an unknown unit '%.*s' "
		    "(use %s)", s, (int)len, end, UNITS);
		return -1;
	}
	if (scale == 1 && v >= 1 && v != floor(v)) {
		*cause = rp_xasprintf("budget '%s' is not a whole number of "
		    "bytes", s);
		return -1;
	}
	v = floor(v * scale);
	if (v < 1) {
		*cause = rp_xasprintf("budget '%s' must be at least 1 byte", s);
		return -1;
	}
	if (v >= 9.2e18) {
		*cause = rp_xasprintf("budget '%s' is too large", s);
		return -1;
	}
	out->bytes = (int64_t)v;
	return 0;
}

struct rp_budget_spec
rp_budget_bytes(int64_t bytes)
{
	struct rp_budget_spec s;

	memset(&s, 0, sizeof s);
	s.bytes = bytes;
	return s;
}

struct rp_budget_spec
rp_budget_percent(double percent)
{
	struct rp_budget_spec s;

	memset(&s, 0, sizeof s);
	s.is_percent = 1;
	s.percent = percent;
	return s;
}

int
rp_budget_resolve(const struct rp_budget_spec *spec, int64_t reference,
    int64_t *bytes, char **cause)
{
	double b;

	if (!spec->is_percent) {
		*bytes = spec->bytes;
		return 0;
	}
	b = floor((double)reference * spec->percent / 100.0);
	if (b < 1 || b >= 9.2e18) {
		*cause = rp_xasprintf("budget %s of the checkpoint-all peak "
		    "(%lld %s) is %s", spec->text != NULL ? spec->text : "?",
		    (long long)reference, rp_bytes_word(reference),
		    b < 1 ? "less than one byte" :
		    "too large");
		return -1;
	}
	*bytes = (int64_t)b;
	return 0;
}

void
rp_format_bytes(int64_t bytes, char *buf, size_t len)
{
	static const char *units[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)bytes;
	int u = -1, prec;
	char num[32];

	if (bytes < 1024 && bytes > -1024) {
		snprintf(buf, len, "%lld B", (long long)bytes);
		return;
	}
	while ((v >= 1024 || v <= -1024) && u < 5) {
		v /= 1024;
		u++;
	}
	/* three significant digits of the figure as rounded (9.996 MiB is
	 * 10.0 MiB, 1023.7 KiB is 1.00 MiB) */
	for (;;) {
		prec = fabs(v) >= 100 ? 0 : fabs(v) >= 10 ? 1 : 2;
		snprintf(num, sizeof num, "%.*f", prec, v);
		while (prec > 0 && fabs(strtod(num, NULL)) >=
		    (prec == 2 ? 10 : 100))
			snprintf(num, sizeof num, "%.*f", --prec, v);
		if (prec > 0 || fabs(strtod(num, NULL)) < 1024 || u == 5)
			break;
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%s %s", num, units[u]);
}

void
rp_format_seconds(double s, char *buf, size_t len)
{
	if (s < 1e-3)
		snprintf(buf, len, "%.0f us", s * 1e6);
	else if (s < 1)
		snprintf(buf, len, "%.1f ms", s * 1e3);
	else
		snprintf(buf, len, "%.2f s", s);
}
