#!/bin/sh
# stats.sh: what the statistics and summary.json cost per million rows, next to the parse, on several input shapes.
#
# usage: bench/stats.sh [--build DIR] [--scratch DIR] [--repeat N] [--lock FILE] [--quick]
#   --build DIR     a build tree with rl-insight and rl-insight-synth (default: build)
#   --scratch DIR   where inputs and outputs go, kept between runs (default: /tmp/rl-insight-bench)
#   --repeat N      runs per shape; the fastest counts (default: 3)
#   --lock FILE     run each measured command under flock FILE (a machine shared with others)
#   --quick         inputs 10x smaller, to try the script out
set -eu

me=stats.sh
. "$(dirname "$0")/lib.sh"
bench_start "$@"

# measure NAME FORMAT: the fastest of N runs' parse and statistics timings (rl-insight -v), and peak memory.
measure() {
	name=$1 format=$2 dir=$scratch/stats/$1
	best_parse= best_stats= best_write= rss=
	i=0
	while [ $i -lt "$repeat" ]; do
		locked /usr/bin/time -f '%M' -o "$dir/time" "$rli" --input-path "$dir/in" --profiler-type "$format" \
			--vis-type none --output-path "$dir/out" -v > /dev/null 2> "$dir/log"
		parse=$(sed -n 's/.*timing: parse \([0-9.]*\) ms, \([0-9]*\) events.*/\1/p' "$dir/log")
		rows=$(sed -n 's/.*timing: parse [0-9.]* ms, \([0-9]*\) events.*/\1/p' "$dir/log")
		stats=$(sed -n 's/.*timing: statistics \([0-9.]*\) ms.*/\1/p' "$dir/log")
		write=$(sed -n 's/.*timing: summary.json \([0-9.]*\) ms.*/\1/p' "$dir/log")
		if [ -z "$best_stats" ] || awk "BEGIN { exit !($stats < $best_stats) }"; then
			best_parse=$parse best_stats=$stats best_write=$write rss=$(cat "$dir/time")
		fi
		i=$((i + 1))
	done
	awk -v n="$name" -v r="$rows" -v p="$best_parse" -v s="$best_stats" -v w="$best_write" -v m="$rss" \
		-v b="$(wc -c < "$dir/out/summary.json")" 'BEGIN {
		printf "%-34s %9d rows  parse %8.1f ms  statistics %8.1f ms (%.2f s/M rows, %.2fx parse)  summary.json %6.1f ms, %d KB  peak %d MB\n",
			n, r, p, s, s / 1000 / (r / 1e6), s / p, w, b / 1024, m / 1024 }'
}

m=$((1000000 / scale))
# Dense NVTX: one role of many steps per rank (every bar a step); sparse: the same rows over many ranks.
bench_generate stats nvtx-dense --format nvtx --ranks 16 --roles 4 --steps 1 --events-per-unit $((m / 64)) --dense
bench_generate stats nvtx-many-ranks --format nvtx --ranks 2500 --roles 4 --steps 1 --events-per-unit $((m / 10000))
# MSTX: a bar per file, many units: 1,024 ranks x 4 roles x 3 steps.
bench_generate stats mstx-units --format mstx --ranks 1024 --roles 4 --steps 3 --events-per-unit 200
measure nvtx-dense nvtx
measure nvtx-many-ranks nvtx
measure mstx-units mstx
