/* gengraph.c: writes synthetic training graphs in remat-plan's GraphML.
 *
 *   gengraph linear N          Checkmate's linear graph: N layers, a loss,
 *                              N gradient nodes; unit cost and memory
 *   gengraph resnet BLOCKS     a small residual network (batch 8, 56x56)
 *   gengraph unet DEPTH        a small U-Net (batch 2, 128x128)
 *   gengraph random N M SEED   a random DAG with N nodes and M edges
 *   gengraph training N SEED   a random training graph: N forward nodes,
 *                              a loss and a gradient node per forward node
 *   gengraph layered N SEED [E]  a random layered DAG of N nodes, about E
 *                              edges per node (default: 2.4 at 100 nodes
 *                              up to 6 at 1,000), random costs and sizes,
 *                              of the kind Moccasin (Bartan et al., ICML
 *                              2023) plans
 *
 * Gradients of the layered models follow one rule: the gradient node of a
 * forward node f reads the gradients of f's consumers (or the loss), f
 * itself and f's inputs. Parameters and their gradients are fixed memory. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node {
	char id[32];
	char op[24];
	double cost;
	long long mem, ws;
	int backward, output, norecompute;
};

static struct node *nodes;
static int nn, ncap;
static int *esrc, *edst, ne, ecap;

static int
add_node(const char *id, const char *op, double cost, long long mem, long long ws,
    int backward)
{
	struct node *v;
	if (nn == ncap) {
		ncap = ncap ? 2 * ncap : 256;
		nodes = realloc(nodes, sizeof *nodes * (size_t)ncap);
		if (nodes == NULL)
			exit(4);
	}
	v = &nodes[nn];
	memset(v, 0, sizeof *v);
	snprintf(v->id, sizeof v->id, "%s", id);
	snprintf(v->op, sizeof v->op, "%s", op);
	v->cost = cost;
	v->mem = mem;
	v->ws = ws;
	v->backward = backward;
	return nn++;
}

static void
add_edge(int u, int v)
{
	if (ne == ecap) {
		ecap = ecap ? 2 * ecap : 1024;
		esrc = realloc(esrc, sizeof *esrc * (size_t)ecap);
		edst = realloc(edst, sizeof *edst * (size_t)ecap);
		if (esrc == NULL || edst == NULL)
			exit(4);
	}
	esrc[ne] = u;
	edst[ne] = v;
	ne++;
}

static void
write_graphml(const char *name, long long fixed_mem, const char *unit)
{
	int i;

	printf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
	    "  <key id=\"cost\" for=\"node\" attr.name=\"cost\" attr.type=\"double\"/>\n"
	    "  <key id=\"mem\" for=\"node\" attr.name=\"mem\" attr.type=\"long\"/>\n"
	    "  <key id=\"kind\" for=\"node\" attr.name=\"kind\" attr.type=\"string\">\n"
	    "    <default>forward</default>\n"
	    "  </key>\n"
	    "  <key id=\"op\" for=\"node\" attr.name=\"op\" attr.type=\"string\"/>\n"
	    "  <key id=\"ws\" for=\"node\" attr.name=\"workspace\" attr.type=\"long\"/>\n"
	    "  <key id=\"rc\" for=\"node\" attr.name=\"recompute\" attr.type=\"boolean\"/>\n"
	    "  <key id=\"out\" for=\"node\" attr.name=\"output\" attr.type=\"boolean\"/>\n"
	    "  <key id=\"fixed\" for=\"graph\" attr.name=\"fixed_mem\" attr.type=\"long\"/>\n"
	    "  <key id=\"unit\" for=\"graph\" attr.name=\"cost_unit\" attr.type=\"string\"/>\n"
	    "  <key id=\"name\" for=\"graph\" attr.name=\"name\" attr.type=\"string\"/>\n"
	    "  <graph edgedefault=\"directed\">\n"
	    "    <data key=\"name\">%s</data>\n"
	    "    <data key=\"fixed\">%lld</data>\n"
	    "    <data key=\"unit\">%s</data>\n", name, fixed_mem, unit);
	for (i = 0; i < nn; i++) {
		struct node *v = &nodes[i];
		printf("    <node id=\"%s\"><data key=\"cost\">%.6g</data>"
		    "<data key=\"mem\">%lld</data>", v->id, v->cost, v->mem);
		if (v->backward)
			printf("<data key=\"kind\">backward</data>");
		printf("<data key=\"op\">%s</data>", v->op);
		if (v->ws)
			printf("<data key=\"ws\">%lld</data>", v->ws);
		if (v->norecompute)
			printf("<data key=\"rc\">false</data>");
		if (v->output)
			printf("<data key=\"out\">true</data>");
		printf("</node>\n");
	}
	for (i = 0; i < ne; i++)
		printf("    <edge source=\"%s\" target=\"%s\"/>\n",
		    nodes[esrc[i]].id, nodes[edst[i]].id);
	printf("  </graph>\n</graphml>\n");
}

/* Deterministic generator (splitmix64), the same on every platform. */
static uint64_t rng_state;
static uint64_t
rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}
static int
rng_below(int n)
{
	return (int)(rng() % (uint64_t)n);
}

/* Adds gradient nodes for forward nodes 0..nf-1 and the loss node. */
static void
add_backward(int nf, int loss)
{
	int *grad = malloc(sizeof *grad * (size_t)nf);
	int f, i;
	char id[40];

	for (f = nf - 1; f >= 0; f--) {
		snprintf(id, sizeof id, "grad_%s", nodes[f].id);
		grad[f] = add_node(id, "grad", 2 * nodes[f].cost, nodes[f].mem,
		    nodes[f].ws, 1);
	}
	for (f = nf - 1; f >= 0; f--) {
		int any = 0;
		for (i = 0; i < ne; i++)
			if (esrc[i] == f && edst[i] < nf) {
				add_edge(grad[edst[i]], grad[f]);
				any = 1;
			}
		for (i = 0; i < ne; i++)
			if (esrc[i] == f && edst[i] == loss)
				any = 2;
		if (any != 1)
			add_edge(loss, grad[f]);
		add_edge(f, grad[f]);
		for (i = 0; i < ne; i++)
			if (edst[i] == f && esrc[i] < nf)
				add_edge(esrc[i], grad[f]);
	}
	free(grad);
}

static void
gen_linear(int n)
{
	char id[32];
	int i, loss, prev;

	for (i = 0; i < n; i++) {
		snprintf(id, sizeof id, "f%d", i);
		add_node(id, "layer", 1, 1, 0, 0);
		if (i > 0)
			add_edge(i - 1, i);
	}
	loss = add_node("loss", "loss", 1, 1, 0, 0);
	add_edge(n - 1, loss);
	prev = loss;
	for (i = n - 1; i >= 0; i--) {
		int g;
		snprintf(id, sizeof id, "g%d", i);
		g = add_node(id, "layer_grad", 1, 1, 0, 1);
		add_edge(prev, g);
		add_edge(i, g);
		prev = g;
	}
	snprintf(id, sizeof id, "linear-%d", n);
	write_graphml(id, 0, "unit");
}

/* Bytes of a float32 activation tensor. */
static long long
act(int batch, int ch, int hw)
{
	return 4LL * batch * ch * hw * hw;
}

static void
gen_resnet(int blocks)
{
	const int B = 8, C = 64, HW = 56;
	long long a = act(B, C, HW);
	double conv = 0.9, cheap = 0.12;
	char id[32], name[32];
	int x, c1, b1, r1, c2, b2, add, r, k, loss;

	x = add_node("stem_conv", "conv2d", 2.0, a, a / 2, 0);
	x = add_node("stem_bn", "batchnorm", cheap, a, 0, 0), add_edge(0, 1);
	x = add_node("stem_relu", "relu", cheap / 2, a, 0, 0), add_edge(1, 2);
	for (k = 0; k < blocks; k++) {
		snprintf(id, sizeof id, "b%d_conv1", k);
		c1 = add_node(id, "conv2d", conv, a, a / 4, 0);
		add_edge(x, c1);
		snprintf(id, sizeof id, "b%d_bn1", k);
		b1 = add_node(id, "batchnorm", cheap, a, 0, 0);
		add_edge(c1, b1);
		snprintf(id, sizeof id, "b%d_relu1", k);
		r1 = add_node(id, "relu", cheap / 2, a, 0, 0);
		add_edge(b1, r1);
		snprintf(id, sizeof id, "b%d_conv2", k);
		c2 = add_node(id, "conv2d", conv, a, a / 4, 0);
		add_edge(r1, c2);
		snprintf(id, sizeof id, "b%d_bn2", k);
		b2 = add_node(id, "batchnorm", cheap, a, 0, 0);
		add_edge(c2, b2);
		snprintf(id, sizeof id, "b%d_add", k);
		add = add_node(id, "add", cheap / 2, a, 0, 0);
		add_edge(b2, add);
		add_edge(x, add);
		snprintf(id, sizeof id, "b%d_relu2", k);
		r = add_node(id, "relu", cheap / 2, a, 0, 0);
		add_edge(add, r);
		x = r;
	}
	k = add_node("pool", "avgpool", cheap, 4LL * B * C, 0, 0);
	add_edge(x, k);
	x = add_node("fc", "linear", 0.05, 4LL * B * 1000, 0, 0);
	add_edge(k, x);
	loss = add_node("loss", "cross_entropy", 0.02, 4, 0, 0);
	add_edge(x, loss);
	nodes[loss].output = 1;
	add_backward(loss, loss);
	snprintf(name, sizeof name, "resnet-%d", blocks);
	write_graphml(name, 4LL * (blocks * 2 * 9 * C * C + 1000 * C) * 2 +
	    4LL * B * 3 * 224 * 224, "ms");
}

static void
gen_unet(int depth)
{
	const int B = 2, C0 = 32, HW0 = 128;
	int skip[8], x = -1, l, ch, hw, loss;
	char id[32], name[32];

	/* Encoder: two convolutions per level, then a pooling step. */
	for (l = 0, ch = C0, hw = HW0; l < depth; l++, ch *= 2, hw /= 2) {
		long long a = act(B, ch, hw);
		double c = 0.0000012 * (double)a / 4 * (l + 1);
		int c1, r1, c2, r2, p;
		snprintf(id, sizeof id, "enc%d_conv1", l);
		c1 = add_node(id, "conv2d", c, a, a / 4, 0);
		if (x >= 0)
			add_edge(x, c1);
		snprintf(id, sizeof id, "enc%d_relu1", l);
		r1 = add_node(id, "relu", c / 10, a, 0, 0);
		add_edge(c1, r1);
		snprintf(id, sizeof id, "enc%d_conv2", l);
		c2 = add_node(id, "conv2d", c, a, a / 4, 0);
		add_edge(r1, c2);
		snprintf(id, sizeof id, "enc%d_relu2", l);
		r2 = add_node(id, "relu", c / 10, a, 0, 0);
		add_edge(c2, r2);
		skip[l] = r2;
		snprintf(id, sizeof id, "enc%d_pool", l);
		p = add_node(id, "maxpool", c / 8, a / 4, 0, 0);
		add_edge(r2, p);
		x = p;
	}
	{
		long long a = act(B, ch, hw);
		int c1, d, r;
		c1 = add_node("mid_conv", "conv2d", 0.0000012 * (double)a, a, a / 4, 0);
		add_edge(x, c1);
		d = add_node("mid_dropout", "dropout", 0.05, a, 0, 0);
		nodes[d].norecompute = 1;	/* random mask: never recomputed */
		add_edge(c1, d);
		r = add_node("mid_relu", "relu", 0.02, a, 0, 0);
		add_edge(d, r);
		x = r;
	}
	/* Decoder: upsample, concatenate the skip, two convolutions. */
	for (l = depth - 1; l >= 0; l--) {
		int up, cat, c1, r1, c2, r2;
		long long a;
		double c;
		ch /= 2;
		hw *= 2;
		a = act(B, ch, hw);
		c = 0.0000012 * (double)a / 4 * (l + 1);
		snprintf(id, sizeof id, "dec%d_up", l);
		up = add_node(id, "upsample", c / 4, a, 0, 0);
		add_edge(x, up);
		snprintf(id, sizeof id, "dec%d_cat", l);
		cat = add_node(id, "concat", c / 10, 2 * a, 0, 0);
		add_edge(up, cat);
		add_edge(skip[l], cat);
		snprintf(id, sizeof id, "dec%d_conv1", l);
		c1 = add_node(id, "conv2d", 2 * c, a, a / 4, 0);
		add_edge(cat, c1);
		snprintf(id, sizeof id, "dec%d_relu1", l);
		r1 = add_node(id, "relu", c / 10, a, 0, 0);
		add_edge(c1, r1);
		snprintf(id, sizeof id, "dec%d_conv2", l);
		c2 = add_node(id, "conv2d", c, a, a / 4, 0);
		add_edge(r1, c2);
		snprintf(id, sizeof id, "dec%d_relu2", l);
		r2 = add_node(id, "relu", c / 10, a, 0, 0);
		add_edge(c2, r2);
		x = r2;
	}
	l = add_node("head", "conv2d", 0.05, act(B, 2, HW0), 0, 0);
	add_edge(x, l);
	loss = add_node("loss", "cross_entropy", 0.02, 4, 0, 0);
	add_edge(l, loss);
	nodes[loss].output = 1;
	add_backward(loss, loss);
	snprintf(name, sizeof name, "unet-%d", depth);
	write_graphml(name, 31LL * 1024 * 1024, "ms");
}

/* Edge set membership for the random generators (open addressing). */
static uint64_t *eset;
static size_t esetcap;
static int
eset_add(int u, int v)
{
	uint64_t k = ((uint64_t)(uint32_t)u << 32 | (uint32_t)v) + 1, h;
	size_t i;
	h = k * 0x9e3779b97f4a7c15ULL;
	for (i = (size_t)(h >> 20) & (esetcap - 1); eset[i]; i = (i + 1) & (esetcap - 1))
		if (eset[i] == k)
			return 0;
	eset[i] = k;
	return 1;
}

static void
gen_random(int n, int m, uint64_t seed)
{
	char id[32];
	int v, u;

	rng_state = seed;
	for (esetcap = 16; esetcap < (size_t)m * 2; esetcap *= 2)
		;
	eset = calloc(esetcap, sizeof *eset);
	for (v = 0; v < n; v++) {
		snprintf(id, sizeof id, "n%d", v);
		add_node(id, "op", 0.01 * (1 + rng_below(100)),
		    1024LL * (1 + rng_below(4096)), rng_below(4) == 0 ?
		    1024LL * rng_below(1024) : 0, v >= n / 2);
	}
	/* Every node but the first reads a recent one; the rest are random
	 * edges, mostly local, some long-range (skips). */
	for (v = 1; v < n && ne < m; v++) {
		u = v - 1 - rng_below(v < 8 ? v : 8);
		if (eset_add(u, v))
			add_edge(u, v);
	}
	while (ne < m && ne < (long long)n * (n - 1) / 2) {
		v = 1 + rng_below(n - 1);
		u = rng_below(4) == 0 ? rng_below(v) : v - 1 - rng_below(v < 64 ? v : 64);
		if (eset_add(u, v))
			add_edge(u, v);
	}
	nodes[n - 1].output = 1;
	snprintf(id, sizeof id, "random-%d-%d", n, m);
	write_graphml(id, 0, "ms");
	free(eset);
}

static void
gen_training(int nf, uint64_t seed)
{
	char id[32];
	int v, u, loss;

	rng_state = seed;
	for (v = 0; v < nf; v++) {
		snprintf(id, sizeof id, "f%d", v);
		add_node(id, "op", 1 + rng_below(9), 1 + rng_below(8),
		    rng_below(3) == 0 ? rng_below(4) : 0, 0);
		if (v > 0)
			add_edge(v - 1 - rng_below(v < 2 ? v : 2), v);
		if (v > 2 && rng_below(3) == 0) {
			u = rng_below(v - 1);
			add_edge(u, v);
		}
		if (rng_below(8) == 0 && v > 0)
			nodes[v].norecompute = 1;
	}
	loss = add_node("loss", "loss", 1, 1, 0, 0);
	add_edge(nf - 1, loss);
	nodes[loss].output = 1;
	add_backward(nf, loss);
	snprintf(id, sizeof id, "training-%d-%llu", nf, (unsigned long long)seed);
	write_graphml(id, 4, "ms");
}

/* A random layered DAG: layers of 1 to 2w nodes (w about sqrt(N) / 2);
 * each node reads one node of the layer before, and further nodes of the
 * three layers before it, or (one time in eight) of any earlier layer, to
 * about epn edges per node. Costs 1-10 ms, sizes 1-16 MiB, no workspace;
 * the last node is the output. No forward/backward split: every node is
 * forward, as in Moccasin's graphs. */
static void
gen_layered(int n, uint64_t seed, double epn)
{
	char id[40];
	int *layer_start, nl = 0, v, w, l, k, want, tries;
	long long m = 0;

	rng_state = seed;
	if (epn <= 0)
		epn = 2.4 + 3.6 * (n > 100 ? log10((double)n / 100) : 0);
	w = (int)(sqrt((double)n) / 2);
	if (w < 1)
		w = 1;
	layer_start = malloc(sizeof *layer_start * ((size_t)n + 2));
	for (esetcap = 16; esetcap < (size_t)(epn * n + n) * 2; esetcap *= 2)
		;
	eset = calloc(esetcap, sizeof *eset);
	if (layer_start == NULL || eset == NULL)
		exit(4);
	for (v = 0; v < n; ) {
		int width = 1 + rng_below(2 * w);
		layer_start[nl++] = v;
		for (k = 0; k < width && v < n; k++, v++) {
			snprintf(id, sizeof id, "n%d", v);
			add_node(id, "op", 1 + rng_below(10),
			    (1LL + rng_below(16)) << 20, 0, 0);
		}
	}
	layer_start[nl] = n;
	for (l = 1; l < nl; l++)
		for (v = layer_start[l]; v < layer_start[l + 1]; v++) {
			int p0 = layer_start[l - 1], p1 = layer_start[l];
			int u = p0 + rng_below(p1 - p0);
			if (eset_add(u, v)) {
				add_edge(u, v);
				m++;
			}
			/* further inputs, to the edges per node wanted so far */
			want = (int)(epn * (v + 1)) - (int)m;
			for (tries = 0; want > 0 && tries < 4 * want + 4; tries++) {
				int lo = l >= 3 ? layer_start[l - 3] : 0;
				u = rng_below(8) == 0 ? rng_below(p1) :
				    lo + rng_below(p1 - lo);
				if (eset_add(u, v)) {
					add_edge(u, v);
					m++;
					want--;
				}
			}
		}
	nodes[n - 1].output = 1;
	snprintf(id, sizeof id, "layered-%d-%llu", n, (unsigned long long)seed);
	write_graphml(id, 0, "ms");
	free(layer_start);
	free(eset);
}

static int
arg(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (*end != '\0' || v < 1 || v > 10000000) {
		fprintf(stderr, "gengraph: '%s' is not a positive integer\n", s);
		exit(2);
	}
	return (int)v;
}

int
main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "linear") == 0)
		gen_linear(arg(argv[2]));
	else if (argc == 3 && strcmp(argv[1], "resnet") == 0)
		gen_resnet(arg(argv[2]));
	else if (argc == 3 && strcmp(argv[1], "unet") == 0 && arg(argv[2]) <= 6)
		gen_unet(arg(argv[2]));
	else if (argc == 5 && strcmp(argv[1], "random") == 0)
		gen_random(arg(argv[2]), arg(argv[3]), (uint64_t)arg(argv[4]));
	else if (argc == 4 && strcmp(argv[1], "training") == 0)
		gen_training(arg(argv[2]), (uint64_t)arg(argv[3]));
	else if ((argc == 4 || argc == 5) && strcmp(argv[1], "layered") == 0)
		gen_layered(arg(argv[2]), (uint64_t)arg(argv[3]),
		    argc == 5 ? atof(argv[4]) : 0);
	else {
		fprintf(stderr, "usage: gengraph linear N | resnet BLOCKS | "
		    "unet DEPTH(<=6) | random N M SEED | training N SEED | "
		    "layered N SEED [EDGES_PER_NODE]\n");
		return 2;
	}
	return ferror(stdout) ? 4 : 0;
}
