/* Execution orders chosen for memory (order.c) and the reorder strategy. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "order.h"
#include "sched.h"
#include "sim.h"
#include "strategy.h"
#include "t.h"

static unsigned long long rng = 12345;

static int
rnd(int n)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (int)((rng >> 33) % (unsigned long long)n);
}

/* A random DAG on n nodes: each node reads up to three earlier ones. */
static struct rp_graph *
random_dag(int n)
{
	int *e = malloc(sizeof *e * 6 * (size_t)n), ne = 0, v, k;
	struct rp_graph *g;

	for (v = 1; v < n; v++)
		for (k = 0; k < 1 + rnd(3); k++) {
			e[2 * ne] = rnd(v);
			e[2 * ne + 1] = v;
			ne++;
		}
	g = mkgraph(n, e, ne);
	free(e);
	for (v = 0; v < n; v++) {
		g->mem[v] = 1 + rnd(100);
		g->workspace[v] = rnd(3) == 0 ? rnd(20) : 0;
		g->cost[v] = 1 + rnd(10);
	}
	g->output[n - 1] = 1;
	return g;
}

static int64_t
peak_of(const struct rp_graph *g, const int *seq, int len)
{
	struct rp_plan p;
	struct rp_sim s;
	int64_t pk;

	rp_plan_init(&p);
	rp_plan_from_seq(g, seq, len, &p);
	CHECK(rp_simulate(g, &p, &s) == 0);
	pk = s.peak;
	rp_sim_destroy(&s);
	rp_plan_destroy(&p);
	return pk;
}

/* Checks that order is a permutation of g's nodes that respects every
 * edge; inv (n entries) gets each node's position. */
static void
check_topological(const struct rp_graph *g, const int *order, int *inv)
{
	int n = g->n, i, j, v;

	for (v = 0; v < n; v++)
		inv[v] = -1;
	for (i = 0; i < n; i++) {
		CHECK(order[i] >= 0 && order[i] < n && inv[order[i]] < 0);
		inv[order[i]] = i;
	}
	for (v = 0; v < n; v++)
		for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++)
			CHECK(inv[g->pred[j]] < inv[v]);
}

int
main(void)
{
	int trial;

	t_case("order: a topological permutation whose peak is the one "
	    "returned; the reordered copy keeps every node and edge");
	for (trial = 0; trial < 50; trial++) {
		struct rp_graph *g = random_dag(10 + rnd(60)), *h;
		int n = g->n, *order = malloc(sizeof *order * (size_t)n);
		int *inv = malloc(sizeof *inv * (size_t)n), rule = -1, i, j, v;
		int64_t pk = rp_order_memory(g, 0, 1, order, &rule);

		CHECK(pk > 0 && rule >= 0 && rule <= 2);
		check_topological(g, order, inv);
		CHECK(peak_of(g, order, n) == pk);

		h = rp_graph_reorder(g, order);
		CHECK(h->n == n && h->m == g->m && h->fixed_mem == g->fixed_mem);
		for (i = 0; i < n; i++) {
			v = order[i];
			CHECK_STR(h->id[i], g->id[v]);
			CHECK(h->mem[i] == g->mem[v] && h->cost[i] == g->cost[v] &&
			    h->workspace[i] == g->workspace[v] &&
			    h->output[i] == g->output[v]);
			CHECK(rp_npred(h, i) == rp_npred(g, v));
			CHECK(rp_nsucc(h, i) == rp_nsucc(g, v));
			for (j = h->pred_off[i]; j < h->pred_off[i + 1]; j++) {
				int k, found = 0;
				if (j > h->pred_off[i])
					CHECK(h->pred[j - 1] < h->pred[j]);
				for (k = g->pred_off[v]; k < g->pred_off[v + 1]; k++)
					found |= inv[g->pred[k]] == h->pred[j];
				CHECK(found);
			}
			for (j = h->succ_off[i] + 1; j < h->succ_off[i + 1]; j++)
				CHECK(h->succ[j - 1] < h->succ[j]);
		}
		/* the copy's own order is its node order */
		for (i = 0; i < n; i++)
			inv[i] = i;
		CHECK(peak_of(h, inv, n) == pk);
		rp_graph_free(h);
		rp_graph_free(g);
		free(order);
		free(inv);
	}

	t_case("subgraph: the nodes kept, the edges between them, in both "
	    "lists sorted, the outputs and fixed memory given");
	for (trial = 0; trial < 50; trial++) {
		struct rp_graph *g = random_dag(10 + rnd(60)), *h;
		int n = g->n, *keep = malloc(sizeof *keep * (size_t)n);
		int *inv = malloc(sizeof *inv * (size_t)n), k = 0, i, j, v, m;
		unsigned char *out = malloc((size_t)n);

		for (v = 0; v < n; v++) {
			inv[v] = -1;
			out[v] = (unsigned char)(rnd(3) == 0);
			if (rnd(3) != 0) {
				inv[v] = k;
				keep[k++] = v;
			}
		}
		h = rp_graph_sub(g, keep, k, out, g->fixed_mem + 7);
		CHECK(h->n == k && h->fixed_mem == g->fixed_mem + 7);
		for (i = 0, m = 0; i < k; i++) {
			v = keep[i];
			CHECK_STR(h->id[i], g->id[v]);
			CHECK(h->mem[i] == g->mem[v] && h->cost[i] == g->cost[v] &&
			    h->recompute[i] == g->recompute[v] &&
			    h->output[i] == out[v]);
			for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++)
				m += inv[g->pred[j]] >= 0;
			CHECK(h->pred_off[i + 1] == m);
			for (j = h->pred_off[i]; j < h->pred_off[i + 1]; j++) {
				int q, found = 0;
				CHECK(h->pred[j] < i);
				if (j > h->pred_off[i])
					CHECK(h->pred[j - 1] < h->pred[j]);
				for (q = g->pred_off[v]; q < g->pred_off[v + 1]; q++)
					found |= inv[g->pred[q]] == h->pred[j];
				CHECK(found);
			}
			for (j = h->succ_off[i]; j < h->succ_off[i + 1]; j++) {
				int q, found = 0;
				CHECK(h->succ[j] > i);
				if (j > h->succ_off[i])
					CHECK(h->succ[j - 1] < h->succ[j]);
				for (q = h->pred_off[h->succ[j]];
				    q < h->pred_off[h->succ[j] + 1]; q++)
					found |= h->pred[q] == i;
				CHECK(found);
			}
		}
		CHECK(h->m == m && h->succ_off[k] == m);
		rp_graph_free(h);
		rp_graph_free(g);
		free(keep);
		free(inv);
		free(out);
	}

	t_case("orders kept: the first is rp_order_memory's, the others "
	    "topological and distinct, by peak");
	for (trial = 0; trial < 30; trial++) {
		struct rp_graph *g = random_dag(10 + rnd(60));
		int n = g->n, *one = malloc(sizeof *one * (size_t)n), rule;
		int *os = malloc(sizeof *os * (size_t)n * RP_ORDER_MAX);
		int *inv = malloc(sizeof *inv * (size_t)n), rules[RP_ORDER_MAX];
		int64_t peaks[RP_ORDER_MAX], pk = rp_order_memory(g, 0, 3, one,
		    &rule);
		int k = rp_order_memory_many(g, 0, 3, RP_ORDER_MAX, os, rules,
		    peaks), a, b;

		CHECK(k >= 1 && k <= RP_ORDER_MAX);
		CHECK(peaks[0] == pk && rules[0] == rule &&
		    memcmp(os, one, sizeof *one * (size_t)n) == 0);
		for (a = 0; a < k; a++) {
			const int *o = os + (size_t)a * (size_t)n;
			CHECK(a == 0 || peaks[a - 1] <= peaks[a]);
			for (b = 0; b < a; b++)
				CHECK(memcmp(os + (size_t)b * (size_t)n, o,
				    sizeof *o * (size_t)n) != 0);
			check_topological(g, o, inv);
			CHECK(peak_of(g, o, n) == peaks[a]);
		}
		/* fewer asked for: the first ones */
		CHECK(rp_order_memory_many(g, 0, 3, 1, os, rules, peaks) == 1 &&
		    peaks[0] == pk);
		rp_graph_free(g);
		free(one);
		free(os);
		free(inv);
	}

	t_case("order: the same order and peak from run to run");
	{
		struct rp_graph *g = random_dag(80);
		int *a = malloc(sizeof *a * 80), *b = malloc(sizeof *b * 80), r;
		CHECK(rp_order_memory(g, 0, 7, a, &r) ==
		    rp_order_memory(g, 0, 7, b, &r));
		CHECK(memcmp(a, b, sizeof *a * 80) == 0);
		free(a);
		free(b);
		rp_graph_free(g);
	}

	t_case("reorder: a large output computed last fits a budget that "
	    "the execution order does not, with no recomputation");
	{
		/* 0 -> 1 (100 B output, nothing reads it), 0 -> 2 -> 3:
		 * in order, 1 is held while 2 and 3 run (peak 100+50+50, once 0
		 * is freed);
		 * computed last, the peak is 1+50+50 and then 1+50+100. */
		static const int e[] = { 0, 1, 0, 2, 2, 3 };
		struct rp_graph *g = mkgraph(4, e, 3);
		struct rp_options opt;
		struct rp_problem pb;
		struct rp_result r;
		int order[4], rule;

		g->mem[1] = 100;
		g->mem[2] = g->mem[3] = 50;
		g->output[1] = g->output[3] = 1;
		CHECK(rp_order_memory(g, 0, 1, order, &rule) == 151);
		CHECK(order[3] == 1);
		rp_options_init(&opt);
		mkproblem(&pb, g, 160);
		CHECK(pb.ckpt_all_peak == 200);
		run_strategy(&rp_strategy_reorder, &pb, &opt, &r);
		CHECK(r.status == RP_FITS && r.sim.cost == 4 &&
		    r.sim.nrecompute == 0 && r.sim.peak == 151);
		rp_result_destroy(&r);
		/* below the order's peak it recomputes, or finds nothing */
		mkproblem(&pb, g, 150);
		run_strategy(&rp_strategy_reorder, &pb, &opt, &r);
		CHECK(r.status != RP_FAILED);
		CHECK(r.status != RP_FITS || r.sim.peak <= 150);
		rp_result_destroy(&r);
		rp_graph_free(g);
	}
	return t_done("test_order");
}
