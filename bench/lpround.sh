#!/bin/sh
# LP rounding with and without its trim and fill passes, side by side in one
# run: for each graph and budget (90/70/50% of the checkpoint-all peak), the
# LP bound, the best heuristic plan (checkpoint-all, Chen, DTR), Checkmate's
# two-phase rounding alone (--round-plain), then with the passes, each as
# cost, ratio to the best plan known (the best of these rows) and seconds.
# GRAPHS="a.xml b.xml" picks the graphs (default: the shipped graphs of at
# most 130 nodes, whose LP GLPK solves in well under a minute); SECONDS_LIMIT
# (default 120) is the --time-limit of each run. Prints a Markdown table.
. "$(dirname "$0")/common.sh"
limit=${SECONDS_LIMIT:-120}
budgets="90 70 50"

if [ -z "${GRAPHS:-}" ]; then
	GRAPHS=
	for g in "$top"/graphs/*.xml; do
		n=$("$rp" --graph "$g" --info | sed -n 's/.*: \([0-9]*\) nodes.*/\1/p')
		[ "$n" -le 130 ] && GRAPHS="$GRAPHS $g"
	done
fi

# field STRATEGY COLUMN FILE: a column of a strategy's CSV row.
field() {
	awk -F, -v s="$1" -v c="$2" '$1 == s { print $c }' "$3"
}

echo '| graph | nodes | budget | LP bound | best heuristic | plain | plain / best | plain s | with passes | passes / best | passes s | how |'
echo '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|'
for g in $GRAPHS; do
	name=$(basename "$g" .xml)
	n=$("$rp" --graph "$g" --info | sed -n 's/.*: \([0-9]*\) nodes.*/\1/p')
	for b in $budgets; do
		"$rp" --graph "$g" --budget "$b%" -f csv --time-limit "$limit" \
		    --strategy checkpoint-all,chen-sqrtn,chen-greedy,dtr \
		    >"$tmp/h.csv" 2>/dev/null || true
		"$rp" --graph "$g" --budget "$b%" -f csv --time-limit "$limit" \
		    --strategy lp-round --round-plain >"$tmp/p.csv" 2>/dev/null || true
		"$rp" --graph "$g" --budget "$b%" -f csv --time-limit "$limit" \
		    --strategy lp-round >"$tmp/r.csv" 2>/dev/null || true
		heur=$(awk -F, '$2 == "fits" && (b == "" || $3 + 0 < b + 0) { b = $3 }
		    END { print b }' "$tmp/h.csv")
		bound=$(field "lower bound" 3 "$tmp/r.csv")
		pst=$(field lp-round 2 "$tmp/p.csv")
		rst=$(field lp-round 2 "$tmp/r.csv")
		pc=$(field lp-round 3 "$tmp/p.csv")
		rc=$(field lp-round 3 "$tmp/r.csv")
		[ "$pst" = fits ] || pc=
		[ "$rst" = fits ] || rc=
		best=$(printf '%s\n' "$heur" "$pc" "$rc" | awk 'NF && (b == "" ||
		    $1 + 0 < b + 0) { b = $1 } END { print b }')
		# What the passes did, from the note ("then ... (trim pass)").
		how=$(grep '^lp-round,' "$tmp/r.csv" | grep -oE 'then [^,"]*' |
		    sed 's/^then //' | paste -sd ';' - || true)
		awk -v name="$name" -v n="$n" -v b="$b" -v lb="$bound" \
		    -v h="$heur" -v pc="$pc" -v rc="$rc" -v best="$best" \
		    -v ps="$(field lp-round 8 "$tmp/p.csv")" \
		    -v rs="$(field lp-round 8 "$tmp/r.csv")" -v how="$how" 'BEGIN {
			f = "%.6g"
			printf "| %s | %s | %s%% | %s | %s |", name, n, b,
			    lb == "" ? "-" : sprintf(f, lb), h == "" ? "-" : sprintf(f, h)
			printf " %s | %s | %.2f |", pc == "" ? "-" : sprintf(f, pc),
			    pc == "" ? "-" : sprintf("%.3f", pc / best), ps
			printf " %s | %s | %.2f | %s |\n", rc == "" ? "-" : sprintf(f, rc),
			    rc == "" ? "-" : sprintf("%.3f", rc / best), rs,
			    how == "" ? "-" : how
		}'
	done
done
