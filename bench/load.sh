#!/bin/sh
# Loader speed: times reading, validating and ordering random DAGs of
# 1k..16k nodes (2 edges per node), best of 5 runs each, side by side with
# a bare libxml2 parse of the same file (xmllint --noout) as the yardstick.
# The 10,000-node, 20,000-edge row is the one the loader is held to:
# "well under a second". Usage: bench/load.sh (from a built tree).
. "$(dirname "$0")/common.sh"

# best of 5 of a command's wall time in ms
best_ms() {
	b=
	for i in 1 2 3 4 5; do
		s=$(date +%s%N)
		"$@" >/dev/null 2>&1
		e=$(date +%s%N)
		t=$(( (e - s) / 1000 ))
		if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
	done
	echo "$b" | awk '{ printf "%.1f", $1 / 1000 }'
}

# best of 5 of the load time remat-plan reports with -v
load_ms() {
	for i in 1 2 3 4 5; do
		"$rp" --graph "$1" --info -v 2>&1 >/dev/null |
		    sed -n 's/.* in \([0-9.]*\) ms$/\1/p'
	done | sort -g | head -1
}

printf '%8s %8s %10s %12s %14s %12s %8s\n' nodes edges "file KiB" "load ms" "--info ms" "xmllint ms" ratio
for n in 1000 2000 4000 8000 10000 16000; do
	m=$((2 * n))
	f=$tmp/g$n.xml
	"$gen" random $n $m 1 >"$f"
	kib=$(( $(wc -c <"$f") / 1024 ))
	load=$(load_ms "$f")
	whole=$(best_ms "$rp" --graph "$f" --info)
	if command -v xmllint >/dev/null; then
		xl=$(best_ms xmllint --noout "$f")
		ratio=$(echo "$load $xl" | awk '{ printf "%.2f", $1 / $2 }')
	else
		xl=-
		ratio=-
	fi
	printf '%8d %8d %10d %12s %14s %12s %8s\n' $n $m $kib "$load" "$whole" "$xl" "$ratio"
done
echo "load ms: remat-plan's own measurement of reading, checking and ordering"
echo "--info ms: the whole process, including the checkpoint-all replay"
echo "ratio: load ms / xmllint ms (a bare libxml2 parse of the same file)"
