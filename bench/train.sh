#!/bin/sh
# Time per training step by a plan, on the CPU: the shipped graphs exported
# from PyTorch with their example plans (plans/), and the built-in GPT-style
# model planned at 60%.  tools/remat-exec runs each plan as generated code
# and an ordinary step (loss.backward()) in turn, best of REPEAT; the table
# gives both ratios: measured (plan / ordinary step) and predicted (the
# plan's cost over the baseline, on the graph's profiled costs).
# Usage: bench/train.sh [REPEAT [GRAPHS]]   (GRAPHS: names in graphs/)
. "$(dirname "$0")/common.sh"
py=/usr/bin/python3
repeat=${1:-3}
graphs=${2:-"mobilenet_v2-b16-s224 mobilenet_v2-b16-s224-c2 resnet50-b8-s224 resnet50-b8-s224-c2 unet-b2-s128 unet-b2-s128-c2 vgg16-b8-s224 vit_b_16-b4-s224 vit_b_16-b4-s224-c3"}
[ -x "$top/tools/remat-exec" ] || { echo "run make first" >&2; exit 1; }
echo "| graph | plan | recomputations | ordinary step ms | plan ms | measured | predicted | measured / predicted |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
row() {     # row NAME GRAPH PLAN
	"$py" "$top/tools/remat-exec" --graph "$2" --plan "$3" --repeat "$repeat" \
	    >"$tmp/out" 2>"$tmp/err" || { echo "| $1 | failed: $(tail -1 "$tmp/err") |"; return; }
	awk -v name="$1" -v plan="$(basename "$3")" '
	    /^graph / { rc = $(NF - 1) }
	    /^time: / {
	        gsub(/[(),;x]/, " ")
	        plan_ms = $3; step_ms = $7; meas = plan_ms / step_ms; pred = $13
	        printf "| %s | %s | %s | %.1f | %.1f | %.3f | %.3f | %.3f |\n",
	            name, plan, rc, step_ms, plan_ms, meas, pred, meas / pred }' "$tmp/out"
}
for g in $graphs; do
	p=$(ls "$top/plans/$g"-[0-9]*.xml 2>/dev/null | head -1)
	[ -n "$p" ] || continue
	row "$g" "$top/graphs/$g.xml" "$p"
done
"$py" "$top/tools/remat-export" --model gpt --batch 16 --size 128 -o "$tmp/gpt.xml" 2>/dev/null
"$rp" --graph "$tmp/gpt.xml" --budget 60% -t 10 -o "$tmp/gpt-60.xml" >/dev/null
row gpt-b16-s128 "$tmp/gpt.xml" "$tmp/gpt-60.xml"
