/* worker.h: runs a solver in a forked child under a hard wall-clock
 * deadline.
 *
 * GLPK checks its time limit only between LP solves and CBC only between
 * its own steps; on models of a few hundred nodes one step takes minutes,
 * so a limit the user gave would be overrun several times over. A child
 * process can be stopped at any moment: it streams what it finds (proven
 * bounds, incumbent solutions) to the parent over a pipe as it goes, and
 * is killed at the deadline, so everything it found in time is kept. */
#ifndef RP_WORKER_H
#define RP_WORKER_H

struct rp_worker;

/* What the child reported. The caller frees sol and vals with free(). */
struct rp_worker_out {
	int finished;		/* the child ended by itself, not at the deadline */
	int ended;		/* it called rp_worker_end (else it died early) */
	int status, aux;	/* the values given to rp_worker_end */
	double bound;		/* greatest bound reported, -HUGE_VAL if none */
	int has_sol;		/* an incumbent was reported */
	double obj;		/* the last incumbent's objective */
	int *sol, nsol;		/* the last incumbent's payload */
	double *vals;		/* the last values reported, or NULL */
	int nvals;
	double first_s;		/* seconds to the first incumbent, -1: none */
	double run_s;		/* seconds the child ran */
	int inproc;		/* no child could be started: fn ran in this
				   process, with no hard deadline */
};

/* Runs fn(w, arg) in a child process and collects its reports until it
 * ends or the absolute deadline (rp_now() clock; <= 0: none) passes, when
 * it is killed. When no child can be started (fork fails), fn runs in this
 * process instead and out->inproc is set. fn must leave no state behind
 * that the parent relies on: in a child, its changes are lost. */
typedef void rp_worker_fn(struct rp_worker *w, void *arg);
void rp_worker_run(rp_worker_fn *fn, void *arg, double deadline,
    struct rp_worker_out *out);

/* With on != 0, rp_worker_run runs fn in this process from then on, as
 * where no child can be started (no hard deadline; leaks fn leaves are
 * this process's). For tests that solve thousands of small models, where
 * a fork and exit cost more than the solve (tens of milliseconds each in
 * a sanitized build), and for debuggers. */
void rp_worker_in_process(int on);

/* Child side: report a proven bound, an incumbent (objective and an int
 * payload such as the indices of the variables at 1) and the outcome. */
void rp_worker_bound(struct rp_worker *w, double bound);
void rp_worker_incumbent(struct rp_worker *w, double obj, const int *sol,
    int nsol);
void rp_worker_end(struct rp_worker *w, int status, int aux);
/* Reports a vector of values (such as an LP solution). */
void rp_worker_values(struct rp_worker *w, const double *v, int n);

#endif
