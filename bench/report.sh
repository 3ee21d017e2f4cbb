#!/bin/sh
# report.sh: what the run report (rl_insight_report.pdf) costs to lay out and write, on several input shapes.
#
# usage: bench/report.sh [--build DIR] [--scratch DIR] [--repeat N] [--lock FILE] [--quick]
#   --build DIR     a build tree with rl-insight and rl-insight-synth (default: build)
#   --scratch DIR   where inputs and outputs go, kept between runs (default: /tmp/rl-insight-bench)
#   --repeat N      runs per shape; the fastest counts (default: 3)
#   --lock FILE     run each measured command under flock FILE (a machine shared with others)
#   --quick         inputs 10x smaller, to try the script out
# The target (issue 9): the report of 1,024 ranks x 6 roles x 3 steps, with memory for 8 devices,
# written in under 2 s. The report's time is rl-insight -v's "timing: report"; the parse is apart.
set -eu

me=report.sh
. "$(dirname "$0")/lib.sh"
bench_start "$@"

# The target's input: a timeline tree and a memory tree side by side, which auto detection reads both of.
generate_with_memory() {
	name=$1 memory_rows=$2; shift 2
	dir=$scratch/report/$name
	if bench_stale "$dir" "$memory_rows" "$@"; then
		rm -rf "$dir"
		mkdir -p "$dir/in"
		"$synth" "$@" --output "$dir/in/timeline" > /dev/null
		# 8 devices: 2 roles x 4 ranks
		"$synth" --format memory --ranks 4 --roles 2 --steps 1 --events-per-unit "$memory_rows" \
			--output "$dir/in/memory" > /dev/null
		bench_made "$dir" "$memory_rows" "$@"
	fi
}

# measure NAME ARGS...: the fastest of N runs' report timing (rl-insight -v), its pages, and the run's peak memory.
measure() {
	name=$1; shift
	dir=$scratch/report/$name
	best= pages= rss= parse=
	i=0
	while [ $i -lt "$repeat" ]; do
		locked /usr/bin/time -f '%M' -o "$dir/time" "$rli" --input-path "$dir/in" "$@" \
			--vis-type pdf --output-path "$dir/out" -v > /dev/null 2> "$dir/log"
		# the memory figure and statistics are made inside the report's time; the parses are apart
		report=$(sed -n 's/.*timing: report \([0-9.]*\) ms, \([0-9]*\) pages.*/\1/p' "$dir/log")
		# the timeline's vector layout is made for the report alone here: it counts
		layout=$(sed -n 's/.*timing: layout \([0-9.]*\) ms.*/\1/p' "$dir/log" | head -1)
		if [ -z "$report" ] || [ -z "$layout" ]; then
			echo "$me: $name: no report timing in the log:" >&2
			cat "$dir/log" >&2
			exit 1
		fi
		# and the statistics both analyses compute, which the report reads
		st=$(sed -n 's/.*timing: \(memory \)*statistics \([0-9.]*\) ms.*/\2/p' "$dir/log" | awk '{ s += $1 } END { print s + 0 }')
		t=$(awk -v a="$report" -v b="$layout" -v c="$st" 'BEGIN { print a + b + c }')
		if [ -z "$best" ] || awk "BEGIN { exit !($t < $best) }"; then
			best=$t rss=$(cat "$dir/time")
			pages=$(sed -n 's/.*timing: report [0-9.]* ms, \([0-9]*\) pages.*/\1/p' "$dir/log")
			parse=$(sed -n 's/.*timing: parse \([0-9.]*\) ms.*/\1/p' "$dir/log" | head -1)
		fi
		i=$((i + 1))
	done
	awk -v n="$name" -v t="$best" -v p="$pages" -v parse="$parse" -v m="$rss" \
		-v b="$(wc -c < "$dir/out/rl_insight_report.pdf")" 'BEGIN {
		printf "%-30s report (statistics and timeline layout included) %8.1f ms  %5d pages  %7d KB  (parse %8.1f ms)  peak %d MB\n",
			n, t, p, b / 1024, parse, m / 1024 }'
}

ranks=$((1024 / scale))
# The target's shape: one bar per unit, 1,024 ranks x 6 roles x 3 steps, and 8 devices' memory records.
generate_with_memory mstx-1024x6x3+memory-8x20k $((20000 / scale)) --format mstx --ranks $ranks --roles 6 --steps 3 \
	--events-per-unit 20
# Many steps: long step tables (cut at 60 rows a role) on few ranks.
bench_generate report nvtx-many-steps --format nvtx --ranks 16 --roles 4 --steps 1 --events-per-unit $((20000 / scale)) --dense
# Many ranks, few bars each: the timeline's pages dominate.
bench_generate report nvtx-many-ranks --format nvtx --ranks $((2500 / scale)) --roles 4 --steps 1 --events-per-unit 40
measure mstx-1024x6x3+memory-8x20k
measure nvtx-many-steps --profiler-type nvtx
measure nvtx-many-ranks --profiler-type nvtx
