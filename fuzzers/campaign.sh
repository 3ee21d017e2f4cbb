#!/bin/sh
# campaign.sh: runs one libFuzzer target for a while on a copy of its seed corpus and prints the
# figures fuzzers/README.md records. What it finds (crash-*, leak-*, timeout-*, oom-*) is left in
# the work folder's artifacts/ to be fixed and then added to fuzzers/corpus/<target>/.
# Usage: fuzzers/campaign.sh BUILD_DIR TARGET SECONDS WORK_DIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$1 target=$2 seconds=$3 work=$4
binary=$build/fuzzers/fuzz_$target
[ -x "$binary" ] || { echo "campaign.sh: no $binary (configure with CC=clang-14 -DRLI_FUZZERS=ON)" >&2; exit 2; }
case $target in
mstx|torch|torch_memory|nvtx|nvtx_parts|stack_index|ascend_json) dict=-dict=$here/json.dict ;;
memory_csv | memory_record) dict=-dict=$here/csv.dict ;;
gmm_pt) dict=-dict=$here/pickle.dict ;;
*) dict= ;;
esac
mkdir -p "$work/$target/corpus" "$work/$target/artifacts"
cp "$here/corpus/$target"/* "$work/$target/corpus/"
# -timeout: an input that takes 10 s is a hang; -rss_limit_mb: one that needs 2 GiB grows without bound.
"$binary" $dict -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
	-print_final_stats=1 -artifact_prefix="$work/$target/artifacts/" "$work/$target/corpus" \
	> "$work/$target/log" 2>&1 || true
done_line=$(grep 'DONE' "$work/$target/log" | tail -1)
executions=$(grep 'stat::number_of_executed_units' "$work/$target/log" | awk '{print $2}')
findings=$(ls "$work/$target/artifacts" | wc -l)
echo "$target: ${executions:-?} executions in $seconds s; $done_line; findings: $findings"
