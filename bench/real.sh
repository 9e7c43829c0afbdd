#!/bin/sh
# The shipped graphs (graphs/*.xml) at 90, 70 and 50% of the checkpoint-all
# peak and at the tightest budget where a heuristic fits, default run (every
# strategy) with --time-limit SECONDS (default 10), side by side with
# another build's default run (OLD=path/to/remat-plan; skipped when unset).
# Prints a Markdown table: the picked strategy and overhead of each run,
# DTR's overhead, the new run's extra cost over DTR's extra cost, and the
# lower bound's ratio to the baseline, and what the bound allows that
# ratio to be at least, (bound - 1) / (dtr - 1) (for frontier-advancing
# plans), the bound for every plan (cutbound.h) as a ratio to the
# baseline, and the picked plan's ratio to the bound it is set against
# (the run's bound for a frontier-advancing plan, else the one for every
# plan). Ends with the means of both over the cases where DTR fits and
# costs more than the baseline.
# Usage: bench/real.sh [SECONDS [GRAPHS...]]
. "$(dirname "$0")/common.sh"
secs=${1:-10}
[ $# -gt 0 ] && shift
graphs=${*:-$(ls "$top"/graphs/*.xml)}
old=${OLD:-}
heur=checkpoint-all,chen-sqrtn,chen-greedy,dtr,lookahead,peak-split,chain-dp,reorder

# The smallest budget (bytes) where one of the strategies other than
# lp-round and ilp fits (reorder, which runs lp-round over its order, with
# the time limit).
tightest() {
	info=$("$rp" --graph "$1" --info -f json)
	lo=$(echo "$info" | sed -n 's/.*"min_budget":\([0-9]*\).*/\1/p')
	hi=$(echo "$info" | sed -n 's/.*"checkpoint_all_peak":\([0-9]*\).*/\1/p')
	while [ $((hi - lo)) -gt $((hi / 1000)) ]; do
		mid=$(((lo + hi) / 2))
		if "$rp" --graph "$1" --budget "$mid" -s "$heur" -t "$secs" \
		    >/dev/null 2>&1; then
			hi=$mid
		else
			lo=$((mid + 1))
		fi
	done
	echo "$hi"
}

# run BINARY GRAPH BUDGET: the CSV report of a default run.
run() {
	"$1" --graph "$2" --budget "$3" -t "$secs" -f csv 2>/dev/null || true
}

# pick CSV: "strategy overhead cost" of the cheapest fitting row, or "- - -".
pick() {
	awk -F, '$1 != "strategy" && $1 != "lower bound" && $2 == "fits" &&
	    (c == "" || $3 + 0 < c) { c = $3 + 0; s = $1; o = $4 }
	    END { if (c == "") print "- - -"; else print s, o, c }' "$1"
}

printf '| graph | budget |'
[ -n "$old" ] && printf ' before: picked | before |'
printf ' now: picked | now | dtr | (now - 1) / (dtr - 1) | bound |'
printf ' (bound - 1) / (dtr - 1) | any-plan bound | picked / its bound |'
printf ' wall s |\n'
printf '|---|---:|'
[ -n "$old" ] && printf -- '---|---:|'
printf -- '---|---:|---:|---:|---:|---:|---:|---:|---:|\n'
for g in $graphs; do
	name=$(basename "$g" .xml)
	t=$(tightest "$g")
	for b in 90% 70% 50% "$t"; do
		label=$b
		[ "$b" = "$t" ] && label="tightest ($(awk -v t="$t" \
		    'BEGIN { if (t < 1048576) printf "%d B", t
		        else printf "%.1f MiB", t / 1048576 }'))"
		printf '| %s | %s |' "$name" "$label"
		if [ -n "$old" ]; then
			run "$old" "$g" "$b" >"$tmp/old.csv"
			set -- $(pick "$tmp/old.csv")
			printf ' %s | %s |' "$1" "$2"
		fi
		start=$(date +%s)
		run "$rp" "$g" "$b" >"$tmp/new.csv"
		wall=$(($(date +%s) - start))
		set -- $(pick "$tmp/new.csv")
		now=$2
		dtr=$(awk -F, '$1 == "dtr" && $2 == "fits" { print $4 }' "$tmp/new.csv")
		lb=$(awk -F, '$1 != "strategy" && $1 != "lower bound" && $4 > 0 {
		    base = $3 / $4 }
		    $1 == "lower bound" { lb = $2 == "infeasible" ? "inf" : $3 }
		    END { if (lb == "" || lb == "inf" || base <= 0) print lb;
		        else printf "%.3f\n", lb / base }' "$tmp/new.csv")
		rel=$(awk -v n="$now" -v d="${dtr:-}" 'BEGIN {
		    if (d == "" || n == "-" || d + 0 <= 1) print "-";
		    else printf "%.2f", (n - 1) / (d - 1) }')
		lbx=$(awk -F, '$1 != "strategy" && $1 != "lower bound" && $4 > 0 {
		    base = $3 / $4 }
		    $1 == "lower bound" && $2 != "infeasible" && base > 0 {
		        printf "%.9f\n", $3 / base }' "$tmp/new.csv")
		floor=$(awk -v l="${lbx:-}" -v d="${dtr:-}" 'BEGIN {
		    if (d == "" || l == "" || d + 0 <= 1) print "-";
		    else printf "%.2f", (l - 1) / (d - 1) }')
		# the bound for every plan: its own row, or the lower bound
		# where that holds for every plan
		any=$(awk -F, '$1 != "strategy" && $1 !~ /bound$/ && $4 > 0 {
		    base = $3 / $4 }
		    $1 == "any-plan bound" ||
		    ($1 == "lower bound" && $10 ~ /^every plan/) { a = $3 }
		    $1 == "lower bound" && $2 == "infeasible" &&
		    $10 == "no plan fits" { a = "inf" }
		    END { if (a == "" || a == "inf" || base <= 0) print a;
		        else printf "%.3f\n", a / base }' "$tmp/new.csv")
		vs=$(awk -F, '$9 == "yes" && $(NF - 1) != "" { printf "%.3f\n", $(NF - 1) }' \
		    "$tmp/new.csv")
		printf ' %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$1" \
		    "$now" "${dtr:--}" "$rel" "${lb:--}" "$floor" "${any:--}" \
		    "${vs:--}" "$wall"
	done
done | tee "$tmp/table"
awk -F'|' '{ v = $(NF - 6); f = $(NF - 4); gsub(/ /, "", v); gsub(/ /, "", f) }
    v ~ /^[0-9.]+$/ { s += v; k++; if (f ~ /^[0-9.]+$/) { fs += f; fk++ } }
    END { if (k) printf "\nmean (now - 1) / (dtr - 1) over %d cases: %.3f\n", k, s / k
        if (fk) printf "mean (bound - 1) / (dtr - 1) over %d of them: %.3f\n", fk, fs / fk }' \
    "$tmp/table"
