#!/bin/sh
# The LP relaxation from checkpoint-all's basis (what remat-plan does)
# against GLPK's all-slack basis, side by side: for each instance both run
# at the same time, one per core, so that they see the same load.
# Instances: linear-32, resnet-4, unet-3, linear-64 and random training
# graphs of 71 and 151 nodes at 90/70/50% of the checkpoint-all peak; with
# BIG=1 also a 351-node training graph. SECONDS (default 600) limits each
# LP. Prints a Markdown table; "speed-up" is the all-slack time over
# checkpoint-all's (">" where the all-slack LP hit the limit).
# Usage: bench/lp-start.sh [SECONDS]
. "$(dirname "$0")/common.sh"
bench=${BENCH:-$top/bench/lp_bench}
secs=${1:-600}
"$gen" training 35 3 >"$tmp/training-71.xml"
"$gen" training 75 3 >"$tmp/training-151.xml"
graphs="$top/graphs/linear-32.xml $top/graphs/resnet-4.xml
$top/graphs/unet-3.xml $tmp/training-71.xml $top/graphs/linear-64.xml
$tmp/training-151.xml"
if [ "${BIG:-0}" = 1 ]; then
	"$gen" training 175 3 >"$tmp/training-351.xml"
	graphs="$graphs $tmp/training-351.xml"
fi

echo "| graph | nodes | budget | rows | LP bound | checkpoint-all start | iterations | all-slack start | iterations | speed-up |"
echo "|---|---:|---:|---:|---:|---|---:|---|---:|---:|"
for g in $graphs; do
	for b in 90 70 50; do
		"$bench" "$g" "$b" "$secs" ckpt >"$tmp/a" &
		"$bench" "$g" "$b" "$secs" slack >"$tmp/b"
		wait
		paste -d, "$tmp/a" "$tmp/b" | awk -F, '
		function res(r, s) {
		    if (r == "optimal")
		        return sprintf("%.2f s", s)
		    if (r == "limit")
		        return sprintf("not solved in %.0f s", s)
		    return r
		}
		{
		    # the bound of a solved LP; both must agree when both are
		    bound = $10 == "optimal" ? $11 : $21 == "optimal" ? $22 : "-"
		    if ($10 == "optimal" && $21 == "optimal" &&
		        ($11 - $22 > 1e-6 * ($11 < 0 ? -$11 : $11) + 1e-9 ||
		         $22 - $11 > 1e-6 * ($11 < 0 ? -$11 : $11) + 1e-9))
		        bound = "MISMATCH " $11 " / " $22
		    if ($10 == "optimal" && $21 == "optimal" && $8 > 0)
		        up = sprintf("%.1fx", $19 / $8)
		    else if ($10 == "optimal" && $21 == "limit" && $8 > 0)
		        up = sprintf(">%.1fx", $19 / $8)
		    else
		        up = "-"
		    printf "| %s | %s | %s%% | %s | %s | %s | %s | %s | %s | %s |\n",
		        $1, $2, $3, $5, bound, res($10, $8), $9, res($21, $19), $20, up
		}'
	done
done
