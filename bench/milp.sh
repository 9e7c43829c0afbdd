#!/bin/sh
# MILP benchmark: model size, build time, LP time and bound, LP rounding,
# time to the first incumbent, time to proof and final gap, against graph
# size and budget, and with the variable eliminations switched off for
# comparison. Graphs: the shipped ones and random training graphs of about
# 70, 150 and 350 nodes (gengraph training). SECONDS (default 60) limits
# each search. Prints a Markdown table. Usage: bench/milp.sh [SECONDS]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bench=${BENCH:-$top/bench/milp_bench}
gen=${GEN:-$top/tools/gengraph}
secs=${1:-60}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gen" training 35 3 >"$tmp/training-71.xml"
"$gen" training 75 3 >"$tmp/training-151.xml"
"$gen" training 175 3 >"$tmp/training-351.xml"

echo "| graph | nodes | budget | elim. | rows | cols | nonzeros | build s | LP s | LP bound | lp-round | best heuristic | first incumbent s | ILP s | result | ILP cost | bound | gap | lp-round / best |"
echo "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|"
run() {	# graph pct [noreduce]
	"$bench" "$1" "$2" "$secs" ${3:-} | awk -F, '{
	    best = $17 == "" ? $14 : ($14 == "" || $18 < $14 ? $18 : $14)
	    ratio = ($12 != "" && best != "") ? sprintf("%.3f", $12 / best) : "-"
	    printf "| %s | %s | %s%% | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
	        $1, $2, $3, $4 ? "on" : "off", $5, $6, $7, $9, $10, $11, $12, $14,
	        $15 < 0 ? "-" : $15, $16, $17, $18, $19, $20 == "" ? "-" : sprintf("%.1f%%", 100 * $20), ratio }'
}
for g in "$top"/graphs/linear-8.xml "$top"/graphs/linear-16.xml \
    "$top"/graphs/linear-32.xml "$top"/graphs/resnet-4.xml \
    "$top"/graphs/unet-3.xml "$tmp"/training-71.xml "$top"/graphs/linear-64.xml \
    "$tmp"/training-151.xml "$tmp"/training-351.xml; do
	for b in 90 70 50; do
		run "$g" $b
	done
done
# What the eliminations gain, on two instances.
run "$top"/graphs/linear-32.xml 70 noreduce
run "$tmp"/training-71.xml 70 noreduce
