#!/bin/sh
# Signals: a solver's worker child dies with remat-plan, whatever ends it,
# within a second; a plan being written when a signal arrives leaves no
# temporary file behind. (A child that sends nothing for a long time,
# where only the parent-death signal ends it, is tests/unit/test_worker's
# last case.)
. "${top_srcdir:-.}/tests/lib.sh"
# ilp's MILP search runs in a worker child to the time limit on unet-3 at
# 70% (on unet-b2-s128-c2 at 90%, reorder's plan, which ilp starts from,
# may cost the baseline, and then no model is built).
G=$SRC/graphs/unet-3.xml
L=$SRC/graphs/linear-8.xml

# gone PID: the process has ended (it may wait, a zombie, for its new
# parent to reap it).
gone() {
	st=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)
	[ -z "$st" ] || [ "$st" = Z ] || [ "$st" = X ]
}

# child_of PID: a child process of PID (from /proc, as procps may be
# missing).
child_of() {
	awk -v p="$1" '$4 == p { print $1; exit }' /proc/[0-9]*/stat 2>/dev/null
}

if [ ! -d /proc/self ]; then
	skip_all "no /proc to watch the worker child in"
fi
# A background job starts with SIGINT ignored, and one under nohup with
# SIGHUP ignored too (remat-plan keeps an ignored signal ignored); env
# --default-signal (coreutils 8.31) gives them back their default action.
if env --default-signal=INT,HUP true 2>/dev/null; then
	dflt="env --default-signal=INT,HUP"
else
	dflt=""
fi

for sig in TERM INT HUP KILL; do
	[ "$sig" = INT ] && [ -z "$dflt" ] && continue
	# The MILP search runs in a worker child for most of the minute.
	$dflt "$RP" --graph "$G" --budget 70% -s ilp -t 60 >/dev/null 2>&1 &
	pid=$!
	child=
	i=0
	while [ $i -lt 300 ] && [ -z "$child" ]; do
		child=$(child_of "$pid")
		[ -n "$child" ] || sleep 0.1
		i=$((i + 1))
	done
	if [ -z "$child" ]; then
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		fail "SIG$sig: no worker child appeared within 30 s"
		continue
	fi
	kill -"$sig" "$pid"
	i=0
	while [ $i -lt 10 ] && ! gone "$child"; do
		sleep 0.1
		i=$((i + 1))
	done
	if gone "$child"; then
		pass "SIG$sig to remat-plan: its worker child is gone within 1 s"
	else
		fail "SIG$sig to remat-plan: its worker child $child still runs after 1 s"
		kill -KILL "$child" 2>/dev/null
	fi
	wait "$pid" 2>/dev/null
done

# temp_in DIR: a temporary file appears in DIR within 10 s.
temp_in() {
	i=0
	while [ $i -lt 100 ] && ! ls "$1" 2>/dev/null | grep -q tmp; do
		sleep 0.1
		i=$((i + 1))
	done
	ls "$1" 2>/dev/null | grep -q tmp
}

# A signal while the plan is written: the temporary file goes too.
for sig in TERM INT HUP; do
	[ "$sig" = INT ] && [ -z "$dflt" ] && continue
	mkdir "$TMP/out"
	REMAT_PLAN_TEST_WRITE_PAUSE=10 $dflt "$RP" --graph "$L" --budget 60% \
	    -o "$TMP/out/plan.xml" >/dev/null 2>&1 &
	pid=$!
	if ! temp_in "$TMP/out"; then
		fail "SIG$sig while writing: the temporary file never appeared"
	else
		kill -"$sig" "$pid"
		wait "$pid" 2>/dev/null
		if [ -z "$(ls "$TMP/out")" ]; then
			pass "SIG$sig while writing the plan: nothing left behind"
		else
			fail "SIG$sig while writing the plan: left $(ls "$TMP/out")"
		fi
	fi
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	rm -rf "$TMP/out"
done

# The same during a sweep into a plan directory that the run makes: the
# directory goes too, as nothing was written into it.
if [ -n "$dflt" ]; then
	REMAT_PLAN_TEST_WRITE_PAUSE=10 $dflt "$RP" --graph "$L" \
	    --budgets 60%,80% -o "$TMP/sweep" >/dev/null 2>&1 &
	pid=$!
	if ! temp_in "$TMP/sweep"; then
		fail "SIGINT in a sweep: the temporary file never appeared"
	else
		kill -INT "$pid"
		wait "$pid" 2>/dev/null
		if [ ! -e "$TMP/sweep" ]; then
			pass "SIGINT while a sweep writes its first plan: the directory it made is gone"
		else
			fail "SIGINT while a sweep writes its first plan: left $TMP/sweep ($(ls "$TMP/sweep"))"
		fi
	fi
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	rm -rf "$TMP/sweep"
fi

finish
