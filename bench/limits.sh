#!/bin/sh
# Time and memory limits at scale: random DAGs (gengraph random) of 1k, 5k,
# 20k and 100k nodes, sparse (2 edges per node) and dense (20 per node), at
# 50% of the checkpoint-all peak with --time-limit SECONDS (default 10):
# each strategy alone, then the default run (every strategy). Prints a
# Markdown table: each run's time to read the graph (its own -v line),
# its wall time and peak resident memory, whether it kept to its limit
# once the graph was read (a strategy alone: the limit + 1 s; the default
# run: twice the limit + 2 s), and the status of a strategy run alone.
# Usage: bench/limits.sh [SECONDS [SIZES [DENSITIES]]]
. "$(dirname "$0")/common.sh"
secs=${1:-10}
sizes=${2:-1000 5000 20000 100000}
dens=${3:-2 20}
strats=$("$rp" --help | sed -n '/^strategies:/,/^$/p' | awk 'NF > 1 { print $1 }')
echo "| nodes | edges | run | read s | wall s | after reading s | peak RSS MiB | within limit | status |"
echo "|---:|---:|---|---:|---:|---:|---:|---|---|"
for n in $sizes; do
	for d in $dens; do
		g=$tmp/g.xml
		"$gen" random "$n" $((n * d)) 1 >"$g"
		"$rp" --graph "$g" --info -f json >"$tmp/info" 2>/dev/null || true
		edges=$(sed -n 's/.*"edges":\([0-9]*\).*/\1/p' "$tmp/info")
		for s in $strats default; do
			if [ "$s" = default ]; then
				set -- --graph "$g" --budget 50% -t "$secs" -f csv -v
				lim=$(awk -v s="$secs" 'BEGIN { print 2 * s + 2 }')
			else
				set -- --graph "$g" --budget 50% -t "$secs" -f csv -v -s "$s"
				lim=$(awk -v s="$secs" 'BEGIN { print s + 1 }')
			fi
			/usr/bin/time -q -f "%e %M" -o "$tmp/time" "$rp" "$@" \
			    >"$tmp/r.csv" 2>"$tmp/log" || true
			read -r wall rss <"$tmp/time"
			load=$(sed -n 's/^remat-plan: loaded .* in \([0-9.]*\) ms$/\1/p' "$tmp/log" |
			    awk '{ printf "%.2f", $1 / 1000 }')
			tail -1 "$tmp/log" >"$tmp/err"
			after=$(awk -v w="$wall" -v a="$load" 'BEGIN { printf "%.2f", w - a }')
			ok=$(awk -v w="$after" -v l="$lim" 'BEGIN { print (w <= l) }')
			[ "$ok" = 1 ] && ok=yes || ok="**no** (limit $lim s)"
			if [ "$s" = default ]; then
				st=$(awk -F, '$9 == "yes" { print "picked " $1 }' "$tmp/r.csv")
				[ -n "$st" ] || ! grep -q "no strategy fits" "$tmp/log" ||
				    st="no plan fits"
				[ -n "$st" ] || st=$(head -c 80 "$tmp/err")
			else
				st=$(awk -F, -v s="$s" '$1 == s { print $2 }' "$tmp/r.csv")
				[ -n "$st" ] || st=$(head -c 80 "$tmp/err")
			fi
			echo "| $n | $edges | $s | $load | $wall | $after | $((rss / 1024)) | $ok | $st |"
		done
	done
done
