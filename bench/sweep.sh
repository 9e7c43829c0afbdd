#!/bin/sh
# A sweep against the single runs it replaces: the same budgets, the same
# strategies, one remat-plan process against one per budget, timed side by
# side in one run of this script. Prints a Markdown table.
# Usage: bench/sweep.sh [SECONDS]   (the solver time limit, default 5)
. "$(dirname "$0")/common.sh"
secs=${1:-5}
fast=checkpoint-all,chen-sqrtn,chen-greedy,dtr,lookahead,peak-split,chain-dp

# wall CMD...: the wall time of a command, in seconds.
wall() {
	t0=$(date +%s.%N)
	"$@" >/dev/null 2>&1 || true
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}

# singles GRAPH LO HI STEP ARGS...: single runs at every percentage.
singles() {
	g=$1 lo=$2 hi=$3 step=$4
	shift 4
	p=$lo
	while [ "$p" -le "$hi" ]; do
		"$rp" --graph "$g" --budget "$p%" "$@" >/dev/null 2>&1 || true
		p=$((p + step))
	done
}

echo "| graph | strategies | budgets | sweep s | single runs s | single / sweep |"
echo "|---|---|---:|---:|---:|---:|"
row() {
	name=$1 g=$2 what=$3 lo=$4 hi=$5 step=$6
	shift 6
	n=$(( (hi - lo) / step + 1 ))
	a=$(wall "$rp" --graph "$g" --sweep "$lo%:$hi%:$step%" "$@")
	b=$(wall singles "$g" "$lo" "$hi" "$step" "$@")
	r=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", (a > 0 ? b / a : 0) }')
	echo "| $name | $what | $n | $a | $b | $r |"
}
row unet-3 "$top/graphs/unet-3.xml" "7 heuristics" 40 100 2 -s "$fast"
row unet-3 "$top/graphs/unet-3.xml" "all, -t $secs" 40 100 5 -t "$secs"
row vit_b_16-b4-s224 "$top/graphs/vit_b_16-b4-s224.xml" "7 heuristics" 40 100 5 -s "$fast"
"$gen" random 20000 40000 1 >"$tmp/r20k.xml"
row "random 20k nodes" "$tmp/r20k.xml" "chen-greedy, chain-dp" 50 100 5 -s chen-greedy,chain-dp
