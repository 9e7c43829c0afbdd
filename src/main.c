/* main.c: the remat-plan command line. The only code that prints or exits. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "dtr.h"
#include "files.h"
#include "graphml.h"
#include "lpround.h"
#include "milp.h"
#include "sched.h"
#include "planxml.h"
#include "plot.h"
#include "report.h"
#include "sim.h"
#include "strategy.h"
#include "sweep.h"
#include "units.h"
#include "util.h"
#include "xmlutil.h"

/* Exit statuses, documented in remat-plan(1). */
enum {
	EXIT_OK = 0,
	EXIT_NOFIT = 1,		/* no plan fits the budget */
	EXIT_USAGE = 2,
	EXIT_BADINPUT = 3,	/* unreadable or invalid graph or plan file */
	EXIT_INTERNAL = 4	/* internal or solver failure, output not written */
};

static const char *progname = "remat-plan";

/* Budgets below this many times the smallest budget known that any plan
 * can need get a deeper search for the smallest one (prove_near_min), for
 * at most a quarter of the time limit and this many seconds: it ends by
 * its work within about a second where it proves most (the GPT at 50%),
 * and takes 7 s where it proves nothing (graphs/unet.xml at -t 30). */
#define PROOF_RANGE 1.1
#define PROOF_SECONDS 3

/* -vv: GLPK's own log, line by line, on standard error. */
static void
solver_log(void *ctx, const char *msg)
{
	(void)ctx;
	fputs(msg, stderr);
}

/* -v: the strategies' progress, a line at a time, on standard error. */
static void
progress_log(void *arg, const char *line)
{
	(void)arg;
	fprintf(stderr, "%s: %s\n", progname, line);
}

static void
usage(FILE *f)
{
	const struct rp_strategy *const *list;
	int n, i;

	fprintf(f,
"usage: remat-plan --graph FILE --budget BUDGET [options]\n"
"       remat-plan --graph FILE --check PLAN [--budget BUDGET]\n"
"       remat-plan --graph FILE --sweep LO:HI:STEP [--plot FILE.svg] [options]\n"
"       remat-plan --graph FILE --budget min [options]\n"
"       remat-plan --graph FILE --info\n"
"\n"
"Plans rematerialization (recomputation) for a training graph so that it\n"
"fits a memory budget, compares strategies and writes the chosen plan.\n"
"\n"
"  -g, --graph FILE       GraphML training graph (see remat-plan(5))\n"
"  -b, --budget BUDGET    memory budget: bytes with K/M/G/T (powers of 1024)\n"
"                         or KB/MB/GB/TB (powers of 1000), or N%% of the\n"
"                         checkpoint-all peak; 'min': the smallest budget\n"
"                         at which each strategy finds a plan (to 1%%)\n"
"      --sweep LO:HI:STEP plan at every budget from LO to HI (for example\n"
"                         30%%:100%%:5%% or 1G:4G:512M), at most 1000\n"
"      --budgets LIST     plan at each of a comma-separated list of budgets\n"
"      --plot FILE.svg    with --sweep or --budgets: draw overhead against\n"
"                         budget as an SVG picture\n"
"  -s, --strategy LIST    comma-separated strategies (default: all)\n"
"  -o, --output FILE      write the chosen plan to FILE ('-': standard\n"
"                         output; the report then goes to standard error);\n"
"                         with --sweep or --budgets, a directory that gets\n"
"                         the chosen plan of every budget\n"
"  -c, --check PLAN       validate a plan file against the graph\n"
"  -f, --format FMT       report format: table (default), csv or json\n"
"  -t, --time-limit SEC   time limit for each strategy, all its work\n"
"                         included (lp-round, ilp and reorder: 60 when\n"
"                         not given); the whole run stops within twice SEC\n"
"                         (120 s when not given; a sweep: per budget)\n"
"  -i, --info             print graph statistics and exit\n"
"      --dtr-heuristic H  DTR eviction heuristic: dtr (default), dtr-eqclass,\n"
"                         dtr-local, lru, largest, msps or random\n"
"      --dtr-banish       DTR banishes dead values instead of evicting them\n"
"      --dtr-eager        DTR evicts dead values eagerly (default: runs both\n"
"                         and keeps the cheaper plan)\n"
"      --dtr-thrash X     DTR gives up past X times the baseline cost\n"
"                         (default 3; 0: never)\n"
"      --seed N           seed for randomized choices (default 1)\n"
"      --mip-gap G        ilp stops at relative gap G (0.05 or 5%%)\n"
"      --solver S         MILP and LP engine of ilp and lp-round: glpk\n"
"                         (default) or cbc\n"
"      --threads N        threads for the cbc engine (default 1)\n"
"      --round-plain      LP rounding without its trim and fill passes\n"
"                         (Checkmate's two-phase rounding alone)\n"
"      --write-mps FILE   write the MILP at --budget in MPS format and exit\n"
"      --write-lp FILE    write the MILP at --budget in CPLEX LP format and exit\n"
"      --read-solution FILE  turn another solver's solution of that model\n"
"                         into a validated plan (report it, write it with -o)\n"
"  -v, --verbose          progress and timings on standard error; twice:\n"
"                         GLPK's log as well\n"
"  -h, --help             this help\n"
"  -V, --version          version\n"
"\n"
"strategies:\n");
	list = rp_strategy_list(&n);
	for (i = 0; i < n; i++)
		fprintf(f, "  %-16s %s\n", list[i]->name, list[i]->summary);
	fprintf(f,
"\n"
"exit status: 0 success, 1 no plan fits the budget, 2 usage error,\n"
"3 bad input file, 4 internal failure or output not written\n");
}

static int
usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", progname);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", progname);
	return EXIT_USAGE;
}

/* Splits LIST into strategies; returns the count or -1 (usage error). */
static int
parse_strategies(const char *list, const struct rp_strategy ***out)
{
	char *copy, *tok, *save = NULL;
	const struct rp_strategy **v = NULL;
	int n = 0, cap = 0, i;
	size_t len = strlen(list);

	/* an empty item is a slip (as --budgets says), not a strategy */
	if (len == 0 || list[0] == ',' || list[len - 1] == ',' ||
	    strstr(list, ",,") != NULL) {
		fprintf(stderr, "%s: --strategy '%s' has an empty item\n",
		    progname, list);
		return -1;
	}
	copy = rp_xstrdup(list);
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		const struct rp_strategy *s = rp_strategy_find(tok);
		if (s == NULL) {
			const struct rp_strategy *const *all;
			int na, k;
			fprintf(stderr, "%s: unknown strategy '%s' (available:",
			    progname, tok);
			all = rp_strategy_list(&na);
			for (k = 0; k < na; k++)
				fprintf(stderr, "%s %s", k ? "," : "", all[k]->name);
			fprintf(stderr, ")\n");
			free(copy);
			free(v);
			return -1;
		}
		for (i = 0; i < n; i++)
			if (v[i] == s)
				break;
		if (i < n)
			continue;
		rp_grow(&v, &cap, n + 1, sizeof *v);
		v[n++] = s;
	}
	free(copy);
	*out = v;
	return n;
}

/* Describes the minimum budget for messages, on one line (a node's id
 * may hold any character). */
static char *
min_budget_text(const struct rp_problem *pb)
{
	char b[32], *m;
	const char *w = rp_bytes_word(pb->min_budget);

	rp_format_bytes(pb->min_budget, b, sizeof b);
	if (pb->min_searched && pb->min_node >= 0)
		m = rp_xasprintf("%s (%lld %s: computing node '%s', whatever "
		    "is kept or recomputed for it, as a search over the order "
		    "of its ancestors proves)", b, (long long)pb->min_budget,
		    w, pb->g->id[pb->min_node]);
	else if (pb->min_searched)
		m = rp_xasprintf("%s (%lld %s: holding all outputs at the "
		    "end, whatever is kept or recomputed for them, as a search "
		    "over the order of their ancestors proves)", b,
		    (long long)pb->min_budget, w);
	else if (pb->min_node >= 0)
		m = rp_xasprintf("%s (%lld %s: node '%s' with its inputs, "
		    "output and workspace)", b, (long long)pb->min_budget, w,
		    pb->g->id[pb->min_node]);
	else
		m = rp_xasprintf("%s (%lld %s: fixed memory and all outputs "
		    "held at the end)", b, (long long)pb->min_budget, w);
	return rp_oneline(m);
}

/* --check: replay a plan file and report. */
static int
check_plan(const struct rp_problem *pb, const char *path, enum rp_format fmt)
{
	struct rp_plan p;
	struct rp_sim s;
	char *cause = NULL;
	int rc;

	rp_plan_init(&p);
	if (rp_planxml_read(path, pb->g, &p, &cause) != 0) {
		fprintf(stderr, "%s: %s\n", progname, cause);
		free(cause);
		return EXIT_BADINPUT;
	}
	if (rp_simulate(pb->g, &p, &s) != 0) {
		if (p.line != NULL && s.bad_stmt >= 0)
			fprintf(stderr, "%s: %s:%d: invalid plan: %s\n", progname,
			    path, p.line[s.bad_stmt], s.error);
		else
			fprintf(stderr, "%s: %s: invalid plan: %s\n", progname,
			    path, s.error);
		rp_sim_destroy(&s);
		rp_plan_destroy(&p);
		return EXIT_BADINPUT;
	}
	rc = pb->has_budget && !rp_fits(pb, s.peak) ? EXIT_NOFIT : EXIT_OK;
	rp_report_check(stdout, fmt, pb, path, &s);
	fflush(stdout);	/* before any message on stderr */
	rp_sim_destroy(&s);
	rp_plan_destroy(&p);
	return rc;
}

/* Writes plan p (replayed as sim) of pb's graph, made by strategy for
 * budget, to path, never over the input graph. Returns 0, or -1 with
 * *cause set. */
static int
write_plan(const char *path, const char *input, const struct rp_problem *pb,
    const char *strategy, int64_t budget, const struct rp_plan *p,
    const struct rp_sim *sim, char **cause)
{
	struct rp_plan_meta meta;

	meta.strategy = strategy;
	meta.budget = budget;
	meta.baseline = pb->baseline;
	meta.sim = sim;
	meta.input = input;
	return rp_planxml_write(path, pb->g, p, &meta, cause);
}

/* write_plan, reporting a failure: EXIT_INTERNAL, else EXIT_OK. */
static int
write_plan_or_say(const char *path, const char *input,
    const struct rp_problem *pb, const char *strategy, int64_t budget,
    const struct rp_plan *p, const struct rp_sim *sim)
{
	char *cause = NULL;

	if (write_plan(path, input, pb, strategy, budget, p, sim, &cause) == 0)
		return EXIT_OK;
	fprintf(stderr, "%s: %s\n", progname, cause);
	free(cause);
	return EXIT_INTERNAL;
}

/* --write-mps, --write-lp and --read-solution: the MILP as files. */
static int
milp_files(const struct rp_problem *pb, const char *graph, const char *mps,
    const char *lpf, const char *sol, const char *output, enum rp_format fmt)
{
	struct rp_milp *m;
	struct rp_milp_stats st;
	char *cause = NULL;
	int rc = EXIT_OK;

	/* sized first: a model past about 2 GiB is refused, not built */
	m = rp_milp_build_within(pb->g, pb->budget, RP_MILP_GLPK, 0, &cause);
	if (m == NULL) {
		fprintf(stderr, "%s: %s\n", progname, cause);
		free(cause);
		return EXIT_INTERNAL;
	}
	rp_milp_stats(m, &st);
	if ((mps != NULL && rp_milp_write(m, mps, 0, graph, &cause) != 0) ||
	    (lpf != NULL && rp_milp_write(m, lpf, 1, graph, &cause) != 0)) {
		fprintf(stderr, "%s: %s\n", progname, cause);
		free(cause);
		rp_milp_free(m);
		return EXIT_INTERNAL;
	}
	if (mps != NULL || lpf != NULL) {
		rp_report_milp(stdout, fmt, pb, &st, mps, lpf);
		if (pb->budget < pb->min_budget) {
			char b[32], *mt = min_budget_text(pb);
			rp_format_bytes(pb->budget, b, sizeof b);
			fprintf(stderr, "%s: note: budget %s (%lld %s) is below "
			    "the smallest budget any plan can need, %s: the model "
			    "has no solution\n", progname, b, (long long)pb->budget,
			    rp_bytes_word(pb->budget), mt);
			free(mt);
		}
	}
	if (sol != NULL) {
		struct rp_seq seq = { 0 };
		struct rp_plan p;
		struct rp_sim s;
		rp_plan_init(&p);
		if (rp_milp_read_solution(m, sol, &seq, &cause) != 0) {
			fprintf(stderr, "%s: %s\n", progname, cause);
			free(cause);
			rp_milp_free(m);
			rp_seq_destroy(&seq);
			return EXIT_BADINPUT;
		}
		rp_plan_from_seq(pb->g, seq.node, seq.len, &p);
		rp_seq_destroy(&seq);
		if (rp_simulate(pb->g, &p, &s) != 0) {
			fprintf(stderr, "%s: %s: the solution is not a valid plan: "
			    "%s\n", progname, sol, s.error);
			rc = EXIT_BADINPUT;
		} else {
			rp_report_check(output != NULL && strcmp(output, "-") == 0 ?
			    stderr : stdout, fmt, pb, sol, &s);
			fflush(stdout);
			rc = rp_fits(pb, s.peak) ? EXIT_OK : EXIT_NOFIT;
			if (rc == EXIT_OK && output != NULL)
				rc = write_plan_or_say(output, graph, pb,
				    "read-solution", pb->budget, &p, &s);
		}
		rp_sim_destroy(&s);
		rp_plan_destroy(&p);
	}
	rp_milp_free(m);
	return rc;
}

/* The most budgets a sweep plans at. */
#define MAX_POINTS 1000

/* The budgets of --sweep or --budgets, as specs; their texts are owned. */
struct budget_list {
	struct rp_budget_spec *v;
	char **text;
	int n;
};

static void
budget_list_add(struct budget_list *l, struct rp_budget_spec sp, char *text)
{
	l->v = rp_xreallocarray(l->v, (size_t)l->n + 1, sizeof *l->v);
	l->text = rp_xreallocarray(l->text, (size_t)l->n + 1, sizeof *l->text);
	l->text[l->n] = text;
	sp.text = text;
	l->v[l->n++] = sp;
}

static void
budget_list_free(struct budget_list *l)
{
	int i;

	for (i = 0; i < l->n; i++)
		free(l->text[i]);
	free(l->text);
	free(l->v);
	memset(l, 0, sizeof *l);
}

/* Parses --sweep LO:HI:STEP into its budgets. Returns 0, or -1 with
 * *cause set (a usage error). */
static int
parse_sweep(const char *arg, struct budget_list *out, char **cause)
{
	static const char *const what[3] = { "LO", "HI", "STEP" };
	struct rp_budget_spec sp[3];
	char *copy = rp_xstrdup(arg), *part[3], *p = copy, *e;
	double span, count;
	int i, k, n;

	/* exactly two colons */
	for (i = 0; i < 3; i++) {
		part[i] = p;
		p = strchr(p, ':');
		if ((p == NULL) != (i == 2)) {
			*cause = rp_xasprintf("--sweep '%s' is not LO:HI:STEP (for "
			    "example 30%%:100%%:5%%)", arg);
			goto bad;
		}
		if (p != NULL)
			*p++ = '\0';
	}
	for (i = 0; i < 3; i++) {
		char *why = NULL;
		if (*part[i] == '\0') {
			*cause = rp_xasprintf("--sweep '%s': %s is empty", arg,
			    what[i]);
			goto bad;
		}
		if (i == 2 && !rp_is_hex(part[i]) &&
		    strtod(part[i], &e) == 0 && e != part[i]) {
			*cause = rp_xasprintf("--sweep '%s': the step is 0", arg);
			goto bad;
		}
		if (rp_parse_budget(part[i], &sp[i], &why) != 0) {
			*cause = rp_xasprintf("--sweep '%s': %s", arg, why);
			free(why);
			goto bad;
		}
	}
	if (sp[0].is_percent != sp[1].is_percent ||
	    sp[0].is_percent != sp[2].is_percent) {
		*cause = rp_xasprintf("--sweep '%s': LO, HI and STEP must all be "
		    "percentages or all be bytes", arg);
		goto bad;
	}
	span = sp[0].is_percent ? sp[1].percent - sp[0].percent :
	    (double)sp[1].bytes - (double)sp[0].bytes;
	if (span < 0) {
		*cause = rp_xasprintf("--sweep '%s': the range is reversed (LO "
		    "is above HI)", arg);
		goto bad;
	}
	/* bytes exactly; percentages with room for rounding (10% steps
	 * from 40% reach 100%) */
	count = sp[0].is_percent ? floor(span / sp[2].percent + 1e-9) + 1 :
	    (double)((sp[1].bytes - sp[0].bytes) / sp[2].bytes + 1);
	if (count > MAX_POINTS) {
		*cause = rp_xasprintf("--sweep '%s' has %.0f budgets, more than "
		    "%d", arg, count, MAX_POINTS);
		goto bad;
	}
	n = (int)count;
	for (k = 0; k < n; k++) {
		if (sp[0].is_percent) {
			/* lo + k * step, not a running sum: 70% here is the
			 * 70% of a single run */
			double pc = sp[0].percent + k * sp[2].percent;
			pc = round(pc * 1e9) / 1e9;
			budget_list_add(out, rp_budget_percent(pc),
			    rp_xasprintf("%g%%", pc));
		} else {
			int64_t b = sp[0].bytes + (int64_t)k * sp[2].bytes;
			budget_list_add(out, rp_budget_bytes(b),
			    rp_xasprintf("%lld", (long long)b));
		}
	}
	free(copy);
	return 0;
bad:
	free(copy);
	return -1;
}

/* Parses --budgets LIST. Returns 0, or -1 with *cause set. */
static int
parse_budgets(const char *arg, struct budget_list *out, char **cause)
{
	char *copy = rp_xstrdup(arg), *tok, *save = NULL;

	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		struct rp_budget_spec sp;
		char *why = NULL;
		if (out->n == MAX_POINTS) {
			*cause = rp_xasprintf("--budgets names more than %d budgets",
			    MAX_POINTS);
			free(copy);
			return -1;
		}
		if (rp_parse_budget(tok, &sp, &why) != 0) {
			*cause = rp_xasprintf("--budgets: %s", why);
			free(why);
			free(copy);
			return -1;
		}
		budget_list_add(out, sp, rp_xstrdup(tok));
	}
	free(copy);
	if (out->n == 0) {
		*cause = rp_xasprintf("--budgets '%s' names no budget", arg);
		return -1;
	}
	if (arg[0] == ',' || arg[strlen(arg) - 1] == ',' ||
	    strstr(arg, ",,") != NULL) {
		*cause = rp_xasprintf("--budgets '%s' has an empty item", arg);
		return -1;
	}
	return 0;
}

/* The command line, parsed. */
struct cli {
	const char *graph, *budget, *strategies, *output, *check;
	const char *write_mps, *write_lp, *read_sol;
	const char *sweep, *plot;
	int info;
	int min;		/* --budget min */
	struct budget_list points;	/* --sweep or --budgets */
	enum rp_format fmt;
	struct rp_options opt;
	struct rp_budget_spec bspec;
	double started;		/* rp_now() once the graph was read */
};

/* The plan directory of a sweep: made when missing (and then removed at
 * exit, or when a signal ends the run, where no plan went into it:
 * rp_files_made_dir). Returns -1 when it may be written, else the exit
 * status after a message. */
static int
plan_dir_check(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			return usage_error("with --sweep or --budgets, --output "
			    "names a directory: '%s' is not one", dir);
	} else if (errno != ENOENT || mkdir(dir, 0777) != 0) {
		fprintf(stderr, "%s: cannot make directory '%s': %s\n", progname,
		    dir, strerror(errno));
		return EXIT_INTERNAL;
	} else
		rp_files_made_dir(dir);
	if (access(dir, W_OK | X_OK) != 0) {
		fprintf(stderr, "%s: cannot write into '%s': %s\n", progname, dir,
		    strerror(errno));
		return EXIT_INTERNAL;
	}
	return -1;
}

/* The file of a sweep's plan for budget b in directory dir. */
static char *
plan_file(const char *dir, int64_t b)
{
	size_t n = strlen(dir);

	return rp_xasprintf("%s%sbudget-%lld.xml", dir, n > 0 &&
	    dir[n - 1] == '/' ? "" : "/", (long long)b);
}

/* Whether the picture of a sweep would be written over the plan of one of
 * its budgets (budget-B.xml in the plan directory). */
static int
plot_is_a_plan(const struct cli *c, const int64_t *b, int nb)
{
	const char *slash = strrchr(c->plot, '/'), *base;
	char *dir, name[48];
	int i, same;

	if (c->output == NULL)
		return 0;
	base = slash != NULL ? slash + 1 : c->plot;
	dir = rp_dir_of(c->plot);
	same = rp_same_file(dir, c->output);
	free(dir);
	for (i = 0; same && i < nb; i++) {
		snprintf(name, sizeof name, "budget-%lld.xml", (long long)b[i]);
		if (strcmp(base, name) == 0)
			return 1;
	}
	return 0;
}

/* Whether paths a and b name the same file, there or still to be made:
 * the same file, or the same name in the same directory. */
static int
same_target(const char *a, const char *b)
{
	const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
	char *da, *db, *ra, *rb;
	int same;

	if (rp_same_file(a, b))
		return 1;
	if (strcmp(sa != NULL ? sa + 1 : a, sb != NULL ? sb + 1 : b) != 0)
		return 0;
	da = rp_dir_of(a);
	db = rp_dir_of(b);
	ra = realpath(da, NULL);
	rb = realpath(db, NULL);
	same = ra != NULL && rb != NULL ? strcmp(ra, rb) == 0 :
	    strcmp(da, db) == 0;
	free(da);
	free(db);
	free(ra);
	free(rb);
	return same;
}

/* Parses the options into c. Returns -1 when they are all right, else the
 * exit status (after the usage message, or --help or --version). */
static int
parse_args(int argc, char **argv, struct cli *c)
{
	static const struct option longopts[] = {
		{ "graph", required_argument, NULL, 'g' },
		{ "budget", required_argument, NULL, 'b' },
		{ "strategy", required_argument, NULL, 's' },
		{ "output", required_argument, NULL, 'o' },
		{ "check", required_argument, NULL, 'c' },
		{ "format", required_argument, NULL, 'f' },
		{ "time-limit", required_argument, NULL, 't' },
		{ "info", no_argument, NULL, 'i' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "dtr-heuristic", required_argument, NULL, 'H' },
		{ "dtr-banish", no_argument, NULL, 'B' },
		{ "dtr-eager", no_argument, NULL, 'E' },
		{ "dtr-thrash", required_argument, NULL, 'T' },
		{ "seed", required_argument, NULL, 'S' },
		{ "mip-gap", required_argument, NULL, 'G' },
		{ "solver", required_argument, NULL, 'X' },
		{ "threads", required_argument, NULL, 'j' },
		{ "round-plain", no_argument, NULL, 'P' },
		{ "write-mps", required_argument, NULL, 'M' },
		{ "write-lp", required_argument, NULL, 'L' },
		{ "read-solution", required_argument, NULL, 'R' },
		{ "sweep", required_argument, NULL, 'W' },
		{ "budgets", required_argument, NULL, 'U' },
		{ "plot", required_argument, NULL, 'Y' },
		{ NULL, 0, NULL, 0 }
	};
	struct rp_options *opt = &c->opt;
	char *cause = NULL, *end;
	int ch, rc;

	memset(c, 0, sizeof *c);
	c->fmt = RP_FMT_TABLE;
	rp_options_init(opt);
	opterr = 0;	/* our own messages, with our name, below */
	while ((ch = getopt_long(argc, argv, ":g:b:s:o:c:f:t:ivhV", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'g':
			c->graph = optarg;
			break;
		case 'b':
			c->budget = optarg;
			break;
		case 's':
			c->strategies = optarg;
			break;
		case 'o':
			c->output = optarg;
			break;
		case 'c':
			c->check = optarg;
			break;
		case 'f':
			if (strcmp(optarg, "table") == 0)
				c->fmt = RP_FMT_TABLE;
			else if (strcmp(optarg, "csv") == 0)
				c->fmt = RP_FMT_CSV;
			else if (strcmp(optarg, "json") == 0)
				c->fmt = RP_FMT_JSON;
			else
				return usage_error("unknown format '%s' (use table, "
				    "csv or json)", optarg);
			break;
		case 't':
			errno = 0;
			opt->time_limit = strtod(optarg, &end);
			if (end == optarg || rp_is_hex(optarg) ||
			    *end != '\0' || errno != 0 ||
			    !isfinite(opt->time_limit) || opt->time_limit <= 0)
				return usage_error("time limit '%s' is not a positive "
				    "number of seconds", optarg);
			break;
		case 'i':
			c->info = 1;
			break;
		case 'H':
			opt->dtr_heuristic = rp_dtr_heuristic_find(optarg);
			if (opt->dtr_heuristic < 0)
				return usage_error("unknown DTR heuristic '%s' (use dtr, "
				    "dtr-eqclass, dtr-local, lru, largest, msps or "
				    "random)", optarg);
			break;
		case 'B':
			opt->dtr_banish = 1;
			break;
		case 'E':
			opt->dtr_banish = 0;
			break;
		case 'P':
			opt->round_plain = 1;
			break;
		case 'T':
			errno = 0;
			opt->dtr_thrash = strtod(optarg, &end);
			if (end == optarg || rp_is_hex(optarg) ||
			    *end != '\0' || errno != 0 ||
			    !isfinite(opt->dtr_thrash) || opt->dtr_thrash < 0 ||
			    (opt->dtr_thrash > 0 && opt->dtr_thrash < 1))
				return usage_error("thrashing limit '%s' is not 0 or a "
				    "number of times the baseline cost of at least 1",
				    optarg);
			break;
		case 'G': {
			size_t len = strlen(optarg);
			errno = 0;
			opt->mip_gap = strtod(optarg, &end);
			if (len > 0 && optarg[len - 1] == '%' && end == optarg + len - 1) {
				opt->mip_gap /= 100;
				end++;
			}
			if (end == optarg || rp_is_hex(optarg) ||
			    *end != '\0' || errno != 0 ||
			    !(opt->mip_gap >= 0 && opt->mip_gap < 1))
				return usage_error("MIP gap '%s' is not a fraction in "
				    "[0, 1) or a percentage below 100%%", optarg);
			break;
		}
		case 'X':
			if (strcmp(optarg, "glpk") == 0)
				opt->solver = RP_MILP_GLPK;
			else if (strcmp(optarg, "cbc") == 0) {
				if (!rp_milp_have_cbc())
					return usage_error("solver '%s' is not built in "
					    "(configure found no COIN-OR CBC)", optarg);
				opt->solver = RP_MILP_CBC;
			} else
				return usage_error("unknown solver '%s' (glpk or cbc)",
				    optarg);
			break;
		case 'j': {
			long v;
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (end == optarg || *end != '\0' || errno != 0 || v < 1 ||
			    v > 256)
				return usage_error("thread count '%s' is not a number "
				    "from 1 to 256", optarg);
			opt->threads = (int)v;
			break;
		}
		case 'M':
			c->write_mps = optarg;
			break;
		case 'L':
			c->write_lp = optarg;
			break;
		case 'R':
			c->read_sol = optarg;
			break;
		case 'W':
		case 'U':
			if (c->sweep != NULL)
				return usage_error("%s", "give one --sweep or one "
				    "--budgets");
			c->sweep = optarg;
			if ((ch == 'W' ? parse_sweep(optarg, &c->points, &cause) :
			    parse_budgets(optarg, &c->points, &cause)) != 0) {
				rc = usage_error("%s", cause);
				free(cause);
				return rc;
			}
			break;
		case 'Y':
			c->plot = optarg;
			break;
		case 'S':
			errno = 0;
			opt->seed = strtoull(optarg, &end, 10);
			if (end == optarg || *end != '\0' || errno != 0 ||
			    optarg[0] == '-')
				return usage_error("seed '%s' is not a non-negative "
				    "integer", optarg);
			break;
		case 'v':
			opt->verbose++;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'V':
			printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
			return EXIT_OK;
		case ':':
			return usage_error("option '%s' needs an argument",
			    argv[optind - 1]);
		default: {
			const char *bad = argv[optind - 1];
			char opt_s[3] = { '-', (char)optopt, '\0' };
			if (strncmp(bad, "--", 2) == 0 && strchr(bad, '=') != NULL &&
			    optopt != 0) {
				/* --info=3: a known option that takes no value */
				fprintf(stderr, "%s: option '%.*s' takes no value\n"
				    "Try '%s --help' for more information.\n",
				    progname, (int)(strchr(bad, '=') - bad), bad,
				    progname);
				return EXIT_USAGE;
			}
			if (strncmp(bad, "--", 2) == 0 || optopt == 0)
				return usage_error("unknown option '%s'", bad);
			return usage_error("unknown option '%s'", opt_s);
		}
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	if (c->graph == NULL)
		return usage_error("%s", "--graph FILE is required");
	if (c->check != NULL && (c->output != NULL || c->strategies != NULL ||
	    c->info))
		return usage_error("%s", "--check cannot be combined with --output, "
		    "--strategy or --info");
	if (c->info && (c->output != NULL || c->strategies != NULL ||
	    c->budget != NULL))
		return usage_error("%s", "--info cannot be combined with --budget, "
		    "--output or --strategy");
	if ((c->write_mps != NULL || c->write_lp != NULL || c->read_sol != NULL) &&
	    (c->check != NULL || c->info || c->strategies != NULL))
		return usage_error("%s", "--write-mps, --write-lp and --read-solution "
		    "cannot be combined with --check, --info or --strategy");
	if (c->read_sol != NULL && (c->write_mps != NULL || c->write_lp != NULL))
		return usage_error("%s", "--read-solution cannot be combined with "
		    "--write-mps or --write-lp");
	if ((c->write_mps != NULL || c->write_lp != NULL) && c->output != NULL)
		return usage_error("%s", "--write-mps and --write-lp write the model, "
		    "not a plan: drop --output");
	{
		/* Files named: none empty, '-' for the plan alone (the
		 * others' summary or report is on standard output), and the
		 * model's two files apart. */
		const char *names[] = { "--output", "--write-mps",
		    "--write-lp", "--plot" };
		const char *files[4];
		int k;
		files[0] = c->output;
		files[1] = c->write_mps;
		files[2] = c->write_lp;
		files[3] = c->plot;
		for (k = 0; k < 4; k++) {
			if (files[k] != NULL && files[k][0] == '\0')
				return usage_error("%s needs a file name, not an "
				    "empty one", names[k]);
			if (k > 0 && files[k] != NULL &&
			    strcmp(files[k], "-") == 0)
				return usage_error("%s writes a file: '-' "
				    "(standard output) is for --output", names[k]);
		}
		if (c->write_mps != NULL && c->write_lp != NULL &&
		    same_target(c->write_mps, c->write_lp))
			return usage_error("cannot write '%s': --write-mps and "
			    "--write-lp name the same file", c->write_lp);
	}
	if (c->budget != NULL && strcmp(c->budget, "min") == 0) {
		c->min = 1;
		if (c->sweep != NULL)
			return usage_error("%s", "--budget min cannot be combined "
			    "with --sweep or --budgets");
		if (c->check != NULL || c->info || c->write_mps != NULL ||
		    c->write_lp != NULL || c->read_sol != NULL)
			return usage_error("%s", "--budget min cannot be combined "
			    "with --check, --info, --write-mps, --write-lp or "
			    "--read-solution");
	}
	if (c->sweep != NULL && (c->budget != NULL || c->check != NULL ||
	    c->info || c->write_mps != NULL || c->write_lp != NULL ||
	    c->read_sol != NULL))
		return usage_error("%s", "--sweep and --budgets cannot be combined "
		    "with --budget, --check, --info, --write-mps, --write-lp or "
		    "--read-solution");
	if (c->plot != NULL && c->sweep == NULL)
		return usage_error("%s", "--plot draws a sweep: give --sweep or "
		    "--budgets");
	if (c->sweep != NULL && c->output != NULL && strcmp(c->output, "-") == 0)
		return usage_error("%s", "with --sweep or --budgets, --output "
		    "names a directory for the plans, not '-'");
	if (c->check == NULL && !c->info && c->budget == NULL && c->sweep == NULL)
		return usage_error("%s", "--budget is required (for example "
		    "--budget 16G or --budget 60%)");
	if (c->budget != NULL && !c->min && rp_parse_budget(c->budget, &c->bspec,
	    &cause) != 0) {
		rc = usage_error("%s", cause);
		free(cause);
		return rc;
	}
	/* Outputs that would be refused are refused before any work: the
	 * input graph or solution file (usage errors), a directory or a
	 * read-only file. A sweep's plan directory is made first when
	 * missing (removed again at exit where nothing goes into it), so
	 * that the picture cannot be that directory. */
	{
		const char *outs[4];
		int k;
		if (c->sweep != NULL && c->output != NULL &&
		    (rc = plan_dir_check(c->output)) >= 0)
			return rc;
		outs[0] = c->output != NULL && strcmp(c->output, "-") != 0 &&
		    c->sweep == NULL ? c->output : NULL;
		outs[1] = c->write_mps;
		outs[2] = c->write_lp;
		outs[3] = c->plot;
		for (k = 0; k < 4; k++) {
			if (outs[k] == NULL || c->graph == NULL)
				continue;
			if (c->read_sol != NULL && rp_same_file(outs[k], c->read_sol))
				return usage_error("cannot write '%s': it is the "
				    "solution file read (--read-solution)",
				    outs[k]);
			rc = rp_output_check(outs[k], c->graph, &cause);
			if (rc == 2) {
				rc = usage_error("%s", cause);
				free(cause);
				return rc;
			}
			if (rc != 0) {
				fprintf(stderr, "%s: %s\n", progname, cause);
				free(cause);
				return EXIT_INTERNAL;
			}
		}
	}
	return -1;
}

/* The line on a terminal (without -v) that says what runs, overwritten
 * as the run goes and cleared at the end. */
static int tty_progress;

static void
tty_line(const char *fmt, ...)
{
	va_list ap;

	if (!tty_progress)
		return;
	fputs("\r", stderr);
	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("...\033[K", stderr);
	fflush(stderr);
}

static void
tty_clear(void)
{
	if (!tty_progress)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
}

/* The context every run starts from: options and the -v log. */
static void
base_ctx(const struct cli *c, struct rp_ctx *ctx)
{
	memset(ctx, 0, sizeof *ctx);
	ctx->opt = &c->opt;
	ctx->log = progress_log;
	tty_progress = !c->opt.verbose && isatty(STDERR_FILENO);
}

static void
plan_progress(void *arg, int i, int n)
{
	const struct rp_strategy **strats = arg;

	tty_line("running %s (%d of %d)", strats[i]->name, i + 1, n);
}

/* Whether a CSV or JSON report goes to standard error (-o -): the line
 * that says why no plan fits is then left out, so that what is there
 * parses (the report says it: every strategy's status, the bounds). */
static int
report_says_all(const struct cli *c)
{
	return c->fmt != RP_FMT_TABLE && c->output != NULL &&
	    strcmp(c->output, "-") == 0;
}

/* Plans pb with the strategies strats[0..n), reports and writes the
 * chosen plan. Returns the exit status. */
static int
plan(const struct cli *c, const struct rp_problem *pb,
    const struct rp_strategy **strats, int n)
{
	struct rp_result *res = rp_xcalloc((size_t)n, sizeof *res);
	struct rp_ctx ctx;
	int i, picked, rc = EXIT_OK, failed = 0;
	double tb;
	struct rp_bound lb;
	struct rp_stage_memo sm;
	FILE *rep;

	base_ctx(c, &ctx);
	/* The whole run within twice the limit from when the graph was
	 * read: the search for the smallest budget (work-bounded, so that
	 * its figure does not depend on the machine) leaves the strategies
	 * that much less, but never less than a tenth of the limit. */
	ctx.deadline = rp_run_deadline(&c->opt, c->started);
	rp_run_strategies(pb, strats, n, &ctx, NULL, &sm, plan_progress,
	    strats, res);
	tty_line("bounding the cost");
	tb = rp_now();
	rp_results_bound(pb, res, n, rp_bound_deadline(&c->opt, c->started,
	    n), &sm, &lb);
	rp_log(&ctx, 1, "lower bound %.10g in %.1f ms%s; for every plan "
	    "%.10g", lb.value, (rp_now() - tb) * 1e3, lb.lp == 2 ?
	    " (a stage's MILP)" : lb.lp ? " (a stage's LP)" : "", lb.any);
	tty_clear();
	for (i = 0; i < n; i++)
		failed |= res[i].status == RP_FAILED;
	picked = rp_pick(res, n);
	rep = c->output != NULL && strcmp(c->output, "-") == 0 ? stderr : stdout;
	rp_report(rep, c->fmt, pb, res, n, picked, &lb);
	fflush(rep);	/* the report before the messages after it */
	if (picked < 0 && report_says_all(c)) {
		rc = failed ? EXIT_INTERNAL : EXIT_NOFIT;
	} else if (picked < 0) {
		char *mt = min_budget_text(pb);
		if (failed)
			fprintf(stderr, "%s: no plan fits the budget, and a strategy "
			    "failed (see the table)\n", progname);
		else
			fprintf(stderr, "%s: no strategy fits the budget; the smallest "
			    "budget any plan could need is %s\n", progname, mt);
		free(mt);
		rc = failed ? EXIT_INTERNAL : EXIT_NOFIT;
	} else if (c->output != NULL)
		rc = write_plan_or_say(c->output, c->graph, pb,
		    res[picked].strategy->name, pb->budget, &res[picked].plan,
		    &res[picked].sim);
	for (i = 0; i < n; i++)
		rp_result_destroy(&res[i]);
	free(res);
	return rc;
}

/* A budget at most PROOF_RANGE times the smallest known that any plan can
 * need: search further for the smallest (rp_problem_prove), in at most a
 * quarter of the time limit and PROOF_SECONDS, which the strategies then
 * have less of. A figure above the budget proves that no plan fits it. */
static void
prove_near_min(const struct cli *c, struct rp_problem *pb, int64_t budget)
{
	double t0 = rp_now();
	int64_t was = pb->min_budget;
	int stopped;
	struct rp_ctx ctx;

	if (budget < pb->min_budget ||
	    (double)budget >= PROOF_RANGE * (double)pb->min_budget)
		return;
	base_ctx(c, &ctx);	/* the progress line on a terminal */
	tty_line("searching further for the smallest possible budget");
	stopped = rp_problem_prove(pb, c->started + fmin(rp_run_limit(&c->opt) /
	    4, PROOF_SECONDS));
	tty_clear();
	if (c->opt.verbose)
		fprintf(stderr, "%s: the budget is within %g times the smallest "
		    "possible one: searched further in %.1f ms%s: %lld bytes "
		    "(was %lld)\n", progname, PROOF_RANGE, (rp_now() - t0) * 1e3,
		    stopped ? ", stopped by the time limit" : "",
		    (long long)pb->min_budget, (long long)was);
}

/* A budget below the smallest any plan can need: said on standard error;
 * as CSV or JSON the report too, every strategy not run and no plan
 * fitting, so that a program reading it gets one. Returns the exit
 * status. */
static int
below_min(const struct cli *c, const struct rp_problem *pb,
    const struct rp_strategy **strats, int n)
{
	char b[32], *mt = min_budget_text(pb);
	struct rp_result *res;
	struct rp_bound lb;
	int i;

	rp_format_bytes(pb->budget, b, sizeof b);
	if (c->fmt != RP_FMT_TABLE) {
		res = rp_xcalloc((size_t)n, sizeof *res);
		for (i = 0; i < n; i++) {
			res[i].strategy = strats[i];
			res[i].status = RP_NO_PLAN;
			res[i].bound = NAN;
			res[i].note = rp_xasprintf("not run: the budget is below "
			    "the smallest budget any plan can need, %s", mt);
		}
		memset(&lb, 0, sizeof lb);
		lb.value = lb.any = INFINITY;
		lb.stage = lb.any_node = -1;
		rp_report(c->output != NULL && strcmp(c->output, "-") == 0 ?
		    stderr : stdout, c->fmt, pb, res, n, -1, &lb);
		fflush(stdout);
		for (i = 0; i < n; i++)
			rp_result_destroy(&res[i]);
		free(res);
	}
	if (!report_says_all(c))
		fprintf(stderr, "%s: budget %s (%lld %s) is below the "
		    "smallest budget any plan can need: %s\n", progname, b,
		    (long long)pb->budget, rp_bytes_word(pb->budget), mt);
	free(mt);
	return EXIT_NOFIT;
}

/* What a sweep's hooks need. */
struct sweep_state {
	const struct cli *c;
	const struct rp_strategy **strats;
	int row, nrows;
	int64_t budget;
};

static void
sweep_row_start(void *arg, const struct rp_sweep *sw, int row)
{
	struct sweep_state *st = arg;
	char b[32];

	st->row = row;
	st->budget = sw->rows[row].budget;
	rp_format_bytes(st->budget, b, sizeof b);
	if (st->c->opt.verbose)
		fprintf(stderr, "%s: budget %d of %d: %s (%lld %s)\n",
		    progname, row + 1, st->nrows, b, (long long)st->budget,
		    rp_bytes_word(st->budget));
}

static void
sweep_progress(void *arg, int i, int n)
{
	struct sweep_state *st = arg;
	char b[32];

	rp_format_bytes(st->budget, b, sizeof b);
	tty_line("budget %d of %d (%s): running %s (%d of %d)", st->row + 1,
	    st->nrows, b, st->strats[i]->name, i + 1, n);
}

/* Writes the plan picked at a budget into the plan directory. */
static int
sweep_row_done(void *arg, const struct rp_problem *pb, struct rp_sweep *sw,
    int row, const struct rp_plan *plan, const struct rp_sim *sim,
    const char *strategy, char **cause)
{
	struct sweep_state *st = arg;
	struct stat ls;
	char *path;

	if (st->c->output == NULL)
		return 0;
	path = plan_file(st->c->output, sw->rows[row].budget);
	if (plan == NULL) {
		/* a plan an earlier run left for this budget is not this
		 * report's: the directory holds the plans of this one */
		int rc = 0;
		if (lstat(path, &ls) == 0 && !S_ISDIR(ls.st_mode) &&
		    unlink(path) != 0) {
			*cause = rp_xasprintf("cannot remove '%s', a plan "
			    "of an earlier run for a budget with none now: %s",
			    path, strerror(errno));
			rc = -1;
		}
		free(path);
		return rc;
	}
	if (write_plan(path, st->c->graph, pb, strategy, sw->rows[row].budget,
	    plan, sim, cause) != 0) {
		free(path);
		return -1;
	}
	sw->rows[row].plan_file = path;
	return 0;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* --sweep and --budgets: every strategy at every budget, in increasing
 * order, reported (and drawn) together. Returns the exit status. */
static int
sweep(const struct cli *c, const struct rp_problem *pb,
    const struct rp_strategy **strats, int n)
{
	int64_t *b = rp_xcalloc((size_t)c->points.n, sizeof *b);
	struct rp_sweep_hooks hooks;
	struct sweep_state st;
	struct rp_sweep sw;
	struct rp_problem near;
	struct rp_ctx ctx;
	char *cause = NULL;
	int i, nb = 0, rc = EXIT_OK, any = 0, failed = 0;

	for (i = 0; i < c->points.n; i++)
		if (rp_budget_resolve(&c->points.v[i], pb->ckpt_all_peak, &b[i],
		    &cause) != 0) {
			fprintf(stderr, "%s: %s\n", progname, cause);
			free(cause);
			free(b);
			return EXIT_USAGE;
		}
	/* increasing, each budget once */
	qsort(b, (size_t)c->points.n, sizeof *b, cmp_i64);
	for (i = 0; i < c->points.n; i++)
		if (nb == 0 || b[i] != b[nb - 1])
			b[nb++] = b[i];
	if (c->plot != NULL && plot_is_a_plan(c, b, nb)) {
		char *m = rp_xasprintf("--plot '%s' is the file of a plan of "
		    "the sweep (plans are written as budget-BYTES.xml in '%s')",
		    c->plot, c->output);
		rc = usage_error("%s", m);
		free(m);
		free(b);
		return rc;
	}
	/* a budget's plan, or the removal of a stale one, must not reach
	 * the graph read (its name, or a link to it, in the directory) */
	for (i = 0; c->output != NULL && i < nb; i++) {
		char *path = plan_file(c->output, b[i]);
		if (rp_same_file(path, c->graph)) {
			char *m = rp_xasprintf("'%s', the file of the plan for "
			    "%lld %s (written where one fits, else removed), "
			    "is the input graph", path, (long long)b[i],
			    rp_bytes_word(b[i]));
			rc = usage_error("%s", m);
			free(m);
			free(path);
			free(b);
			return rc;
		}
		free(path);
	}
	/* as a single run at its tightest budget that any plan may fit */
	near = *pb;
	for (i = 0; i < nb && b[i] < near.min_budget; i++)
		;
	if (i < nb)
		prove_near_min(c, &near, b[i]);
	pb = &near;
	base_ctx(c, &ctx);
	memset(&st, 0, sizeof st);
	st.c = c;
	st.strats = strats;
	st.nrows = nb;
	hooks.arg = &st;
	hooks.row_start = sweep_row_start;
	hooks.progress = sweep_progress;
	hooks.row_done = sweep_row_done;
	/* from when the graph was read, as a single run counts */
	if (rp_sweep_run(pb, b, nb, strats, n, &ctx, c->started, &hooks, &sw,
	    &cause) != 0) {
		tty_clear();
		fprintf(stderr, "%s: %s\n", progname, cause);
		free(cause);
		rp_sweep_destroy(&sw);
		free(b);
		return EXIT_INTERNAL;
	}
	tty_clear();
	rp_report_sweep(stdout, c->fmt, pb, &sw);
	fflush(stdout);
	for (i = 0; i < sw.nrows; i++) {
		any |= sw.rows[i].picked >= 0;
		failed |= sw.rows[i].failed;
	}
	if (c->plot != NULL && rp_plot_svg(c->plot, c->graph, pb, &sw,
	    &cause) != 0) {
		fprintf(stderr, "%s: %s\n", progname, cause);
		free(cause);
		rc = EXIT_INTERNAL;
	} else if (!any) {
		char *mt = min_budget_text(pb);
		fprintf(stderr, "%s: no strategy fits any budget of the sweep%s; "
		    "the smallest budget any plan could need is %s\n", progname,
		    failed ? ", and a strategy failed" : "", mt);
		free(mt);
		rc = failed ? EXIT_INTERNAL : EXIT_NOFIT;
	}
	rp_sweep_destroy(&sw);
	free(b);
	return rc;
}

/* What --budget min's progress line needs. */
struct min_state {
	const struct rp_strategy *s;
	int i, n;
};

static void
min_progress(void *arg, int run, int n)
{
	struct min_state *st = arg;

	(void)n;
	tty_line("smallest budget for %s (%d of %d): run %d", st->s->name,
	    st->i + 1, st->n, run + 1);
}

/* --budget min: the smallest budget at which each strategy finds a plan.
 * Returns the exit status. */
static int
budget_min(const struct cli *c, const struct rp_problem *pb,
    const struct rp_strategy **strats, int n)
{
	struct rp_budget_min *m = rp_xcalloc((size_t)n, sizeof *m);
	struct rp_problem deep = *pb;
	struct min_state st;
	struct rp_ctx ctx;
	double end;
	int i, lowest = -1, rc = EXIT_OK, *busy;
	FILE *rep;

	if (pb->ckpt_all_peak < 1) {
		free(m);
		return usage_error("%s", "--budget min: the checkpoint-all peak "
		    "is 0 bytes, so there is no budget to search");
	}
	/* no strategy need be tried below what every plan needs */
	rp_problem_deepen(&deep);
	pb = &deep;
	base_ctx(c, &ctx);
	/* The whole search within twice the limit, as a plain run: each
	 * strategy that uses the time it is given (rp_strategy_busy) has an
	 * equal share of what is left when it starts with the others of
	 * its kind still to run; each of the rest, which mostly end in
	 * moments and leave their time to those after them, an equal share
	 * with all the strategies still to run. */
	end = rp_run_deadline(&c->opt, c->started);
	busy = rp_xcalloc((size_t)n, sizeof *busy);
	for (i = 0; i < n; i++)
		busy[i] = rp_strategy_busy(strats[i], pb, &c->opt);
	st.n = n;
	for (i = 0; i < n; i++) {
		double now = rp_now();
		int j, left = 0;

		for (j = i; j < n; j++)
			left += busy[j];
		ctx.deadline = now + fmax(0, end - now) / (busy[i] ? left :
		    n - i);
		st.s = strats[i];
		st.i = i;
		rp_budget_min_find(pb, strats[i], &ctx, min_progress, &st, &m[i]);
		if (c->opt.verbose) {
			char b[32];
			rp_format_bytes(m[i].budget, b, sizeof b);
			fprintf(stderr, "%s: %s: %s%s after %d runs\n", progname,
			    strats[i]->name, m[i].found ? "fits at " : "no plan up "
			    "to ", b, m[i].runs);
		}
		/* the lowest budget; at a tie, the cheaper plan */
		if (m[i].found && (lowest < 0 || m[i].budget < m[lowest].budget ||
		    (m[i].budget == m[lowest].budget &&
		    rp_cost_less(m[i].res.sim.cost, m[lowest].res.sim.cost))))
			lowest = i;
	}
	free(busy);
	tty_clear();
	rep = c->output != NULL && strcmp(c->output, "-") == 0 ? stderr : stdout;
	rp_report_min(rep, c->fmt, pb, strats, m, n, lowest);
	fflush(rep);
	if (lowest < 0) {
		fprintf(stderr, "%s: no strategy finds a plan, even at the "
		    "checkpoint-all peak\n", progname);
		rc = EXIT_NOFIT;
	} else if (c->output != NULL)
		rc = write_plan_or_say(c->output, c->graph, pb,
		    strats[lowest]->name, m[lowest].budget, &m[lowest].res.plan,
		    &m[lowest].res.sim);
	for (i = 0; i < n; i++)
		rp_result_destroy(&m[i].res);
	free(m);
	return rc;
}

/* The strategies --strategy names, or all of them. Returns their count, or
 * -1 after a usage message. */
static int
select_strategies(const char *arg, const struct rp_strategy ***out)
{
	const struct rp_strategy *const *all;
	int n, i;

	if (arg != NULL)
		return parse_strategies(arg, out);
	all = rp_strategy_list(&n);
	*out = rp_xmalloc(sizeof **out * (size_t)n);
	for (i = 0; i < n; i++)
		(*out)[i] = all[i];
	return n;
}

int
main(int argc, char **argv)
{
	struct cli c;
	const struct rp_strategy **strats = NULL;
	struct rp_graph *g = NULL;
	struct rp_problem pb;
	char *cause = NULL;
	int nstrat, rc;
	double t0;

	rp_malloc_tune();
	rp_files_init();
	rp_xml_setup();
	if ((rc = parse_args(argc, argv, &c)) >= 0) {
		budget_list_free(&c.points);
		/* --help and --version: their text must reach stdout too */
		if (rc == EXIT_OK && (fflush(stdout) != 0 || ferror(stdout))) {
			fprintf(stderr, "%s: cannot write to standard output: "
			    "%s\n", progname, strerror(errno));
			rc = EXIT_INTERNAL;
		}
		return rc;
	}
	if ((nstrat = select_strategies(c.strategies, &strats)) < 0) {
		budget_list_free(&c.points);
		return EXIT_USAGE;
	}
	if (c.opt.verbose >= 2)
		rp_milp_set_log(solver_log, NULL);
	t0 = rp_now();
	if (rp_graphml_read(c.graph, &g, &cause) != 0) {
		fprintf(stderr, "%s: %s\n", progname, cause);
		free(cause);
		free(strats);
		budget_list_free(&c.points);
		return EXIT_BADINPUT;
	}
	c.started = rp_now();
	if (c.opt.verbose)
		fprintf(stderr, "%s: loaded %s (%d nodes, %d edges) in %.1f ms\n",
		    progname, c.graph, g->n, g->m, (c.started - t0) * 1e3);
	rc = EXIT_OK;
	/* Replaying a plan and the MILP's files never show the smallest
	 * budget: its search is left out there. */
	if ((c.check != NULL || c.write_mps != NULL || c.write_lp != NULL ||
	    c.read_sol != NULL ? rp_problem_init_unsearched :
	    rp_problem_init)(&pb, g, c.budget != NULL && !c.min ? &c.bspec :
	    NULL, &cause) != 0) {
		fprintf(stderr, "%s: %s\n", progname, cause);
		free(cause);
		rc = EXIT_USAGE;
	} else if (c.info)
		rp_report_info(stdout, c.fmt, &pb);
	else if (c.check != NULL)
		rc = check_plan(&pb, c.check, c.fmt);
	else if (c.write_mps != NULL || c.write_lp != NULL || c.read_sol != NULL)
		rc = milp_files(&pb, c.graph, c.write_mps, c.write_lp, c.read_sol,
		    c.output, c.fmt);
	else if (c.sweep != NULL)
		rc = sweep(&c, &pb, strats, nstrat);
	else if (c.min)
		rc = budget_min(&c, &pb, strats, nstrat);
	else {
		prove_near_min(&c, &pb, pb.budget);
		rc = pb.budget < pb.min_budget ? below_min(&c, &pb, strats,
		    nstrat) : plan(&c, &pb, strats, nstrat);
	}
	/* A report that could not be written is a failure too. */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: cannot write to standard output: %s\n",
		    progname, strerror(errno));
		if (rc == EXIT_OK)
			rc = EXIT_INTERNAL;
	}
	free(strats);
	budget_list_free(&c.points);
	rp_graph_free(g);
	return rc;
}
