#!/bin/sh
# Every available strategy on every graph in graphs/ at 100, 80, 60 and 40%
# of the checkpoint-all peak either reports that it does not fit (status 1,
# no file written) or writes a plan that --check, replaying the file,
# accepts with the same cost and a peak within the budget.
. "${top_srcdir:-.}/tests/lib.sh"

for g in "$SRC"/graphs/*.xml; do
	name=$(basename "$g" .xml)
	for s in $(strategies); do
		for b in 100 80 60 40; do
			what="$s on $name at $b%"
			out="$TMP/plan.xml"
			rm -f "$out"
			"$RP" --graph "$g" --budget "$b%" --strategy "$s" -f csv \
			    -o "$out" >"$TMP/report" 2>"$TMP/err"
			rc=$?
			if [ "$rc" -eq 1 ]; then
				if [ -e "$out" ]; then
					fail "$what: no fit, but a plan file was written"
				elif ! grep -q "^$s,\(over budget\|no plan\)," "$TMP/report" &&
				    ! grep -q "is below the smallest budget any plan can need" "$TMP/err"; then
					fail "$what: status 1 without an over-budget row"
				else
					pass
				fi
				continue
			fi
			if [ "$rc" -ne 0 ] || [ ! -s "$out" ]; then
				fail "$what: exit status $rc: $(cat "$TMP/err")"
				continue
			fi
			cost=$(grep "^$s,fits," "$TMP/report" | cut -d, -f3)
			"$RP" --graph "$g" --budget "$b%" --check "$out" -f csv \
			    >"$TMP/check" 2>"$TMP/err"
			crc=$?
			ccost=$(sed -n 2p "$TMP/check" | cut -d, -f3)
			fits=$(sed -n 2p "$TMP/check" | cut -d, -f9)
			if [ "$crc" -ne 0 ]; then
				fail "$what: --check exit $crc: $(cat "$TMP/err")"
			elif [ "$fits" != yes ]; then
				fail "$what: replayed plan does not fit"
			elif [ -z "$cost" ] || [ "$cost" != "$ccost" ]; then
				fail "$what: reported cost '$cost', replayed '$ccost'"
			else
				pass
			fi
		done
	done
done
finish
