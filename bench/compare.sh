#!/bin/sh
# compare.sh: what --baseline costs over the run alone, the baseline read from its tree (in parallel) or its summary.json.
#
# usage: bench/compare.sh [--build DIR] [--scratch DIR] [--repeat N] [--lock FILE] [--quick]
#   --build DIR     a build tree with rl-insight and rl-insight-synth (default: build)
#   --scratch DIR   where inputs and outputs go, kept between runs (default: /tmp/rl-insight-bench)
#   --repeat N      runs per shape and mode; the fastest counts (default: 3)
#   --lock FILE     run each measured command under flock FILE (a machine shared with others)
#   --quick         inputs 10x smaller, to try the script out
# Each side is parsed once and the two at the same time: a tree baseline should cost about one
# run's time on a machine with a core to spare, a summary.json baseline next to nothing.
set -eu

me=compare.sh
. "$(dirname "$0")/lib.sh"
bench_start "$@"

# run NAME MODE ARGS...: the fastest run's wall time (s) and peak memory (KB) in best and rss (exit 6: a regression found).
run() {
	name=$1 mode=$2; shift 2
	dir=$scratch/compare/$name
	bench_fastest "$dir" "$mode" 6 --input-path "$dir/in/current" "$@" --vis-type png -q
}

# measure NAME: the run alone, against the baseline's tree, against its summary.json.
measure() {
	name=$1
	dir=$scratch/compare/$name
	rm -rf "$dir/baseline-out"
	"$rli" --input-path "$dir/in/baseline" --output-path "$dir/baseline-out" --vis-type none -q
	bytes=$(du -sb "$dir/in/current" | cut -f1)
	run "$name" alone
	t_alone=$best m_alone=$rss
	run "$name" tree --baseline "$dir/in/baseline"
	t_tree=$best m_tree=$rss
	run "$name" summary --baseline "$dir/baseline-out/summary.json"
	awk -v n="$name" -v bytes="$bytes" -v a="$t_alone" -v t="$t_tree" -v s="$best" -v ma="$m_alone" -v mt="$m_tree" \
		-v ms="$rss" 'BEGIN {
		printf "%-10s %6.0f MB a side  alone %6.2f s (peak %4d MB)  tree baseline %6.2f s (%.2fx, peak %4d MB)  summary baseline %6.2f s (%.2fx, peak %4d MB)\n",
			n, bytes / 1e6, a, ma / 1024, t, t / a, mt / 1024, s, s / a, ms / 1024 }'
}

target=$((400000000 / scale))
# Dense: many bars in few big MSTX traces; sparse: many small NVTX captures with few ranges each.
bench_pair() {
	pair_dir=$scratch/compare/$1; shift
	if bench_stale "$pair_dir" "$@"; then
		rm -rf "$pair_dir/in"
		mkdir -p "$pair_dir"
		"$synth" "$@" --output "$pair_dir/in" > /dev/null
		bench_made "$pair_dir" "$@"
	fi
}
bench_pair mstx-big --pair slowdown --format mstx --ranks 4 --roles 4 --steps 4 --events-per-unit $((target / 64 / 200))
bench_pair nvtx-many --pair slowdown --format nvtx --ranks 64 --roles 4 --steps 4 --events-per-unit $((1000 / scale))
measure mstx-big
measure nvtx-many
