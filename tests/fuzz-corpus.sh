#!/bin/sh
# Replays the fuzzing corpora (inputs kept from fuzzing runs, many of them
# broken: tests/fuzz/corpus for the GraphML loader, corpus-plan for the plan
# reader, corpus-solution for the solution reader) and the bad-input files
# through the command line: every one must be accepted or be rejected with
# exit status 3 and one "remat-plan: " line, never crash or hang; and
# remat-exec's reader must take and refuse the same graph files. A
# sanitized build replays every eighth file of the corpora here (and
# every file of tests/data): tests/unit/test_corpus replays them all there
# through the fuzz targets in one process, where a thousand instrumented
# runs of remat-plan took minutes.
. "${top_srcdir:-.}/tests/lib.sh"
FG=$SRC/tests/fuzz/graph.xml
# sampled FILE: whether this build replays FILE (the files counted in the
# order of the loops below): all in a plain build, else those of
# tests/data and every eighth of the rest.
_fc_k=0
sampled() {
	_fc_k=$((_fc_k + 1))
	case $1 in "$SRC"/tests/data/*) return 0 ;; esac
	! sanitized || [ $((_fc_k % 8)) -eq 1 ]
}

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
	[ -f "$f" ] && sampled "$f" || continue
	replay "$f" 0 --graph "$f" --info
	echo "$rc $f" >>"$TMP/graphs-read"
done
# remat-exec reads graphs by the same rules (remat_torch.graphio): every
# file above that remat-plan reads it reads, every one it refuses it
# refuses, with a UserError (a message), never another exception.
# Needs PyTorch (the package imports it): skipped without it.
if /usr/bin/python3 -c 'import torch' >/dev/null 2>&1; then
	PYTHONPATH="$SRC/python${PYTHONPATH:+:$PYTHONPATH}" /usr/bin/python3 - \
	    "$TMP/graphs-read" >"$TMP/disagree" 2>&1 <<'EOF'
import sys
from remat_torch.graphio import GraphFile
from remat_torch.errors import UserError
for line in open(sys.argv[1]):
    rc, path = line.rstrip('\n').split(' ', 1)
    try:
        GraphFile(path)
        ours = 'reads it'
    except UserError as e:
        ours = 'refuses it: %s' % e
    except Exception as e:
        ours = 'raises %r' % e
    if ours.startswith('raises') or (rc == '0') != (ours == 'reads it'):
        print('%s: remat-plan exits %s, remat-exec %s' % (path, rc, ours))
EOF
	[ $? -eq 0 ] && [ ! -s "$TMP/disagree" ] &&
	    pass "remat-exec reads and refuses the $(wc -l <"$TMP/graphs-read") graph files as remat-plan does" ||
	    fail "remat-exec reads graphs otherwise than remat-plan:
$(head -20 "$TMP/disagree")"
elif [ "${REMAT_REQUIRE_TORCH:-0}" = 1 ]; then
	fail "remat-exec's reader: /usr/bin/python3 cannot import torch"
else
	note "remat-exec's reader not checked: /usr/bin/python3 cannot import torch"
fi
# Plans: valid (0), or invalid / unreadable (3).
for f in "$SRC"/tests/fuzz/corpus-plan/*; do
	[ -f "$f" ] && sampled "$f" || continue
	replay "$f" 0 --graph "$FG" --check "$f"
done
# Solutions at the fuzzer's budget: a plan that fits (0) or not (1).
for f in "$SRC"/tests/fuzz/corpus-solution/*; do
	[ -f "$f" ] && sampled "$f" || continue
	replay "$f" "0 1" --graph "$FG" --budget 11 --read-solution "$f"
done
finish
