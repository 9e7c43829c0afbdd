#!/bin/sh
# Replays the fuzzing corpora (inputs kept from fuzzing runs, many of them
# broken: tests/fuzz/corpus for the GraphML loader, corpus-plan for the plan
# reader, corpus-solution for the solution reader) and the bad-input files
# through the command line: every one must be accepted or be rejected with
# exit status 3 and one "remat-plan: " line, never crash or hang.
. "${top_srcdir:-.}/tests/lib.sh"
FG=$SRC/tests/fuzz/graph.xml

# replay FILE OK_STATUSES ARGS...: runs remat-plan ARGS; a status in
# OK_STATUSES (space-separated) is an answer, 3 must be one line.
replay() {
	f=$1
	ok=$2
	shift 2
	timeout 20 "$RP" "$@" >/dev/null 2>"$TMP/err"
	rc=$?
	case " $ok " in
	*" $rc "*) pass "${f##*/} is accepted (status $rc)"; return ;;
	esac
	if [ "$rc" -eq 3 ]; then
		if [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
		    grep -q '^remat-plan: ' "$TMP/err"; then
			pass "${f##*/} is refused in one line"
		else
			fail "$f: exit 3 but stderr is not one 'remat-plan:' line"
		fi
	else
		fail "$f: exit status $rc (crash or hang)"
	fi
}

for f in "$SRC"/tests/fuzz/corpus/* "$SRC"/tests/data/bad/*.xml \
    "$SRC"/tests/data/good/*.xml; do
	[ -f "$f" ] || continue
	replay "$f" 0 --graph "$f" --info
done
# Plans: valid (0), or invalid / unreadable (3).
for f in "$SRC"/tests/fuzz/corpus-plan/*; do
	[ -f "$f" ] || continue
	replay "$f" 0 --graph "$FG" --check "$f"
done
# Solutions at the fuzzer's budget: a plan that fits (0) or not (1).
for f in "$SRC"/tests/fuzz/corpus-solution/*; do
	[ -f "$f" ] || continue
	replay "$f" "0 1" --graph "$FG" --budget 11 --read-solution "$f"
done
finish
