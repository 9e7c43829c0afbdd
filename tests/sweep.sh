#!/bin/sh
# Sweeps (--sweep, --budgets), --budget min and --plot: a sweep shows the
# figures of single runs at the same budgets, never a looser budget costing
# more than a tighter one, and writes plans that pass --check; --budget
# min's budgets fit and 1% less does not; the picture is valid XML and
# renders; bad ranges are usage errors. The quick suite runs --budget min
# on the shipped graphs of up to 200 nodes (100 in a sanitized build),
# make check-slow on all of them.
. "${top_srcdir:-.}/tests/lib.sh"
no_leak_check

# Strategies that end well within their limits, so that a sweep and single
# runs see the same figures whatever the machine's speed.
FAST=checkpoint-all,chen-sqrtn,chen-greedy,dtr,lookahead,peak-split,chain-dp
U=$SRC/graphs/unet-3.xml

# --- --budget min on every shipped graph -----------------------------------
# A limit far above what the FAST strategies take (peak-split's restarts on
# ResNet-50's operator graph near its smallest budget take 2 s, three times
# that in the sanitizer build), so that no run is cut short by it and the
# search and the single runs agree. The quick suite takes the graphs of up
# to 200 nodes (the operator-level ResNet-50, MobileNetV2 and ViT-B take
# 12-28 s each); make check-slow takes them all. A sanitized build's
# quick suite takes those of up to 100 nodes (the three of 129 and 148
# take a minute there; the plain build's quick suite runs them). (First:
# the rest of check-slow, lib.sh, ends after it.)
quick_nodes=200
sanitized && quick_nodes=100
for g in "$SRC"/graphs/*.xml; do
	name=$(basename "$g" .xml)
	q=1
	[ "$(grep -c '<node ' "$g")" -le $quick_nodes ] || q=0
	case_runs $q || continue
	if ! "$RP" --graph "$g" --budget min -s $FAST -t 30 -f csv \
	    -o "$TMP/min.xml" >"$TMP/min.csv" 2>"$TMP/err"; then
		fail "$name: --budget min failed: $(cat "$TMP/err")"
		continue
	fi
	bad=
	# each strategy: fits at its budget, no plan 1% below
	while IFS=, read -r s found b pc ov peak nope runs lowest minb cut tree; do
		# within the whole search's 60 s no run is cut short either
		[ "$cut" = no ] || bad="$bad $s:cut_short=$cut"
		[ "$found" = yes ] || continue
		"$RP" --graph "$g" --budget "$b" -s "$s" -t 30 >/dev/null 2>&1 ||
		    bad="$bad $s:no-fit-at-$b"
		b99=$((b - (b + 99) / 100))
		[ "$nope" = "$b99" ] || bad="$bad $s:no_plan_at=$nope,want-$b99"
		"$RP" --graph "$g" --budget "$b99" -s "$s" -t 30 >/dev/null 2>&1
		[ $? = 1 ] || bad="$bad $s:fits-at-$b99"
		if [ "$lowest" = yes ]; then
			"$RP" --graph "$g" --check "$TMP/min.xml" --budget "$b" \
			    >/dev/null 2>&1 || bad="$bad $s:plan-fails-check"
		fi
		[ "$b" -ge "$minb" ] || bad="$bad $s:below-the-bound"
		# a plan exists from the tree plan's budget (empty: none)
		[ -z "$tree" ] || [ "$tree" -ge "$minb" ] ||
		    bad="$bad $s:tree-plan-below-the-bound"
	done <<EOF
$(tail -n +2 "$TMP/min.csv")
EOF
	[ -z "$bad" ] &&
	    pass "$name: --budget min: each budget fits, 1% less finds no plan" ||
	    fail "$name: --budget min:$bad"
done
if rest; then
	finish
	exit
fi

# --- a sweep is single runs, made monotone --------------------------------
"$RP" --graph "$U" --sweep 40%:100%:2% -s $FAST -f csv -o "$TMP/plans" \
    >"$TMP/sweep.csv" 2>"$TMP/err"
rc=$?
[ $rc = 0 ] && [ "$(wc -l <"$TMP/sweep.csv")" = 32 ] &&
    pass "sweep of unet-3 from 40% to 100% in steps of 2%: 31 budgets" ||
    fail "sweep of unet-3: status $rc, $(wc -l <"$TMP/sweep.csv") lines
$(cat "$TMP/err")"
# column k+2 of the sweep is strategy k; carried figures are listed as
# strategy@budget in the carried column
bad=0 same=0 carried=0
tail -n +2 "$TMP/sweep.csv" | while IFS= read -r line; do
	b=$(echo "$line" | cut -d, -f1)
	"$RP" --graph "$U" --budget "$b" -s $FAST -f csv >"$TMP/one.csv" 2>/dev/null
	k=0
	for s in $(echo $FAST | tr , ' '); do
		k=$((k + 1))
		got=$(echo "$line" | cut -d, -f$((k + 2)))
		own=$(awk -F, -v s="$s" '$1 == s { print ($2 == "fits" ? $4 : \
		    ($2 == "over budget" ? "over budget" : "no plan")) }' "$TMP/one.csv")
		# below the smallest budget, the single run's rows say the
		# strategies were not run
		grep -q ',"not run: the budget is below the smallest' \
		    "$TMP/one.csv" && own="below minimum"
		from=$(echo "$line" | cut -d, -f13 | tr ';' '\n' |
		    sed -n "s/^$s@//p")
		if [ -z "$from" ]; then
			[ "$got" = "$own" ] && echo same || echo "bad $s at $b: sweep '$got', single run '$own'"
		else
			# a cheaper plan of a tighter budget: the single run
			# there found it, and here finds none cheaper
			then=$("$RP" --graph "$U" --budget "$from" -s "$s" -f csv |
			    awk -F, -v s="$s" '$1 == s { print $4 }')
			[ "$got" = "$then" ] && { [ "$own" = "no plan" ] ||
			    [ "$own" = "over budget" ] ||
			    awk -v a="$got" -v b="$own" 'BEGIN { exit !(a < b) }'; } &&
			    echo carried || echo "bad $s at $b: carried '$got' from $from ('$then' there), own '$own'"
		fi
	done
done >"$TMP/cmp"
n_same=$(grep -c '^same$' "$TMP/cmp")
n_carried=$(grep -c '^carried$' "$TMP/cmp")
if grep -q '^bad' "$TMP/cmp" || [ "$n_carried" = 0 ]; then
	fail "sweep figures differ from single runs
$(grep '^bad' "$TMP/cmp")"
else
	pass "sweep figures are the single runs' ($n_same equal, $n_carried carried from a tighter budget, cheaper)"
fi
# chain-dp solves its program once for the budgets of a sweep that share
# a memory grid: the figures are still the single runs'
V=$SRC/graphs/vit_b_16-b4-s224.xml
"$RP" --graph "$V" --sweep 80%:100%:5% -s chain-dp -f csv -v \
    >"$TMP/v.csv" 2>"$TMP/v.log"
bad=
for b in $(tail -n +2 "$TMP/v.csv" | cut -d, -f1); do
	got=$(awk -F, -v b="$b" '$1 == b { print $3 }' "$TMP/v.csv")
	own=$("$RP" --graph "$V" --budget "$b" -s chain-dp -f csv |
	    awk -F, '$1 == "chain-dp" { print $4 }')
	[ "$got" = "$own" ] || bad="$bad $b:$got/$own"
done
[ -z "$bad" ] && [ "$(grep -c 'solved for an earlier budget' "$TMP/v.log")" = 4 ] &&
    pass "chain-dp in a sweep: one program for 5 budgets, the single runs' figures" ||
    fail "chain-dp in a sweep:$bad, $(grep -c 'solved for an earlier' "$TMP/v.log") reuses"
# monotone: down each strategy's column (increasing budget), figures never rise
awk -F, 'NR > 1 { for (k = 3; k <= 9; k++) if ($k ~ /^[0-9.]+$/) {
	if (k in last && $k + 0 > last[k] + 0) { print "column " k " rises at " $1; bad = 1 }
	last[k] = $k } } END { exit bad }' "$TMP/sweep.csv" >"$TMP/mono" &&
    pass "every strategy's figure falls or stays as the budget grows" ||
    fail "figures rise with the budget
$(cat "$TMP/mono")"
# reorder and pebble at the checkpoint-all peak: its plan (they said
# "none" there, reorder finding no order of lower peak, pebble no
# recomputation to search for with the graph's recompute=false node)
"$RP" --graph "$U" --budget 100% -s reorder,pebble -f csv >"$TMP/full.csv" 2>&1
[ "$(awk -F, '$2 == "fits" && $4 == "1.000000" && $7 == 0' "$TMP/full.csv" | wc -l)" = 2 ] &&
    pass "reorder and pebble at the checkpoint-all peak: checkpoint-all's plan" ||
    fail "reorder and pebble at the checkpoint-all peak: $(cat "$TMP/full.csv")"
# -o DIR: the picked plan of every budget with one, each passing --check
n=0 ok=0
tail -n +2 "$TMP/sweep.csv" | awk -F, '$(NF-1) != "" { print $1, $(NF-1), $(NF-4) }' >"$TMP/files"
# what each bound holds for, as the JSON says (the CSV did not say it)
awk -F, 'NR > 1 && $(NF-3) != "" && $(NF-3) != "infeasible" &&
    $NF != "every plan" && $NF != "frontier-advancing plans" { bad = 1 }
    NR > 1 && $(NF-3) == "" && $NF != "" { bad = 1 }
    END { exit bad }' "$TMP/sweep.csv" && grep -q ',every plan$' "$TMP/sweep.csv" &&
    pass "the sweep's CSV says what each bound holds for" ||
    fail "the sweep's CSV: lower_bound_holds_for missing or wrong"
while read -r b f ov; do
	n=$((n + 1))
	c=$("$RP" --graph "$U" --check "$f" --budget "$b" -f csv 2>&1 | tail -1 |
	    cut -d, -f4,9)
	[ "$c" = "$ov,yes" ] && ok=$((ok + 1)) || note "$f: $c, want $ov,yes"
done <"$TMP/files"
[ $n -ge 20 ] && [ $ok = $n ] &&
    pass "-o DIR: the plan of each of the $n budgets with one passes --check at its figure" ||
    fail "-o DIR: $ok of $n plans pass --check"
# determinism: the same sweep again, the same plans byte for byte
"$RP" --graph "$U" --sweep 40%:100%:2% -s $FAST -f csv -o "$TMP/plans2" \
    >/dev/null 2>&1
diff -r "$TMP/plans" "$TMP/plans2" >/dev/null &&
    pass "a sweep writes the same plans twice" ||
    fail "a sweep writes different plans"
# --budgets: unsorted with duplicates, in bytes and percentages
"$RP" --graph "$U" --budgets 90%,70%,81.4M,90% -s dtr -f csv \
    >"$TMP/list.csv" 2>&1
[ "$(cut -d, -f1 "$TMP/list.csv" | tr '\n' ' ')" = "budget_bytes 85327874 85354086 109707267 " ] &&
    pass "--budgets: each budget once, in increasing order" ||
    fail "--budgets: $(cut -d, -f1 "$TMP/list.csv" | tr '\n' ' ')"
# byte ranges end at HI, never past it
"$RP" --graph "$SRC/graphs/linear-8.xml" --sweep 1:30000000000:10000000000 \
    -s dtr -f csv >"$TMP/bytes.csv" 2>&1
[ "$(cut -d, -f1 "$TMP/bytes.csv" | tr '\n' ' ')" = "budget_bytes 1 10000000001 20000000001 " ] &&
    pass "--sweep in bytes: LO, LO + STEP, ... up to HI" ||
    fail "--sweep in bytes: $(cut -d, -f1 "$TMP/bytes.csv" | tr '\n' ' ')"
# JSON is valid, with a row per budget
"$RP" --graph "$U" --sweep 60%:80%:10% -s dtr,peak-split -f json >"$TMP/s.json"
"$PY3" -c "import json,sys; d = json.load(open(sys.argv[1])); \
assert len(d['rows']) == 3 and d['strategies'] == ['dtr', 'peak-split']" \
    "$TMP/s.json" 2>"$TMP/err" && pass "--format json: valid, a row per budget" ||
    fail "--format json: $(cat "$TMP/err")"
# A plan over the budget has its cost, peak and recomputations there, as
# in a single run's JSON (they were left out).
"$RP" --graph "$U" --sweep 60%:80%:20% -s checkpoint-all,dtr -f json \
    >"$TMP/s.json" 2>/dev/null
"$RP" --graph "$U" --budget 60% -s checkpoint-all -f json >"$TMP/one.json" \
    2>/dev/null
"$PY3" -c "import json,sys
s, o = (json.load(open(p)) for p in sys.argv[1:])
c, d = s['rows'][0]['results'][0], o['results'][0]
assert c['status'] == d['status'] == 'over budget', (c, d)
assert all(c[k] == d[k] for k in ('cost', 'overhead', 'peak', 'recomputes')), (c, d)" \
    "$TMP/s.json" "$TMP/one.json" 2>"$TMP/err" &&
    pass "--format json: a plan over the budget has its figures, as in a single run" ||
    fail "--format json, a plan over the budget: $(tail -1 "$TMP/err")"
# nothing fits anywhere: status 1
"$RP" --graph "$U" --sweep 30%:40%:5% -s dtr >/dev/null 2>"$TMP/err"
rc=$?
[ $rc = 1 ] && grep -q "no strategy fits any budget of the sweep" "$TMP/err" &&
    pass "a sweep where nothing fits: status 1" ||
    fail "a sweep where nothing fits: status $rc, $(cat "$TMP/err")"

# on a terminal, a progress line names the budget and the strategy, and
# is cleared at the end (script(1) gives the run a terminal)
if command -v script >/dev/null 2>&1; then
	script -qec "'$RP' --graph '$U' --sweep 60%:80%:10% -s dtr,peak-split -f csv >/dev/null" \
	    /dev/null >"$TMP/tty" 2>&1
	grep -q "budget 3 of 3 (93.0 MiB): running peak-split (2 of 2)" "$TMP/tty" &&
	    [ "$(tail -c 4 "$TMP/tty" | od -An -c | tr -d ' ')" = '\r033[K' ] &&
	    pass "a sweep shows its progress on a terminal, cleared at the end" ||
	    fail "no progress on a terminal: $(od -c "$TMP/tty" | head -5)"
else
	fail "script(1) is needed to give a sweep a terminal (Debian: bsdutils)"
fi

# --- what the bound holds for ---------------------------------------------
# A sweep's bound column said "it holds for frontier-advancing plans when
# above 1.000x", also where it was the bound for every plan (heuristics
# only). Now a bound for frontier-advancing plans only is marked '^', as
# its JSON says, and a run of heuristics has no mark.
"$RP" --graph "$U" --budgets 70%,80% -s dtr >"$TMP/out" 2>"$TMP/err"
! grep -q '\^' "$TMP/out" &&
    grep -q '^bound: the strongest lower bound found at that budget, which holds for every plan$' "$TMP/out" &&
    pass "a sweep of heuristics: its bounds hold for every plan, and say so" ||
    fail "a sweep of heuristics: $(tail -2 "$TMP/out")"
"$RP" --graph "$U" --budgets 70%,80% -s dtr,lp-round -t 20 >"$TMP/out" 2>"$TMP/err"
"$RP" --graph "$U" --budgets 70%,80% -s dtr,lp-round -t 20 -f json >"$TMP/json" 2>"$TMP/err"
# (At 70% the LP's bound and the one for every plan agree but for
# rounding: one bound, for every plan.)
grep -q '^93.0 MiB .*x^$' "$TMP/out" && grep -q '^81.4 MiB .*[0-9]x$' "$TMP/out" &&
    grep -q '; ^: only for frontier-advancing plans' "$TMP/out" &&
    [ "$(grep -o '"lower_bound_holds_for":"frontier-advancing plans"' "$TMP/json" | wc -l)" = 1 ] &&
    [ "$(grep -o '"lower_bound_holds_for":"every plan"' "$TMP/json" | wc -l)" = 1 ] &&
    pass "a sweep with the LP: its bound for frontier-advancing plans is marked, in JSON too" ||
    fail "a sweep with the LP: $(cat "$TMP/out") $(grep -o '"lower_bound_holds_for":"[^"]*"' "$TMP/json")"

# Plans as cheap but for rounding (the same computations summed in
# another order) are a tie: the strategy listed first is picked, as the
# man page says (lp-round's sum was 1e-14 below lookahead's and won).
"$RP" --graph "$U" --budget 100MB -s lookahead,peak-split,lp-round -t 20 \
    >"$TMP/out" 2>"$TMP/err"
grep -q '^picked lookahead: ' "$TMP/out" &&
    pass "plans as cheap but for rounding: the first listed is picked" ||
    fail "a tie but for rounding: $(grep -A3 '^lookahead\|^picked' "$TMP/out")"

# --- the picture ----------------------------------------------------------
"$RP" --graph "$U" --sweep 40%:100%:10% -s $FAST,lp-round -t 20 \
    --plot "$TMP/u.svg" >/dev/null 2>"$TMP/err"
rc=$?
[ $rc = 0 ] && head -2 "$TMP/u.svg" | grep -q '<svg xmlns="http://www.w3.org/2000/svg"' &&
    [ "$(grep -c '<polyline' "$TMP/u.svg")" -ge 6 ] &&
    pass "--plot writes an SVG with a line per strategy" ||
    fail "--plot: status $rc $(cat "$TMP/err")"
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout "$TMP/u.svg" 2>"$TMP/err" &&
	    pass "the SVG is well-formed XML (xmllint)" ||
	    fail "xmllint: $(cat "$TMP/err")"
else
	fail "xmllint is needed to check the SVG (Debian: libxml2-utils)"
fi
if command -v rsvg-convert >/dev/null 2>&1; then
	rsvg-convert "$TMP/u.svg" -o "$TMP/u.png" 2>"$TMP/err" &&
	    [ "$(head -c 4 "$TMP/u.png" | od -An -c | tr -d ' ')" = '211PNG' ] &&
	    [ "$(wc -c <"$TMP/u.png")" -gt 20000 ] &&
	    pass "the SVG renders to PNG (rsvg-convert, $(wc -c <"$TMP/u.png") bytes)" ||
	    fail "rsvg-convert: $(cat "$TMP/err")"
else
	fail "rsvg-convert is needed to render the SVG (Debian: librsvg2-bin)"
fi

# The lower bound's band: it ended in an edge at the last budget with a
# bound above the baseline (not sloping down to the next, whose bound is
# the baseline), and a sweep of one budget drew it without width.
# band SVG: the band's leftmost and rightmost x, then the lines'.
band() {
	"$PY3" -c "import re, sys
s = open(sys.argv[1]).read()
def xs(kind):
    pts = ' '.join(re.findall(r'<%s[^>]* points=\"([^\"]*)\"' % kind, s))
    return [float(p.split(',')[0]) for p in pts.split()] or [0]
b, l = xs('polygon class=\"bound\"'), xs('polyline')
print(min(b), max(b), min(l), max(l))" "$1"
}
set -- $(band "$TMP/u.svg")
[ "$2" = "$4" ] &&
    pass "the band reaches the last budget, whose bound is the baseline" ||
    fail "the band ends at x $2, the lines at $4"
"$RP" --graph "$U" --budgets 70% -s dtr,peak-split -t 20 \
    --plot "$TMP/one.svg" >/dev/null 2>"$TMP/err"
set -- $(band "$TMP/one.svg")
awk -v a="$1" -v b="$2" 'BEGIN { exit !(b - a > 4) }' &&
    pass "a sweep of one budget draws its band with a width" ||
    fail "the band of one budget: x from $1 to $2"

# What the band holds for: with no LP (dtr and peak-split) the bound is
# the one for every plan, which the legend said was for frontier-advancing
# plans only.
grep -q '>(every plan)</text>' "$TMP/one.svg" &&
    pass "the legend says the band of the bound for every plan holds for it" ||
    fail "the band's legend: $(grep -o '<text class="small"[^<]*' "$TMP/one.svg")"
# The legend names only the regions drawn: at 70% alone, nothing is below
# the smallest possible budget (it was listed). The x axis is labelled
# "budget", its ticks having units (it said "budget (bytes)" over MiB).
! grep -q 'possible budget</text>' "$TMP/one.svg" &&
    grep -q 'possible budget</text>' "$TMP/u.svg" &&
    grep -q '>budget</text>' "$TMP/u.svg" && ! grep -q 'budget (bytes)' "$TMP/u.svg" &&
    pass "--plot: the legend's regions those drawn, the axis labelled" ||
    fail "--plot: the legend or the axis"
# Each strategy's line has its own colour (ten colours served eleven).
"$RP" --graph "$U" --budgets 70% -t 0.5 --plot "$TMP/all.svg" \
    >/dev/null 2>"$TMP/err"
n=$(grep -c 'stroke-width="2.5"' "$TMP/all.svg")
k=$(grep -o 'stroke="#[0-9a-f]*" stroke-width="2.5"' "$TMP/all.svg" |
    sort -u | wc -l)
[ "$n" -ge 11 ] && [ "$k" = "$n" ] &&
    pass "--plot: each of the $n strategies in a colour of its own" ||
    fail "--plot: $n strategies in $k colours"

# A budget below the smallest possible one: the sweep's JSON row says
# that no plan fits, as a single run's JSON does (it said
# "frontier_advancing_infeasible":false and nothing of the rest).
"$RP" --graph "$U" --sweep 40%:60%:10% -s dtr -f json >"$TMP/json" \
    2>"$TMP/err"
"$PY3" -c "import json, sys
rows = json.load(open(sys.argv[1]))['rows']
ok = [r['below_min_budget'] and r['frontier_advancing_infeasible'] and
      r['any_plan_infeasible'] for r in rows[:2]]
last = rows[2]
sys.exit(not (all(ok) and not last['below_min_budget'] and
    not last['frontier_advancing_infeasible'] and
    not last['any_plan_infeasible']))" "$TMP/json" &&
    pass "sweep JSON: a budget below the smallest says no plan fits" ||
    fail "sweep JSON below the smallest budget: $(cat "$TMP/json")"

# A sweep's tightest budget within 1.1 times the smallest possible one
# gets the deeper search a single run there gets: between the two figures
# (262282332 and 263598164 bytes) no plan fits, proved.
"$RP" --graph "$SRC/graphs/unet-b2-s128-c2.xml" --budgets 263000000,264000000 \
    -s checkpoint-all -t 40 -f csv >"$TMP/near.csv" 2>"$TMP/err"
[ $? = 1 ] && [ "$(cut -d, -f1,3 "$TMP/near.csv" | tail -2 | tr '\n' ' ')" = \
    "263000000,below minimum 264000000,over budget " ] &&
    pass "a sweep near the smallest budget: searched deeper, as a single run" ||
    fail "a sweep near the smallest budget: $(cat "$TMP/near.csv" "$TMP/err")"

# --budget min's JSON opens as the other reports' do (it lacked the
# graph's nodes, edges and baseline); --info's CSV says the order too.
"$RP" --graph "$U" --budget min -s dtr -f json >"$TMP/json" 2>"$TMP/err"
grep -q '^{"graph":"unet-3","nodes":75,"edges":156,"baseline_cost":[0-9.]*,"cost_unit":"ms","checkpoint_all_peak":[0-9]*,"min_budget":[0-9]*,"tree_budget":null,"tree_overhead":null,"results":\[' "$TMP/json" &&
    pass "--budget min's JSON has the graph's fields" ||
    fail "--budget min's JSON: $(head -c 200 "$TMP/json")"
"$RP" --graph "$U" --info -f csv >"$TMP/info.csv" 2>&1
[ "$(head -1 "$TMP/info.csv" | cut -d, -f13)" = document_order ] &&
    [ "$(tail -1 "$TMP/info.csv" | cut -d, -f13)" = yes ] &&
    pass "--info's CSV says whether the document order is the execution order" ||
    fail "--info's CSV: $(cat "$TMP/info.csv")"

# The line naming the plans written counts them (one plan was "plans
# written: FILE ... (one per budget with a plan)").
"$RP" --graph "$U" --budgets 50%,70% -s dtr -o "$TMP/one-plan" >"$TMP/out" \
    2>"$TMP/err"
"$RP" --graph "$U" --budgets 70%,80% -s dtr -o "$TMP/two-plans" \
    >"$TMP/out2" 2>"$TMP/err"
grep -q "^plan written: $TMP/one-plan/budget-[0-9]*\.xml (the one budget with a plan)$" "$TMP/out" &&
    grep -q "^plans written: $TMP/two-plans/budget-[0-9]*\.xml \.\.\. (one per budget with a plan, 2 in all)$" "$TMP/out2" &&
    pass "a sweep's report counts the plans it wrote" ||
    fail "the plans written: $(tail -1 "$TMP/out") / $(tail -1 "$TMP/out2")"

# --- usage errors ---------------------------------------------------------
usage() {
	want=$1
	shift
	"$RP" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc = 2 ] && [ "$(head -1 "$TMP/err")" = "remat-plan: $want" ] &&
	    [ ! -s "$TMP/out" ]; then
		pass "usage error: $want"
	else
		fail "usage error for $*: status $rc, $(head -1 "$TMP/err"), want '$want'"
	fi
}
usage "--sweep '80%:40%:5%': the range is reversed (LO is above HI)" \
	--graph "$U" --sweep 80%:40%:5%
usage "--sweep ':100%:5%': LO is empty" --graph "$U" --sweep :100%:5%
usage "--sweep '40%:100%:': STEP is empty" --graph "$U" --sweep 40%:100%:
usage "--sweep '40%:100%' is not LO:HI:STEP (for example 30%:100%:5%)" \
	--graph "$U" --sweep 40%:100%
usage "--sweep '40%:100%:0%': the step is 0" --graph "$U" --sweep 40%:100%:0%
usage "--sweep '1:5000:1' has 5000 budgets, more than 1000" \
	--graph "$U" --sweep 1:5000:1
usage "--sweep '1G:90%:5%': LO, HI and STEP must all be percentages or all be bytes" \
	--graph "$U" --sweep 1G:90%:5%
usage "--sweep '40%:100%:5x': budget '5x' has an unknown unit 'x' (use B, K, M, G, T, KiB, MiB, GiB, TiB, KB, MB, GB, TB or %)" \
	--graph "$U" --sweep 40%:100%:5x
usage "--budgets ',' names no budget" --graph "$U" --budgets ,
usage "--budgets '50%,,60%' has an empty item" --graph "$U" --budgets 50%,,60%
usage "--budget min cannot be combined with --sweep or --budgets" \
	--graph "$U" --budget min --sweep 40%:100%:5%
usage "--sweep and --budgets cannot be combined with --budget, --check, --info, --write-mps, --write-lp or --read-solution" \
	--graph "$U" --budget 60% --sweep 40%:100%:5%
usage "--plot draws a sweep: give --sweep or --budgets" \
	--graph "$U" --budget 60% --plot "$TMP/x.svg"
usage "with --sweep or --budgets, --output names a directory for the plans, not '-'" \
	--graph "$U" --sweep 40%:100%:5% -o -
usage "give one --sweep or one --budgets" \
	--graph "$U" --sweep 40%:100%:5% --budgets 50%
touch "$TMP/file"
usage "with --sweep or --budgets, --output names a directory: '$TMP/file' is not one" \
	--graph "$U" --sweep 40%:100%:5% -o "$TMP/file"
usage "cannot write '$U': it is the input graph" \
	--graph "$U" --sweep 40%:100%:5% --plot "$U"
# The picture is never written over a plan of the sweep, nor into the
# place of the plan directory; a plan directory the run made and wrote
# nothing into is not left behind.
usage "--plot '$TMP/pd/budget-62914560.xml' is the file of a plan of the sweep (plans are written as budget-BYTES.xml in '$TMP/pd')" \
	--graph "$U" --budgets 60M,70M -s dtr -o "$TMP/pd" --plot "$TMP/pd/budget-62914560.xml"
[ ! -e "$TMP/pd" ] && pass "no plan directory left by a usage error" ||
    fail "a plan directory is left by a usage error"
# Nor is the input graph, named as a budget's plan or linked to from one:
# written over where the budget has a plan, removed as a stale plan where
# it has none (a sweep once deleted it so).
mkdir "$TMP/gd"
cp "$U" "$TMP/gd/budget-1.xml"
ln -s budget-1.xml "$TMP/gd/budget-62914560.xml"
usage "'$TMP/gd/budget-1.xml', the file of the plan for 1 byte (written where one fits, else removed), is the input graph" \
	--graph "$TMP/gd/budget-1.xml" --budgets 1,70M -s dtr -o "$TMP/gd"
usage "'$TMP/gd/budget-62914560.xml', the file of the plan for 62914560 bytes (written where one fits, else removed), is the input graph" \
	--graph "$TMP/gd/budget-1.xml" --budgets 60M,70M -s dtr -o "$TMP/gd"
cmp -s "$U" "$TMP/gd/budget-1.xml" && [ -L "$TMP/gd/budget-62914560.xml" ] &&
    [ "$(ls "$TMP/gd" | wc -l)" = 2 ] &&
    pass "a sweep's plans never reach the input graph" ||
    fail "a sweep's plans reached the input graph: $(ls -l "$TMP/gd")"
"$RP" --graph "$U" --budgets 60M -s dtr -o "$TMP/pd" --plot "$TMP/pd" \
    >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 4 ] && [ "$(cat "$TMP/err")" = "remat-plan: cannot write '$TMP/pd': Is a directory" ] &&
    [ ! -s "$TMP/out" ] && [ ! -e "$TMP/pd" ] &&
    pass "--plot onto the plan directory: status 4 before any work, nothing left" ||
    fail "--plot onto the plan directory: status $rc, $(cat "$TMP/err")"
"$RP" --graph "$U" --budgets 1K -s dtr -o "$TMP/pd" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 1 ] && [ ! -e "$TMP/pd" ] &&
    pass "a sweep with no plan leaves no empty plan directory" ||
    fail "a sweep with no plan: status $rc, $(ls -a "$TMP/pd" 2>&1)"
"$RP" --graph "$TMP/missing.xml" --budgets 60M -o "$TMP/pd" >/dev/null 2>&1
rc=$?
[ $rc = 3 ] && [ ! -e "$TMP/pd" ] &&
    pass "a graph that cannot be read leaves no empty plan directory" ||
    fail "a graph that cannot be read: status $rc, $(ls -a "$TMP/pd" 2>&1)"
mkdir "$TMP/pd"
"$RP" --graph "$U" --budgets 1K -s dtr -o "$TMP/pd" >/dev/null 2>&1
[ -d "$TMP/pd" ] && pass "a plan directory that was there is kept" ||
    fail "a plan directory that was there is removed"
rmdir "$TMP/pd"
# The plan directory holds the report's plans: one an earlier run left
# for a budget that has none now is removed (it was kept, beside the
# new ones, and read as this run's).
"$RP" --graph "$U" --budgets 70%,90% -s dtr -t 5 -o "$TMP/pd" >/dev/null 2>&1
n_before=$(ls "$TMP/pd" | wc -l)
"$RP" --graph "$U" --budgets 70%,90% -s chen-sqrtn -t 5 -o "$TMP/pd" -f csv \
    >"$TMP/out" 2>&1
n_rows=$(grep -c '^[0-9].*,chen-sqrtn,' "$TMP/out")
n_after=$(ls "$TMP/pd" | wc -l)
[ "$n_before" = 2 ] && [ "$n_after" = "$n_rows" ] && [ "$n_after" -lt 2 ] &&
    pass "a sweep removes the plans an earlier run left for budgets with none now" ||
    fail "stale plans: $n_before before, $n_after after, $n_rows picked: $(ls "$TMP/pd")"
rm -rf "$TMP/pd"
# --budget min on a graph whose costs are all 0: no ratio ("nanx").
printf '%s\n' '<?xml version="1.0"?>' \
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">' \
    '<key id="c" for="node" attr.name="cost"/><key id="m" for="node" attr.name="mem"/>' \
    '<graph edgedefault="directed">' \
    '<node id="a"><data key="c">0</data><data key="m">4</data></node>' \
    '<node id="b"><data key="c">0</data><data key="m">4</data></node>' \
    '<edge source="a" target="b"/></graph></graphml>' >"$TMP/zero.xml"
"$RP" --graph "$TMP/zero.xml" --budget min -s checkpoint-all,dtr -t 1 >"$TMP/out" 2>&1
grep -q "^checkpoint-all .* - " "$TMP/out" && ! grep -q nan "$TMP/out" &&
    pass "--budget min with costs of 0: no ratio, no nan" ||
    fail "--budget min with costs of 0: $(cat "$TMP/out")"
# ... and a sweep of it: the table showed "fits" and a bound of "-",
# which its legend did not explain (or as below the smallest budget), and
# the picture was empty, as if no strategy had a plan.
"$RP" --graph "$TMP/zero.xml" --sweep 50%:100%:50% -s checkpoint-all,dtr \
    --plot "$TMP/zero.svg" >"$TMP/out" 2>&1
grep -q "^8 B .* fits .* 0$" "$TMP/out" &&
    grep -q "^the baseline cost is 0, so every plan costs 0 and no figure is a ratio (fits: a plan fits; the bound is a cost)" "$TMP/out" &&
    grep -q "the baseline cost is 0: every plan costs 0, there is no overhead to draw" "$TMP/zero.svg" &&
    pass "a sweep with costs of 0: its table and picture say why there is no ratio" ||
    fail "a sweep with costs of 0: $(cat "$TMP/out")"
finish
