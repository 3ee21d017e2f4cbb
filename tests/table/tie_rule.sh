#!/bin/sh
# tie_rule.sh: tables merged by start; equal starts by role, rank and thread, one thread's rows in the order of the files' paths then of their rows; duration decides the end; tids keep their type.
set -u
bin=$1 work=$2
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
rm -rf "$work" && mkdir -p "$work/in/a" "$work/in/b" || exit 1
header=name,role,domain,start_time_ms,end_time_ms,duration_ms,rank_id,tid
# x and y both start at 5 ms; x's end_time_ms is wrong on purpose (duration_ms counts: it ends at 6).
printf '%s\nx,r,default,5,99,1,0,7\nz,r,default,7,8,1,0,7\n' "$header" >"$work/in/a/rl_events.csv"
printf '%s\nw,r,default,1,2,1,1,p9\ny,r,default,5,7,2,1,p9\n' "$header" >"$work/in/b/rl_events.csv"

expect() { # expect OUT NAMES...: the JSONL table's names in this order
	out=$1
	shift
	got=$(sed 's/^{"name": "\([a-z]*\)".*/\1/' "$out/rl_events.jsonl" | tr '\n' ' ')
	[ "$got" = "$* " ] || fail "$out: order $got, expected $*"
}

"$bin" -q --input-path "$work/in" --export jsonl --vis-type none --output-path "$work/ab" || fail "run a, b: exit $?"
expect "$work/ab" w x y z
grep -qx '{"name": "x", "role": "r", "domain": "default", "start_time_ms": 5, "end_time_ms": 6, "duration_ms": 1, "rank_id": 0, "tid": 7}' \
	"$work/ab/rl_events.jsonl" || fail "x: not ended by its duration, or its tid not a number"
grep -q '"tid": "p9"}$' "$work/ab/rl_events.jsonl" || fail "w: its tid p9 is not a string"
# --rank-list keeps the rows of its ranks, whichever file holds them.
"$bin" -q --input-path "$work/in" --rank-list 1 --export jsonl --vis-type none --output-path "$work/rank1" ||
	fail "run --rank-list 1: exit $?"
expect "$work/rank1" w y
# The same rows with the folders' names swapped: y's file now sorts first, and the rows still decide.
mv "$work/in/a" "$work/in/c"
"$bin" -q --input-path "$work/in" --export jsonl --vis-type none --output-path "$work/cb" || fail "run c, b: exit $?"
expect "$work/cb" w x y z
# v starts with x on x's role, rank and thread: one thread's rows keep the order of their files' paths.
mkdir -p "$work/in/d" "$work/in/0"
printf '%s\nv,r,default,5,6,1,0,7\n' "$header" >"$work/in/d/rl_events.csv"
"$bin" -q --input-path "$work/in" --export jsonl --vis-type none --output-path "$work/cd" || fail "run c, d: exit $?"
expect "$work/cd" w x v y z
mv "$work/in/d/rl_events.csv" "$work/in/0/rl_events.csv"
"$bin" -q --input-path "$work/in" --export jsonl --vis-type none --output-path "$work/0c" || fail "run 0, c: exit $?"
expect "$work/0c" w v x y z
[ "$failures" -eq 0 ] && echo "ok: ties go by role, rank and thread, then the files' path order and their rows'"
exit "$failures"
