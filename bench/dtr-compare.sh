#!/bin/sh
# Compares the DTR heuristics on the shipped graphs at 90/70/50/30% of the
# checkpoint-all peak: overhead (cost / baseline), or OOM / THRASH. The
# default runs eager eviction and banishing and keeps the cheaper plan;
# DTR_MODE=--dtr-eager or --dtr-banish runs one. GRAPHS="a.xml b.xml" picks
# the graphs (default: all of graphs/). Prints a Markdown table.
. "$(dirname "$0")/common.sh"
mode=${DTR_MODE:-}
heuristics="dtr dtr-eqclass dtr-local lru largest msps random"
budgets="90 70 50 30"

printf '| graph | budget |'
for h in $heuristics; do printf ' %s |' "$h"; done
printf ' best Chen |\n|---|---:|'
for h in $heuristics; do printf -- '---:|'; done
printf -- '---:|\n'
for g in ${GRAPHS:-"$top"/graphs/*.xml}; do
	name=$(basename "$g" .xml)
	for b in $budgets; do
		printf '| %s | %s%% |' "$name" "$b"
		for h in $heuristics; do
			line=$("$rp" --graph "$g" --budget "$b%" --strategy dtr \
			    --dtr-heuristic "$h" $mode -f csv 2>/dev/null | sed -n 2p) || true
			case $line in
			dtr,fits,*) printf ' %.3f |' "$(echo "$line" | cut -d, -f4)" ;;
			*"out of memory"*) printf ' OOM |' ;;
			*thrashing*) printf ' THRASH |' ;;
			*) printf ' below min |' ;;
			esac
		done
		best=$("$rp" --graph "$g" --budget "$b%" --strategy chen-sqrtn,chen-greedy \
		    -f csv 2>/dev/null | awk -F, '$2 == "fits" { print $4 }' | sort -g | head -1)
		printf ' %s |\n' "${best:--}"
	done
done
