# lib.sh: shared set-up for the command-line test suites (sourced).
# Each suite speaks TAP (automake's tap-driver.sh reads it): one line per
# check, "ok N - what" or "not ok N - what", and the plan "1..N" at the end,
# so that a failure names what failed. Anything else a suite prints goes to
# its log as a TAP diagnostic ("# ...").
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
SRC=$(cd "$top_srcdir" && pwd)
RP=$(cd "$top_builddir" && pwd)/remat-plan
TMP=$(mktemp -d "${TMPDIR:-/tmp}/remat-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
ntests=0
fails=0

# pass WHAT / fail WHAT: one check, named. A failure's further lines
# (from the second on) become diagnostics. The first line is cut off in
# the shell itself: CI runs some 14,000 checks, and a pipeline for each
# (13 ms where forks are slow) added minutes to it.
_rp_nl='
'
pass() {
	ntests=$((ntests + 1))
	_rp_msg=$*
	echo "ok $ntests - ${_rp_msg%%"$_rp_nl"*}"
}
fail() {
	ntests=$((ntests + 1))
	fails=$((fails + 1))
	_rp_msg=$*
	echo "not ok $ntests - ${_rp_msg%%"$_rp_nl"*}"
	case $_rp_msg in
	*"$_rp_nl"*) echo "${_rp_msg#*"$_rp_nl"}" | sed 's/^/# /' ;;
	esac
}
# note TEXT: a diagnostic line in the log.
note() { echo "$*" | sed 's/^/# /'; }
# skip_all REASON: the whole suite is skipped.
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
finish() {
	echo "1..$ntests"
	echo "# $ntests checks, $fails failed"
	[ "$fails" -eq 0 ]
}

# The Python of the independent checks: PYTHON where set, else Debian's
# (which tools/quickstart.sh installs), else the first python3 on PATH.
# A version manager's shim first on PATH starts it in a third of a second
# where Debian's takes 30 ms, and the sweeps start it thousands of times.
if [ -n "${PYTHON:-}" ]; then
	PY3=$PYTHON
elif [ -x /usr/bin/python3 ]; then
	PY3=/usr/bin/python3
else
	PY3=python3
fi

# slow: true when the exhaustive sweeps run (make check-slow sets
# REMAT_SLOW=1); the quick suite samples the same kinds of case.
slow() { [ "${REMAT_SLOW:-0}" = 1 ]; }
# sanitized: the build is instrumented (configure --enable-asan or
# --enable-ubsan), so that its own work runs several times slower.
sanitized() { [ -n "${REMAT_SANITIZED:-}" ]; }

# The strategies the binary lists as available, one per line.
strategies() {
	"$RP" --help | sed -n '/^strategies:/,/^$/p' | awk 'NF > 1 { print $1 }'
}

# independent GRAPH PLAN BUDGET COST PEAK WHAT: replays PLAN with the
# independent checker (tests/plancheck.py) and compares its cost and peak
# with what remat-plan reported.
independent() {
	if ! command -v "$PY3" >/dev/null; then
		fail "$6: python3 is needed for the independent plan checker"
		return
	fi
	got=$("$PY3" "$SRC/tests/plancheck.py" "$1" "$2" "$3" 2>&1)
	if [ "$got" = "$4 $5" ]; then
		pass "$6: the independent checker agrees"
	else
		fail "$6: independent checker says '$got', remat-plan said '$4 $5'"
	fi
}
