/* worker.c: a solver in a forked child, killed at the deadline (see
 * worker.h). Messages on the pipe are a type byte, a payload length and
 * the payload, in host byte order: both ends are this process image. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#ifdef HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#endif
#include <unistd.h>

#include "util.h"
#include "worker.h"

struct rp_worker {
	int fd;				/* write end; -1 in process */
	struct rp_worker_out *out;	/* in process: reports go here */
	double t0;
};

static int in_process;	/* rp_worker_in_process */

enum { MSG_BOUND = 'B', MSG_SOL = 'I', MSG_END = 'E', MSG_VALS = 'V' };

struct hdr {
	char type;
	uint32_t len;
};

/* Applies one message to out (both ends use this). */
static void
apply(struct rp_worker_out *out, double t0, int type, const char *p,
    uint32_t len)
{
	double d;
	int v[2];

	switch (type) {
	case MSG_BOUND:
		if (len != sizeof d)
			return;
		memcpy(&d, p, sizeof d);
		if (d > out->bound)
			out->bound = d;
		break;
	case MSG_SOL:
		if (len < sizeof d || (len - sizeof d) % sizeof(int) != 0)
			return;
		memcpy(&d, p, sizeof d);
		free(out->sol);
		out->nsol = (int)((len - sizeof d) / sizeof(int));
		out->sol = rp_xmalloc(sizeof(int) * (size_t)(out->nsol ? out->nsol : 1));
		memcpy(out->sol, p + sizeof d, sizeof(int) * (size_t)out->nsol);
		out->obj = d;
		if (!out->has_sol)
			out->first_s = rp_now() - t0;
		out->has_sol = 1;
		break;
	case MSG_VALS:
		if (len % sizeof d != 0)
			return;
		free(out->vals);
		out->nvals = (int)(len / sizeof d);
		out->vals = rp_xmalloc(sizeof d * (size_t)(out->nvals ? out->nvals : 1));
		memcpy(out->vals, p, len);
		break;
	case MSG_END:
		if (len != sizeof v)
			return;
		memcpy(v, p, sizeof v);
		out->status = v[0];
		out->aux = v[1];
		out->ended = 1;
		break;
	default:
		break;
	}
}

/* Child side: writes all of buf; a parent that has gone away ends the
 * child. */
static void
put(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len > 0) {
		ssize_t k = write(fd, p, len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			_exit(1);
		p += k;
		len -= (size_t)k;
	}
}

static void
send_msg(struct rp_worker *w, int type, const void *a, size_t alen,
    const void *b, size_t blen)
{
	struct hdr h;
	char *buf;

	if (w->fd < 0) {
		buf = rp_xmalloc(alen + blen + 1);
		memcpy(buf, a, alen);
		if (blen > 0)
			memcpy(buf + alen, b, blen);
		apply(w->out, w->t0, type, buf, (uint32_t)(alen + blen));
		free(buf);
		return;
	}
	memset(&h, 0, sizeof h);
	h.type = (char)type;
	h.len = (uint32_t)(alen + blen);
	/* One buffer, so that a message is cut only by the kill. */
	buf = rp_xmalloc(sizeof h + alen + blen);
	memcpy(buf, &h, sizeof h);
	memcpy(buf + sizeof h, a, alen);
	if (blen > 0)
		memcpy(buf + sizeof h + alen, b, blen);
	put(w->fd, buf, sizeof h + alen + blen);
	free(buf);
}

void
rp_worker_bound(struct rp_worker *w, double bound)
{
	send_msg(w, MSG_BOUND, &bound, sizeof bound, NULL, 0);
}

void
rp_worker_incumbent(struct rp_worker *w, double obj, const int *sol, int nsol)
{
	send_msg(w, MSG_SOL, &obj, sizeof obj, sol, sizeof(int) * (size_t)nsol);
}

void
rp_worker_values(struct rp_worker *w, const double *v, int n)
{
	send_msg(w, MSG_VALS, v, sizeof *v * (size_t)n, NULL, 0);
}

void
rp_worker_end(struct rp_worker *w, int status, int aux)
{
	int v[2] = { status, aux };
	send_msg(w, MSG_END, v, sizeof v, NULL, 0);
}

/* Parent side: takes the complete messages off the front of buf. */
static size_t
parse(struct rp_worker_out *out, double t0, char *buf, size_t len)
{
	size_t at = 0;
	struct hdr h;

	while (len - at >= sizeof h) {
		memcpy(&h, buf + at, sizeof h);
		if (len - at - sizeof h < h.len)
			break;
		apply(out, t0, h.type, buf + at + sizeof h, h.len);
		at += sizeof h + h.len;
	}
	memmove(buf, buf + at, len - at);
	return len - at;
}

void
rp_worker_in_process(int on)
{
	in_process = on;
}

void
rp_worker_run(rp_worker_fn *fn, void *arg, double deadline,
    struct rp_worker_out *out)
{
	struct rp_worker w;
	int fds[2], st;
	size_t len = 0, cap = 1 << 16;
	char *buf;
	pid_t pid, parent;

	memset(out, 0, sizeof *out);
	out->bound = -HUGE_VAL;
	out->first_s = -1;
	w.out = out;
	w.t0 = rp_now();
	fflush(NULL);	/* else the child may write our buffers out again */
	parent = getpid();
	pid = -1;
	if (!in_process && pipe(fds) == 0 && (pid = fork()) < 0) {
		close(fds[0]);
		close(fds[1]);
	}
	if (pid < 0) {
		w.fd = -1;
		out->inproc = 1;
		fn(&w, arg);
		out->finished = 1;
		out->run_s = rp_now() - w.t0;
		return;
	}
	if (pid == 0) {
		/* The child: no atexit handlers, no leak report (it ends
		 * with _exit); a dead parent ends it. */
		int null;
#if defined(HAVE_SYS_PRCTL_H) && defined(PR_SET_PDEATHSIG)
		/* Killed with the parent, whatever ends it (SIGKILL too);
		 * a parent already gone ends it here. */
		(void)prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
		if (getppid() != parent)
			_exit(1);
		null = open("/dev/null", O_WRONLY);
		signal(SIGPIPE, SIG_DFL);
		/* Solvers print to standard output, which may be the plan. */
		if (null >= 0) {
			dup2(null, STDOUT_FILENO);
			close(null);
		}
		close(fds[0]);
		w.fd = fds[1];
		fn(&w, arg);
		_exit(0);
	}
	close(fds[1]);
	buf = rp_xmalloc(cap);
	for (;;) {
		struct pollfd pfd = { fds[0], POLLIN, 0 };
		int ms = -1;
		ssize_t k;

		if (deadline > 0) {
			double left = deadline - rp_now();
			if (left <= 0)
				break;
			ms = left * 1000 < 1e9 ? (int)ceil(left * 1000) : 1000000000;
		}
		k = poll(&pfd, 1, ms);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			continue;	/* time is checked at the top */
		if (len == cap) {
			cap *= 2;
			buf = rp_xreallocarray(buf, cap, 1);
		}
		k = read(fds[0], buf + len, cap - len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			out->finished = 1;	/* end of file: the child is done */
			break;
		}
		len = parse(out, w.t0, buf, len + (size_t)k);
	}
	if (!out->finished)
		kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	close(fds[0]);
	free(buf);
	out->run_s = rp_now() - w.t0;
}
