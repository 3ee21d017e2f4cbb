#!/bin/sh
# runs_at_once.sh: eight runs started at once into one fresh history keep eight rows, each whole (and so, round after
# round, do eight tiny ones racing to make the file); with a journal
# argument (delete: what NFS gets), the same through the rollback journal instead of WAL.
set -u
bin=$1 synth=$2 work=$3 journal=${4:-wal}
command -v sqlite3 >/dev/null 2>&1 || { echo "skipped: sqlite3 is not installed"; exit 77; }
rm -rf "$work" && mkdir -p "$work" || exit 1
"$synth" --format mstx --ranks 8 --roles 4 --steps 4 --output "$work/prof" >/dev/null || exit 1
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
export RLI_HISTORY_JOURNAL="$journal"
# Started together, as cron jobs of one minute are: they race to make the file, its tables and their rows.
pids=
for i in 1 2 3 4 5 6 7 8; do
	"$bin" -q --input-path "$work/prof" --history "$work/h.db" --run-label "job:$i" --vis-type none \
		--output-path "$work/out$i" >"$work/log$i" 2>&1 &
	pids="$pids $!"
done
i=1
for pid in $pids; do
	wait "$pid"
	status=$?
	[ "$status" = 0 ] || fail "run $i ended with $status: $(cat "$work/log$i")"
	i=$((i + 1))
done
q() { sqlite3 "$work/h.db" "$1"; }
[ "$(q 'SELECT count(*) FROM runs')" = 8 ] || fail "the history holds $(q 'SELECT count(*) FROM runs') runs, want 8"
[ "$(q 'SELECT count(DISTINCT label) FROM runs')" = 8 ] || fail "labels: $(q 'SELECT group_concat(label) FROM runs')"
# Each run whole: its four phases and roles, none missing and none twice.
[ "$(q 'SELECT count(*) FROM phases')" = 32 ] || fail "phases: $(q 'SELECT count(*) FROM phases'), want 32"
[ "$(q 'SELECT count(*) FROM (SELECT run_id FROM roles GROUP BY run_id HAVING count(*) = 4)')" = 8 ] ||
	fail "a run lacks roles: $(q 'SELECT run_id, count(*) FROM roles GROUP BY run_id')"
[ "$(q 'PRAGMA integrity_check')" = ok ] || fail "integrity_check: $(q 'PRAGMA integrity_check')"
[ "$(q 'PRAGMA journal_mode')" = "$journal" ] || fail "journal_mode $(q 'PRAGMA journal_mode'), want $journal"
# The race to make a fresh file, again and again: eight runs of a tiny input into a new file each round.
"$synth" --format mstx --ranks 2 --roles 1 --steps 1 --output "$work/tiny" >/dev/null || exit 1
round=1
while [ "$round" -le 12 ]; do
	rm -f "$work/fresh.db" "$work/fresh.db-wal" "$work/fresh.db-shm"
	pids=
	for i in 1 2 3 4 5 6 7 8; do
		"$bin" -q --input-path "$work/tiny" --history "$work/fresh.db" --vis-type none --output-path "$work/tiny$i" \
			2>>"$work/fresh.log" &
		pids="$pids $!"
	done
	for pid in $pids; do
		wait "$pid" || fail "round $round: a run failed: $(tail -n 1 "$work/fresh.log")"
	done
	got=$(sqlite3 "$work/fresh.db" 'SELECT count(*) FROM runs')
	[ "$got" = 8 ] || fail "round $round: a fresh history holds $got runs, want 8"
	round=$((round + 1))
done
[ "$failures" = 0 ] && echo "ok: 8 runs at once, 8 rows ($journal), and 12 rounds of 8 into a fresh file"
exit "$failures"
