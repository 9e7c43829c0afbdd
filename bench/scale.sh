#!/bin/sh
# Resources of the default run at scale: random training graphs (gengraph
# training, N/2 forward nodes, a loss and their gradients: N+1 nodes) and
# random layered DAGs (gengraph layered) of 1k, 2k, 5k and 10k nodes, every
# strategy at 70% of the checkpoint-all peak with --time-limit SECONDS
# (default 20). Prints a Markdown table: wall time, peak resident memory,
# the plan picked and the note of ilp, whose model may not be built.
# Usage: bench/scale.sh [SECONDS [SIZES]]
. "$(dirname "$0")/common.sh"
secs=${1:-20}
sizes=${2:-1000 2000 5000 10000}
echo "| graph | nodes | edges | wall s | peak RSS MiB | picked | overhead | limit s |"
echo "|---|---:|---:|---:|---:|---|---:|---:|"
for n in $sizes; do
	"$gen" training $((n / 2)) 1 >"$tmp/training.xml"
	"$gen" layered "$n" 1 >"$tmp/layered.xml"
	for kind in training layered; do
		g=$tmp/$kind.xml
		/usr/bin/time -q -f "%e %M" -o "$tmp/time" "$rp" --graph "$g" \
		    --budget 70% -t "$secs" -f csv >"$tmp/r.csv" 2>/dev/null || true
		info=$("$rp" --graph "$g" --info -f json)
		nodes=$(echo "$info" | sed -n 's/.*"nodes":\([0-9]*\).*/\1/p')
		edges=$(echo "$info" | sed -n 's/.*"edges":\([0-9]*\).*/\1/p')
		set -- $(cat "$tmp/time")
		picked=$(awk -F, '$9 == "yes" { print $1 " " $4 }' "$tmp/r.csv")
		[ -n "$picked" ] || picked="no-plan -"
		echo "| $kind | $nodes | $edges | $1 | $(($2 / 1024)) | ${picked% *} | ${picked#* } | $secs |"
	done
done
