#!/bin/sh
# Random training graphs (gengraph training N SEED: 2N + 1 nodes, with
# recompute=false nodes as exports have them) at 70, 55 and 45% of the
# checkpoint-all peak, default run (every strategy) with --time-limit
# SECONDS (default 3), side by side with another build's default run
# (OLD=path/to/remat-plan; skipped when unset). Prints a Markdown table of
# the picked strategy and overhead of each run ("-": no plan).
# Usage: bench/training.sh [SECONDS [N...]]
. "$(dirname "$0")/common.sh"
secs=${1:-3}
[ $# -gt 0 ] && shift
sizes=${*:-15 25 40 60}
old=${OLD:-}

# pick BINARY GRAPH BUDGET: "strategy overhead" of the picked plan, or "- -".
pick() {
	"$1" --graph "$2" --budget "$3" -t "$secs" -f csv 2>/dev/null |
	    awk -F, '$9 == "yes" { p = $1 " " $4 } END { print p == "" ? "- -" : p }'
}

printf '| graph | nodes | budget |'
[ -n "$old" ] && printf ' before: picked | before |'
printf ' now: picked | now |\n|---|---:|---:|'
[ -n "$old" ] && printf -- '---|---:|'
printf -- '---|---:|\n'
for n in $sizes; do
	for seed in 1 2 3; do
		g=$tmp/training-$n-$seed.xml
		"$gen" training "$n" "$seed" >"$g"
		nodes=$((2 * n + 1))
		for b in 70% 55% 45%; do
			printf '| training %s %s | %s | %s |' "$n" "$seed" "$nodes" "$b"
			if [ -n "$old" ]; then
				set -- $(pick "$old" "$g" "$b")
				printf ' %s | %s |' "$1" "$2"
			fi
			set -- $(pick "$rp" "$g" "$b")
			printf ' %s | %s |\n' "$1" "$2"
		done
	done
done
