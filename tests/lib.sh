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
	independent_flush
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

# The suites run in one of three modes: make check samples every kind of
# case (quick); make check-slow runs every case (REMAT_SLOW=1); and
# REMAT_SLOW=rest, which CI runs after make check, runs every case that
# make check does not, so that the two together are check-slow's cases.
# slow: true when the exhaustive sweeps run (check-slow or the rest).
slow() { [ "${REMAT_SLOW:-0}" = 1 ] || [ "${REMAT_SLOW:-0}" = rest ]; }
# rest: true in the rest mode (a suite ends early where its cases from
# there on are all make check's).
rest() { [ "${REMAT_SLOW:-0}" = rest ]; }
# case_runs QUICK: whether a case runs in this mode, QUICK being 1 where
# make check runs it and 0 where only check-slow does.
case_runs() {
	case ${REMAT_SLOW:-0} in
	1) return 0 ;;
	rest) [ "$1" = 0 ] ;;
	*) [ "$1" = 1 ] ;;
	esac
}
# sanitized: the build is instrumented (configure --enable-asan or
# --enable-ubsan), so that its own work runs several times slower.
sanitized() { [ -n "${REMAT_SANITIZED:-}" ]; }
# no_leak_check: in a sanitized build, runs this suite's commands without
# LeakSanitizer's check at exit, which takes about 70 ms a process (40%
# of a small run's time there). For suites of many runs whose code paths
# other suites also take with the check on (golden.sh and property.sh run
# every strategy, tests/unit/test_dtr every DTR heuristic, man-examples.sh
# and limits.sh sweep).
no_leak_check() {
	sanitized || return 0
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	export ASAN_OPTIONS
}

# The strategies the binary lists as available, one per line.
strategies() {
	"$RP" --help | sed -n '/^strategies:/,/^$/p' | awk 'NF > 1 { print $1 }'
}

# independent GRAPH PLAN BUDGET COST PEAK WHAT: replays PLAN with the
# independent checker (tests/plancheck.py) and compares its cost and peak
# with COST and PEAK. The check is queued, PLAN moved into the queue (it
# is gone when this returns), and the checker
# runs once for up to 200 of them, reading each graph once: started for
# each plan, Python took a third of the sweeps' time. finish runs what is
# left; each check still passes or fails under its own name.
_rp_nindep=0
independent() {
	_rp_nindep=$((_rp_nindep + 1))
	if ! mv "$2" "$TMP/indep-$_rp_nindep.xml"; then
		fail "$6: no plan file for the independent checker"
		return
	fi
	printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$TMP/indep-$_rp_nindep.xml" \
	    "$3" "$4 $5" "$6" >>"$TMP/indep.list"
	[ "$_rp_nindep" -lt 200 ] || independent_flush
}
# independent_flush: runs the queued checks.
independent_flush() {
	[ -s "$TMP/indep.list" ] || return 0
	if ! command -v "$PY3" >/dev/null; then
		while IFS='	' read -r _rp_g _rp_p _rp_b _rp_want _rp_what; do
			fail "$_rp_what: python3 is needed for the independent plan checker"
		done <"$TMP/indep.list"
	else
		"$PY3" "$SRC/tests/plancheck.py" --batch "$TMP/indep.list" \
		    >"$TMP/indep.out" 2>"$TMP/indep.err"
		exec 3<"$TMP/indep.out"
		while IFS='	' read -r _rp_g _rp_p _rp_b _rp_want _rp_what; do
			IFS= read -r _rp_got <&3 ||
			    _rp_got="nothing: $(cat "$TMP/indep.err")"
			if [ "$_rp_got" = "$_rp_want" ]; then
				pass "$_rp_what: the independent checker agrees"
			else
				fail "$_rp_what: independent checker says '$_rp_got', remat-plan said '$_rp_want'"
			fi
		done <"$TMP/indep.list"
		exec 3<&-
	fi
	rm -f "$TMP"/indep.list "$TMP"/indep-*.xml
	_rp_nindep=0
}

# csv_row FILE KEY: sets f1..f9 to the fields of FILE's first line whose
# first two fields are KEY ("strategy,status"; a glob), else empties them
# and returns 1. The shell's own read: a pipeline of grep and cut for each
# field cost a fork each, some 20,000 in a sweep.
csv_row() {
	while IFS=, read -r f1 f2 f3 f4 f5 f6 f7 f8 f9; do
		case "$f1,$f2" in
		$2) return 0 ;;
		esac
	done <"$1"
	f1= f2= f3= f4= f5= f6= f7= f8= f9=
	return 1
}

# has_line FILE PATTERN: whether a line of FILE matches the glob PATTERN
# (the shell's own, without a fork for grep).
has_line() {
	[ -r "$1" ] || return 1
	while IFS= read -r _rp_line || [ -n "$_rp_line" ]; do
		case $_rp_line in
		$2) return 0 ;;
		esac
	done <"$1"
	return 1
}
