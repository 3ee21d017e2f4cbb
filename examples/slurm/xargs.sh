#!/bin/bash
# xargs.sh: one big machine, no scheduler: N shards of the input parsed P at a time (xargs -P), then merged and drawn.
#
# Usage: xargs.sh INPUT OUTPUT N [P]
#   INPUT   the profiles;
#   OUTPUT  the outputs, and the shards' tables in OUTPUT/shards (emptied first);
#   N       how many shards; P how many at once (default: the number of CPUs).
# RL_INSIGHT names the command (default: rl-insight); RL_INSIGHT_VIS_TYPE the outputs (default: png,html,pdf).
# Each shard gets the CPUs / P threads (at least 1), so the P processes together use the machine once.
set -euo pipefail

if [ "$#" -lt 3 ] || [ "$#" -gt 4 ]; then
	echo "usage: xargs.sh INPUT OUTPUT N [P]" >&2
	exit 2
fi
input=$1
output=$2
shards=$3
cpus=$(nproc)
parallel=${4:-$cpus}
for number in "$shards" "$parallel"; do
	case $number in
	'' | *[!0-9]* | 0*)
		echo "xargs.sh: N and P must be positive integers, not '$number'" >&2
		exit 2
		;;
	esac
done
jobs=$((cpus / parallel))
[ "$jobs" -ge 1 ] || jobs=1
rl_insight=${RL_INSIGHT:-rl-insight}

rm -rf "$output/shards"
mkdir -p "$output/shards"
# xargs exits 123 when any shard failed: set -e stops before the merge.
seq 0 $((shards - 1)) | xargs -P "$parallel" -I{} "$rl_insight" -q --input-path "$input" --shard "{}/$shards" \
	--export jsonl --vis-type none --jobs "$jobs" --output-path "$output/shards/shard-{}"

"$rl_insight" -q --input-path "$output/shards" --output-path "$output" \
	--vis-type "${RL_INSIGHT_VIS_TYPE:-png,html,pdf}" --export jsonl
