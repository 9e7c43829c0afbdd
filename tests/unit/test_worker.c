/* test_worker.c: the forked solver worker: reports arrive, large payloads
 * survive the pipe, a child past its deadline is killed, a child that
 * dies is noticed. */
#include "config.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "t.h"
#include "../../src/util.h"
#include "../../src/worker.h"

struct job {
	int mode, n;
};

static void
child(struct rp_worker *w, void *arg)
{
	struct job *j = arg;
	int *v = malloc(sizeof *v * (size_t)j->n), i;

	for (i = 0; i < j->n; i++)
		v[i] = i * 7;
	rp_worker_bound(w, 3.0);
	rp_worker_bound(w, 2.0);	/* not better: ignored */
	rp_worker_incumbent(w, 9.0, v, j->n > 3 ? 3 : j->n);
	rp_worker_incumbent(w, 8.0, v, j->n);
	rp_worker_bound(w, 5.0);
	{
		double d[3] = { 0.5, -1, 2.25 };
		rp_worker_values(w, d, 3);
	}
	free(v);
	switch (j->mode) {
	case 1:	/* stuck in one long solver step */
		for (;;)
			pause();
	case 2:	/* the solver dies (GLPK aborts on internal errors) */
		_exit(3);
	default:
		rp_worker_end(w, 42, 7);
	}
}

/* A child that says its pid on a pipe, then is stuck in one long step,
 * sending nothing (where a dead parent is never noticed through the
 * report pipe). */
static void
silent_child(struct rp_worker *w, void *arg)
{
	int fd = *(int *)arg;
	pid_t me = getpid();

	(void)w;
	if (write(fd, &me, sizeof me) != sizeof me)
		_exit(1);
	for (;;)
		pause();
}

/* Whether process pid has ended (a zombie, waiting to be reaped by
 * whoever inherited it, has), within about seconds. */
static int
ends_within(pid_t pid, double seconds)
{
	double t0 = rp_now();
	char path[64], buf[256], *p;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	for (;;) {
		f = fopen(path, "r");
		if (f == NULL)
			return 1;
		p = fgets(buf, sizeof buf, f);
		fclose(f);
		if (p == NULL)
			return 1;
		p = strrchr(buf, ')');
		if (p != NULL && (p[2] == 'Z' || p[2] == 'X'))
			return 1;
		if (rp_now() - t0 > seconds)
			return 0;
		usleep(20000);
	}
}

static void
check_reports(const struct rp_worker_out *o, int n)
{
	int i, ok = 1;

	CHECK(o->bound == 5.0);
	CHECK(o->has_sol && o->obj == 8.0);
	CHECK(o->nsol == n);
	for (i = 0; i < o->nsol && i < n; i++)
		ok &= o->sol[i] == i * 7;
	CHECK(ok);
	CHECK(o->first_s >= 0);
	CHECK(o->nvals == 3 && o->vals[0] == 0.5 && o->vals[1] == -1 &&
	    o->vals[2] == 2.25);
}

int
main(void)
{
	struct rp_worker_out o;
	struct job j;

	t_case("a child that ends by itself, with a payload larger than the pipe");
	/* A child that ends by itself, with a payload much larger than the
	 * pipe buffer. */
	j = (struct job){ 0, 1 << 20 };
	rp_worker_run(child, &j, 0, &o);
	CHECK(o.finished && o.ended && !o.inproc);
	CHECK(o.status == 42 && o.aux == 7);
	check_reports(&o, j.n);
	free(o.sol);
	free(o.vals);

	t_case("a child stuck past its deadline is killed, its reports kept");
	/* A child stuck past its deadline is killed; what it sent is kept.
	 * The limit is only to notice a kill that never happens. */
	j = (struct job){ 1, 10 };
	rp_worker_run(child, &j, rp_now() + 0.2, &o);
	CHECK(!o.finished && !o.ended);
	CHECK(o.run_s < 60);
	check_reports(&o, j.n);
	free(o.sol);
	free(o.vals);

	t_case("a child that dies without saying how it ended");
	/* A child that dies without saying how it ended. */
	j = (struct job){ 2, 10 };
	rp_worker_run(child, &j, 0, &o);
	CHECK(o.finished && !o.ended);
	check_reports(&o, j.n);
	free(o.sol);
	free(o.vals);

	t_case("a child silent in a long step dies within 1 s of its killed parent");
	{
		int fds[2], st;
		pid_t parent, kid = -1;
		CHECK(pipe(fds) == 0);
		parent = fork();
		if (parent == 0) {
			struct rp_worker_out po;
			close(fds[0]);
			rp_worker_run(silent_child, &fds[1], 0, &po);
			_exit(0);
		}
		close(fds[1]);
		CHECK(parent > 0 && read(fds[0], &kid, sizeof kid) ==
		    sizeof kid && kid > 0);
		close(fds[0]);
		if (parent > 0) {
			kill(parent, SIGKILL);
			waitpid(parent, &st, 0);
		}
		if (kid > 0) {
			int gone = ends_within(kid, 1.0);
			CHECK(gone);
			if (!gone)
				kill(kid, SIGKILL);
		}
	}
	return t_done("test_worker");
}
