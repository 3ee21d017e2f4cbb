#!/bin/sh
# overview_check.sh: a paper figure of more rows than a column shows readably gives the overview, says so on stderr in one line, and --all-rows gives every row.
# usage: overview_check.sh SYNTH RL_INSIGHT WORKDIR
set -u
synth=$1 cli=$2 work=$3
fail() { echo "FAIL: $*"; exit 1; }

rm -rf "$work"
# 40 ranks x 2 roles = 80 rows; a 9 in paper page holds about 70 rows of 8.5 pt.
"$synth" --format mstx --ranks 40 --roles 2 --steps 2 --events-per-unit 2 --seed 3 --output "$work/in" >/dev/null || exit 1
"$cli" --input-path "$work/in" --vis-type png,html,timeline_pdf --style paper --output-path "$work/out" \
	2>"$work/stderr" || fail "rl-insight failed with status $?"
grep -c 'more than its paper page shows readably' "$work/stderr" | grep -qx 1 || fail "no overview line: $(cat "$work/stderr")"
grep -q '^rl-insight: the timeline has 80 rows, .* the PNG and PDF show each role.s occupancy over time and the outlier ranks instead; --all-rows draws every row (the HTML has them all)$' \
	"$work/stderr" || fail "the overview line reads: $(cat "$work/stderr")"
# detection and the overview: nothing else at the default verbosity
test "$(wc -l <"$work/stderr")" -eq 2 || fail "stderr: $(cat "$work/stderr")"
# the HTML keeps every row: 80 row labels in its model
test "$(grep -o '"label":"[^"]* - Rank [0-9]*"' "$work/out/rl_timeline.html" | sort -u | wc -l)" -eq 80 ||
	fail "the HTML does not hold 80 rows"

"$cli" --input-path "$work/in" --vis-type png --style paper --all-rows --output-path "$work/all" \
	2>"$work/stderr-all" || fail "rl-insight --all-rows failed with status $?"
grep -q 'readably' "$work/stderr-all" && fail "--all-rows still says the overview: $(cat "$work/stderr-all")"
test -s "$work/all/rl_timeline.png" || fail "no PNG with --all-rows"
echo "ok: overview for 80 rows, every row with --all-rows"
