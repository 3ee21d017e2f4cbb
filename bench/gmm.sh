#!/bin/sh
# gmm.sh: reading msprobe's MoE dumps: 10,240 group_list.pt files parsed into the expert-load table, on every core.
#
# usage: bench/gmm.sh [--build DIR] [--scratch DIR] [--repeat N] [--lock FILE] [--quick]
#   --build DIR     a build tree with rl-insight and rl-insight-synth (default: build)
#   --scratch DIR   where inputs and outputs go, kept between runs (default: /tmp/rl-insight-bench)
#   --repeat N      runs per mode; the fastest counts (default: 3)
#   --lock FILE     run each measured command under flock FILE (a machine shared with others)
#   --quick         2 steps instead of 8, to try the script out
# The shape (issue 35): 8 steps x 4 roles x 64 ranks x 5 grouped matmuls, 256 experts each. The
# whole run to every output must take under 2 s, so the parse is to be a fraction of that.
set -eu

me=gmm.sh
. "$(dirname "$0")/lib.sh"
bench_start "$@"

steps=$((8 / (scale > 4 ? 4 : scale)))
bench_generate gmm dumps --format gmm --steps $steps --roles 4 --ranks 64 --gmm-ops 5 --experts 256
dir=$scratch/gmm/dumps
files=$(find "$dir/in" -name '*group_list.pt' | wc -l)
bytes=$(find "$dir/in" -name '*group_list.pt' -exec cat {} + | wc -c)
rows=$((files * 256))

# mode NAME FILES BYTES ARGS...: the fastest of $repeat runs, one line of figures for that many input files and bytes.
mode() {
	name=$1 f=$2 b=$3; shift 3
	bench_fastest "$dir" "$name" 0 "$@"
	awk -v n="$name" -v t="$best" -v m="$rss" -v f="$f" -v b="$b" -v r="$rows" 'BEGIN {
		printf "%-22s %6d files  %6.1f MB  %8d rows  %6.3f s  %8.0f files/s  %6.1f MB/s  %7.1f M rows/s  peak %5.1f MB\n",
			n, f, b / 1e6, r, t, f / t, b / 1e6 / t, r / 1e6 / t, m / 1024 }'
}

mode parse "$files" "$bytes" --input-path "$dir/in" --profiler-type gmm --vis-type none --export csv
mode parse-jobs-1 "$files" "$bytes" --input-path "$dir/in" --profiler-type gmm --vis-type none --export csv --jobs 1
mode parse-auto "$files" "$bytes" --input-path "$dir/in" --vis-type none --export csv
cmp -s "$dir/out-parse/gmm_events.csv" "$dir/in/expected_gmm.csv" ||
	{ echo "$me: the table is not the generator's expected rows" >&2; exit 1; }
# The table read back (shards merge so): the same rows.
mode table-read-back 1 "$(wc -c < "$dir/out-parse/gmm_events.csv")" --input-path "$dir/out-parse/gmm_events.csv" --vis-type none --export csv
