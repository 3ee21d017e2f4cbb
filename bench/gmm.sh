#!/bin/sh
# gmm.sh: the MoE expert load from dumps to every output: 10,240 group_list.pt files (8 steps x 4 roles x 64 ranks x 5 ops, 256 experts).
#
# usage: bench/gmm.sh [--build DIR] [--scratch DIR] [--repeat N] [--lock FILE] [--quick]
#   --build DIR     a build tree with rl-insight and rl-insight-synth (default: build)
#   --scratch DIR   where inputs and outputs go, kept between runs (default: /tmp/rl-insight-bench)
#   --repeat N      runs; the fastest counts (default: 3)
#   --lock FILE     run each measured command under flock FILE (a machine shared with others)
#   --quick         8 ranks instead of 64, to try the script out
# The target (issue 35): every output (the heatmap PNG, PDF and HTML, the report, summary.json, gmm_events.csv) of
# the 10,240 dumps in under 2 s, wall clock, the parse included.
set -eu

me=gmm.sh
. "$(dirname "$0")/lib.sh"
bench_start "$@"

ranks=$((64 / (scale > 1 ? 8 : 1)))
bench_generate gmm dumps --format gmm --steps 8 --roles 4 --ranks "$ranks" --gmm-ops 5 --experts 256
dir=$scratch/gmm/dumps
best=
i=0
while [ $i -lt "$repeat" ]; do
	rm -rf "$dir/out"
	start=$(date +%s.%N)
	locked "$rli" -q --input-path "$dir/in" --profiler-type gmm --vis-type gmm_heatmap,gmm_pdf,html,pdf --export csv \
		--output-path "$dir/out"
	end=$(date +%s.%N)
	s=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
	if [ -z "$best" ] || awk -v s="$s" -v b="$best" 'BEGIN { exit !(s < b) }'; then best=$s; fi
	i=$((i + 1))
done
files=$(find "$dir/in" -name '*.pt' | wc -l)
rss=$(/usr/bin/time -f '%M' "$rli" -q --input-path "$dir/in" --profiler-type gmm --vis-type gmm_heatmap,gmm_pdf,html,pdf \
	--export csv --output-path "$dir/out" 2>&1 >/dev/null | tail -1)
printf '%s: %d dumps (8 steps x 4 roles x %d ranks x 5 ops, 256 experts) to every output: %.2f s (best of %d), peak RSS %d MB; target 2 s\n' \
	"$me" "$files" "$ranks" "$best" "$repeat" $((rss / 1024))
awk -v b="$best" 'BEGIN { exit !(b < 2) }' || [ "$scale" -gt 1 ] || { echo "$me: over the 2 s target" >&2; exit 1; }
