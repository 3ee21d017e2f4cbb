#!/bin/sh
# run_valgrind.sh: one sample run under valgrind memcheck: no invalid access, no use of uninitialised memory, no leak of ours.
set -u
bin=$1 supp=$2 input=$3 profiler=$4 work=$5
command -v valgrind >/dev/null 2>&1 || { echo "skipped: valgrind is not installed"; exit 77; }
[ -d "$input" ] || { echo "skipped: $input is absent (the shared samples live beside the project)"; exit 77; }
rm -rf "$work" && mkdir -p "$work" || exit 1
valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite \
	--suppressions="$supp" --log-file="$work/valgrind.log" \
	"$bin" -q --input-path "$input" --profiler-type "$profiler" --vis-type png,html,pdf,timeline_pdf --export csv,jsonl \
	--output-path "$work/out"
status=$?
if [ "$status" -ne 0 ] || [ -s "$work/valgrind.log" ]; then
	echo "FAIL: exit status $status under valgrind" >&2
	cat "$work/valgrind.log" >&2
	exit 1
fi
echo "ok: $profiler sample clean under valgrind memcheck"
