# lib.sh: shared set-up for the command-line test suites (sourced).
# Each suite counts checks and ends with "N passed, M failed".
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
SRC=$(cd "$top_srcdir" && pwd)
RP=$(cd "$top_builddir" && pwd)/remat-plan
TMP=$(mktemp -d "${TMPDIR:-/tmp}/remat-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
passes=0
fails=0

pass() { passes=$((passes + 1)); }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
finish() {
	echo "$passes passed, $fails failed"
	[ "$fails" -eq 0 ]
}

# The strategies the binary lists as available, one per line.
strategies() {
	"$RP" --help | sed -n '/^strategies:/,/^$/p' | awk 'NF > 1 { print $1 }'
}

# independent GRAPH PLAN BUDGET COST PEAK WHAT: replays PLAN with the
# independent checker (tests/plancheck.py) and compares its cost and peak
# with what remat-plan reported.
independent() {
	if ! command -v python3 >/dev/null; then
		fail "$6: python3 is needed for the independent plan checker"
		return
	fi
	got=$(python3 "$SRC/tests/plancheck.py" "$1" "$2" "$3" 2>&1)
	if [ "$got" = "$4 $5" ]; then
		pass
	else
		fail "$6: independent checker says '$got', remat-plan said '$4 $5'"
	fi
}
