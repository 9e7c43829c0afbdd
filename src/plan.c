/* plan.c: the plan container. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "util.h"

void
rp_plan_init(struct rp_plan *p)
{
	memset(p, 0, sizeof *p);
}

void
rp_plan_destroy(struct rp_plan *p)
{
	int i;

	if (p->regname != NULL)
		for (i = 0; i < p->nregs; i++)
			free(p->regname[i]);
	free(p->regname);
	free(p->line);
	free(p->s);
	memset(p, 0, sizeof *p);
}

/* Appends one statement. */
static void
plan_add(struct rp_plan *p, int op, int node, int reg)
{
	rp_grow(&p->s, &p->cap, p->len + 1, sizeof *p->s);
	p->s[p->len].op = op;
	p->s[p->len].node = node;
	p->s[p->len].reg = reg;
	p->len++;
	if (reg >= p->nregs)
		p->nregs = reg + 1;
}

void
rp_plan_add_compute(struct rp_plan *p, int node, int reg)
{
	plan_add(p, RP_COMPUTE, node, reg);
}

void
rp_plan_add_free(struct rp_plan *p, int reg)
{
	plan_add(p, RP_FREE, -1, reg);
}

void
rp_plan_copy(struct rp_plan *dst, const struct rp_plan *src)
{
	rp_plan_destroy(dst);
	rp_plan_init(dst);
	if (src->len > 0) {
		dst->s = rp_xreallocarray(NULL, (size_t)src->len, sizeof *dst->s);
		memcpy(dst->s, src->s, sizeof *dst->s * (size_t)src->len);
	}
	dst->len = dst->cap = src->len;
	dst->nregs = src->nregs;
}

void
rp_plan_move(struct rp_plan *dst, struct rp_plan *src)
{
	if (dst == src)
		return;
	rp_plan_destroy(dst);
	*dst = *src;
	memset(src, 0, sizeof *src);
}

int
rp_plan_frontier_advancing(const struct rp_plan *p, int n)
{
	/* stage[v]: the last stage that computed v (stage t ends with node
	 * t's first computation), -1 before its first */
	int *stage = rp_xreallocarray(NULL, (size_t)(n > 0 ? n : 1),
	    sizeof *stage);
	int next = 0, prev = -1, k, v, fa = 1;

	for (v = 0; v < n; v++)
		stage[v] = -1;
	for (k = 0; k < p->len && fa; k++) {
		if (p->s[k].op != RP_COMPUTE)
			continue;
		v = p->s[k].node;
		/* first out of order, twice in a stage, a stage's
		 * computations out of execution order, or one after the last
		 * stage (node n - 1's first computation) */
		if (v < 0 || v >= n || v > next || stage[v] == next ||
		    v <= prev || next == n)
			fa = 0;
		else if (v == next) {
			stage[v] = next++;
			prev = -1;
		} else {
			stage[v] = next;
			prev = v;
		}
	}
	free(stage);
	return fa;
}
