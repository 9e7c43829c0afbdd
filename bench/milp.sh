#!/bin/sh
# MILP benchmark: model size, build time, LP time and bound, LP rounding,
# time to the first incumbent, time to proof and final gap, against graph
# size and budget, for GLPK and (when built in) CBC side by side from the
# same LP basis and starting plans, and with other formulations of the
# model for comparison (milp_bench MODEL: noreduce, aggregate, checkmate). Graphs: the shipped ones and random training graphs of about
# 70, 150 and 350 nodes (gengraph training). SECONDS (default 60) limits
# each search. Prints a Markdown table. Usage: bench/milp.sh [SECONDS]
. "$(dirname "$0")/common.sh"
bench=${BENCH:-$top/bench/milp_bench}
secs=${1:-60}
"$gen" training 35 3 >"$tmp/training-71.xml"
"$gen" training 75 3 >"$tmp/training-151.xml"
"$gen" training 175 3 >"$tmp/training-351.xml"

echo "| graph | nodes | budget | model | rows | cols | nonzeros | build s | LP s | Clp LP s | LP bound | lp-round | best heuristic | GLPK first s | GLPK s | GLPK result | GLPK cost | GLPK gap | CBC first s | CBC s | CBC result | CBC cost | CBC gap | lp-round / best |"
echo "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---|---:|---:|---:|"
run() {	# graph pct [model]
	"$bench" "$1" "$2" "$secs" ${3:-} | awk -F, '
	function num(x) { return x == "" ? 1e300 : x + 0 }
	function gap(x) { return x == "" ? "-" : sprintf("%.1f%%", 100 * x) }
	function dash(x) { return x == "" || x < 0 ? "-" : x }
	{
	    best = num($12)
	    if (num($14) < best) best = num($14)
	    if (num($19) < best) best = num($19)
	    cbc = NF >= 28
	    if (cbc && num($26) < best) best = num($26)
	    ratio = ($12 != "" && best < 1e300) ? sprintf("%.3f", $12 / best) : "-"
	    printf "| %s | %s | %s%% | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
	        $1, $2, $3, $4, $5, $6, $7, $9, $10,
	        cbc ? $29 : "n/a", $11, $12, $14,
	        dash($16), $17, $18, $19, gap($21),
	        cbc ? dash($23) : "n/a", cbc ? $24 : "n/a",
	        cbc ? $25 : "not built", cbc ? $26 : "",
	        cbc ? gap($28) : "-", ratio }'
}
for g in "$top"/graphs/linear-8.xml "$top"/graphs/linear-16.xml \
    "$top"/graphs/linear-32.xml "$top"/graphs/resnet-4.xml \
    "$top"/graphs/unet-3.xml "$tmp"/training-71.xml "$top"/graphs/linear-64.xml \
    "$tmp"/training-151.xml "$tmp"/training-351.xml; do
	for b in 90 70 50; do
		run "$g" $b
	done
done
# What the reductions and the split FREE rows gain, on four instances.
for gb in "$top/graphs/linear-32.xml 70" "$top/graphs/unet-3.xml 70" \
    "$tmp/training-71.xml 70" "$top/graphs/resnet-4.xml 70"; do
	set -- $gb
	for model in noreduce aggregate checkmate; do
		run "$1" "$2" $model
	done
done
