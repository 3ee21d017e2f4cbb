#!/bin/sh
# issue33.sh: speed on one huge capture and on many files: rl-insight against a bare yajl pass over the same bytes, as ratios.
#
# usage: bench/issue33.sh [--build DIR] [--scratch DIR] [--repeat N] [--lock FILE] [--quick] [--shapes LIST]
#   --build DIR     a build tree with rl-insight, rl-insight-synth and yajl-bare (default: build)
#   --scratch DIR   where the inputs are generated and kept between runs (default: /tmp/rl-insight-bench)
#   --repeat N      runs of each command, alternating; the fastest counts (default: 3)
#   --lock FILE     run each measured command under flock FILE (a machine shared with others)
#   --quick         inputs 10x smaller, to try the script out
#   --shapes LIST   comma-separated, of: dense, sparse, one-nvtx, many, torch (default: all)
set -eu

me=issue33.sh
. "$(dirname "$0")/lib.sh"
shapes=dense,sparse,one-nvtx,many,torch
args=
while [ $# -gt 0 ]; do
	case $1 in
	--shapes) shapes=$2; shift 2 ;;
	*) args="$args $1"; shift ;;
	esac
done
# shellcheck disable=SC2086
bench_start $args
bare=$build/bench/yajl-bare
bench_need "$bare"

# One line per shape: the bare pass, rl-insight --jobs 1 and with the default --jobs, each the
# fastest of $repeat runs taken in turn (a load that comes and goes weighs on all three).
row() {
	printf '%-10s %8s %8s %8s %8s %7s %7s %8s %8s %7s %6s %s\n' "$@"
}

# bench_shape NAME OUTPUTS INPUT_DIR BARE_FILES... -- RLI_ARGS...
bench_shape() {
	name=$1 vis=$2 input=$3; shift 3
	files=
	while [ "$1" != "--" ]; do files="$files $1"; shift; done
	shift
	dir=$scratch/issue33/$name.out
	mkdir -p "$dir"
	best_bare= best_one= best_all= rss_one=0 rss_all=0 parse_one= parse_all=
	i=0
	while [ $i -lt "$repeat" ]; do
		# shellcheck disable=SC2086
		locked "$bare" $files > "$dir/bare" 2>&1 || { echo "$me: yajl-bare failed:" >&2; cat "$dir/bare" >&2; exit 1; }
		t=$(awk '{ for (k = 1; k < NF; k++) if ($k == "seconds") print $(k + 1) }' "$dir/bare")
		mb=$(awk '{ for (k = 1; k < NF; k++) if ($k == "bytes") printf "%.0f", $(k + 1) / 1e6 }' "$dir/bare")
		if [ -z "$best_bare" ] || awk "BEGIN { exit !($t < $best_bare) }"; then best_bare=$t; fi
		for mode in one all; do
			jobs=
			[ $mode = one ] && jobs="--jobs 1"
			rm -rf "$dir/out-$mode"
			# shellcheck disable=SC2086
			locked /usr/bin/time -f '%e %M' -o "$dir/time" "$rli" --input-path "$input" --vis-type "$vis" $jobs -v \
				"$@" --output-path "$dir/out-$mode" > /dev/null 2> "$dir/log-$mode" ||
				{ echo "$me: rl-insight ($name, $mode) failed:" >&2; tail -5 "$dir/log-$mode" >&2; exit 1; }
			read -r t m < "$dir/time"
			p=$(sed -n 's/.*timing: parse \([0-9.]*\) ms.*/\1/p' "$dir/log-$mode")
			if [ $mode = one ]; then
				[ "$m" -gt "$rss_one" ] && rss_one=$m
				if [ -z "$best_one" ] || awk "BEGIN { exit !($t < $best_one) }"; then best_one=$t parse_one=$p; fi
			else
				[ "$m" -gt "$rss_all" ] && rss_all=$m
				if [ -z "$best_all" ] || awk "BEGIN { exit !($t < $best_all) }"; then
					best_all=$t parse_all=$p
					cp "$dir/log-all" "$dir/log-best"
				fi
			fi
		done
		i=$((i + 1))
	done
	# On paper, 64 threads: the parse divides by the parallel work the shape has (units, or a file's
	# parts), what follows the parse stays as it is with two threads.
	width=$(awk -v n="$units" 'BEGIN { print (n > 64 ? 64 : n) }')
	t64=$(awk -v p="$parse_one" -v w="$width" -v all="$best_all" -v pa="$parse_all" \
		'BEGIN { printf "%.2f", p / 1000 / w + (all - pa / 1000) }')
	row "$name" "$mb" "$best_bare" "$best_one" "$best_all" \
		"$(awk "BEGIN { printf \"%.2fx\", $best_one / $best_bare }")" \
		"$(awk "BEGIN { printf \"%.2fx\", $best_all / $best_bare }")" \
		"$(awk "BEGIN { printf \"%.0f/%.0f\", $rss_one / 1024, $rss_all / 1024 }")" \
		"$(awk "BEGIN { printf \"%.0f/%.0f\", $parse_one, $parse_all }")" \
		"$(awk "BEGIN { printf \"%.2fx\", $best_one / $best_all }")" "$t64" \
		"$(sed -n 's/.*timing: \(statistics\|layout\|render [a-z]*\|summary.json\) \([0-9.]*\) ms.*/\1 \2/p' \
			"$dir/log-best" | awk '{ v = $NF; $NF = ""; printf "%s%s%.0f", n++ ? ", " : "", $0, v }')"
}

want() {
	case ",$shapes," in *",$1,"*) return 0 ;; esac
	return 1
}

q=$scale
echo
echo "issue 33 benchmarks on $(nproc) CPU(s), $(date -u '+%Y-%m-%d %H:%M UTC'), load average" \
	"$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo ?); fastest of $repeat; times in s, ratios to yajl-bare's"
row shape MB yajl jobs-1 default 1/yajl def/yajl "RSS MB" "parse ms" "1->2" "64?" "after the parse (default, ms)"
row ----- -- ---- ------ ------- ------ ------- ------ -------- ---- --- -----------------------------

# The trace_view.json and memory shapes (one 273 MB MSTX file; the memory capture) go here.

if want dense; then
	bench_generate issue33 dense --format nvtx --dense --ranks 2 --roles 3 --steps 1 --events-per-unit $((166667 / q)) --seed 1
	rm -f "$scratch/issue33/dense/in/expected.csv"
	units=6
	bench_shape dense png "$scratch/issue33/dense/in" "$scratch/issue33/dense/in" -- --profiler-type nvtx
fi
if want sparse; then
	bench_generate issue33 sparse --format nvtx --ranks 8 --roles 5 --steps 5 --events-per-unit $((5000 / q)) --seed 1
	rm -f "$scratch/issue33/sparse/in/expected.csv"
	units=200
	bench_shape sparse png "$scratch/issue33/sparse/in" "$scratch/issue33/sparse/in" -- --profiler-type nvtx
fi
if want one-nvtx; then
	# One capture holding every range: one file, read in parts on every thread.
	bench_generate issue33 one-nvtx --format nvtx --dense --ranks 1 --roles 1 --steps 1 --events-per-unit $((1000000 / q)) --seed 1
	rm -f "$scratch/issue33/one-nvtx/in/expected.csv"
	units=64
	bench_shape one-nvtx png "$scratch/issue33/one-nvtx/in" "$scratch/issue33/one-nvtx/in" -- --profiler-type nvtx
fi
if want many; then
	# Many small files: 1,024 captures of 1,000 ranges (64 ranks x 4 roles x 4 steps).
	bench_generate issue33 many --format nvtx --ranks 64 --roles 4 --steps 4 --events-per-unit $((1000 / q)) --seed 1
	rm -f "$scratch/issue33/many/in/expected.csv"
	units=1024
	bench_shape many png "$scratch/issue33/many/in" "$scratch/issue33/many/in" -- --profiler-type nvtx
fi
if want torch; then
	# Six PyTorch traces of 72 MB each (inflated), a million events in all.
	bench_generate issue33 torch --format torch --ranks 2 --roles 3 --steps 1 --events-per-unit $((166667 / q)) --seed 1
	units=6
	# shellcheck disable=SC2046
	bench_shape torch html "$scratch/issue33/torch/in" $(find "$scratch/issue33/torch/in" -name '*.json.gz' ! -name '*async_llm*' | sort) \
		-- --profiler-type torch
fi
echo "1/yajl, def/yajl: rl-insight's wall time (--jobs 1, the default) over yajl-bare's parse of the same bytes on one"
echo "thread (zlib inflating the .gz); 1->2: --jobs 1 over the default; 64?: the default's wall time on paper with 64"
echo "threads (the parse divided by the shape's units or parts, capped at 64, the rest as measured)."
echo "Targets (issue 33): dense <= 3.5x; torch <= 0.4x (default); after the parse, statistics + layout <= 0.3x the parse."
