#!/bin/sh
# Replays the loader's fuzzing corpus (tests/fuzz/corpus: inputs kept from
# fuzzing runs, many of them broken) and the bad-input files: every one must
# load or be rejected with exit status 3 and one "remat-plan: " line, never
# crash or hang.
. "${top_srcdir:-.}/tests/lib.sh"
for f in "$SRC"/tests/fuzz/corpus/* "$SRC"/tests/data/bad/*.xml \
    "$SRC"/tests/data/good/*.xml; do
	[ -f "$f" ] || continue
	timeout 20 "$RP" --graph "$f" --info >/dev/null 2>"$TMP/err"
	rc=$?
	lines=$(wc -l <"$TMP/err")
	case $rc in
	0) pass "$(basename "$f") loads" ;;
	3)
		if [ "$lines" -eq 1 ] && grep -q '^remat-plan: ' "$TMP/err"; then
			pass "$(basename "$f") is refused in one line"
		else
			fail "$f: exit 3 but stderr is not one 'remat-plan:' line"
		fi ;;
	*) fail "$f: exit status $rc (crash or hang)" ;;
	esac
done
finish
