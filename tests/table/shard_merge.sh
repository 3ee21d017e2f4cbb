#!/bin/sh
# shard_merge.sh: N shards (--shard K/N, --export jsonl) merged and drawn give the bytes one run over the whole input gives.
#
# Usage: shard_merge.sh RL_INSIGHT SYNTH FORMAT WORK N...
#   FORMAT: mstx, torch (with [memory] events), nvtx or memory (Ascend).
# One run draws every output (PNG, HTML, the PDF report, the tables, summary.json) from the generated tree.
# Then for each N, N runs each parse shard K of N into a folder of its own, and one run over those folders
# draws again: every file must equal the one run's, byte for byte. The shards must also split the input
# units between them, each parsed once: their tables together hold every row of the one run, none twice.
set -u
bin=$1 synth=$2 format=$3 work=$4
shift 4
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

rm -rf "$work" && mkdir -p "$work" || exit 1
# Ranks x roles large enough that 16 shards each get some units, and some get none at 16 for nvtx.
case $format in
torch) "$synth" --format torch --ranks 4 --roles 3 --steps 2 --memory-events 30 --memory-ops --seed 11 --output "$work/gen" ;;
*) "$synth" --format "$format" --ranks 4 --roles 3 --steps 2 --seed 11 --output "$work/gen" ;;
esac >/dev/null || { echo "FAIL: rl-insight-synth" >&2; exit 1; }

outputs=png,html,pdf
one=$work/one
"$bin" -q --input-path "$work/gen" --vis-type "$outputs" --export jsonl --output-path "$one" || fail "one run exited with $?"
[ -s "$one/summary.json" ] || fail "the one run wrote no summary.json"

# rows FILE...: the JSONL rows of the tables, sorted, so that the shards' union can be compared with the whole.
rows() { cat "$@" 2>/dev/null | LC_ALL=C sort; }

for n in "$@"; do
	shards=$work/shards-$n
	k=0
	while [ "$k" -lt "$n" ]; do
		"$bin" -q --input-path "$work/gen" --shard "$k/$n" --export jsonl --vis-type none \
			--output-path "$shards/$k" || fail "N=$n: shard $k exited with $?"
		k=$((k + 1))
	done
	for table in rl_events memory_events; do
		[ -f "$one/$table.jsonl" ] || continue
		rows "$one/$table.jsonl" >"$work/whole.txt"
		rows "$shards"/*/"$table.jsonl" >"$work/union.txt"
		cmp -s "$work/whole.txt" "$work/union.txt" || fail "N=$n: the shards' $table rows are not the whole run's, each once"
	done
	merged=$work/merged-$n
	"$bin" -q --input-path "$shards" --vis-type "$outputs" --export jsonl --output-path "$merged" ||
		fail "N=$n: the merge exited with $?"
	for path in "$one"/*; do
		name=$(basename "$path")
		if [ ! -f "$merged/$name" ]; then
			fail "N=$n: $name is missing"
		else
			cmp -s "$path" "$merged/$name" || fail "N=$n: $name differs"
		fi
	done
	[ "$(ls "$one" | wc -l)" -eq "$(ls "$merged" | wc -l)" ] || fail "N=$n: $(ls "$merged" | tr '\n' ' ') is not $(ls "$one" | tr '\n' ' ')"
done

[ "$failures" -eq 0 ] && echo "ok: $format: $* shards merge into the one run's outputs, byte for byte"
exit "$failures"
