#!/bin/sh
# shard.sh: one process over a big tree against N shards run side by side and merged, and the merge of 1,024 tables alone.
#
# usage: bench/shard.sh [--build DIR] [--scratch DIR] [--repeat N] [--lock FILE] [--quick]
#   --build DIR     a build tree with rl-insight and rl-insight-synth (default: build)
#   --scratch DIR   where inputs and outputs go, kept between runs (default: /tmp/rl-insight-bench)
#   --repeat N      runs per shape and mode; the fastest counts (default: 3)
#   --lock FILE     run each measured command under flock FILE (a machine shared with others)
#   --quick         inputs 10x smaller, to try the script out
# Shapes: 1,024 ranks' MSTX traces (about 10 GB: few big files) and 1,024 ranks x 4 roles of NVTX
# captures (8,192 small files, 2 GB). Modes: one process with --jobs 2; 4 shards with xargs -P 4, then
# the merge. The inputs are read once before each mode: both start from the page cache.
set -eu

me=shard.sh
. "$(dirname "$0")/lib.sh"
bench_start "$@"
shards=4

# warm DIR: reads every file under DIR once, so that each mode starts from the page cache (the first
# read of 10 GB from this machine's disk takes minutes, and would be measured instead of rl-insight).
warm() {
	find "$1" -type f -print0 | xargs -0 cat > /dev/null
}

# timed FILE COMMAND...: runs COMMAND under /usr/bin/time, wall time and peak memory into FILE; stops on failure.
timed() {
	timed_file=$1; shift
	locked /usr/bin/time -f '%e %M' -o "$timed_file" "$@" || { echo "$me: $* failed" >&2; exit 1; }
}

# sharded DIR: the 4 shards side by side (xargs -P 4, a core each at most), then the merge that draws; the
# fastest of $repeat in best (s), the largest shard's peak memory in rss (KB), the merge's in merge_rss.
sharded() {
	dir=$1
	best= rss= merge_rss=
	i=0
	while [ $i -lt "$repeat" ]; do
		rm -rf "$dir/shards" "$dir/out-merged"
		warm "$dir/in"
		start=$(date +%s.%N)
		seq 0 $((shards - 1)) | locked xargs -P "$shards" -I{} /usr/bin/time -f '%M' -o "$dir/rss-{}" \
			"$rli" -q --input-path "$dir/in" --shard "{}/$shards" --jobs 1 --export jsonl --vis-type none \
			--output-path "$dir/shards/{}"
		timed "$dir/time-merge" "$rli" -q --input-path "$dir/shards" --export jsonl --vis-type png \
			--output-path "$dir/out-merged"
		end=$(date +%s.%N)
		t=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
		if [ -z "$best" ] || awk "BEGIN { exit !($t < $best) }"; then
			best=$t
			rss=$(cat "$dir"/rss-* | sort -n | tail -1)
			read -r _ merge_rss < "$dir/time-merge"
		fi
		i=$((i + 1))
	done
}

# measure NAME: the one process, the shards and their merge, and the check that both give the same bytes.
measure() {
	name=$1
	dir=$scratch/shard/$name
	bytes=$(du -sb "$dir/in" | cut -f1)
	warm "$dir/in"
	bench_fastest "$dir" one 0 -q --input-path "$dir/in" --jobs 2 --export jsonl --vis-type png
	t_one=$best m_one=$rss
	sharded "$dir"
	for f in rl_events.jsonl rl_timeline.png; do
		cmp -s "$dir/out-one/$f" "$dir/out-merged/$f" || { echo "$me: $name: merged $f differs from the one run's" >&2; exit 1; }
	done
	awk -v n="$name" -v bytes="$bytes" -v a="$t_one" -v ma="$m_one" -v s="$best" -v ms="$rss" -v mm="$merge_rss" 'BEGIN {
		printf "%-12s %7.0f MB  one process --jobs 2 %7.2f s (%4.0f MB/s, peak %4d MB)  4 shards + merge %7.2f s (%.2fx, shard peak %4d MB, merge peak %4d MB)\n",
			n, bytes / 1e6, a, bytes / 1e6 / a, ma / 1024, s, s / a, ms / 1024, mm / 1024 }'
}

# merge_alone NAME: the one run's table split into one table per rank (1,024 files in folders), merged.
merge_alone() {
	name=$1
	dir=$scratch/shard/$name
	rm -rf "$dir/tables"
	awk -v dir="$dir/tables" '{ match($0, /"rank_id": -?[0-9]+/); r = substr($0, RSTART + 11, RLENGTH - 11)
		f = dir "/rank-" r "/rl_events.jsonl"; if (!(f in seen)) { seen[f] = 1; n++; system("mkdir -p " dir "/rank-" r) }
		print >> f; if (n % 200 == 0) close(f) } END { print n > dir "/count" }' "$dir/out-one/rl_events.jsonl"
	files=$(ls "$dir/tables" | grep -c rank-)
	rows=$(wc -l < "$dir/out-one/rl_events.jsonl")
	bench_fastest "$dir" merge 0 -q --input-path "$dir/tables" --export jsonl --vis-type none
	t_merge=$best m_merge=$rss
	cmp -s "$dir/out-one/rl_events.jsonl" "$dir/out-merge/rl_events.jsonl" ||
		{ echo "$me: $name: the merged table differs from the one run's" >&2; exit 1; }
	bench_fastest "$dir" merge-draw 0 -q --input-path "$dir/tables" --export jsonl --vis-type png
	awk -v n="$name" -v f="$files" -v r="$rows" -v t="$t_merge" -v m="$m_merge" -v d="$best" -v md="$rss" 'BEGIN {
		printf "%-12s merge alone: %d tables, %d rows: %.2f s (peak %d MB); with the PNG %.2f s (peak %d MB)\n",
			n, f, r, t, m / 1024, d, md / 1024 }'
}

mstx_bytes=$((10000000000 / scale))
bench_generate shard mstx-1024 --format mstx --ranks 1024 --roles 1 --steps 1 --target-bytes "$mstx_bytes" --seed 5
bench_generate shard nvtx-1024 --format nvtx --ranks 1024 --roles 4 --steps 2 --events-per-unit $((500 / scale)) --seed 5

measure mstx-1024
measure nvtx-1024
merge_alone mstx-1024
merge_alone nvtx-1024
