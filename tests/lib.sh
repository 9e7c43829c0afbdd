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
