#!/bin/sh
# trace_view.sh: Ascend trace_view.json shapes (one huge trace, many small ones, a memory capture) read by rl-insight
# against a bare one-thread yajl pass over the same bytes, timed in the same run; prints ratios, bytes read and peak memory.
#
# usage: bench/trace_view.sh [--build DIR] [--scratch DIR] [--repeat N] [--quick]
#   --build DIR     a build tree with rl-insight, rl-insight-synth and yajl-bare (default: build)
#   --scratch DIR   where the inputs are generated and kept between runs (default: /tmp/rl-insight-bench)
#   --repeat N      runs per measurement; the fastest counts (default: 3)
#   --quick         inputs 10x smaller, to try the script out
set -eu

me=trace_view.sh
. "$(dirname "$0")/lib.sh"
bench_options "$@"

rli=$build/rl-insight
synth=$build/bench/rl-insight-synth
bare=$build/bench/yajl-bare
bench_need "$rli" "$synth" "$bare"
bench_need_time
bench_scratch "$scratch" "$(cd "$(dirname "$0")/.." && pwd)"

generate() {
	name=$1; shift
	dir=$scratch/$name
	if bench_stale "$dir" "$@"; then
		echo "generating $name: rl-insight-synth $*" >&2
		rm -rf "$dir"
		"$synth" "$@" --seed 1 --output "$dir/in" >/dev/null
		bench_made "$dir" "$@"
	fi
}

# The fastest of $repeat runs of a command: "<wall s> <peak KiB>"; the command's stderr kept in $scratch/last.err.
best() {
	best_s= best_kb=0
	i=0
	while [ "$i" -lt "$repeat" ]; do
		/usr/bin/time -f '%e %M' -o "$scratch/time.out" "$@" >/dev/null 2>"$scratch/last.err" || {
			echo "$me: failed: $*" >&2; cat "$scratch/last.err" >&2; exit 1; }
		read -r s kb < "$scratch/time.out"
		if [ -z "$best_s" ] || awk -v a="$s" -v b="$best_s" 'BEGIN { exit !(a < b) }'; then best_s=$s; fi
		[ "$kb" -gt "$best_kb" ] && best_kb=$kb
		i=$((i + 1))
	done
	echo "$best_s $best_kb"
}

# One shape: NAME, the bytes yajl-bare reads (files), then rl-insight's arguments.
shape() {
	name=$1 files=$2; shift 2
	yajl=$(best "$bare" $files | cut -d' ' -f1)
	set -- "$@" --output-path "$scratch/out-$name"
	one=$(best "$rli" "$@" --jobs 1)
	plain=$(best env RLI_JSON_SCAN=0 "$rli" "$@")
	all=$(best "$rli" "$@" -v)
	read_mib=$(sed -n 's/.*read: [0-9]* input files*, \([0-9.]*\) MiB.*/\1/p' "$scratch/last.err")
	input_mib=$(find "$scratch/$name/in" -type f ! -name 'expected*' -exec cat {} + | wc -c | awk '{printf "%.1f", $1 / 1048576}')
	set -- $one; one_s=$1
	set -- $plain; plain_s=$1
	set -- $all; all_s=$1 all_kb=$2
	awk -v n="$name" -v y="$yajl" -v o="$one_s" -v p="$plain_s" -v a="$all_s" -v kb="$all_kb" \
		-v r="$read_mib" -v size="$input_mib" 'BEGIN {
		printf "%-14s yajl %6.2f s | --jobs 1 %6.2f s (%4.2fx) | yajl only %6.2f s (%4.2fx) | default %6.2f s (%4.2fx) | read %s of %s MiB | peak %d MiB\n",
			n, y, o, o / y, p, p / y, a, a / y, r, size, kb / 1024 }'
}

generate huge --format mstx --ranks 1 --roles 1 --steps 1 --target-bytes $((273000000 / scale))
generate many --format mstx --ranks 64 --roles 4 --steps 1 --target-bytes $((273000000 / scale))
generate memory --format memory --ranks 1 --roles 1 --steps 1 --events-per-unit $((1000000 / scale))

echo "rl-insight $("$rli" --version | head -n 1), $(nproc) CPUs, fastest of $repeat"
shape huge "$(find "$scratch/huge/in" -name trace_view.json)" --input-path "$scratch/huge/in" --vis-type none
shape many "$scratch/many/in" --input-path "$scratch/many/in" --vis-type none
# The memory capture: the target is a ratio to a yajl pass over its trace_view.json alone.
shape memory "$(find "$scratch/memory/in" -name trace_view.json)" --input-path "$scratch/memory/in" --vis-type html
