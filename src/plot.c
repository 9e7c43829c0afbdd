/* plot.c: a sweep as a standalone SVG picture (see plot.h). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "plot.h"
#include "units.h"
#include "util.h"

/* The canvas and the plot area inside it, in pixels. */
#define W 900
#define H 540
#define LEFT 80
#define RIGHT 220	/* room for the legend */
#define TOP 80
#define BOTTOM 70
#define PW (W - LEFT - RIGHT)
#define PH (H - TOP - BOTTOM)
/* The width of the band of a budget whose neighbours have no finite
 * bound. */
#define BAND_BAR 8.0

/* Colours that stay apart for most readers (Tableau 10, then black and
 * a cyan): one for each strategy, so that no two lines share one. */
static const char *const colours[] = {
	"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
	"#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
	"#000000", "#17becf",
};
#define NCOLOURS (sizeof colours / sizeof colours[0])

struct frame {
	double x0, x1;		/* budgets at the left and right edges, bytes */
	double y0, y1;		/* overheads at the bottom and top */
};

static double
px(const struct frame *fr, double budget)
{
	return LEFT + PW * (budget - fr->x0) / (fr->x1 - fr->x0);
}

static double
py(const struct frame *fr, double overhead)
{
	return TOP + PH * (fr->y1 - overhead) / (fr->y1 - fr->y0);
}

/* Text for XML character data and attributes. */
static void
xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			/* control characters are not XML */
			if ((unsigned char)*s >= 0x20 || *s == '\t')
				fputc(*s, f);
			break;
		}
	}
}

/* A "nice" step (1, 2 or 5 times a power of ten) giving about n ticks
 * over span. */
static double
nice_step(double span, int n)
{
	double raw = span / n, p = pow(10, floor(log10(raw))), m = raw / p;

	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/* The overhead shown in cell c, or NaN. */
static double
overhead(const struct rp_problem *pb, const struct rp_sweep_cell *c)
{
	return c->shown && pb->baseline > 0 ? c->cost / pb->baseline : NAN;
}

static void
frame_of(const struct rp_problem *pb, const struct rp_sweep *sw,
    struct frame *fr)
{
	double ymax = 1.0;
	int r, i;

	fr->x0 = (double)sw->rows[0].budget;
	fr->x1 = (double)sw->rows[sw->nrows - 1].budget;
	if (fr->x1 - fr->x0 < 1) {
		/* one budget: a span around it */
		fr->x0 *= 0.95;
		fr->x1 = fr->x1 * 1.05 + 1;
	}
	for (r = 0; r < sw->nrows; r++) {
		const struct rp_sweep_row *row = &sw->rows[r];
		for (i = 0; i < sw->nstrat; i++) {
			double o = overhead(pb, &row->cell[i]);
			if (isfinite(o) && o > ymax)
				ymax = o;
		}
		if (isfinite(row->bound) && pb->baseline > 0 &&
		    row->bound / pb->baseline > ymax)
			ymax = row->bound / pb->baseline;
	}
	fr->y0 = 1.0;
	fr->y1 = 1.0 + (ymax - 1.0) * 1.08;
	if (fr->y1 < 1.1)
		fr->y1 = 1.1;
}

static void
axes(FILE *f, const struct rp_problem *pb, const struct frame *fr)
{
	double peak = (double)pb->ckpt_all_peak, step, t, v;
	char b[32];
	long k;

	/* y: overhead, with a grid line per tick */
	step = nice_step(fr->y1 - fr->y0, 6);
	for (k = (long)ceil(fr->y0 / step - 1e-9); (t = k * step) <= fr->y1 +
	    1e-9; k++) {
		fprintf(f, "<line class=\"grid\" x1=\"%d\" y1=\"%.2f\" x2=\"%d\" "
		    "y2=\"%.2f\"/>\n", LEFT, py(fr, t), LEFT + PW, py(fr, t));
		fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%.2f\" "
		    "text-anchor=\"end\">%.*fx</text>\n", LEFT - 8, py(fr, t) + 4,
		    step < 0.01 ? 3 : 2, t);
	}
	/* x: ticks at round percentages of the checkpoint-all peak, the
	 * bytes below and the percentage above */
	if (peak > 0) {
		double lo = 100 * fr->x0 / peak, hi = 100 * fr->x1 / peak;
		step = nice_step(hi - lo, 7);
		for (k = (long)ceil(lo / step - 1e-9); (t = k * step) <= hi +
		    1e-9; k++) {
			v = t * peak / 100;
			rp_format_bytes((int64_t)llround(v), b, sizeof b);
			fprintf(f, "<line class=\"grid\" x1=\"%.2f\" y1=\"%d\" "
			    "x2=\"%.2f\" y2=\"%d\"/>\n", px(fr, v), TOP, px(fr, v),
			    TOP + PH);
			fprintf(f, "<text class=\"tick\" x=\"%.2f\" y=\"%d\" "
			    "text-anchor=\"middle\">%s</text>\n", px(fr, v),
			    TOP + PH + 18, b);
			fprintf(f, "<text class=\"tick\" x=\"%.2f\" y=\"%d\" "
			    "text-anchor=\"middle\">%g%%</text>\n", px(fr, v),
			    TOP - 8, t);
		}
	}
	fprintf(f, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" "
	    "height=\"%d\"/>\n", LEFT, TOP, PW, PH);
	fprintf(f, "<text class=\"label\" x=\"%d\" y=\"%d\" text-anchor="
	    "\"middle\">budget</text>\n", LEFT + PW / 2, H - 22);
	fprintf(f, "<text class=\"label\" x=\"%d\" y=\"%d\" text-anchor="
	    "\"middle\">budget (%% of the checkpoint-all peak)</text>\n",
	    LEFT + PW / 2, TOP - 30);
	fprintf(f, "<text class=\"label\" transform=\"translate(22 %d) "
	    "rotate(-90)\" text-anchor=\"middle\">overhead (cost / baseline)"
	    "</text>\n", TOP + PH / 2);
}

/* The regions no plan reaches: budgets below the smallest possible one,
 * and costs below the lower bound where one was found. */
static void
bands(FILE *f, const struct rp_problem *pb, const struct rp_sweep *sw,
    const struct frame *fr)
{
	int r, open = 0;

	if ((double)pb->min_budget > fr->x0) {
		double x = px(fr, fmin((double)pb->min_budget, fr->x1));
		fprintf(f, "<rect class=\"impossible\" x=\"%d\" y=\"%d\" "
		    "width=\"%.2f\" height=\"%d\"/>\n", LEFT, TOP, x - LEFT, PH);
	}
	/* One polygon per run of budgets with a finite bound, between it and
	 * the baseline: a bound of the baseline itself is a point of the run,
	 * so that the band slopes down to it rather than ending in an edge.
	 * A run of one budget is a bar BAND_BAR wide (within the frame); runs
	 * that never rise above the baseline are not drawn. */
	for (r = 0; r <= sw->nrows; r++) {
		const struct rp_sweep_row *row = r < sw->nrows ? &sw->rows[r] :
		    NULL;
		int has, k;

		has = row != NULL && isfinite(row->bound) &&
		    pb->baseline > 0 && row->bound >= pb->baseline;
		if (has && !open)
			open = r + 1;
		if (has || !open)
			continue;
		/* the run: rows open - 1 .. r - 1 */
		for (k = open - 1; k < r; k++)
			if (sw->rows[k].bound > pb->baseline)
				break;
		if (k < r && r == open) {
			double x = px(fr, (double)sw->rows[k].budget);
			double a = fmax(x - BAND_BAR / 2, LEFT);
			double b = fmin(x + BAND_BAR / 2, LEFT + PW);
			double y = py(fr, sw->rows[k].bound / pb->baseline);
			fprintf(f, "<polygon class=\"bound\" points="
			    "\"%.2f,%.2f %.2f,%.2f %.2f,%.2f %.2f,%.2f\"/>\n",
			    a, py(fr, 1.0), a, y, b, y, b, py(fr, 1.0));
		} else if (k < r) {
			fprintf(f, "<polygon class=\"bound\" points="
			    "\"%.2f,%.2f", px(fr, (double)sw->rows[open -
			    1].budget), py(fr, 1.0));
			for (k = open - 1; k < r; k++)
				fprintf(f, " %.2f,%.2f",
				    px(fr, (double)sw->rows[k].budget),
				    py(fr, sw->rows[k].bound / pb->baseline));
			fprintf(f, " %.2f,%.2f\"/>\n",
			    px(fr, (double)sw->rows[r - 1].budget), py(fr, 1.0));
		}
		open = 0;
	}
}

/* Each strategy's line, broken where it has no plan, with a dot per
 * budget. */
static void
lines(FILE *f, const struct rp_problem *pb, const struct rp_sweep *sw,
    const struct frame *fr)
{
	int r, i, open;

	for (i = 0; i < sw->nstrat; i++) {
		const char *c = colours[(size_t)i % NCOLOURS];
		fprintf(f, "<g stroke=\"%s\" fill=\"%s\">\n", c, c);
		open = 0;
		for (r = 0; r < sw->nrows; r++) {
			double o = overhead(pb, &sw->rows[r].cell[i]);
			if (isnan(o)) {
				if (open)
					fputs("\"/>\n", f);
				open = 0;
				continue;
			}
			fprintf(f, open ? " %.2f,%.2f" : "<polyline class=\"line\" "
			    "points=\"%.2f,%.2f", px(fr, (double)sw->rows[r].budget),
			    py(fr, o));
			open = 1;
		}
		if (open)
			fputs("\"/>\n", f);
		for (r = 0; r < sw->nrows; r++) {
			double o = overhead(pb, &sw->rows[r].cell[i]);
			if (!isnan(o))
				fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"3\"/>\n",
				    px(fr, (double)sw->rows[r].budget), py(fr, o));
		}
		fputs("</g>\n", f);
	}
}

/* The legend: each strategy's colour, then the regions bands() draws
 * (those it does not draw are left out). */
static void
legend(FILE *f, const struct rp_problem *pb, const struct rp_sweep *sw,
    const struct frame *fr)
{
	int x = LEFT + PW + 20, y = TOP + 10, i, every = 0, bounded = 0;

	/* what the band holds for: the rows bands() draws it at (a finite
	 * bound above the baseline) */
	for (i = 0; i < sw->nrows; i++)
		if (isfinite(sw->rows[i].bound) && pb->baseline > 0 &&
		    sw->rows[i].bound > pb->baseline) {
			bounded++;
			every += sw->rows[i].bound_every;
		}
	for (i = 0; i < sw->nstrat; i++, y += 20) {
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		    "stroke=\"%s\" stroke-width=\"2.5\"/>\n", x, y, x + 24, y,
		    colours[(size_t)i % NCOLOURS]);
		fprintf(f, "<text class=\"legend\" x=\"%d\" y=\"%d\">", x + 32,
		    y + 4);
		xml_text(f, sw->strats[i]->name);
		fputs("</text>\n", f);
	}
	y += 10;
	if (bounded > 0)
		fprintf(f, "<rect class=\"bound\" x=\"%d\" y=\"%d\" "
		    "width=\"24\" height=\"12\"/>\n<text class=\"legend\" "
		    "x=\"%d\" y=\"%d\">below the lower bound</text>\n", x,
		    y - 6, x + 32, y + 4);
	if (bounded == 0)
		y -= 36;	/* no band: nothing to say of it */
	else if (every == bounded || every == 0)
		fprintf(f, "<text class=\"small\" x=\"%d\" y=\"%d\">(%s)"
		    "</text>\n", x + 32, y + 18, every == bounded ?
		    "every plan" : "frontier-advancing plans");
	else {
		fprintf(f, "<text class=\"small\" x=\"%d\" y=\"%d\">(at some "
		    "budgets, only</text>\n<text class=\"small\" x=\"%d\" "
		    "y=\"%d\">frontier-advancing plans)</text>\n", x + 32,
		    y + 18, x + 32, y + 30);
		y += 12;
	}
	y += 36;
	if ((double)pb->min_budget > fr->x0)
		fprintf(f, "<rect class=\"impossible\" x=\"%d\" y=\"%d\" "
		    "width=\"24\" height=\"12\"/>\n<text class=\"legend\" "
		    "x=\"%d\" y=\"%d\">below the smallest</text>\n<text "
		    "class=\"legend\" x=\"%d\" y=\"%d\">possible budget</text>\n",
		    x, y - 6, x + 32, y + 4, x + 32, y + 20);
}

static void
draw(FILE *f, const struct rp_problem *pb, const struct rp_sweep *sw)
{
	struct frame fr;
	char a[32];

	frame_of(pb, sw, &fr);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
	    "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n", W, H, W, H);
	fprintf(f, "<style>\n"
	    "text { font-family: DejaVu Sans, Helvetica, Arial, sans-serif; "
	    "fill: #222; }\n"
	    ".title { font-size: 16px; font-weight: bold; }\n"
	    ".label { font-size: 13px; }\n"
	    ".tick { font-size: 11px; fill: #444; }\n"
	    ".legend { font-size: 12px; }\n"
	    ".small { font-size: 10px; fill: #555; }\n"
	    ".grid { stroke: #e4e4e4; stroke-width: 1; }\n"
	    ".frame { fill: none; stroke: #888; stroke-width: 1; }\n"
	    ".line { fill: none; stroke-width: 2; }\n"
	    ".bound { fill: #9aa5b1; fill-opacity: 0.35; stroke: none; }\n"
	    ".impossible { fill: #d9534f; fill-opacity: 0.12; stroke: none; }\n"
	    "</style>\n");
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H);
	fprintf(f, "<text class=\"title\" x=\"%d\" y=\"24\">", LEFT);
	xml_text(f, pb->g->name);
	rp_format_bytes(pb->ckpt_all_peak, a, sizeof a);
	fprintf(f, ": overhead against budget (checkpoint-all peak %s)"
	    "</text>\n", a);
	bands(f, pb, sw, &fr);
	axes(f, pb, &fr);
	lines(f, pb, sw, &fr);
	if (!(pb->baseline > 0))	/* no ratio to draw: say why */
		fprintf(f, "<text class=\"label\" x=\"%d\" y=\"%d\" "
		    "text-anchor=\"middle\">the baseline cost is 0: every plan "
		    "costs 0, there is no overhead to draw</text>\n",
		    LEFT + PW / 2, TOP + PH / 2);
	legend(f, pb, sw, &fr);
	fputs("</svg>\n", f);
}

int
rp_plot_svg(const char *path, const char *refuse,
    const struct rp_problem *pb, const struct rp_sweep *sw, char **cause)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	if (sw->nrows == 0) {
		*cause = rp_xstrdup("nothing to plot: the sweep has no budgets");
		return -1;
	}
	f = open_memstream(&buf, &len);
	if (f == NULL) {
		*cause = rp_xasprintf("cannot draw '%s': %s", path,
		    strerror(errno));
		return -1;
	}
	draw(f, pb, sw);
	if (fclose(f) != 0) {
		free(buf);
		*cause = rp_xasprintf("cannot draw '%s': %s", path,
		    strerror(errno));
		return -1;
	}
	rc = rp_write_buffer(path, refuse, buf, len, cause);
	free(buf);
	return rc;
}
