#!/bin/sh
# cli_check.sh: generate a tree, run rl-insight on it, compare its CSV with the generator's expected rows.
# usage: cli_check.sh SYNTH RL_INSIGHT CSV_COMPARE FORMAT WORKDIR [PROFILER_TYPE [SYNTH_OPTION...]]
#   FORMAT nvtx-dense: NVTX captures of ranges only (rl-insight-synth --dense)
#   FORMAT nvtx-text: NVTX ranges that carry their own message, escaped and UTF-8 (--dense --nvtx-text)
set -u
synth=$1 cli=$2 compare=$3 format=$4 work=$5 profiler=${6:-${4%-*}}
shift $(($# < 6 ? $# : 6)) # the rest go to the generator after the usual ones, and win over them
shape=
case $format in
*-dense) format=${format%-dense} shape=--dense ;;
*-text) format=${format%-text} shape="--dense --nvtx-text" ;;
esac

rm -rf "$work"
"$synth" --format "$format" $shape --ranks 3 --roles 5 --steps 2 --events-per-unit 25 --seed 7 \
	--output "$work/in" "$@" || exit 1
"$cli" --input-path "$work/in" --profiler-type "$profiler" --export csv --vis-type png \
	--output-path "$work/out" || { echo "rl-insight failed with status $?"; exit 1; }
test -s "$work/out/rl_timeline.png" || { echo "no rl_timeline.png written"; exit 1; }
# A PNG starts with its 8-byte signature.
test "$(head -c 8 "$work/out/rl_timeline.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ||
	{ echo "rl_timeline.png is not a PNG"; exit 1; }
exec "$compare" "$work/in/expected.csv" "$work/out/rl_events.csv"
