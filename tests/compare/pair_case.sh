#!/bin/sh
# pair_case.sh: generates a run pair (rl-insight-synth --pair ...) and checks the comparison of its two sides.
# Usage: pair_case.sh SYNTH RL_INSIGHT SCHEMA WORK THRESHOLD_PERCENT SYNTH_ARGS...
set -eu
synth=$1 tool=$2 schema=$3 work=$4 threshold=$5
shift 5
rm -rf "$work"
"$synth" "$@" --output "$work/pair" > /dev/null
exec python3 "$(dirname "$0")/check_compare.py" "$tool" "$schema" "$work/pair/baseline" "$work/pair/current" \
	"$work/out" "$threshold" "pair=$work/pair/pair.txt"
