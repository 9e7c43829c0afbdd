/* engine.c: the engines built in (see engine.h). */
#include "config.h"

#include <stddef.h>

#include "engine.h"

const struct rp_engine_ops *
rp_engine_get(enum rp_milp_engine which)
{
	switch (which) {
	case RP_MILP_GLPK:
		return &rp_engine_glpk;
#ifdef HAVE_CBC
	case RP_MILP_CBC:
		return &rp_engine_cbc;
#endif
	default:
		return NULL;
	}
}
