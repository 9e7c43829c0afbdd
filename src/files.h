/* files.h: reading inputs and writing outputs safely.
 *
 * Inputs are regular files of bounded size: a device (/dev/zero), a FIFO or
 * a directory is refused before anything is read, so no input is read
 * without end and none blocks. Outputs that are regular files are written
 * to a temporary file next to them and renamed into place; the temporary
 * file is removed on every error and when a terminating signal arrives
 * (rp_files_init), so an interrupted run leaves no partial file behind. */
#ifndef RP_FILES_H
#define RP_FILES_H

#include <stddef.h>

/* The largest input read: graphs, plans and solution files. */
#define RP_INPUT_MAX ((size_t)0x7fffffff)

/* Opens path for reading. Returns a descriptor, or -1 with *cause set
 * ("cannot open 'P': ...", "cannot read 'P': Is a directory", "... not a
 * regular file", "P: file is too large (over 2 GiB)"). *size is the
 * file's size. */
int rp_open_input(const char *path, size_t *size, char **cause);

/* Reads all of path (NUL-terminated after *lenp bytes). Returns 0, or -1
 * with *cause set. */
int rp_read_input(const char *path, char **bufp, size_t *lenp, char **cause);

/* Writes one output. write(tmp, ctx) writes the content to the file named
 * tmp (which exists, empty) and returns 0, or an errno value.
 * For a regular file (or one that does not exist yet), tmp is a new
 * temporary file in the same directory, renamed over path once written
 * and synced; a symbolic link is followed; other files (a device, a pipe)
 * are written directly. Refuses to replace refuse (the input, when not
 * NULL) or a file that is not writable. Returns 0, or -1 with *cause
 * set, leaving path as it was. */
int rp_write_output(const char *path, const char *refuse,
    int (*write)(const char *tmp, void *ctx), void *ctx, char **cause);

/* rp_write_output of the len bytes at data. */
int rp_write_buffer(const char *path, const char *refuse, const void *data,
    size_t len, char **cause);

/* 1 when paths a and b both name an existing file and it is the same
 * one (links followed), else 0. */
int rp_same_file(const char *a, const char *b);

/* What rp_write_output would refuse before writing, checked ahead: 2 when
 * path is the file refuse (the input) or that of standard output or
 * error, -1 when it is a directory, a read-only file or where no file can
 * be made (its temporary file is made and removed again), with *cause
 * set; 0 when it may be written. */
int rp_output_check(const char *path, const char *refuse, char **cause);

/* Writes all of buf to fd; returns 0, or -1 with errno set. */
int rp_write_all(int fd, const void *buf, size_t len);

/* Installs the handlers that remove a pending temporary file when SIGINT,
 * SIGTERM, SIGHUP or SIGQUIT ends the process, or exit() does (out of
 * memory), and ignores SIGXFSZ so that a file size limit is an ordinary
 * write error. */
void rp_files_init(void);

/* Registers path, a directory this run made, to be removed at exit and
 * when one of those signals ends the process, if nothing was written into
 * it by then (a directory that is not empty stays). A path of PATH_MAX
 * bytes or more is not registered. */
void rp_files_made_dir(const char *path);

#endif
