#!/bin/sh
# same_outputs.sh: records every output of one rl-insight binary over the samples, the real captures and synthetic trees, and checks that another gives the same bytes.
#
#   scripts/same_outputs.sh record BIN DIR   run every case with BIN, outputs and a sha256 manifest into DIR
#   scripts/same_outputs.sh check BIN DIR    run them again with BIN and compare with DIR's manifest (exit 1 on a difference)
#
# Why: a refactor of the run loop (the analysis registry) must change no byte of any output, no
# message and no exit status. Each case's outputs are written into one fixed scratch folder and
# moved away after, so the paths in messages are the same between the two binaries.
# SYNTH (default: BIN's folder/bench/rl-insight-synth) writes the generated trees; SHARED
# (default: the folder holding spec/ beside the project, else /work/shared) holds the samples.
set -eu

usage() {
	echo "usage: $0 record|check BIN DIR" >&2
	exit 2
}
[ $# -eq 3 ] || usage
mode=$1
bin=$(realpath "$2")
dir=$3
case $mode in record | check) ;; *) usage ;; esac
here=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-}
if [ -z "$shared" ]; then
	if [ -d "$here/../shared/samples" ]; then shared=$(cd "$here/../shared" && pwd); else shared=/work/shared; fi
fi
synth=${SYNTH:-$(dirname "$bin")/bench/rl-insight-synth}
[ -x "$bin" ] || { echo "$0: no binary $bin" >&2; exit 2; }
[ -x "$synth" ] || { echo "$0: no synth $synth (set SYNTH)" >&2; exit 2; }

scratch=${TMPDIR:-/tmp}/rli-same-outputs
rm -rf "$scratch"
mkdir -p "$scratch/in" "$scratch/run"
if [ "$mode" = record ]; then
	rm -rf "$dir"
	mkdir -p "$dir"
	runs=$dir
else
	[ -f "$dir/manifest.sha256" ] || { echo "$0: no $dir/manifest.sha256 (record first)" >&2; exit 2; }
	runs=$scratch/check
	mkdir -p "$runs"
fi
dir=$(realpath "$dir")
runs=$(realpath "$runs")

# The generated trees: the same seed gives the same bytes for both binaries.
gen() {
	name=$1
	shift
	"$synth" "$@" --output "$scratch/in/$name" >/dev/null
}
gen mstx --format mstx --ranks 4 --roles 4 --steps 2
gen torch --format torch --ranks 2 --roles 3 --steps 2
gen nvtx --format nvtx --ranks 3 --roles 3 --steps 2
gen memory --format memory --ranks 2 --roles 2 --steps 1 --events-per-unit 400
gen torch-memory --format torch --ranks 2 --roles 2 --steps 1 --memory-events 300 --memory-ops
gen tall --format mstx --ranks 64 --roles 4 --steps 1 --events-per-unit 200
gen pair-slow --pair slowdown --format mstx --ranks 2 --roles 3 --steps 3
gen pair-growth --pair memory-growth --format memory --ranks 2 --roles 2 --steps 1 --events-per-unit 300
gen pair-roles --pair roles --format torch --ranks 2 --roles 3 --steps 2

inputs=""
for d in "$shared"/samples/* "$shared"/real/*; do
	[ -d "$d" ] && [ "$(basename "$d")" != expected ] && inputs="$inputs $d"
done
for n in mstx torch nvtx memory torch-memory tall; do inputs="$inputs $scratch/in/$n"; done

total=0
# One case: its name, then rl-insight's arguments. A case named */threaded-* reads its baseline
# on a thread beside the run, so its stderr lines interleave: kept as stderr.interleaved, unchecked.
run_case() {
	name=$1
	shift
	err=stderr.txt
	case $name in */threaded-*) err=stderr.interleaved ;; esac
	out=$scratch/run/out
	rm -rf "$out"
	mkdir -p "$out"
	set +e
	(cd "$scratch/run" && "$bin" --output-path "$out" "$@" >"$out/stdout.txt" 2>"$out/$err")
	echo $? >"$out/exit.txt"
	set -e
	rm -rf "${runs:?}/$name"
	mkdir -p "$(dirname "$runs/$name")"
	mv "$out" "$runs/$name"
	total=$((total + 1))
}

for input in $inputs; do
	n=$(basename "$(dirname "$input")")-$(basename "$input")
	run_case "$n/full" --input-path "$input" --vis-type png,html,pdf --export csv
	run_case "$n/figures" --input-path "$input" --vis-type timeline_pdf,memory_pdf --export jsonl
	run_case "$n/none" --input-path "$input" --vis-type none
	# The tables read back, from a copy at a fixed path (summary.json names its input).
	tables=$scratch/tables/$n
	rm -rf "$tables"
	mkdir -p "$scratch/tables"
	cp -r "$runs/$n/full" "$tables"
	rm -f "$tables/stdout.txt" "$tables/stderr.txt" "$tables/exit.txt"
	run_case "$n/readback" --input-path "$tables" --vis-type png,html,pdf
	run_case "$n/self-baseline" --input-path "$input" --baseline "$input" --vis-type png,html,pdf --jobs 1
	run_case "$n/threaded-self-baseline" --input-path "$input" --baseline "$input" --vis-type png,html,pdf
	run_case "$n/summary-baseline" --input-path "$input" --baseline "$tables/summary.json" --vis-type png,pdf
done
s=$shared/samples
run_case named/mstx --input-path "$s/mstx_profile" --profiler-type mstx --vis-type png,html,pdf --caption
run_case named/paper --input-path "$s/torch_profile" --profiler-type torch --vis-type png,pdf --style paper
run_case named/memory --input-path "$s/memory_data" --profiler-type memory --vis-type png,html,pdf,memory_pdf
run_case named/torch-memory --input-path "$scratch/in/torch-memory" --profiler-type torch_memory --vis-type png,html,pdf
run_case named/config-memory input.path="$s/memory_data" memory.parser.type=memory memory.visualizer.type=memory_html
run_case named/config-timeline input.path="$s/nvtx_profile" timeline.parser.type=nvtx timeline.visualizer.type=png preset=timeline
run_case named/all-rows --input-path "$scratch/in/tall" --vis-type png,pdf --all-rows
run_case named/quiet --input-path "$scratch/in/mstx" --vis-type png -q
run_case named/gmm-preset --input-path "$s/gmm_data" preset=heatmap
run_case named/missing --input-path "$scratch/in/nothing-here" --vis-type png
for p in pair-slow pair-growth pair-roles; do
	run_case "$p/compare" --input-path "$scratch/in/$p/current" --baseline "$scratch/in/$p/baseline" --vis-type png,html,pdf --export csv --jobs 1
	run_case "$p/threaded-compare" --input-path "$scratch/in/$p/current" --baseline "$scratch/in/$p/baseline" --vis-type png,html,pdf
	run_case "$p/fail-on-regression" --input-path "$scratch/in/$p/current" --baseline "$scratch/in/$p/baseline" --vis-type none --fail-on-regression 5% --jobs 1
done

# The tables' paths name the case folder they were read from: the same in record and check.
(cd "$runs" && find . -type f ! -name stderr.interleaved | LC_ALL=C sort | xargs sha256sum) >"$scratch/manifest.sha256"
files=$(wc -l <"$scratch/manifest.sha256")
if [ "$mode" = record ]; then
	mv "$scratch/manifest.sha256" "$dir/manifest.sha256"
	echo "recorded $total cases, $files files into $dir"
	exit 0
fi
if cmp -s "$dir/manifest.sha256" "$scratch/manifest.sha256"; then
	echo "same outputs: $total cases, $files files byte for byte"
	exit 0
fi
echo "different outputs (< recorded, > this binary):"
diff "$dir/manifest.sha256" "$scratch/manifest.sha256" || true
echo "the new run's outputs are under $runs"
exit 1
