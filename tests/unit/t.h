/* t.h: a minimal test harness. Each test program exits non-zero when any
 * check fails and prints one line per failure. */
#ifndef T_H
#define T_H

#include <stdio.h>
#include <string.h>

static int t_failed, t_checks;

#define CHECK(cond) do {						\
	t_checks++;							\
	if (!(cond)) {							\
		t_failed++;						\
		fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__,	\
		    __LINE__, #cond);					\
	}								\
} while (0)

#define CHECK_STR(got, want) do {					\
	const char *g_ = (got), *w_ = (want);				\
	t_checks++;							\
	if (g_ == NULL || strcmp(g_, w_) != 0) {			\
		t_failed++;						\
		fprintf(stderr, "%s:%d: got \"%s\"\n%*swant \"%s\"\n",	\
		    __FILE__, __LINE__, g_ ? g_ : "(null)",		\
		    (int)strlen(__FILE__) + 6, "", w_);			\
	}								\
} while (0)

static int
t_done(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, t_checks - t_failed, t_failed);
	return t_failed ? 1 : 0;
}

#endif
