#!/bin/sh
# killed_run.sh: a run killed (SIGKILL) while it waits to append, or while it parses, and one stopped by SIGTERM,
# leave no row; the history stays whole (integrity_check ok) and takes the next run.
set -u
bin=$1 synth=$2 work=$3
command -v sqlite3 >/dev/null 2>&1 || { echo "skipped: sqlite3 is not installed"; exit 77; }
rm -rf "$work" && mkdir -p "$work" || exit 1
"$synth" --format mstx --ranks 4 --roles 3 --steps 3 --output "$work/prof" >/dev/null || exit 1
"$synth" --format mstx --ranks 64 --roles 2 --steps 2 --events-per-unit 4000 --output "$work/big" >/dev/null || exit 1
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
q() { sqlite3 "$work/h.db" "$1"; }
run() { "$bin" -q --input-path "$1" --history "$work/h.db" --vis-type none --output-path "$2"; }
# In the background, so that $! is rl-insight itself (a function would be a subshell around it).
start() { "$bin" -q --input-path "$1" --history "$work/h.db" --vis-type none --output-path "$2" 2>"$2.log" & }
run "$work/prof" "$work/first" || { echo "the first run failed" >&2; exit 1; }

# Another writer holds the history's write lock (a transaction of sqlite3's, fed through a FIFO), so the
# run has written its outputs and waits to append when it is killed.
hold_lock() {
	rm -f "$work/fifo" && mkfifo "$work/fifo" || exit 1
	sqlite3 "$work/h.db" <"$work/fifo" >/dev/null 2>&1 &
	holder=$!
	exec 3>"$work/fifo"
	# The holder waits for the lock: the probe below takes it for a moment too, and a holder that
	# met it then would give up at once (sqlite3's default) and never hold it.
	echo ".timeout 10000" >&3
	echo "BEGIN IMMEDIATE;" >&3
	tries=0
	until ! sqlite3 "$work/h.db" "BEGIN IMMEDIATE; ROLLBACK;" >/dev/null 2>&1; do
		tries=$((tries + 1))
		[ "$tries" -lt 200 ] || { echo "the lock was never taken" >&2; exit 1; }
		sleep 0.05
	done
}
let_go() {
	echo "ROLLBACK;" >&3
	exec 3>&-
	wait "$holder"
}
wait_for() {
	tries=0
	while [ ! -e "$1" ] && [ "$tries" -lt 400 ]; do
		sleep 0.05
		tries=$((tries + 1))
	done
	[ -e "$1" ]
}

# 1. SIGKILL while it waits for the lock, its outputs written.
hold_lock
start "$work/prof" "$work/killed"
pid=$!
wait_for "$work/killed/summary.json" || fail "the run never wrote its outputs"
sleep 0.3
kill -KILL "$pid" 2>/dev/null
wait "$pid"
[ "$?" = 137 ] || fail "the run was not killed by SIGKILL"
let_go
[ "$(q 'SELECT count(*) FROM runs')" = 1 ] || fail "after SIGKILL while waiting: $(q 'SELECT count(*) FROM runs') runs, want 1"

# 2. SIGTERM at the same place: stopped cleanly (143), the outputs whole, no row.
hold_lock
start "$work/prof" "$work/stopped"
pid=$!
wait_for "$work/stopped/summary.json" || fail "the run never wrote its outputs"
sleep 0.3
kill -TERM "$pid" 2>/dev/null
wait "$pid"
status=$?
[ "$status" = 143 ] || fail "SIGTERM: status $status, want 143"
let_go
[ "$(q 'SELECT count(*) FROM runs')" = 1 ] || fail "after SIGTERM: $(q 'SELECT count(*) FROM runs') runs, want 1"

# 3. SIGKILL while it parses a large input.
start "$work/big" "$work/parsing"
pid=$!
sleep 0.2
[ ! -e "$work/parsing/summary.json" ] || fail "the large input was parsed before the kill: make it larger"
kill -KILL "$pid" 2>/dev/null
wait "$pid"
[ "$(q 'SELECT count(*) FROM runs')" = 1 ] || fail "after SIGKILL while parsing: $(q 'SELECT count(*) FROM runs') runs, want 1"

[ "$(q 'PRAGMA integrity_check')" = ok ] || fail "integrity_check: $(q 'PRAGMA integrity_check')"
run "$work/prof" "$work/next" || fail "the next run failed"
[ "$(q 'SELECT count(*) FROM runs')" = 2 ] || fail "the next run was not added: $(q 'SELECT count(*) FROM runs') runs"
[ "$(q 'PRAGMA integrity_check')" = ok ] || fail "integrity_check after the next run: $(q 'PRAGMA integrity_check')"
[ "$failures" = 0 ] && echo "ok: killed and stopped runs left no row; the history stayed whole"
exit "$failures"
