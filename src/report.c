/* report.c: rendering results for people (table) and programs (CSV, JSON). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "milp.h"
#include "report.h"
#include "stagebound.h"
#include "units.h"
#include "util.h"

/* Prints s as a JSON string literal. */
static void
json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s != NULL && *s; s++) {
		unsigned char c = (unsigned char)*s;
		int k = rp_utf8_len(s);
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else if (k == 0)	/* not UTF-8 (a file's name): U+FFFD */
			fputs("\\ufffd", f);
		else {
			fwrite(s, 1, (size_t)k, f);
			s += k - 1;
		}
	}
	fputc('"', f);
}

/* s as a JSON string, or null when there is none. */
static void
json_str_or_null(FILE *f, const char *s)
{
	if (s != NULL)
		json_str(f, s);
	else
		fputs("null", f);
}

/* A number in JSON, which has no infinities or NaN: null for those. */
static void
json_num(FILE *f, const char *fmt, double v)
{
	if (isfinite(v))
		fprintf(f, fmt, v);
	else
		fputs("null", f);
}

/* Prints s as a CSV field, quoted when needed. */
static void
csv_str(FILE *f, const char *s)
{
	if (s == NULL)
		return;
	if (strpbrk(s, ",\"\n") == NULL) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* A budget as a percentage of the checkpoint-all peak. */
static double
percent_of(const struct rp_problem *pb, int64_t b)
{
	return pb->ckpt_all_peak > 0 ? 100.0 * (double)b /
	    (double)pb->ckpt_all_peak : NAN;
}

/* The JSON fields of the plan that computes each value afresh: null
 * where there is none (and the overhead where it is past a double's
 * range or the baseline is 0). */
static void
json_tree(FILE *f, const struct rp_problem *pb)
{
	if (pb->tree_budget < 0) {
		fprintf(f, ",\"tree_budget\":null,\"tree_overhead\":null");
		return;
	}
	fprintf(f, ",\"tree_budget\":%lld,\"tree_overhead\":",
	    (long long)pb->tree_budget);
	json_num(f, "%.6g", pb->baseline > 0 ? pb->tree_cost / pb->baseline :
	    NAN);
}

/* The plan that computes each value afresh (rp_tree_budget): the line
 * that says where it fits and what it costs. */
static void
tree_line(FILE *f, const struct rp_problem *pb)
{
	char b[32];

	rp_format_bytes(pb->tree_budget, b, sizeof b);
	fprintf(f, "the plan that computes each value afresh from the graph's "
	    "inputs, as an expression tree, fits every budget from %s (%lld "
	    "%s, %.1f%%)", b, (long long)pb->tree_budget,
	    rp_bytes_word(pb->tree_budget), percent_of(pb, pb->tree_budget));
	if (pb->baseline > 0 && isfinite(pb->tree_cost / pb->baseline))
		fprintf(f, " at %.3g times the baseline cost",
		    pb->tree_cost / pb->baseline);
	else if (pb->baseline > 0)
		fprintf(f, " at a cost past the range of a double");
	fprintf(f, " (each value made again for each of its paths to the "
	    "value computed, exponentially many where values are shared: a "
	    "proof that a plan exists, not one to run)\n");
}

/* The bound a plan's cost is set against: the run's for a
 * frontier-advancing plan, the bound for every plan for another. */
static double
plan_bound(const struct rp_problem *pb, const struct rp_bound *b,
    const struct rp_result *r)
{
	if (isnan(b->any) || rp_plan_frontier_advancing(&r->plan, pb->g->n))
		return b->value;
	return b->any;
}

/* A fitting plan's cost over the bound it is set against; NaN where
 * there is none (no plan that fits, no positive finite bound). */
static double
vs_bound(const struct rp_problem *pb, const struct rp_bound *b,
    const struct rp_result *r)
{
	double rb = r->status == RP_FITS ? plan_bound(pb, b, r) : NAN;

	return isfinite(rb) && rb > 0 ? r->sim.cost / rb : NAN;
}

/* What the CSV adds to the note of the bound for every plan where the
 * deadline cut its search short: it may be higher. */
static const char *
any_short(const struct rp_bound *b)
{
	return b->any_stopped ? "; its search cut short by the time limit" :
	    "";
}

/* Whether the bound for every plan is shown apart from the run's: it is
 * finite and below it. */
static int
any_apart(const struct rp_bound *b)
{
	return isfinite(b->any) && b->any < b->value;
}

static void
graph_line(FILE *f, const struct rp_problem *pb)
{
	const struct rp_graph *g = pb->g;
	char a[32], b[32];

	rp_format_bytes(pb->ckpt_all_peak, a, sizeof a);
	rp_format_bytes(pb->min_budget, b, sizeof b);
	fprintf(f, "graph %s: %d node%s, %d edge%s, baseline cost %.6g %s, "
	    "checkpoint-all peak %s, smallest possible budget %s\n",
	    g->name, g->n, g->n == 1 ? "" : "s", g->m, g->m == 1 ? "" : "s",
	    pb->baseline, g->cost_unit, a, b);
}

void
rp_report_info(FILE *f, enum rp_format fmt, const struct rp_problem *pb)
{
	const struct rp_graph *g = pb->g;
	int v, nf = 0, nout = 0, nfixed = 0;

	for (v = 0; v < g->n; v++) {
		nf += g->kind[v] == RP_FORWARD;
		nout += g->output[v];
		nfixed += !g->recompute[v];
	}
	if (fmt == RP_FMT_JSON) {
		fprintf(f, "{\"graph\":");
		json_str(f, g->name);
		fprintf(f, ",\"nodes\":%d,\"edges\":%d,\"forward\":%d,"
		    "\"backward\":%d,\"outputs\":%d,\"no_recompute\":%d,"
		    "\"fixed_mem\":%lld,\"baseline_cost\":",
		    g->n, g->m, nf, g->n - nf, nout, nfixed,
		    (long long)g->fixed_mem);
		json_num(f, "%.10g", pb->baseline);
		fprintf(f, ",\"cost_unit\":");
		json_str(f, g->cost_unit);
		fprintf(f, ",\"checkpoint_all_peak\":%lld,\"min_budget\":%lld,"
		    "\"document_order\":%s", (long long)pb->ckpt_all_peak,
		    (long long)pb->min_budget, g->doc_order ? "true" : "false");
		json_tree(f, pb);
		fprintf(f, "}\n");
	} else if (fmt == RP_FMT_CSV) {
		fprintf(f, "graph,nodes,edges,forward,backward,outputs,"
		    "no_recompute,fixed_mem,baseline_cost,cost_unit,"
		    "checkpoint_all_peak,min_budget,document_order,"
		    "tree_budget,tree_overhead\n");
		csv_str(f, g->name);
		fprintf(f, ",%d,%d,%d,%d,%d,%d,%lld,%.10g,", g->n, g->m, nf,
		    g->n - nf, nout, nfixed, (long long)g->fixed_mem, pb->baseline);
		csv_str(f, g->cost_unit);
		fprintf(f, ",%lld,%lld,%s,", (long long)pb->ckpt_all_peak,
		    (long long)pb->min_budget, g->doc_order ? "yes" : "no");
		if (pb->tree_budget >= 0) {
			fprintf(f, "%lld,", (long long)pb->tree_budget);
			if (pb->baseline > 0 &&
			    isfinite(pb->tree_cost / pb->baseline))
				fprintf(f, "%.6g", pb->tree_cost / pb->baseline);
		} else
			fprintf(f, ",");
		fprintf(f, "\n");
	} else {
		char b[32];
		graph_line(f, pb);
		rp_format_bytes(g->fixed_mem, b, sizeof b);
		fprintf(f, "  %d forward, %d backward, %d output%s, %d with "
		    "recompute=false, fixed memory %s\n", nf, g->n - nf, nout,
		    nout == 1 ? "" : "s", nfixed, b);
		fprintf(f, "  execution order: %s\n", g->doc_order ?
		    "document order" : "stable topological order (document "
		    "order is not topological)");
		if (pb->tree_budget >= 0 &&
		    pb->tree_budget < pb->ckpt_all_peak) {
			fputs("  ", f);
			tree_line(f, pb);
		}
	}
}

void
rp_report_check(FILE *f, enum rp_format fmt, const struct rp_problem *pb,
    const char *path, const struct rp_sim *s)
{
	int have_budget = pb->has_budget, fits = rp_fits(pb, s->peak);
	char pk[32], b[32];

	if (fmt == RP_FMT_JSON) {
		fprintf(f, "{\"plan\":");
		json_str(f, path);
		fprintf(f, ",\"valid\":true,\"cost\":");
		json_num(f, "%.10g", s->cost);
		fprintf(f, ",\"overhead\":");
		json_num(f, "%.6f", pb->baseline > 0 ? s->cost / pb->baseline :
		    NAN);
		fprintf(f, ",\"peak\":%lld,\"computes\":%d,\"recomputes\":%d",
		    (long long)s->peak, s->ncompute, s->nrecompute);
		if (have_budget)
			fprintf(f, ",\"budget\":%lld,\"fits\":%s",
			    (long long)pb->budget, fits ? "true" : "false");
		fprintf(f, "}\n");
	} else if (fmt == RP_FMT_CSV) {
		fprintf(f, "plan,valid,cost,overhead,peak_bytes,computes,"
		    "recomputes,budget_bytes,fits\n");
		csv_str(f, path);
		fprintf(f, ",yes,%.10g,", s->cost);
		if (pb->baseline > 0)
			fprintf(f, "%.6f", s->cost / pb->baseline);
		fprintf(f, ",%lld,%d,%d,", (long long)s->peak, s->ncompute,
		    s->nrecompute);
		if (have_budget)
			fprintf(f, "%lld,%s", (long long)pb->budget, fits ? "yes" : "no");
		else
			fprintf(f, ",");
		fprintf(f, "\n");
	} else {
		rp_format_bytes(s->peak, pk, sizeof pk);
		fprintf(f, "%s: valid plan: cost %.6g %s", path, s->cost,
		    pb->g->cost_unit);
		if (pb->baseline > 0)
			fprintf(f, " (%.3fx the baseline)", s->cost / pb->baseline);
		fprintf(f, ", peak %s (%lld %s), %d computes, %d "
		    "recomputations\n", pk, (long long)s->peak,
		    rp_bytes_word(s->peak), s->ncompute, s->nrecompute);
		if (have_budget) {
			rp_format_bytes(pb->budget, b, sizeof b);
			fprintf(f, "%s budget %s (%lld %s)\n", fits ? "fits" :
			    "does not fit", b, (long long)pb->budget,
			    rp_bytes_word(pb->budget));
		}
	}
}

/* The opening of a JSON report: the graph's figures, the object left
 * open. */
static void
json_head(FILE *f, const struct rp_problem *pb)
{
	fprintf(f, "{\"graph\":");
	json_str(f, pb->g->name);
	fprintf(f, ",\"nodes\":%d,\"edges\":%d,\"baseline_cost\":",
	    pb->g->n, pb->g->m);
	json_num(f, "%.10g", pb->baseline);
	fprintf(f, ",\"cost_unit\":");
	json_str(f, pb->g->cost_unit);
	fprintf(f, ",\"checkpoint_all_peak\":%lld,\"min_budget\":%lld",
	    (long long)pb->ckpt_all_peak, (long long)pb->min_budget);
	json_tree(f, pb);
}

/* The comparison as CSV: one row per strategy, then the bound's. */
static void
report_csv(FILE *f, const struct rp_problem *pb, const struct rp_result *res,
    int n, int picked, const struct rp_bound *b)
{
	double lb = b->value;
	int lbst = b->stage;
	int i;

	fprintf(f, "strategy,status,cost,overhead,peak_bytes,budget_bytes,"
	    "recomputes,time_s,picked,note,vs_lower_bound,"
	    "frontier_advancing\n");
	for (i = 0; i < n; i++) {
		const struct rp_result *r = &res[i];
		double vs = vs_bound(pb, b, r);
		fprintf(f, "%s,%s,", r->strategy->name, rp_status_name(r->status));
		if (r->has_plan) {
			fprintf(f, "%.10g,", r->sim.cost);
			if (pb->baseline > 0)
				fprintf(f, "%.6f", r->sim.cost / pb->baseline);
			fprintf(f, ",%lld,%lld,%d,", (long long)r->sim.peak,
			    (long long)pb->budget, r->sim.nrecompute);
		} else
			fprintf(f, ",,,%lld,,", (long long)pb->budget);
		fprintf(f, "%.6f,%s,", r->seconds, i == picked ? "yes" : "no");
		csv_str(f, r->note);
		fputc(',', f);
		if (!isnan(vs))
			fprintf(f, "%.6f", vs);
		/* whether the bound holds for this plan's form */
		fprintf(f, ",%s\n", !r->has_plan ? "" :
		    rp_plan_frontier_advancing(&r->plan, pb->g->n) ? "yes" :
		    "no");
	}
	if (isinf(lb))
		fprintf(f, "lower bound,infeasible,,,,%lld,,,no,%s,,\n",
		    (long long)pb->budget, isinf(b->any) ? "no plan fits" :
		    "no frontier-advancing plan fits");
	else if (!isnan(lb) && rp_bound_for_all(pb, b) && lb > pb->baseline) {
		char *w = rp_xasprintf("every plan (the first computation of "
		    "node '%s'%s)", pb->g->id[b->any_node], any_short(b));
		fprintf(f, "lower bound,bound,%.10g,,,%lld,,,no,", lb,
		    (long long)pb->budget);
		csv_str(f, w);
		fprintf(f, ",,\n");
		free(w);
	} else if (!isnan(lb) && lbst >= 0) {
		char *w = rp_xasprintf("frontier-advancing plans (the memory of "
		    "stage '%s'%s)", pb->g->id[lbst], b->lp == 2 ? ", by a MILP" :
		    b->lp ? ", by an LP" : "");
		fprintf(f, "lower bound,bound,%.10g,,,%lld,,,no,", lb,
		    (long long)pb->budget);
		csv_str(f, w);
		fprintf(f, ",,\n");
		free(w);
	} else if (!isnan(lb))
		fprintf(f, "lower bound,bound,%.10g,%s,,%lld,,,no,%s%s%s,,\n", lb,
		    "", (long long)pb->budget, lb <= pb->baseline ?
		    "every plan (the baseline" : "frontier-advancing plans",
		    lb <= pb->baseline ? any_short(b) : "", lb <= pb->baseline ?
		    ")" : "");
	/* the bound for every plan, which other plans are set against */
	if (any_apart(b)) {
		char *w = b->any_node < 0 ? rp_xasprintf("every plan (the "
		    "baseline%s)", any_short(b)) : rp_xasprintf("every plan "
		    "(the first computation of node '%s'%s)",
		    pb->g->id[b->any_node], any_short(b));
		fprintf(f, "any-plan bound,bound,%.10g,,,%lld,,,no,", b->any,
		    (long long)pb->budget);
		csv_str(f, w);
		fprintf(f, ",,\n");
		free(w);
	}
}

/* The comparison as one JSON object. */
static void
report_json(FILE *f, const struct rp_problem *pb, const struct rp_result *res,
    int n, int picked, const struct rp_bound *b)
{
	double lb = b->value;
	int lbst = b->stage;
	int i;

	json_head(f, pb);
	fprintf(f, ",\"budget\":%lld,\"results\":[", (long long)pb->budget);
	for (i = 0; i < n; i++) {
		const struct rp_result *r = &res[i];
		double vs = vs_bound(pb, b, r);

		fprintf(f, "%s{\"strategy\":", i ? "," : "");
		json_str(f, r->strategy->name);
		fprintf(f, ",\"status\":");
		json_str(f, rp_status_name(r->status));
		if (r->has_plan) {
			fprintf(f, ",\"cost\":");
			json_num(f, "%.10g", r->sim.cost);
			fprintf(f, ",\"overhead\":");
			json_num(f, "%.6f", pb->baseline > 0 ? r->sim.cost /
			    pb->baseline : NAN);
			fprintf(f, ",\"peak\":%lld,\"recomputes\":%d",
			    (long long)r->sim.peak, r->sim.nrecompute);
			/* whether the bound holds for this plan's form */
			fprintf(f, ",\"frontier_advancing\":%s",
			    rp_plan_frontier_advancing(&r->plan, pb->g->n) ?
			    "true" : "false");
		}
		if (!isnan(vs))
			fprintf(f, ",\"vs_lower_bound\":%.6f", vs);
		fprintf(f, ",\"time_s\":%.6f,\"note\":", r->seconds);
		json_str_or_null(f, r->note);
		fputc('}', f);
	}
	fprintf(f, "],\"lower_bound\":");
	json_num(f, "%.10g", lb);
	fprintf(f, ",\"frontier_advancing_infeasible\":%s",
	    isinf(lb) ? "true" : "false");
	if (isfinite(lb))
		fprintf(f, ",\"lower_bound_holds_for\":\"%s\"",
		    rp_bound_for_all(pb, b) ? "every plan" :
		    "frontier-advancing plans");
	if (!isnan(b->any)) {
		fprintf(f, ",\"any_plan_bound\":");
		json_num(f, "%.10g", b->any);
		fprintf(f, ",\"any_plan_infeasible\":%s,"
		    "\"any_plan_bound_node\":", isinf(b->any) ? "true" :
		    "false");
		json_str_or_null(f, b->any_node >= 0 ?
		    pb->g->id[b->any_node] : NULL);
		fprintf(f, ",\"any_plan_bound_cut_short\":%s", b->any_stopped ?
		    "true" : "false");
	}
	if (isfinite(lb) && lbst >= 0) {
		fprintf(f, ",\"lower_bound_stage\":");
		json_str_or_null(f, pb->g->id[lbst]);
		fprintf(f, ",\"lower_bound_stage_lp\":%s", b->lp ? "true" :
		    "false");
		fprintf(f, ",\"lower_bound_stage_milp\":%s", b->lp == 2 ?
		    "true" : "false");
	}
	fprintf(f, ",\"picked\":");
	json_str_or_null(f, picked >= 0 ? res[picked].strategy->name : NULL);
	fprintf(f, "}\n");
}

/* Where no plan fits: the plan over the budget of least peak (the
 * cheaper at a tie), which a budget of that peak would take. */
static void
closest_line(FILE *f, const struct rp_problem *pb,
    const struct rp_result *res, int n)
{
	int i, c = -1;
	char pk[32], ov[48];

	for (i = 0; i < n; i++)
		if (res[i].status == RP_OVER_BUDGET && (c < 0 ||
		    res[i].sim.peak < res[c].sim.peak ||
		    (res[i].sim.peak == res[c].sim.peak &&
		    res[i].sim.cost < res[c].sim.cost)))
			c = i;
	if (c < 0)
		return;
	rp_format_bytes(res[c].sim.peak, pk, sizeof pk);
	if (pb->baseline > 0)
		snprintf(ov, sizeof ov, "at %.3fx the baseline",
		    res[c].sim.cost / pb->baseline);
	else	/* every cost 0 */
		snprintf(ov, sizeof ov, "at cost %.6g", res[c].sim.cost);
	fprintf(f, "the plan of least peak is %s's: %s, %.1f%% over the "
	    "budget, %s; it fits a budget of %lld %s\n",
	    res[c].strategy->name, pk, 100.0 * ((double)res[c].sim.peak /
	    (double)pb->budget - 1), ov, (long long)res[c].sim.peak,
	    rp_bytes_word(res[c].sim.peak));
}

/* A plan over the budget by at most NEAR_OVER of it that costs at least
 * NEAR_CHEAPER less than the picked plan: a little more memory buys
 * that much time per step, which a user choosing the budget wants to
 * know. */
#define NEAR_OVER 0.05
#define NEAR_CHEAPER 0.02

/* Where a plan fits: the cheapest such plan over the budget (the lower
 * peak at a tie), and the budget it would take. */
static void
near_line(FILE *f, const struct rp_problem *pb, const struct rp_result *res,
    int n, int picked)
{
	int i, c = -1;
	char pk[32];

	for (i = 0; i < n; i++) {
		const struct rp_result *r = &res[i];
		if (r->status != RP_OVER_BUDGET ||
		    (double)r->sim.peak > (double)pb->budget * (1 + NEAR_OVER) ||
		    r->sim.cost > res[picked].sim.cost * (1 - NEAR_CHEAPER))
			continue;
		if (c < 0 || r->sim.cost < res[c].sim.cost ||
		    (r->sim.cost == res[c].sim.cost &&
		    r->sim.peak < res[c].sim.peak))
			c = i;
	}
	if (c < 0)
		return;
	rp_format_bytes(res[c].sim.peak, pk, sizeof pk);
	fprintf(f, "with %.3g%% more memory, %s's plan costs %.3fx the "
	    "baseline (peak %s); it fits a budget of %lld %s\n",
	    100.0 * ((double)res[c].sim.peak / (double)pb->budget - 1),
	    res[c].strategy->name, res[c].sim.cost / pb->baseline, pk,
	    (long long)res[c].sim.peak, rp_bytes_word(res[c].sim.peak));
}

/* The comparison as a table for people, with the notes under it. */
static void
report_table(FILE *f, const struct rp_problem *pb, const struct rp_result *res,
    int n, int picked, const struct rp_bound *b)
{
	double lb = b->value;
	int lbst = b->stage;
	int i, all = !isnan(lb) && rp_bound_for_all(pb, b);
	char peak[32], tm[32], bud[32];
	/* plans' costs are shown relative to a finite bound */
	int ratio = isfinite(lb) || isfinite(b->any);

	graph_line(f, pb);
	rp_format_bytes(pb->budget, bud, sizeof bud);
	if (pb->ckpt_all_peak > 0)
		fprintf(f, "budget %s (%.1f%% of the checkpoint-all peak)\n\n",
		    bud, percent_of(pb, pb->budget));
	else
		fprintf(f, "budget %s\n\n", bud);
	fprintf(f, "%-16s %-12s %12s %9s %10s %10s %10s", "strategy", "status",
	    "cost", "overhead", "peak", "recomputes", "time");
	fprintf(f, !ratio ? "\n" : " %9s\n", "vs bound");
	for (i = 0; i < n; i++) {
		const struct rp_result *r = &res[i];
		rp_format_seconds(r->seconds, tm, sizeof tm);
		if (r->has_plan) {
			char ov[32] = "-", vb[32] = "-";
			double vs = vs_bound(pb, b, r);
			rp_format_bytes(r->sim.peak, peak, sizeof peak);
			if (pb->baseline > 0)
				snprintf(ov, sizeof ov, "%.3fx",
				    r->sim.cost / pb->baseline);
			if (!isnan(vs))
				snprintf(vb, sizeof vb, "%.3fx", vs);
			fprintf(f, "%-16s %-12s %12.6g %9s %10s %10d %10s",
			    r->strategy->name, rp_status_name(r->status),
			    r->sim.cost, ov, peak, r->sim.nrecompute, tm);
			fprintf(f, !ratio ? "\n" : " %9s\n", vb);
		} else {
			fprintf(f, "%-16s %-12s %12s %9s %10s %10s %10s",
			    r->strategy->name, rp_status_name(r->status), "-",
			    "-", "-", "-", tm);
			fprintf(f, !ratio ? "\n" : " %9s\n", "-");
		}
	}
	if (isinf(lb))
		fprintf(f, "%-16s %s\n", "lower bound", "infeasible");
	else if (!isnan(lb)) {
		char ov[32] = "-";
		if (pb->baseline > 0)
			snprintf(ov, sizeof ov, "%.3fx", lb / pb->baseline);
		fprintf(f, "%-16s %-12s %12.6g %9s %10s %10s %10s %9s\n",
		    "lower bound", "", lb, ov, "", "", "", "1.000x");
	}
	if (any_apart(b)) {
		char ov[32] = "-";
		if (pb->baseline > 0)
			snprintf(ov, sizeof ov, "%.3fx", b->any / pb->baseline);
		fprintf(f, "%-16s %-12s %12.6g %9s %10s %10s %10s %9s\n",
		    "any-plan bound", "", b->any, ov, "", "", "", "1.000x");
	}
	fputc('\n', f);
	if (picked >= 0) {
		const struct rp_result *r = &res[picked];
		double c = r->sim.cost, rb = plan_bound(pb, b, r);
		int fa = rp_plan_frontier_advancing(&r->plan, pb->g->n);
		/* at the bound it is set against: none of its kind is cheaper */
		int reached = isfinite(rb) && rb > pb->baseline &&
		    rp_stage_bound_reached(rb, c);
		/* below the run's bound (beyond the tolerance): a plan of
		 * another form, which that bound does not hold for */
		int below = !fa && isfinite(lb) && lb > pb->baseline &&
		    !rp_stage_bound_reached(c, lb);
		fprintf(f, "picked %s: the cheapest plan that fits%s\n",
		    r->strategy->name, c <= pb->baseline ?
		    "; it costs the baseline, which no plan beats" :
		    reached && (all || !fa) ? "; its cost reaches the bound "
		    "for every plan: no plan of any form costs less" : reached ?
		    "; its cost reaches the lower bound: no frontier-advancing "
		    "plan costs less" : below ? "; it costs less than the lower "
		    "bound, which holds for frontier-advancing plans only: this "
		    "plan is not one, and no frontier-advancing plan costs as "
		    "little; it is set against the any-plan bound" : !fa &&
		    !all && isfinite(rb) && rb > pb->baseline ? "; it is not a "
		    "frontier-advancing plan, which the lower bound holds for, "
		    "and is set against the any-plan bound, which holds for "
		    "every plan" : !fa && !all && isfinite(lb) &&
		    lb > pb->baseline ?
		    "; it is not a frontier-advancing plan, which the lower "
		    "bound holds for, and nothing above the baseline bounds a "
		    "plan of its form: the bound does not say how far this one "
		    "is from the cheapest" : "");
	}
	else if (isfinite(lb) && lb > pb->baseline)
		/* why a finite bound is no promise of a plan: the MILP's LP
		 * is fractional, a stage bound sees one stage at a time, the
		 * cuts one node's first computation */
		fprintf(f, "no strategy fits the budget; the lower bound does "
		    "not say that a plan exists: %s (--budget min finds the "
		    "smallest budget where a strategy fits)\n", all ?
		    "it counts the memory of the moment one node is first "
		    "computed, where a plan must fit every moment, and the "
		    "recomputations it places after that need memory of their "
		    "own when they run" : lbst >= 0 ?
		    "it counts the memory of one stage at a time, where a plan "
		    "must fit every stage at once, and the recomputations it "
		    "places after a stage need memory of their own when they run" :
		    "the LP relaxation may recompute a fraction of a value, "
		    "which frees a fraction of its inputs, where no plan can");
	else
		fprintf(f, "no strategy fits the budget\n");
	if (picked < 0 && pb->tree_budget >= 0 &&
	    pb->tree_budget <= pb->budget) {
		/* a plan exists, if none at a cost worth running */
		fprintf(f, "a plan does exist at this budget, though no "
		    "strategy found one: ");
		tree_line(f, pb);
	}
	if (picked < 0)
		closest_line(f, pb, res, n);
	else if (pb->baseline > 0)
		near_line(f, pb, res, n, picked);
	if (isinf(b->any))
		fprintf(f, "proved: no plan fits this budget, whatever its order "
		    "and recomputations: when node '%s' is first computed, "
		    "what it needs held does not fit beside it, whichever "
		    "values are computed again afterwards\n",
		    pb->g->id[b->any_node]);
	else if (isinf(lb))
		fprintf(f, "proved: no frontier-advancing plan %s fits this "
		    "budget\n", RP_FA_FORM);
	else if (!isnan(lb) && lb <= pb->baseline)
		fprintf(f, "the lower bound is the baseline cost, which holds for "
		    "every plan (each node computed at least once); no stronger "
		    "bound was found\n");
	else if (all)
		fprintf(f, "the lower bound holds for every plan, whatever its "
		    "order and recomputations: when node '%s' is first "
		    "computed, the values read after it are held or computed "
		    "again, with the inputs they need (minimum cuts over which "
		    "nodes come before it)\n", pb->g->id[b->any_node]);
	else if (!isnan(lb))
		fprintf(f, "the lower bound holds for frontier-advancing plans "
		    "%s%s%s%s%s\n", RP_FA_FORM, lbst >= 0 ? "; it is the stage "
		    "memory bound of stage '" : "",
		    lbst >= 0 ? pb->g->id[lbst] : "",
		    lbst >= 0 ? "': the values read after it that do not fit "
		    "beside its inputs are computed again" : "", lbst < 0 ? "" :
		    b->lp == 2 ? ", with the inputs they need (a MILP, in whole "
		    "values)" : b->lp ? ", with the inputs they need (an LP)" : "");
	if (any_apart(b) && b->any > pb->baseline)
		fprintf(f, "the any-plan bound holds for every plan, whatever its "
		    "order and recomputations (minimum cuts at the first "
		    "computation of node '%s'); plans of another form are set "
		    "against it\n", pb->g->id[b->any_node]);
	else if (any_apart(b))
		fprintf(f, "the any-plan bound, which plans of another form are "
		    "set against, is the baseline: nothing stronger was found "
		    "for every plan\n");
	if (b->any_stopped)
		fprintf(f, "the search for the bound for every plan was cut short "
		    "by the run's time limit: with more time it may be higher\n");
	for (i = 0; i < n; i++)
		if (res[i].note != NULL)
			fprintf(f, "  %s: %s\n", res[i].strategy->name, res[i].note);
}

void
rp_report(FILE *f, enum rp_format fmt, const struct rp_problem *pb,
    const struct rp_result *res, int n, int picked, const struct rp_bound *b)
{
	switch (fmt) {
	case RP_FMT_CSV:
		report_csv(f, pb, res, n, picked, b);
		break;
	case RP_FMT_JSON:
		report_json(f, pb, res, n, picked, b);
		break;
	default:
		report_table(f, pb, res, n, picked, b);
		break;
	}
}

/* What a sweep cell says where it shows no plan. */
static const char *
cell_reason(const struct rp_sweep_row *row, const struct rp_sweep_cell *c)
{
	if (row->below_min)
		return "below minimum";
	return rp_status_name(c->status);
}


static void
sweep_csv(FILE *f, const struct rp_problem *pb, const struct rp_sweep *sw)
{
	int r, i;

	fprintf(f, "budget_bytes,budget_percent");
	for (i = 0; i < sw->nstrat; i++)
		fprintf(f, ",%s", sw->strats[i]->name);
	fprintf(f, ",picked,overhead,lower_bound,carried,plan,"
	    "lower_bound_holds_for\n");
	for (r = 0; r < sw->nrows; r++) {
		const struct rp_sweep_row *row = &sw->rows[r];
		int first = 1;

		fprintf(f, "%lld,%.4f", (long long)row->budget,
		    percent_of(pb, row->budget));
		for (i = 0; i < sw->nstrat; i++) {
			const struct rp_sweep_cell *c = &row->cell[i];
			if (c->shown && pb->baseline > 0)
				fprintf(f, ",%.6f", c->cost / pb->baseline);
			else
				fprintf(f, ",%s", c->shown ? "fits" :
				    cell_reason(row, c));
		}
		fputc(',', f);
		if (row->picked >= 0) {
			fprintf(f, "%s,", sw->strats[row->picked]->name);
			if (pb->baseline > 0)
				fprintf(f, "%.6f", row->cell[row->picked].cost /
				    pb->baseline);
		} else
			fputc(',', f);
		fputc(',', f);
		if (isinf(row->bound))
			fputs("infeasible", f);
		else if (!isnan(row->bound) && pb->baseline > 0)
			fprintf(f, "%.6f", row->bound / pb->baseline);
		fputc(',', f);
		/* strategy@budget for each figure from a tighter budget */
		for (i = 0; i < sw->nstrat; i++) {
			const struct rp_sweep_cell *c = &row->cell[i];
			if (!c->shown || c->from == r)
				continue;
			fprintf(f, "%s%s@%lld", first ? "" : ";",
			    sw->strats[i]->name,
			    (long long)sw->rows[c->from].budget);
			first = 0;
		}
		fputc(',', f);
		csv_str(f, row->plan_file);
		fputc(',', f);
		if (isfinite(row->bound))
			fputs(row->bound_every ? "every plan" :
			    "frontier-advancing plans", f);
		fputc('\n', f);
	}
}

static void
sweep_json(FILE *f, const struct rp_problem *pb, const struct rp_sweep *sw)
{
	int r, i;

	json_head(f, pb);
	fprintf(f, ",\"strategies\":[");
	for (i = 0; i < sw->nstrat; i++) {
		fputs(i ? "," : "", f);
		json_str(f, sw->strats[i]->name);
	}
	fprintf(f, "],\"rows\":[");
	for (r = 0; r < sw->nrows; r++) {
		const struct rp_sweep_row *row = &sw->rows[r];
		fprintf(f, "%s{\"budget\":%lld,\"percent\":", r ? "," : "",
		    (long long)row->budget);
		json_num(f, "%.4f", percent_of(pb, row->budget));
		fprintf(f, ",\"below_min_budget\":%s,\"results\":[",
		    row->below_min ? "true" : "false");
		for (i = 0; i < sw->nstrat; i++) {
			const struct rp_sweep_cell *c = &row->cell[i];
			fprintf(f, "%s{\"strategy\":", i ? "," : "");
			json_str(f, sw->strats[i]->name);
			fprintf(f, ",\"status\":");
			json_str(f, row->below_min ? "not run" :
			    rp_status_name(c->status));
			/* the plan shown, or the own one over the budget (as
			 * in a single run's report, without from_budget) */
			if (c->shown || c->over) {
				fprintf(f, ",\"cost\":");
				json_num(f, "%.10g", c->cost);
				fprintf(f, ",\"overhead\":");
				json_num(f, "%.6f", pb->baseline > 0 ? c->cost /
				    pb->baseline : NAN);
				fprintf(f, ",\"peak\":%lld,\"recomputes\":%d",
				    (long long)c->peak, c->nrecompute);
			}
			if (c->shown) {
				fputs(",\"from_budget\":", f);
				if (c->from != r)
					fprintf(f, "%lld",
					    (long long)sw->rows[c->from].budget);
				else
					fputs("null", f);
			}
			fprintf(f, ",\"time_s\":%.6f,\"note\":", c->seconds);
			json_str_or_null(f, c->note);
			fputc('}', f);
		}
		fprintf(f, "],\"picked\":");
		json_str_or_null(f, row->picked >= 0 ?
		    sw->strats[row->picked]->name : NULL);
		fprintf(f, ",\"lower_bound\":");
		json_num(f, "%.10g", row->bound);
		fprintf(f, ",\"frontier_advancing_infeasible\":%s,"
		    "\"any_plan_infeasible\":%s", isinf(row->bound) ||
		    row->none_fits ? "true" : "false", row->none_fits ?
		    "true" : "false");
		if (isfinite(row->bound))
			fprintf(f, ",\"lower_bound_holds_for\":\"%s\"",
			    row->bound_every ? "every plan" :
			    "frontier-advancing plans");
		fprintf(f, ",\"plan\":");
		json_str_or_null(f, row->plan_file);
		fputc('}', f);
	}
	fprintf(f, "]}\n");
}

static void
sweep_table(FILE *f, const struct rp_problem *pb, const struct rp_sweep *sw)
{
	int r, i, carried = 0, some_fa = 0, w, pw = 5;
	char b[32];

	/* the percentages' width: 100.0 and up on a sweep past the peak */
	for (r = 0; r < sw->nrows; r++) {
		w = snprintf(b, sizeof b, "%.1f", percent_of(pb,
		    sw->rows[r].budget));
		pw = w > pw ? w : pw;
	}
	graph_line(f, pb);
	fputc('\n', f);
	fprintf(f, "%-10s %*s", "budget", pw + 1, "%");
	for (i = 0; i < sw->nstrat; i++) {
		w = (int)strlen(sw->strats[i]->name);
		fprintf(f, " %*s", w > 9 ? w : 9, sw->strats[i]->name);
	}
	fprintf(f, "  %-14s %9s\n", "picked", "bound");
	for (r = 0; r < sw->nrows; r++) {
		const struct rp_sweep_row *row = &sw->rows[r];
		char bd[32] = "-";
		int fa;

		rp_format_bytes(row->budget, b, sizeof b);
		fprintf(f, "%-10s %*.1f%%", b, pw, percent_of(pb, row->budget));
		for (i = 0; i < sw->nstrat; i++) {
			const struct rp_sweep_cell *c = &row->cell[i];
			char cell[32];
			w = (int)strlen(sw->strats[i]->name);
			if (c->shown && pb->baseline > 0)
				snprintf(cell, sizeof cell, "%.3fx%s", c->cost /
				    pb->baseline, c->from != r ? "*" : "");
			else if (c->shown)
				snprintf(cell, sizeof cell, "fits");
			else
				snprintf(cell, sizeof cell, "%s",
				    row->below_min ? "-" :
				    c->status == RP_OVER_BUDGET ? "over" :
				    c->status == RP_FAILED ? "failed" : "none");
			carried |= c->shown && c->from != r;
			fprintf(f, " %*s", w > 9 ? w : 9, cell);
		}
		if (isinf(row->bound))
			snprintf(bd, sizeof bd, "infeasible");
		else if (!isnan(row->bound) && pb->baseline > 0)
			snprintf(bd, sizeof bd, "%.3fx", row->bound /
			    pb->baseline);
		else if (!isnan(row->bound))
			snprintf(bd, sizeof bd, "%.10g", row->bound);
		/* the numbers aligned, a bound for some plans marked after */
		fa = !isnan(row->bound) && !row->bound_every;
		some_fa |= fa;
		fprintf(f, "  %-14s %9s%s\n", row->picked >= 0 ?
		    sw->strats[row->picked]->name : "-", bd, fa ? "^" : "");
	}
	fputc('\n', f);
	if (pb->baseline > 0)
		fprintf(f, "figures are cost / baseline; ");
	else	/* every cost 0: no ratio */
		fprintf(f, "the baseline cost is 0, so every plan costs 0 and "
		    "no figure is a ratio (fits: a plan fits; the bound is a "
		    "cost); ");
	fprintf(f, "over: the plan exceeds the "
	    "budget; none: no plan; -: below the smallest budget any plan "
	    "can need (%s)\n", (rp_format_bytes(pb->min_budget, b, sizeof b),
	    b));
	if (carried)
		fprintf(f, "*: the strategy's plan for a tighter budget, cheaper "
		    "than its own here (it fits this budget too)\n");
	fprintf(f, "bound: the strongest lower bound found at that budget, "
	    "which holds for every plan%s%s\n", some_fa ? "; ^: only for "
	    "frontier-advancing plans " : "", some_fa ? RP_FA_FORM : "");
	for (r = 0, w = 0; r < sw->nrows; r++)
		if (sw->rows[r].plan_file != NULL && w++ == 0)
			i = r;
	if (w == 1)
		fprintf(f, "plan written: %s (the one budget with a plan)\n",
		    sw->rows[i].plan_file);
	else if (w > 1)
		fprintf(f, "plans written: %s ... (one per budget with a "
		    "plan, %d in all)\n", sw->rows[i].plan_file, w);
}

void
rp_report_sweep(FILE *f, enum rp_format fmt, const struct rp_problem *pb,
    const struct rp_sweep *sw)
{
	switch (fmt) {
	case RP_FMT_CSV:
		sweep_csv(f, pb, sw);
		break;
	case RP_FMT_JSON:
		sweep_json(f, pb, sw);
		break;
	default:
		sweep_table(f, pb, sw);
		break;
	}
}

void
rp_report_min(FILE *f, enum rp_format fmt, const struct rp_problem *pb,
    const struct rp_strategy *const *strats, const struct rp_budget_min *m,
    int n, int lowest)
{
	int i, cut = 0;
	char b[32], c[32], ov[32];

	if (fmt == RP_FMT_CSV) {
		fprintf(f, "strategy,found,budget_bytes,budget_percent,overhead,"
		    "peak_bytes,no_plan_at_bytes,runs,lowest,min_budget_bytes,"
		    "cut_short,tree_budget_bytes\n");
		for (i = 0; i < n; i++) {
			fprintf(f, "%s,%s,", strats[i]->name, m[i].found ? "yes" :
			    "no");
			if (m[i].found) {
				fprintf(f, "%lld,%.4f,", (long long)m[i].budget,
				    percent_of(pb, m[i].budget));
				if (pb->baseline > 0)
					fprintf(f, "%.6f", m[i].res.sim.cost /
					    pb->baseline);
				fprintf(f, ",%lld,%lld,", (long long)m[i].res.sim.peak,
				    (long long)m[i].no_plan_at);
			} else
				fprintf(f, ",,,,,");
			fprintf(f, "%d,%s,%lld,%s,", m[i].runs, i == lowest ?
			    "yes" : "no", (long long)pb->min_budget,
			    m[i].cut_short ? "yes" : "no");
			if (pb->tree_budget >= 0)
				fprintf(f, "%lld", (long long)pb->tree_budget);
			fputc('\n', f);
		}
		return;
	}
	if (fmt == RP_FMT_JSON) {
		json_head(f, pb);
		fprintf(f, ",\"results\":[");
		for (i = 0; i < n; i++) {
			fprintf(f, "%s{\"strategy\":", i ? "," : "");
			json_str(f, strats[i]->name);
			fprintf(f, ",\"found\":%s", m[i].found ? "true" : "false");
			if (m[i].found) {
				fprintf(f, ",\"budget\":%lld,\"percent\":",
				    (long long)m[i].budget);
				json_num(f, "%.4f", percent_of(pb, m[i].budget));
				fprintf(f, ",\"overhead\":");
				json_num(f, "%.6f", pb->baseline > 0 ?
				    m[i].res.sim.cost / pb->baseline : NAN);
				fprintf(f, ",\"peak\":%lld,\"no_plan_at\":%lld",
				    (long long)m[i].res.sim.peak,
				    (long long)m[i].no_plan_at);
			}
			fprintf(f, ",\"runs\":%d,\"cut_short\":%s}", m[i].runs,
			    m[i].cut_short ? "true" : "false");
		}
		fprintf(f, "],\"lowest\":");
		json_str_or_null(f, lowest >= 0 ? strats[lowest]->name : NULL);
		fprintf(f, "}\n");
		return;
	}
	graph_line(f, pb);
	fputc('\n', f);
	fprintf(f, "%-16s %12s %7s %9s %12s %12s %5s\n", "strategy",
	    "smallest", "%", "overhead", "peak", "no plan at", "runs");
	for (i = 0; i < n; i++) {
		cut |= m[i].cut_short;
		if (!m[i].found) {
			fprintf(f, "%-16s %12s %7s %9s %12s %12s %5d%s\n",
			    strats[i]->name, "none", "-", "-", "-", "-", m[i].runs,
			    m[i].cut_short ? "*" : "");
			continue;
		}
		rp_format_bytes(m[i].budget, b, sizeof b);
		rp_format_bytes(m[i].no_plan_at, c, sizeof c);
		ov[0] = '-';
		ov[1] = '\0';
		if (pb->baseline > 0)	/* else every cost 0: no ratio */
			snprintf(ov, sizeof ov, "%.3fx",
			    m[i].res.sim.cost / pb->baseline);
		fprintf(f, "%-16s %12s %6.1f%% %9s", strats[i]->name, b,
		    percent_of(pb, m[i].budget), ov);
		rp_format_bytes(m[i].res.sim.peak, b, sizeof b);
		fprintf(f, " %12s %12s %5d%s\n", b, c, m[i].runs,
		    m[i].cut_short ? "*" : "");
	}
	fputc('\n', f);
	rp_format_bytes(pb->min_budget, b, sizeof b);
	if (lowest >= 0) {
		rp_format_bytes(m[lowest].budget, c, sizeof c);
		fprintf(f, "lowest: %s at %s (%lld %s, %.1f%% of the "
		    "checkpoint-all peak)\n", strats[lowest]->name, c,
		    (long long)m[lowest].budget, rp_bytes_word(m[lowest].budget),
		    percent_of(pb, m[lowest].budget));
	} else
		fprintf(f, "no strategy finds a plan up to the checkpoint-all "
		    "peak\n");
	fprintf(f, "no plan can need less than %s (%lld %s, %.1f%%): the "
	    "proven lower bound\n", b, (long long)pb->min_budget,
	    rp_bytes_word(pb->min_budget), percent_of(pb, pb->min_budget));
	if (pb->tree_budget >= 0 && pb->tree_budget < pb->ckpt_all_peak)
		tree_line(f, pb);
	fprintf(f, "each budget is found to 1%%: 1%% below it (\"no plan "
	    "at\"), the strategy found no plan\n");
	if (cut)
		fprintf(f, "*: a run that found no plan ended at the time it "
		    "was given (its share of the search, or the time limit); "
		    "with more time (-t) the strategy might fit lower\n");
}

void
rp_report_milp(FILE *f, enum rp_format fmt, const struct rp_problem *pb,
    const struct rp_milp_stats *st, const char *mps, const char *lp)
{
	if (fmt == RP_FMT_JSON) {
		json_head(f, pb);
		fprintf(f, ",\"budget\":%lld,\"rows\":%d,\"columns\":%d,"
		    "\"binaries\":%d,\"nonzeros\":%ld,\"eliminated\":%d,"
		    "\"mps\":", (long long)pb->budget, st->rows, st->cols,
		    st->binaries, st->nonzeros, st->eliminated);
		json_str_or_null(f, mps);
		fprintf(f, ",\"lp\":");
		json_str_or_null(f, lp);
		fprintf(f, "}\n");
	} else if (fmt == RP_FMT_CSV) {
		fprintf(f, "budget_bytes,rows,columns,binaries,nonzeros,"
		    "eliminated,mps,lp\n%lld,%d,%d,%d,%ld,%d,",
		    (long long)pb->budget, st->rows, st->cols, st->binaries,
		    st->nonzeros, st->eliminated);
		csv_str(f, mps);
		fputc(',', f);
		csv_str(f, lp);
		fputc('\n', f);
	} else
		fprintf(f, "MILP for budget %lld %s: %d rows, %d columns (%d "
		    "binary), %ld nonzeros, %d variables eliminated; written to "
		    "%s%s%s\n", (long long)pb->budget, rp_bytes_word(pb->budget),
		    st->rows, st->cols,
		    st->binaries, st->nonzeros, st->eliminated, mps != NULL ?
		    mps : "", mps != NULL && lp != NULL ? " and " : "",
		    lp != NULL ? lp : "");
}
