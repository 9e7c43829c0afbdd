#!/bin/sh
# Runs every "$ remat-plan ..." example of remat-plan(1), in order, in a
# scratch folder that sees the shipped graphs; each must exit 0.
. "${top_srcdir:-.}/tests/lib.sh"
cd "$TMP" || exit 1
ln -s "$SRC/graphs" graphs
mkdir bin
ln -s "$RP" bin/remat-plan
n=0
sed -n '/^\.EX/,/^\.EE/p' "$SRC/man/remat-plan.1" | sed -n 's/^\$ //p' >examples
while IFS= read -r cmd; do
	n=$((n + 1))
	if PATH="$TMP/bin:$PATH" sh -c "$cmd" >out 2>err; then
		pass "man page example '$cmd'"
	else
		fail "man page example '$cmd': exit status $?: $(cat err)"
	fi
done <examples
[ "$n" -ge 5 ] || fail "only $n examples found in remat-plan(1)"
# The example plans must be valid too.
"$RP" --graph graphs/linear-64.xml --check plan.xml >/dev/null &&
    pass "the example plan is valid" || fail "example plan invalid"
finish
