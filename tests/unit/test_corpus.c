/* test_corpus.c: replays the fuzzing corpora and the bad-input files
 * through the fuzz targets' own entry points (tests/fuzz/fuzz_*.c), in this
 * one process: every graph either loads, and then checkpoint-all, Chen and
 * DTR plan it validly, or is refused in one line naming the file; every
 * plan and solution file is read and replayed or refused so. A target that
 * finds a fault aborts; the handler below names the file first. In a
 * sanitized build this is where the corpora meet AddressSanitizer: one
 * process instead of a thousand runs of remat-plan (tests/fuzz-corpus.sh
 * replays a sample of them through the command line there, all of them in
 * a plain build). */
#include "config.h"

#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files.h"
#include "t.h"

int rp_fuzz_graphml(const uint8_t *data, size_t size);
int rp_fuzz_plan(const uint8_t *data, size_t size);
int rp_fuzz_solution(const uint8_t *data, size_t size);

/* The file being replayed, for the abort handler, which ends the open
 * case as failed, naming it (the driver then sees no plan: an error). */
static char current[4096 + 256 + 2];

static void
on_abort(int sig)
{
	static const char head[] = " - the fuzz target failed on ";
	char num[32];
	int k = (int)sizeof num, n = t_ncases + 1;
	ssize_t w;

	(void)sig;
	do
		num[--k] = (char)('0' + n % 10);
	while ((n /= 10) > 0);
	w = write(STDOUT_FILENO, "not ok ", 7);
	w = write(STDOUT_FILENO, num + k, sizeof num - (size_t)k);
	w = write(STDOUT_FILENO, head, sizeof head - 1);
	w = write(STDOUT_FILENO, current, strlen(current));
	w = write(STDOUT_FILENO, "\n", 1);
	(void)w;
	_exit(1);
}

static int
only_files(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* Replays every file of SRC/DIR, in name order, through ENTRY; returns
 * how many it replayed, -1 where DIR cannot be read. */
static int
replay_dir(const char *src, const char *dir,
    int (*entry)(const uint8_t *, size_t))
{
	struct dirent **names;
	char path[4096];
	int n, i, done = 0;

	snprintf(path, sizeof path, "%s/%s", src, dir);
	n = scandir(path, &names, only_files, alphasort);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		char *data, *cause = NULL;
		size_t len;

		snprintf(current, sizeof current, "%s/%s", path,
		    names[i]->d_name);
		if (rp_read_input(current, &data, &len, &cause) == 0) {
			entry((const uint8_t *)data, len);
			free(data);
			done++;
		} else {
			printf("# %s\n", cause);
			CHECK(cause == NULL);	/* every file can be read */
			free(cause);
		}
		free(names[i]);
	}
	free(names);
	return done;
}

/* Replays the files of DIRS (NULL-terminated, under SRC) through ENTRY,
 * as one case named WHAT. */
static void
replay(const char *src, const char *what, const char *const *dirs,
    int (*entry)(const uint8_t *, size_t))
{
	int total = 0, k;

	t_case("%s", what);
	for (k = 0; dirs[k] != NULL; k++) {
		int done = replay_dir(src, dirs[k], entry);
		CHECK(done > 0);	/* each directory is there and not empty */
		if (done > 0)
			total += done;
	}
	printf("# %s: %d files\n", what, total);
}

int
main(void)
{
	static const char *const graphs[] = { "tests/fuzz/corpus",
	    "tests/data/bad", "tests/data/good", NULL };
	static const char *const plans[] = { "tests/fuzz/corpus-plan",
	    "tests/data/plans", NULL };
	static const char *const solutions[] = { "tests/fuzz/corpus-solution",
	    "tests/data/solutions", NULL };
	const char *src = getenv("top_srcdir");

	if (src == NULL || *src == '\0')
		src = ".";
	signal(SIGABRT, on_abort);
	replay(src, "graph files through the GraphML loader's fuzz target",
	    graphs, rp_fuzz_graphml);
	replay(src, "plan files through the plan reader's fuzz target", plans,
	    rp_fuzz_plan);
	replay(src, "solution files through the solution reader's fuzz target",
	    solutions, rp_fuzz_solution);
	return t_done("test_corpus");
}
