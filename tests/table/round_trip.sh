#!/bin/sh
# round_trip.sh: a generated profile drawn, exported (CSV and JSONL), and drawn again from the exported tables gives the same bytes.
#
# Usage: round_trip.sh RL_INSIGHT SYNTH FORMAT WORK
#   FORMAT: mstx, torch (with [memory] events), nvtx or memory (Ascend).
# For each encoding: run 1 on the generated tree writes the tables, the PNGs and summary.json; run 2 reads
# run 1's output folder (--profiler-type table, and auto) and must write the same tables and PNGs byte for
# byte, summary.json too: it names run 1's input, which run 1's summary.json beside the tables gives (the
# memory table's last columns, released, match and match_gap_ms, carry the match counts over). Then the tables are
# split into several files in nested folders, whole runs of rows (rl_events.csv by rank, the JSONL tables
# in consecutive pieces), and the merged read must again equal run 1.
set -u
bin=$1 synth=$2 format=$3 work=$4
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

rm -rf "$work" && mkdir -p "$work" || exit 1
case $format in
torch) "$synth" --format torch --ranks 2 --roles 2 --steps 2 --memory-events 40 --memory-ops --seed 7 --output "$work/gen" >/dev/null ;;
*) "$synth" --format "$format" --ranks 2 --roles 3 --steps 2 --seed 7 --output "$work/gen" >/dev/null ;;
esac || { echo "FAIL: rl-insight-synth" >&2; exit 1; }

# same DIR1 DIR2 WHAT [but-input]: every file of DIR1 is in DIR2 with the same bytes (but-input: summary.json
# but for its "input" line).
same() {
	for path in "$1"/*; do
		name=$(basename "$path")
		if [ ! -f "$2/$name" ]; then
			fail "$3: $name is missing"
		elif [ "$name" = summary.json ] && [ "${4:-}" = but-input ]; then
			sed '/^"input":/d' "$path" >"$work/a.json"
			sed '/^"input":/d' "$2/$name" >"$work/b.json"
			cmp -s "$work/a.json" "$work/b.json" || fail "$3: summary.json differs"
		else
			cmp -s "$path" "$2/$name" || fail "$3: $name differs"
		fi
	done
	[ "$(ls "$1" | wc -l)" -eq "$(ls "$2" | wc -l)" ] || fail "$3: $(ls "$2" | tr '\n' ' ') is not $(ls "$1" | tr '\n' ' ')"
}

run() { # run INPUT OUT EXT [ARGS]: one draw with the table exported
	in=$1 out=$2 ext=$3
	shift 3
	"$bin" -q --input-path "$in" --export "$ext" --vis-type png --output-path "$out" "$@" ||
		fail "rl-insight on $in exited with $?"
}

for ext in csv jsonl; do
	one=$work/one-$ext
	run "$work/gen" "$one" "$ext"
	[ -s "$one/summary.json" ] || fail "$ext: run 1 wrote no summary.json"
	ls "$one"/*.png >/dev/null 2>&1 || fail "$ext: run 1 drew no PNG"
	run "$one" "$work/two-$ext" "$ext" --profiler-type table
	same "$one" "$work/two-$ext" "$ext: --profiler-type table"
	run "$one" "$work/auto-$ext" "$ext"
	same "$one" "$work/auto-$ext" "$ext: auto"
	# One file as the input: that table alone.
	if [ -f "$one/rl_events.$ext" ]; then
		run "$one/rl_events.$ext" "$work/file-$ext" "$ext"
		cmp -s "$one/rl_events.$ext" "$work/file-$ext/rl_events.$ext" || fail "$ext: rl_events.$ext as the input"
		cmp -s "$one/rl_timeline.png" "$work/file-$ext/rl_timeline.png" || fail "$ext: rl_timeline.png from the file"
	fi
	if [ -f "$one/memory_events.$ext" ]; then
		run "$one/memory_events.$ext" "$work/memory-file-$ext" "$ext"
		cmp -s "$one/memory_events.$ext" "$work/memory-file-$ext/memory_events.$ext" ||
			fail "$ext: memory_events.$ext as the input"
	fi
done

# The merge: the tables in pieces, in folders whose paths sort in the pieces' order. The pieces have no
# summary.json beside them: the merged summary names the pieces' folder, and only the rest is compared.
split=$work/split
mkdir -p "$split"
if [ -f "$work/one-csv/rl_events.csv" ]; then
	# By rank: no two rows of the generated runs start at the same time, so the merge by start alone decides.
	awk -F, -v dir="$split/by-rank" 'NR == 1 { header = $0; next }
		{ f = dir "/rank-" $7 "/rl_events.csv"; if (!(f in seen)) { seen[f] = 1; system("mkdir -p " dir "/rank-" $7); print header > f } print > f }' \
		"$work/one-csv/rl_events.csv"
	[ "$(ls "$split/by-rank" | wc -l)" -ge 2 ] || fail "the split by rank made fewer than 2 files"
	run "$split/by-rank" "$work/merged-rank" csv
	cmp -s "$work/one-csv/rl_events.csv" "$work/merged-rank/rl_events.csv" || fail "rl_events.csv merged from ranks"
	cmp -s "$work/one-csv/rl_timeline.png" "$work/merged-rank/rl_timeline.png" || fail "rl_timeline.png merged from ranks"
fi
# In three consecutive pieces, ties and all: equal starts must keep the order of the files' paths, then rows.
for table in rl_events memory_events; do
	[ -f "$work/one-jsonl/$table.jsonl" ] || continue
	awk -v dir="$split/pieces" -v name="$table.jsonl" -v rows="$(wc -l <"$work/one-jsonl/$table.jsonl")" '
		{ piece = int((NR - 1) * 3 / rows); sub_dir = piece == 0 ? "a" : piece == 1 ? "b/inner" : "c"
		  f = dir "/" sub_dir "/" name; if (!(f in seen)) { seen[f] = 1; system("mkdir -p " dir "/" sub_dir) } print > f }' \
		"$work/one-jsonl/$table.jsonl"
done
run "$split/pieces" "$work/merged-pieces" jsonl
grep -q "^\"input\":{\"path\":\"$split/pieces\"," "$work/merged-pieces/summary.json" ||
	fail "merged from pieces: summary.json does not name the pieces' folder as its input"
same "$work/one-jsonl" "$work/merged-pieces" "merged from pieces" but-input

[ "$failures" -eq 0 ] && echo "ok: $format tables read back as they were written"
exit "$failures"
