#!/bin/sh
# torch_memory.sh: what reading PyTorch [memory] events with the timeline costs over the timeline alone.
#
# usage: bench/torch_memory.sh [--build DIR] [--scratch DIR] [--repeat N] [--lock FILE] [--quick]
#   --build DIR     a build tree with rl-insight and rl-insight-synth (default: build)
#   --scratch DIR   where inputs and outputs go, kept between runs (default: /tmp/rl-insight-bench)
#   --repeat N      runs per shape and mode; the fastest counts (default: 3)
#   --lock FILE     run each measured command under flock FILE (a machine shared with others)
#   --quick         inputs 10x smaller, to try the script out
#   --vis LIST      the outputs to write (default: html, the command's default)
# The target (issue 10): 1 GB of torch traces (uncompressed) holding 2,000,000 [memory] events,
# timeline and memory outputs from auto detection within 1.3x the time of the timeline alone.
set -eu

vis=html
me=torch_memory.sh
. "$(dirname "$0")/lib.sh"
# --vis is this script's own; the rest are lib.sh's.
for arg do
	shift
	if [ "${take_vis:-}" = 1 ]; then vis=$arg take_vis=; continue; fi
	if [ "$arg" = --vis ]; then take_vis=1; continue; fi
	set -- "$@" "$arg"
done
bench_start "$@"

# run NAME MODE ARGS...: the fastest run's wall time (s) and peak memory (KB) in best and rss.
run() {
	name=$1 mode=$2; shift 2
	dir=$scratch/torch_memory/$name
	bench_fastest "$dir" "$mode" 0 --input-path "$dir/in" "$@" --vis-type "$vis" -v
}

# measure NAME: the timeline alone (--profiler-type torch), then both analyses (auto), and the ratio.
measure() {
	name=$1
	dir=$scratch/torch_memory/$name
	bytes=$(find "$dir/in" -name '*.json.gz' ! -name 'async_llm*' -exec gzip -dc {} + | wc -c)
	# The two alternate, run by run, so that a load on the machine that comes and goes weighs on both:
	# each takes the fastest of its runs.
	rounds=$repeat repeat=1 t_alone= t_both=
	round=0
	while [ $round -lt "$rounds" ]; do
		run "$name" timeline --profiler-type torch
		if [ -z "$t_alone" ] || awk "BEGIN { exit !($best < $t_alone) }"; then t_alone=$best m_alone=$rss; fi
		run "$name" both
		if [ -z "$t_both" ] || awk "BEGIN { exit !($best < $t_both) }"; then t_both=$best m_both=$rss; fi
		round=$((round + 1))
	done
	repeat=$rounds best=$t_both rss=$m_both
	rows=$(sed -n 's/.*found \([0-9]*\) \[memory\] allocations.*/\1/p' "$dir/log-both")
	awk -v n="$name" -v vis="$vis" -v a="$t_alone" -v b="$best" -v ma="$m_alone" -v mb="$rss" -v bytes="$bytes" -v rows="$rows" 'BEGIN {
		printf "%-12s %-5s %6.0f MB  %8d allocations  timeline alone %6.2f s (peak %4d MB)  with memory %6.2f s (peak %4d MB)  ratio %.2f (target 1.30)\n",
			n, vis, bytes / 1e6, rows, a, ma / 1024, b, mb / 1024, b / a }'
}

events=$((2000000 / scale))
target=$((1000000000 / scale))
# Few big files: one trace of 1 GB holding every memory event.
bench_generate torch_memory one-big --format torch --ranks 1 --roles 1 --steps 1 --target-bytes $target \
	--memory-events $events
# Many small files: 4 ranks x 4 roles x 8 steps, the same bytes and events spread over 128 traces,
# with operators and (every other trace) Python frames around the events to attribute them to.
bench_generate torch_memory many-small --format torch --ranks 4 --roles 4 --steps 8 --target-bytes $target --memory-ops \
	--memory-events $((events / 128))
measure one-big
measure many-small
