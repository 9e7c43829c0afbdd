#!/bin/sh
# Two formulations of the MILP side by side (milp_bench MODEL): by default
# the model remat-plan builds (default: reductions, a row per FREE hazard,
# stage rows) against Checkmate's (checkmate: every variable, one
# aggregated row per FREE and its lower row, no stage rows). For each
# instance both run at the same time, one per core, so that they see the
# same load. Instances: the proof target's graphs (up to 75 nodes) at 90%
# and 70%. SECONDS (default 60) limits each search. Prints a Markdown table.
# ENV_B, when set (VAR=VALUE ...), is the environment of MODEL_B's runs
# only, e.g. ENV_B=RP_BENCH_MALLOC_DEFAULT=1 with MODEL_A = MODEL_B to
# measure the allocator settings (milp_bench.c); its rows then say so.
# BENCH_B, when set, is the milp_bench binary of MODEL_B's runs (one built
# from another commit, say), to measure two builds side by side; its rows
# then say "(BENCH_B)".
# Usage: bench/milp-model.sh [SECONDS [MODEL_A MODEL_B]]
. "$(dirname "$0")/common.sh"
bench=${BENCH:-$top/bench/milp_bench}
secs=${1:-60}
ma=${2:-default}
mb=${3:-checkmate}
"$gen" training 35 3 >"$tmp/training-71.xml"

echo "| graph | nodes | budget | model | rows | nonzeros | LP s | LP bound | lp-round | GLPK | GLPK cost | CBC | CBC cost |"
echo "|---|---:|---:|---|---:|---:|---:|---:|---:|---|---:|---|---:|"
row() {	# CSV line of milp_bench [label]
	awk -F, -v label="${2:-}" '
	function res(r, s, g) {
	    if (r == "optimal")
	        return sprintf("optimal in %.1f s", s)
	    if (r == "feasible")
	        return sprintf("gap %.2f%% at %.0f s", 100 * g, s)
	    return r
	}
	{
	    cbc = NF >= 28
	    if (label != "")
	        $4 = $4 " (" label ")"
	    printf "| %s | %s | %s%% | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
	        $1, $2, $3, $4, $5, $7, $10, $11, $12,
	        res($18, $17, $21), $19,
	        cbc ? res($25, $24, $28) : "not built", cbc ? $26 : ""
	}' "$1"
}
for g in "$top"/graphs/linear-32.xml "$top"/graphs/resnet-4.xml \
    "$top"/graphs/unet-3.xml "$tmp"/training-71.xml; do
	for b in 90 70; do
		"$bench" "$g" "$b" "$secs" "$ma" >"$tmp/a" &
		env ${ENV_B:-} "${BENCH_B:-$bench}" "$g" "$b" "$secs" "$mb" >"$tmp/b"
		wait
		row "$tmp/a"
		row "$tmp/b" "${ENV_B:-}${BENCH_B:+${ENV_B:+, }BENCH_B}"
	done
done
