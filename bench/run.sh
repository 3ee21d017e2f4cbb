#!/bin/sh
# run.sh: parse and render benchmarks of rl-insight against a bare yajl parse of the same bytes; prints a table.
#
# usage: bench/run.sh [--build DIR] [--scratch DIR] [--repeat N] [--quick]
#   --build DIR     a build tree with rl-insight, rl-insight-synth and yajl-bare (default: build)
#   --scratch DIR   where the inputs are generated and kept between runs (default: /tmp/rl-insight-bench)
#   --repeat N      runs per measurement; the fastest counts (default: 3)
#   --quick         inputs 10x smaller, to try the script out
set -eu

me=run.sh
. "$(dirname "$0")/lib.sh"
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift 2 ;;
	--scratch) scratch=$2; shift 2 ;;
	--repeat) repeat=$2; shift 2 ;;
	--quick) scale=10; shift ;;
	-h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done

rli=$build/rl-insight
synth=$build/bench/rl-insight-synth
bare=$build/bench/yajl-bare
bench_need "$rli" "$synth" "$bare"
bench_need_time
bench_scratch "$scratch" "$(cd "$(dirname "$0")/.." && pwd)"

# Generates a case unless the same parameters already made it (gigabytes take a while).
generate() {
	name=$1; shift
	dir=$scratch/$name
	if bench_stale "$dir" "$@"; then
		echo "generating $name: rl-insight-synth $*" >&2
		rm -rf "$dir"
		"$synth" "$@" --seed 1 --output "$dir/in"
		bench_made "$dir" "$@"
	fi
}

mstx_bytes=$((250000000 / scale))
torch_bytes=$((1000000000 / scale))
nvtx_ranges=$((5000 / scale))
nvtx_dense_ranges=$((166667 / scale))
generate mstx --format mstx --ranks 1 --roles 1 --steps 1 --target-bytes $mstx_bytes
generate torch --format torch --ranks 1 --roles 1 --steps 1 --target-bytes $torch_bytes
# NVTX in two shapes: sparse, 200 captures whose ranges sit between kernel and other-domain lines
# (2.25 lines a range); dense, 6 captures of ranges only, where the per-range work weighs most.
generate nvtx --format nvtx --ranks 8 --roles 5 --steps 5 --events-per-unit $nvtx_ranges
generate nvtx_dense --format nvtx --dense --ranks 2 --roles 3 --steps 1 --events-per-unit $nvtx_dense_ranges
# The dense shape again with every range carrying its own message (escaped quotes, UTF-8): lines
# the NVTX scanner must unescape rather than pass through.
generate nvtx_text --format nvtx --dense --nvtx-text --ranks 2 --roles 3 --steps 1 --events-per-unit $nvtx_dense_ranges

mstx_file=$(find "$scratch/mstx/in" -name trace_view.json)
torch_file=$(find "$scratch/torch/in" -name '*.json.gz' ! -name '*async_llm*')

# Runs a command once; OUT.best keeps "<fastest wall s> <largest peak RSS KiB>" over the runs so far,
# and OUT.best.stderr and OUT.best.stdout the fastest run's output.
measure_once() {
	out=$1; shift
	/usr/bin/time -f "%e %M" -o "$out.time" "$@" > "$out.stdout" 2> "$out.stderr" ||
		{ echo "run.sh: failed: $*" >&2; cat "$out.stderr" >&2; exit 1; }
	read -r wall rss < "$out.time"
	best= peak=0
	[ -f "$out.best" ] && read -r best peak < "$out.best"
	if [ -z "$best" ] || awk "BEGIN { exit !($wall < $best) }"; then
		best=$wall
		cp "$out.stderr" "$out.best.stderr"
		cp "$out.stdout" "$out.best.stdout"
	fi
	[ "$rss" -gt "$peak" ] && peak=$rss
	echo "$best $peak" > "$out.best"
}

# Runs a command REPEAT times; prints "<best wall s> <max peak RSS KiB>" and keeps the fastest run's stderr/stdout.
measure() {
	out=$1; shift
	rm -f "$out.best"
	i=0
	while [ $i -lt "$repeat" ]; do
		measure_once "$out" "$@"
		i=$((i + 1))
	done
	cat "$out.best"
}

# rl-insight's own parse time ("timing: parse N ms" under -v), in seconds.
parse_seconds() {
	sed -n 's/.*timing: parse \([0-9.]*\) ms.*/\1/p' "$1" | awk '{ printf "%.3f", $1 / 1000 }'
}

row() {
	printf '%-20s %-11s %10s %9s %9s %9s %10s\n' "$@"
}

echo
echo "rl-insight benchmarks on $(nproc) CPU(s), $(date -u '+%Y-%m-%d %H:%M UTC'), load average" \
	"$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo ?); best of $repeat runs; rl-insight --jobs 1"
row case tool "input MB" "wall s" "parse s" "MB/s" "peak RSS MB"
row ---- ---- -------- ------ ------- ---- -----------

bench_parse() {
	label=$1 type=$2 input=$3; shift 3
	work=$scratch/$label.out
	# The two alternate, run by run, so that a load on the machine that comes and goes weighs on both.
	rm -f "$work.bare.best" "$work.rli.best"
	i=0
	while [ $i -lt "$repeat" ]; do
		measure_once "$work.bare" "$bare" "$@"
		# --vis-type none: no output, so the wall time and peak RSS are the parse's own.
		measure_once "$work.rli" "$rli" --input-path "$input" --profiler-type "$type" --vis-type none \
			--output-path "$work" --jobs 1 -v
		i=$((i + 1))
	done
	bare_result=$(cat "$work.bare.best")
	rli_result=$(cat "$work.rli.best")
	bytes=$(awk '{ for (i = 1; i < NF; i++) if ($i == "bytes") print $(i + 1) }' "$work.bare.best.stdout")
	bare_parse=$(awk '{ for (i = 1; i < NF; i++) if ($i == "seconds") print $(i + 1) }' "$work.bare.best.stdout")
	rli_parse=$(parse_seconds "$work.rli.best.stderr")
	mb=$(awk "BEGIN { printf \"%.1f\", $bytes / 1e6 }")
	set -- $rli_result
	row "$label" rl-insight "$mb" "$1" "$rli_parse" "$(awk "BEGIN { printf \"%.0f\", $bytes / 1e6 / $rli_parse }")" \
		"$(awk "BEGIN { printf \"%.1f\", $2 / 1024 }")"
	set -- $bare_result
	row "" yajl-bare "$mb" "$1" "$bare_parse" "$(awk "BEGIN { printf \"%.0f\", $bytes / 1e6 / $bare_parse }")" \
		"$(awk "BEGIN { printf \"%.1f\", $2 / 1024 }")"
	ratio=$(awk "BEGIN { printf \"%.2f\", $rli_parse / $bare_parse }")
	verdict=$(awk "BEGIN { print ($ratio <= 1.25) ? \"meets 1.25x\" : \"misses 1.25x\" }")
	row "" "parse ratio" "" "" "${ratio}x" "" "$verdict"
}

bench_parse "mstx $((250 / scale)) MB" mstx "$scratch/mstx/in" "$mstx_file"
bench_parse "torch $((1000 / scale)) MB gz" torch "$scratch/torch/in" "$torch_file"
bench_parse "nvtx $((1000000 / scale)) sparse" nvtx "$scratch/nvtx/in" "$scratch/nvtx/in"
bench_parse "nvtx $((1000000 / scale)) dense" nvtx "$scratch/nvtx_dense/in" "$scratch/nvtx_dense/in"
bench_parse "nvtx $((1000000 / scale)) text" nvtx "$scratch/nvtx_text/in" "$scratch/nvtx_text/in"

# The 200 NVTX captures are units the parser spreads over threads: the same parse with the default --jobs.
work=$scratch/nvtx_jobs.out
jobs_result=$(measure "$work" "$rli" --input-path "$scratch/nvtx/in" --profiler-type nvtx --export csv \
	--output-path "$work" -v)
set -- $jobs_result
echo
echo "nvtx with the default --jobs ($(nproc) CPUs): parse $(parse_seconds "$work.best.stderr") s, wall $1 s," \
	"peak RSS $(awk "BEGIN { printf \"%.1f\", $2 / 1024 }") MB"

# PNG of every NVTX range as a bar: layout and render timings as rl-insight -v reports them.
work=$scratch/png.out
png_result=$(measure "$work" "$rli" --input-path "$scratch/nvtx/in" --profiler-type nvtx --vis-type png \
	--output-path "$work" -v)
layout_ms=$(sed -n 's/.*timing: layout \([0-9.]*\) ms.*/\1/p' "$work.best.stderr")
render_ms=$(sed -n 's/.*timing: render png \([0-9.]*\) ms.*/\1/p' "$work.best.stderr")
set -- $png_result
echo
echo "PNG of $((1000000 / scale)) bars (nvtx, default --jobs): layout ${layout_ms:-?} ms, render ${render_ms:-?} ms," \
	"whole run $1 s, peak RSS $(awk "BEGIN { printf \"%.1f\", $2 / 1024 }") MB" \
	"($(awk "BEGIN { print (${render_ms:-1e9} < 1000) ? \"meets\" : \"misses\" }") the 1 s render target)"
echo "Targets: parse ratio <= 1.25x; peak RSS < 64 MB for mstx and torch; PNG render of 1,000,000 bars < 1 s."
