#!/bin/sh
# export.sh: what --export csv|jsonl adds to a run, per million rows, on NVTX and MSTX inputs; then the printer alone.
#
# usage: bench/export.sh [--build DIR] [--scratch DIR] [--repeat N] [--lock FILE] [--quick]
#   --build DIR     a build tree with rl-insight, rl-insight-synth and export-bench (default: build)
#   --scratch DIR   where inputs and outputs go, kept between runs (default: /tmp/rl-insight-bench)
#   --repeat N      runs per measurement; the fastest counts (default: 5)
#   --lock FILE     run each measured command under flock FILE (a machine shared with others)
#   --quick         inputs 10x smaller, to try the script out
set -eu

repeat=5
me=export.sh
. "$(dirname "$0")/lib.sh"
bench_options "$@"

rli=$build/rl-insight
synth=$build/bench/rl-insight-synth
bench=$build/bench/export-bench
bench_need "$rli" "$synth" "$bench"
bench_need_time
bench_scratch "$scratch" "$(cd "$(dirname "$0")/.." && pwd)"

# Generates a case unless the same parameters already made it.
generate() {
	name=$1; shift
	dir=$scratch/$name
	if bench_stale "$dir" "$@"; then
		echo "generating $name: rl-insight-synth $*" >&2
		rm -rf "$dir"
		locked "$synth" "$@" --seed 1 --output "$dir/in" > /dev/null
		bench_made "$dir" "$@"
	fi
}

# NVTX: 1,000,000 ranges (monotonic-clock times, 6.6e9 ms); MSTX: one row per trace, epoch times (1.77e12 ms).
generate nvtx --format nvtx --ranks 8 --roles 5 --steps 5 --events-per-unit $((5000 / scale))
generate mstx_rows --format mstx --ranks 16 --roles 8 --steps $((50 / scale)) --events-per-unit 10

# Best wall time and largest peak RSS of REPEAT runs, each into an empty output folder (a run that
# replaces last run's 100 MB file also pays the file system for freeing it).
measure() {
	out=$1; shift
	best=""
	peak=0
	i=0
	while [ $i -lt "$repeat" ]; do
		rm -rf "$out"
		locked /usr/bin/time -f "%e %M" -o "$out.time" "$@" --output-path "$out" -q > /dev/null ||
			{ echo "export.sh: failed: $*" >&2; exit 1; }
		read -r wall rss < "$out.time"
		if [ -z "$best" ] || awk "BEGIN { exit !($wall < $best) }"; then best=$wall; fi
		[ "$rss" -gt "$peak" ] && peak=$rss
		i=$((i + 1))
	done
	echo "$best $peak"
}

echo
echo "--export cost on $(nproc) CPU(s), $(date -u '+%Y-%m-%d %H:%M UTC'), load average" \
	"$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo ?); best of $repeat runs; rl-insight --jobs 1 --vis-type none"
printf '%-6s %9s %-8s %8s %12s %18s %12s\n' case rows export "wall s" "added s" "added s per 1M rows" "peak RSS MB"
for case in nvtx:nvtx mstx_rows:mstx; do
	name=${case%%:*} type=${case#*:}
	input=$scratch/$name/in
	rows=$(($(wc -l < "$input/expected.csv") - 1))
	set -- $(measure "$scratch/$name.none" "$rli" --input-path "$input" --profiler-type "$type" --vis-type none --jobs 1)
	base=$1
	printf '%-6s %9s %-8s %8s %12s %18s %12s\n' "$type" "$rows" none "$1" "" "" "$(awk "BEGIN { printf \"%.1f\", $2 / 1024 }")"
	for format in csv jsonl; do
		set -- $(measure "$scratch/$name.$format" "$rli" --input-path "$input" --profiler-type "$type" \
			--vis-type none --jobs 1 --export "$format")
		added=$(awk "BEGIN { printf \"%.3f\", $1 - $base }")
		# below 100,000 rows the run-to-run noise is larger than the export: no per-million figure
		per_million=$(awk "BEGIN { if ($rows < 100000) print \"(too few)\"; else printf \"%.3f\", ($1 - $base) / $rows * 1e6 }")
		printf '%-6s %9s %-8s %8s %12s %18s %12s\n' "$type" "$rows" "$format" "$1" "$added" "$per_million" \
			"$(awk "BEGIN { printf \"%.1f\", $2 / 1024 }")"
	done
done

# The printer alone and the export alone, in-process, on each table repeated to 1,000,000 rows
# (so MSTX, one row per trace, gets its per-million figure too): to a file system in memory
# (/dev/shm, where there is one), then to the scratch folder's disk, fsync included.
for case in nvtx:nvtx mstx_rows:mstx; do
	name=${case%%:*} type=${case#*:}
	for dir in /dev/shm "$scratch"; do
		[ -d "$dir" ] && [ -w "$dir" ] || continue
		out=$dir/rl-insight-export-bench.$$
		mkdir -p "$out"
		echo
		echo "$type rows, export to $dir:"
		locked "$bench" --input "$scratch/$name/in" --profiler "$type" --rows $((1000000 / scale)) \
			--repeat "$repeat" --output "$out" | sed 's/^/  /'
		rm -rf "$out"
	done
done
echo
echo "Target: --export adds at most 0.15 s per million rows."
