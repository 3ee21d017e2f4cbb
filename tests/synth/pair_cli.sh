#!/bin/sh
# pair_cli.sh: generate a run pair, check rl-insight's CSV of each side against its expected rows, then the planted difference.
# usage: pair_cli.sh SYNTH RL_INSIGHT CSV_COMPARE PAIR_CHECK KIND FORMAT WORKDIR [more rl-insight-synth options]
#   FORMAT memory: the memory parser has no CSV export; its rows are checked by tests/memory (memory.synth)
set -u
synth=$1 cli=$2 compare=$3 check=$4 kind=$5 format=$6 work=$7
shift 7

rm -rf "$work"
"$synth" --pair "$kind" --format "$format" --ranks 3 --roles 4 --steps 3 --events-per-unit 25 --seed 7 "$@" \
	--output "$work/in" || exit 1
if [ "$format" != memory ]; then
	for side in baseline current; do
		"$cli" --input-path "$work/in/$side" --profiler-type "$format" --export csv --vis-type none \
			--output-path "$work/out/$side" || { echo "rl-insight failed on $side with status $?"; exit 1; }
		"$compare" "$work/in/$side/expected.csv" "$work/out/$side/rl_events.csv" || { echo "$side differs"; exit 1; }
	done
fi
exec "$check" "$work/in"
