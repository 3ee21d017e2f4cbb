#!/bin/sh
# run.sh: the memory parser benchmark: rli_memory_parse --jobs 1 against bare libcsv and yajl passes over the same files.
#
# usage: bench/memory/run.sh [--build DIR] [--scratch DIR] [--rows N] [--ranks N] [--repeat N]
#   --build DIR     a build tree with bench/rl-insight-synth, bench/yajl-bare, bench/memory/{bench-memory,csv-bare}
#                   (default: build-release)
#   --scratch DIR   where the capture is generated and kept between runs (default: /tmp/rl-insight-bench)
#   --rows N        operator_memory.csv rows (default 1000000: about 200 MB of CSV and 570 MB of trace)
#   --ranks N       the rows split over N captures of one role, a file pair each (default 1)
#   --repeat N      runs per measurement; the fastest counts (default: 3)
set -eu

build=build-release
scratch=/tmp/rl-insight-bench
rows=1000000
ranks=1
repeat=3
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift 2 ;;
	--scratch) scratch=$2; shift 2 ;;
	--rows) rows=$2; shift 2 ;;
	--ranks) ranks=$2; shift 2 ;;
	--repeat) repeat=$2; shift 2 ;;
	-h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done

synth=$build/bench/rl-insight-synth
bare_json=$build/bench/yajl-bare
bare_csv=$build/bench/memory/csv-bare
parse=$build/bench/memory/bench-memory
me=run.sh
. "$(dirname "$0")/../lib.sh"
bench_need "$synth" "$bare_json" "$bare_csv" "$parse"
bench_scratch "$scratch" "$(cd "$(dirname "$0")/../.." && pwd)"

# One capture of the given rows, generated once per parameters and generator build.
dir=$scratch/memory-$rows
[ "$ranks" -gt 1 ] && dir=$scratch/memory-$rows-ranks$ranks
if bench_stale "$dir" rows "$rows" ranks "$ranks"; then
	echo "generating $rows memory rows in $dir" >&2
	rm -rf "$dir"
	"$synth" --format memory --ranks "$ranks" --roles 1 --steps 1 --events-per-unit $((rows / ranks)) --seed 1 \
		--output "$dir"
	rm -f "$dir/expected_memory.jsonl" # the generator's answer key: a gigabyte the benchmark does not read
	bench_made "$dir" rows "$rows" ranks "$ranks"
fi
csv=$(find "$dir" -name operator_memory.csv | sort)
trace=$(find "$dir" -name trace_view.json | sort)

# The fastest of REPEAT runs of a command that prints "... seconds S ... peak_rss_kb K ...".
best() {
	i=0 fastest="" rss=0
	while [ $i -lt "$repeat" ]; do
		line=$("$@")
		s=$(echo "$line" | awk '{ for (i = 1; i < NF; i++) if ($i == "seconds") print $(i + 1) }')
		k=$(echo "$line" | awk '{ for (i = 1; i < NF; i++) if ($i == "peak_rss_kb") print $(i + 1) }')
		if [ -z "$fastest" ] || awk "BEGIN { exit !($s < $fastest) }"; then fastest=$s; fi
		[ "$k" -gt "$rss" ] && rss=$k
		i=$((i + 1))
	done
	echo "$fastest $rss"
}

# shellcheck disable=SC2086 # the lists of files split into arguments (the scratch path has no spaces)
set -- $(best "$bare_csv" $csv); csv_s=$1
# shellcheck disable=SC2086
set -- $(best "$bare_json" $trace); json_s=$1
set -- $(best "$parse" "$dir" 1); parse_s=$1 parse_rss=$2
# shellcheck disable=SC2086
mb() { awk "BEGIN { printf \"%.0f\", $(cat $1 | wc -c) / 1e6 }"; }

echo
echo "memory parser on $(nproc) CPU(s), $(date -u '+%Y-%m-%d %H:%M UTC'); best of $repeat runs"
echo "input: $ranks capture(s), operator_memory.csv $(mb "$csv") MB ($rows rows), trace_view.json $(mb "$trace") MB"
printf '%-34s %8.3f s\n' "libcsv, empty callbacks" "$csv_s"
printf '%-34s %8.3f s\n' "yajl, empty callbacks" "$json_s"
printf '%-34s %8.3f s\n' "  both" "$(awk "BEGIN { print $csv_s + $json_s }")"
printf '%-34s %8.3f s   peak RSS %.0f MB\n' "rli_memory_parse, --jobs 1" "$parse_s" "$(awk "BEGIN { print $parse_rss / 1024 }")"
ratio=$(awk "BEGIN { printf \"%.2f\", $parse_s / ($csv_s + $json_s) }")
echo "ratio ${ratio}x ($(awk "BEGIN { print ($ratio <= 1.5) ? \"meets\" : \"misses\" }") the 1.5x target)"
