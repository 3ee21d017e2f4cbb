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

# One run into an empty output folder (a run that replaces last run's 100 MB file also pays the
# file system for freeing it): its wall time and peak RSS, "wall rss".
run_once() {
	out=$1; shift
	rm -rf "$out"
	locked /usr/bin/time -f "%e %M" -o "$out.time" "$@" --output-path "$out" -q > /dev/null ||
		{ echo "export.sh: failed: $*" >&2; exit 1; }
	cat "$out.time"
}

echo
echo "--export cost on $(nproc) CPU(s), $(date -u '+%Y-%m-%d %H:%M UTC'), load average" \
	"$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo ?); best of $repeat rounds; rl-insight --jobs 1 --vis-type none"
printf '%-6s %9s %-8s %8s %12s %18s %12s\n' case rows export "wall s" "added s" "added s per 1M rows" "peak RSS MB"
for case in nvtx:nvtx mstx_rows:mstx; do
	name=${case%%:*} type=${case#*:}
	input=$scratch/$name/in
	rows=$(($(wc -l < "$input/expected.csv") - 1))
	# The three alternate, round by round, so that a load that comes and goes weighs on each alike;
	# each keeps its fastest run and its largest peak.
	best_none= best_csv= best_jsonl= peak_none=0 peak_csv=0 peak_jsonl=0
	round=0
	while [ $round -lt "$repeat" ]; do
		for format in none csv jsonl; do
			export_flag=
			[ "$format" = none ] || export_flag="--export $format"
			set -- $(run_once "$scratch/$name.$format" "$rli" --input-path "$input" --profiler-type "$type" \
				--vis-type none --jobs 1 $export_flag)
			eval "best=\$best_$format peak=\$peak_$format"
			if [ -z "$best" ] || awk "BEGIN { exit !($1 < $best) }"; then best=$1; fi
			[ "$2" -gt "$peak" ] && peak=$2
			eval "best_$format=\$best peak_$format=\$peak"
		done
		round=$((round + 1))
	done
	printf '%-6s %9s %-8s %8s %12s %18s %12s\n' "$type" "$rows" none "$best_none" "" "" \
		"$(awk "BEGIN { printf \"%.1f\", $peak_none / 1024 }")"
	for format in csv jsonl; do
		eval "wall=\$best_$format peak=\$peak_$format"
		added=$(awk "BEGIN { printf \"%.3f\", $wall - $best_none }")
		# below 100,000 rows the run-to-run noise is larger than the export: no per-million figure
		per_million=$(awk "BEGIN { if ($rows < 100000) print \"(too few)\"; else printf \"%.3f\", ($wall - $best_none) / $rows * 1e6 }")
		printf '%-6s %9s %-8s %8s %12s %18s %12s\n' "$type" "$rows" "$format" "$wall" "$added" "$per_million" \
			"$(awk "BEGIN { printf \"%.1f\", $peak / 1024 }")"
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
