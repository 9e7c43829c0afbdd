/* gralg.c: the igraph boundary (articulation points). */
#include "config.h"

#include <stdlib.h>

#include <igraph.h>

#include "gralg.h"
#include "util.h"

/* igraph aborts on errors by default: make it return codes instead, once. */
static void
gralg_init(void)
{
	static int done;
	if (!done) {
		igraph_set_error_handler(igraph_error_handler_ignore);
		igraph_set_warning_handler(igraph_warning_handler_ignore);
		done = 1;
	}
}

/* Builds an igraph_t from parallel edge arrays. */
static int
gralg_build(igraph_t *ig, int n, int m, const int *src, const int *dst,
    igraph_bool_t directed, char **cause)
{
	igraph_vector_int_t ev;
	igraph_integer_t i;
	igraph_error_t rc;

	gralg_init();
	if (igraph_vector_int_init(&ev, 2 * (igraph_integer_t)m) != IGRAPH_SUCCESS) {
		*cause = rp_xstrdup("igraph: cannot allocate edge vector");
		return -1;
	}
	for (i = 0; i < m; i++) {
		VECTOR(ev)[2 * i] = src[i];
		VECTOR(ev)[2 * i + 1] = dst[i];
	}
	rc = igraph_create(ig, &ev, n, directed);
	igraph_vector_int_destroy(&ev);
	if (rc != IGRAPH_SUCCESS) {
		*cause = rp_xasprintf("igraph: %s", igraph_strerror(rc));
		return -1;
	}
	return 0;
}

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int
rp_gralg_articulation_points(int n, int m, const int *src, const int *dst,
    int **aps, int *naps, char **cause)
{
	igraph_t ig;
	igraph_vector_int_t res;
	igraph_error_t rc;
	igraph_integer_t i, k;

	*aps = NULL;
	*naps = 0;
	if (gralg_build(&ig, n, m, src, dst, 0, cause) != 0)
		return -1;
	if (igraph_vector_int_init(&res, 0) != IGRAPH_SUCCESS) {
		igraph_destroy(&ig);
		*cause = rp_xstrdup("igraph: cannot allocate result vector");
		return -1;
	}
	rc = igraph_articulation_points(&ig, &res);
	igraph_destroy(&ig);
	if (rc != IGRAPH_SUCCESS) {
		igraph_vector_int_destroy(&res);
		*cause = rp_xasprintf("igraph: %s", igraph_strerror(rc));
		return -1;
	}
	k = igraph_vector_int_size(&res);
	*aps = rp_xmalloc(sizeof **aps * (size_t)(k ? k : 1));
	for (i = 0; i < k; i++)
		(*aps)[i] = (int)VECTOR(res)[i];
	igraph_vector_int_destroy(&res);
	qsort(*aps, (size_t)k, sizeof **aps, cmp_int);
	*naps = (int)k;
	return 0;
}
