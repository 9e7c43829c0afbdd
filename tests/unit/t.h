/* t.h: a minimal TAP test harness for the unit tests.
 *
 * A program is a series of named cases: t_case("name") opens one (closing
 * the one before), CHECK and CHECK_STR count checks in it, and t_done()
 * closes the last and prints the plan. Each case is one TAP line, "ok N -
 * name" or "not ok N - name", so that automake's TAP driver names what
 * failed; the failed checks themselves are printed as TAP diagnostics
 * ("# file:line: ...") just before it. */
#ifndef T_H
#define T_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int t_failed, t_checks, t_ncases, t_case_open, t_case_failed;
static char t_name[256];

/* Closes the open case, if any, with its TAP line. */
static void
t_case_end(void)
{
	if (!t_case_open)
		return;
	t_ncases++;
	printf("%sok %d - %s\n", t_case_failed ? "not " : "", t_ncases, t_name);
	fflush(stdout);
	t_case_open = 0;
}

/* Opens a case called by the printf-style name. */
static __attribute__((unused, format(printf, 1, 2))) void
t_case(const char *fmt, ...)
{
	va_list ap;

	t_case_end();
	va_start(ap, fmt);
	vsnprintf(t_name, sizeof t_name, fmt, ap);
	va_end(ap);
	t_case_open = 1;
	t_case_failed = 0;
}

/* Records one check; checks outside any case go to a case of their own. */
static void
t_check(int ok, const char *file, int line, const char *what)
{
	if (!t_case_open)
		t_case("checks outside a named case");
	t_checks++;
	if (ok)
		return;
	t_failed++;
	t_case_failed = 1;
	printf("# %s:%d: check failed: %s\n", file, line, what);
	fflush(stdout);
}

#define CHECK(cond) t_check((cond) != 0, __FILE__, __LINE__, #cond)

#define CHECK_STR(got, want) do {					\
	const char *g_ = (got), *w_ = (want);				\
	int ok_ = g_ != NULL && strcmp(g_, w_) == 0;			\
	t_check(ok_, __FILE__, __LINE__, "strings differ");		\
	if (!ok_)							\
		printf("#   got  \"%s\"\n#   want \"%s\"\n",		\
		    g_ ? g_ : "(null)", w_);				\
} while (0)

/* Ends the program's cases: prints the plan and a summary diagnostic.
 * Returns the exit status. */
static int
t_done(const char *name)
{
	t_case_end();
	printf("1..%d\n# %s: %d checks in %d cases, %d checks failed\n",
	    t_ncases, name, t_checks, t_ncases, t_failed);
	return t_failed ? 1 : 0;
}

#endif
