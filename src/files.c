/* files.c: safe input and output files (see files.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "files.h"
#include "util.h"

int
rp_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int
rp_open_input(const char *path, size_t *size, char **cause)
{
	struct stat st;
	int fd, fl;

	/* Non-blocking, so that a FIFO without a writer cannot block the
	 * open; it is refused below. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		*cause = rp_oneline(rp_xasprintf("cannot open '%s': %s", path,
		    strerror(errno)));
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		*cause = rp_oneline(rp_xasprintf("cannot read '%s': %s", path,
		    strerror(errno)));
		close(fd);
		return -1;
	}
	if (S_ISDIR(st.st_mode) || !S_ISREG(st.st_mode)) {
		*cause = rp_oneline(rp_xasprintf("cannot read '%s': %s", path,
		    S_ISDIR(st.st_mode) ? strerror(EISDIR) :
		    "not a regular file"));
		close(fd);
		return -1;
	}
	if ((unsigned long long)st.st_size > RP_INPUT_MAX) {
		*cause = rp_oneline(rp_xasprintf("%s: file is too large (over 2 "
		    "GiB)", path));
		close(fd);
		return -1;
	}
	if ((fl = fcntl(fd, F_GETFL)) >= 0)
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	*size = (size_t)st.st_size;
	return fd;
}

int
rp_read_input(const char *path, char **bufp, size_t *lenp, char **cause)
{
	size_t size, len = 0, cap;
	char *buf;
	int fd = rp_open_input(path, &size, cause);

	if (fd < 0)
		return -1;
	/* The size said, one byte to see the end of the file in, and the
	 * NUL; more if the file grows meanwhile, to the limit. */
	cap = size + 2;
	buf = rp_xmalloc(cap);
	for (;;) {
		ssize_t k;
		if (len + 1 == cap) {
			if (len >= RP_INPUT_MAX) {
				free(buf);
				close(fd);
				*cause = rp_oneline(rp_xasprintf("%s: file is too "
				    "large (over 2 GiB)", path));
				return -1;
			}
			cap = cap < RP_INPUT_MAX / 2 ? cap * 2 : RP_INPUT_MAX + 2;
			buf = rp_xreallocarray(buf, cap, 1);
		}
		k = read(fd, buf + len, cap - len - 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			int e = errno;
			free(buf);
			close(fd);
			*cause = rp_oneline(rp_xasprintf("cannot read '%s': %s",
			    path, strerror(e)));
			return -1;
		}
		if (k == 0)
			break;
		len += (size_t)k;
	}
	close(fd);
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
}

/* The temporary file being written, removed by the signal handler; set
 * and cleared with the signals blocked. */
static char pending[PATH_MAX + 32];
static volatile sig_atomic_t have_pending;
/* A directory this run made (a sweep's plan directory), removed at the
 * end where nothing was written into it (rmdir leaves one that is not
 * empty). */
static char made_dir[PATH_MAX];
static volatile sig_atomic_t have_made_dir;
static pid_t owner;

static const int term_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define NTERM (sizeof term_signals / sizeof term_signals[0])

/* Removes what this run leaves unfinished: the temporary file being
 * written, then the directory it made, if empty. Async-signal-safe. */
static void
clean_up(void)
{
	if (getpid() != owner)
		return;
	if (have_pending)
		(void)unlink(pending);
	if (have_made_dir)
		(void)rmdir(made_dir);
}

static void
on_signal(int sig)
{
	clean_up();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Every exit: a return from main, an exit while a file is written (out
 * of memory). */
static void
at_exit(void)
{
	clean_up();
}

void
rp_files_init(void)
{
	size_t i;

	owner = getpid();
	atexit(at_exit);
	for (i = 0; i < NTERM; i++) {
		struct sigaction sa, old;
		/* A signal ignored by whoever started us stays ignored. */
		if (sigaction(term_signals[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(term_signals[i], &sa, NULL);
	}
	signal(SIGXFSZ, SIG_IGN);
}

static void
block_signals(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < NTERM; i++)
		sigaddset(&set, term_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/* Creates the temporary file for path and registers it. Returns its name
 * (the caller frees it), or NULL with errno set. */
static char *
make_temp(const char *path)
{
	sigset_t old;
	char *tmp = rp_xasprintf("%s.tmpXXXXXX", path);
	int fd, e;

	if (strlen(tmp) >= sizeof pending) {
		free(tmp);
		errno = ENAMETOOLONG;
		return NULL;
	}
	block_signals(&old);
	fd = mkstemp(tmp);
	e = errno;
	if (fd >= 0) {
		strcpy(pending, tmp);
		have_pending = 1;
		close(fd);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		free(tmp);
		errno = e;
		return NULL;
	}
	return tmp;
}

void
rp_files_made_dir(const char *path)
{
	sigset_t old;

	if (strlen(path) >= sizeof made_dir)
		return;
	block_signals(&old);
	strcpy(made_dir, path);
	have_made_dir = 1;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* Removes the registered temporary file, or forgets it once renamed. */
static void
drop_temp(const char *tmp, int remove)
{
	sigset_t old;

	block_signals(&old);
	if (remove)
		(void)unlink(tmp);
	have_pending = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* The file a symbolic link at path leads to, following chains; NULL when
 * it cannot be resolved. A dangling link gives its target. */
static char *
resolve(const char *path)
{
	char *real = realpath(path, NULL);
	char buf[PATH_MAX];
	ssize_t k;

	if (real != NULL)
		return real;
	k = readlink(path, buf, sizeof buf - 1);
	if (k <= 0)
		return NULL;
	buf[k] = '\0';
	if (buf[0] == '/' || strchr(path, '/') == NULL)
		return rp_xstrdup(buf);
	/* relative to the link's directory */
	{
		const char *slash = strrchr(path, '/');
		return rp_xasprintf("%.*s/%s", (int)(slash - path), path, buf);
	}
}

static int
fail(char **cause, const char *path, const char *why)
{
	*cause = rp_oneline(rp_xasprintf("cannot write '%s': %s", path, why));
	return -1;
}

int
rp_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	    sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Whether the temporary file that rp_write_output renames over path can
 * be made (a directory that access() calls writable may refuse it: /proc,
 * a read-only mount, an immutable directory): made and removed again. */
static int
try_temp(const char *path, char **cause)
{
	char *tmp = make_temp(path);

	if (tmp == NULL)
		return fail(cause, path, strerror(errno));
	drop_temp(tmp, 1);
	free(tmp);
	return 0;
}

/* Whether descriptor fd is open on the file of st. */
static int
same_as_fd(const struct stat *st, int fd)
{
	struct stat f;

	return fstat(fd, &f) == 0 && f.st_dev == st->st_dev &&
	    f.st_ino == st->st_ino;
}

/* rp_output_check; the temporary file is tried only where probe is set
 * (rp_write_output makes the real one next). */
static int
output_check(const char *path, const char *refuse, int probe, char **cause)
{
	struct stat st, in;

	if (stat(path, &st) != 0) {
		/* a new file: its directory must be there and writable (a
		 * dangling link is left to rp_write_output, which follows it) */
		char *dir;
		int e = 0;
		if (lstat(path, &st) == 0)
			return 0;
		dir = rp_dir_of(path);
		if (stat(dir, &in) != 0)
			e = errno;
		else if (!S_ISDIR(in.st_mode))
			e = ENOTDIR;
		else if (access(dir, W_OK | X_OK) != 0)
			e = errno;
		free(dir);
		return e != 0 ? fail(cause, path, strerror(e)) :
		    probe ? try_temp(path, cause) : 0;
	}
	if (refuse != NULL && rp_same_file(refuse, path)) {
		fail(cause, path, "it is the input graph");
		return 2;
	}
	if (!S_ISCHR(st.st_mode) && (same_as_fd(&st, 1) ||
	    same_as_fd(&st, 2))) {
		/* renamed over, the file would lose the report written to
		 * the descriptor, and a file appended to what it held; a pipe
		 * would carry the plan and the report mixed (a terminal or
		 * /dev/null takes both as they come) */
		fail(cause, path, "it is the file of the standard output or "
		    "error, where the report goes (-o - writes the plan to "
		    "standard output)");
		return 2;
	}
	if (S_ISDIR(st.st_mode))
		return fail(cause, path, strerror(EISDIR));
	if (S_ISREG(st.st_mode) &&
	    (st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0)
		return fail(cause, path, "the file is read-only");
	return probe && S_ISREG(st.st_mode) ? try_temp(path, cause) : 0;
}

int
rp_output_check(const char *path, const char *refuse, char **cause)
{
	return output_check(path, refuse, 1, cause);
}

/* A device or a pipe, written as it is: renaming over it would replace
 * it. It is opened once, by write: a FIFO opened and closed before would
 * give its reader the end of the file. */
static int
write_direct(const char *path, int (*write)(const char *tmp, void *ctx),
    void *ctx, char **cause)
{
	int rc = write(path, ctx);

	return rc != 0 ? fail(cause, path, strerror(rc)) : 0;
}

int
rp_write_output(const char *path, const char *refuse,
    int (*write)(const char *tmp, void *ctx), void *ctx, char **cause)
{
	struct stat st;
	char *tmp;
	int exists, fd, rc;
	mode_t mode;

	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		char *real;
		/* A link to a pipe or a device (/dev/stdout, /proc/self/fd/N,
		 * bash's >(...)) has no name to resolve to: written through
		 * the link. */
		if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) &&
		    !S_ISDIR(st.st_mode))
			return write_direct(path, write, ctx, cause);
		real = resolve(path);
		if (real == NULL || (lstat(real, &st) == 0 &&
		    S_ISLNK(st.st_mode))) {
			free(real);
			return fail(cause, path, "cannot resolve the symbolic "
			    "link");
		}
		rc = rp_write_output(real, refuse, write, ctx, cause);
		free(real);
		return rc;
	}
	if ((rc = output_check(path, refuse, 0, cause)) != 0)
		return -1;
	exists = stat(path, &st) == 0;
	if (exists && !S_ISREG(st.st_mode))
		return write_direct(path, write, ctx, cause);
	if ((tmp = make_temp(path)) == NULL)
		return fail(cause, path, strerror(errno));
	/* For tests/signals.sh: a pause with the temporary file in place,
	 * for a signal to arrive in. */
	if (getenv("REMAT_PLAN_TEST_WRITE_PAUSE") != NULL)
		sleep((unsigned)atoi(getenv("REMAT_PLAN_TEST_WRITE_PAUSE")));
	if ((rc = write(tmp, ctx)) != 0) {
		drop_temp(tmp, 1);
		free(tmp);
		return fail(cause, path, strerror(rc));
	}
	/* A replaced file keeps its mode; a new one is an ordinary file
	 * (mkstemp creates 0600). */
	if (exists)
		mode = st.st_mode & 07777;
	else {
		mode_t um = umask(0);
		umask(um);
		mode = 0666 & ~um;
	}
	fd = open(tmp, O_WRONLY | O_CLOEXEC);
	rc = fd < 0 || fchmod(fd, mode) != 0 || fsync(fd) != 0 ? -1 : 0;
	if (fd >= 0 && close(fd) != 0)
		rc = -1;
	if (rc != 0 || rename(tmp, path) != 0) {
		int e = errno;
		drop_temp(tmp, 1);
		free(tmp);
		return fail(cause, path, strerror(e));
	}
	drop_temp(tmp, 0);
	free(tmp);
	return 0;
}

/* Writes the buffer of a rp_write_buffer call into the file named tmp. */
struct buffer {
	const void *data;
	size_t len;
};

static int
write_buffer(const char *tmp, void *ctx)
{
	const struct buffer *b = ctx;
	int fd = open(tmp, O_WRONLY | O_TRUNC | O_NOCTTY | O_CLOEXEC), e;

	if (fd < 0 || rp_write_all(fd, b->data, b->len) != 0) {
		e = errno;
		if (fd >= 0)
			close(fd);
		return e;
	}
	return close(fd) != 0 ? errno : 0;
}

int
rp_write_buffer(const char *path, const char *refuse, const void *data,
    size_t len, char **cause)
{
	struct buffer b;

	b.data = data;
	b.len = len;
	return rp_write_output(path, refuse, write_buffer, &b, cause);
}
