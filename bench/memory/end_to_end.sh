#!/bin/sh
# end_to_end.sh: the memory analysis end to end: rl-insight from the capture to the PNG (and the HTML pages), wall time, peak RSS, output sizes.
#
# usage: bench/memory/end_to_end.sh [--build DIR] [--scratch DIR] [--repeat N] [--shapes LIST] [--quick]
#   --build DIR     a build tree with rl-insight and bench/rl-insight-synth (default: build-release)
#   --scratch DIR   where the captures are generated and kept between runs (default: /tmp/rl-insight-bench)
#   --repeat N      runs per measurement; the fastest counts, the largest RSS is shown (default: 3)
#   --shapes LIST   comma-separated, of: one (1 device, 1,000,000 rows), ranks (16 ranks x 62,500 rows),
#                   stacks (1 device, 250,000 rows whose call stacks are 40 frames deep: a trace as
#                   large as the million rows' in a quarter of the rows), devices (64 ranks x 15,625
#                   rows: the same bytes, and a figure for each of 64 devices), many (128 ranks x 7,812
#                   rows: the sparsest, a figure for each of 128 devices); default: all five
#   --quick         every shape 10 times smaller, to try the script out
#
# Each run is `rl-insight --profiler-type memory -v` (captures parsed on every core, as a user runs
# it; --jobs 1 is bench/memory/run.sh's parse ratio), timed by /usr/bin/time: first
# --vis-type png, then --vis-type png,html. The HTML part is what the second run adds.
set -eu

build=build-release
scratch=/tmp/rl-insight-bench
repeat=3
shapes=one,ranks,stacks,devices,many
scale=1
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift 2 ;;
	--scratch) scratch=$2; shift 2 ;;
	--repeat) repeat=$2; shift 2 ;;
	--shapes) shapes=$2; shift 2 ;;
	--quick) scale=10; shift ;;
	-h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "end_to_end.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done

synth=$build/bench/rl-insight-synth
cli=$build/rl-insight
me=end_to_end.sh
. "$(dirname "$0")/../lib.sh"
bench_need "$synth" "$cli"
bench_need_time
bench_scratch "$scratch" "$(cd "$(dirname "$0")/../.." && pwd)"

mb() { awk "BEGIN { printf \"%.0f\", $1 / 1e6 }"; }
# Total bytes of the files that match a find expression under a folder.
bytes() { d=$1; shift; find "$d" -type f "$@" -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'; }

# One capture per shape and generator build: DIR holds it, .params says how it was made.
generate() {
	dir=$1; shift
	if bench_stale "$dir" "$@"; then
		echo "generating $dir: $*" >&2
		rm -rf "$dir"
		"$synth" --format memory --roles 1 --steps 1 --seed 1 --output "$dir" "$@" >/dev/null
		rm -f "$dir/expected_memory.jsonl" # the generator's answer key, which no run reads
		bench_made "$dir" "$@"
	fi
}

# The fastest of REPEAT runs of rl-insight on a capture: "seconds peak_kb figure_ms log" (log: the fastest run's -v output).
run_best() {
	in=$1 out=$2 vis=$3
	i=0 best="" rss=0
	while [ $i -lt "$repeat" ]; do
		rm -rf "$out"
		mkdir -p "$out"
		/usr/bin/time -f 'TIME %e %M' "$cli" --input-path "$in" --profiler-type memory --vis-type "$vis" \
			-v --output-path "$out" > "$out.log" 2>&1 || true
		s=$(awk '$1 == "TIME" { print $2 }' "$out.log")
		k=$(awk '$1 == "TIME" { print $3 }' "$out.log")
		[ "$k" -gt "$rss" ] && rss=$k
		if [ -z "$best" ] || awk "BEGIN { exit !($s < $best) }"; then best=$s; cp "$out.log" "$out.best.log"; fi
		i=$((i + 1))
	done
	echo "$best $rss"
}

echo "memory end to end on $(nproc) CPU(s), $(date -u '+%Y-%m-%d %H:%M UTC'); $cli, best of $repeat"
for shape in $(echo "$shapes" | tr ',' ' '); do
	case $shape in
	one) rows=$((1000000 / scale)); args="--ranks 1 --events-per-unit $rows" ;;
	ranks) rows=$((1000000 / scale)); args="--ranks 16 --events-per-unit $((rows / 16))" ;;
	stacks) rows=$((250000 / scale)); args="--ranks 1 --events-per-unit $rows --stack-depth 40" ;;
	devices) rows=$((1000000 / scale)); args="--ranks 64 --events-per-unit $((rows / 64))" ;;
	many) rows=$((1000000 / scale)); args="--ranks 128 --events-per-unit $((rows / 128))" ;;
	*) echo "end_to_end.sh: unknown shape $shape" >&2; exit 2 ;;
	esac
	dir=$scratch/memory-e2e-$shape-$rows
	# shellcheck disable=SC2086 # args is a list of options
	generate "$dir" $args
	csv=$(bytes "$dir" -name operator_memory.csv)
	trace=$(bytes "$dir" -name trace_view.json)
	out=$scratch/memory-e2e-out

	set -- $(run_best "$dir" "$out" png)
	png_s=$1 png_kb=$2
	log=$out.best.log
	if ! grep -q '^TIME' "$log" || grep -q '^error' "$log"; then
		echo "end_to_end.sh: rl-insight failed on $dir:" >&2
		cat "$log" >&2
		exit 1
	fi
	figure_ms=$(awk '/timing: memory png/ { for (i = 1; i < NF; i++) if ($i == "png") s += $(i + 1) } END { print s + 0 }' "$log")
	allocs=$(sed -n 's/.*memory: \([0-9]*\) allocations.*/\1/p' "$log" | head -1)
	pngs=$(bytes "$out" -name '*.png')
	npng=$(find "$out" -name '*.png' | wc -l)

	echo
	echo "shape $shape: $rows rows ($allocs allocations), operator_memory.csv $(mb "$csv") MB, trace_view.json $(mb "$trace") MB"
	printf '  %-30s %7.2f s   peak RSS %4.0f MB   figure (layout + render + encode) %.2f s\n' \
		"to PNG" "$png_s" "$(awk "BEGIN { print $png_kb / 1024 }")" "$(awk "BEGIN { print $figure_ms / 1000 }")"
	printf '  %-30s %d file(s), %.1f MB\n' "PNG output" "$npng" "$(awk "BEGIN { print $pngs / 1e6 }")"

	set -- $(run_best "$dir" "$out" png,html)
	both_s=$1 both_kb=$2
	log=$out.best.log
	html=$(bytes "$out" \( -name '*.html' -o -name '*.js' \))
	if grep -q 'memory pages (html) are not' "$log" || [ "$html" -eq 0 ]; then
		printf '  %-30s not built by this rl-insight (the PNG run above is the whole figure)\n' "HTML pages"
	else
		printf '  %-30s %7.2f s   peak RSS %4.0f MB   HTML adds %.2f s\n' "to PNG and HTML" "$both_s" \
			"$(awk "BEGIN { print $both_kb / 1024 }")" "$(awk "BEGIN { print $both_s - $png_s }")"
		printf '  %-30s %.1f MB, %.1f bytes per bar (target 16)\n' "HTML pages" "$(awk "BEGIN { print $html / 1e6 }")" \
			"$(awk "BEGIN { print $html / $allocs }")"
	fi
	echo "  targets: under 4 s and 400 MB peak RSS end to end"
	rm -rf "$out" "$out.log" "$out.best.log"
done
