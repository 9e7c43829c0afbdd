#!/bin/sh
# Random layered DAGs of the kind Moccasin plans (gengraph layered, seed
# 1): n = 100, 250, 500 and 1000 nodes at 90, 80, 70, 60 and 50% of the
# checkpoint-all peak, every strategy with --time-limit SECONDS (default
# 60). Prints a Markdown table: each strategy's overhead where it fits
# ("-" where it does not), the lower bound's ratio to the baseline ("inf":
# no frontier-advancing plan fits; "none fits": the budget is below the
# smallest any plan could need, and the run was refused; "-": none), and
# the best plan's ratio to the bound ("*": the best plan is not
# frontier-advancing, and the bound, which holds for those only, does
# not bound it); then the bound for every plan (cutbound.h) and the best
# plan's ratio to the bound it is set against (the lower bound for a
# frontier-advancing plan, else the one for every plan).
# Usage: bench/layered.sh [SECONDS [SIZES [PERCENTS]]]
. "$(dirname "$0")/common.sh"
secs=${1:-60}
sizes=${2:-100 250 500 1000}
pcts=${3:-90 80 70 60 50}
strats=$("$rp" --help | sed -n '/^strategies:/,/^$/p' | awk 'NF > 1 { print $1 }')
printf '| n | edges | budget |'
for s in $strats; do printf ' %s |' "$s"; done
printf ' bound | best / bound | any-plan bound | best / its bound | wall s |'
printf '\n|---:|---:|---:|'
for s in $strats; do printf -- '---:|'; done
printf -- '---:|---:|---:|---:|---:|\n'
for n in $sizes; do
	"$gen" layered "$n" 1 >"$tmp/g.xml"
	edges=$("$rp" --graph "$tmp/g.xml" --info -f json |
	    sed -n 's/.*"edges":\([0-9]*\).*/\1/p')
	for b in $pcts; do
		start=$(date +%s)
		"$rp" --graph "$tmp/g.xml" --budget "$b%" -t "$secs" -f csv \
		    >"$tmp/r.csv" 2>/dev/null || true
		wall=$(($(date +%s) - start))
		printf '| %s | %s | %s%% |' "$n" "$edges" "$b"
		if grep -q ',"not run: the budget is below the smallest' \
		    "$tmp/r.csv"; then
			# refused before planning: below the smallest budget
			# any plan could need, which is proved
			for s in $strats; do printf ' - |'; done
			printf ' none fits | - | - | - | %s |\n' "$wall"
			continue
		fi
		for s in $strats; do
			awk -F, -v s="$s" '$1 == s {
			    printf " %s |", $2 == "fits" ? sprintf("%.3f", $4) : "-" }' \
			    "$tmp/r.csv"
		done
		awk -F, -v wall="$wall" '
		    $1 != "strategy" && $1 !~ /bound$/ && $4 > 0 { base = $3 / $4 }
		    $1 != "strategy" && $1 !~ /bound$/ && $2 == "fits" &&
		        (best == "" || $3 + 0 < best) {
		        best = $3 + 0; fa = $NF; vs = $(NF - 1) }
		    $1 == "lower bound" { lb = $2 == "infeasible" ? "inf" : $3 }
		    $1 == "any-plan bound" ||
		        ($1 == "lower bound" && $10 ~ /^every plan/) { any = $3 }
		    END {
		        if (lb == "") printf " - |"
		        else if (lb == "inf") printf " inf |"
		        else printf " %.3f |", (base > 0 ? lb / base : 0)
		        if (best != "" && lb != "" && lb != "inf")
		            printf " %.3f%s |", best / lb, fa == "no" ? "*" : ""
		        else printf " - |"
		        if (any != "" && base > 0) printf " %.3f |", any / base
		        else printf " - |"
		        if (vs != "") printf " %.3f |", vs
		        else printf " - |"
		        printf " %s |\n", wall
		    }' "$tmp/r.csv"
	done
done
