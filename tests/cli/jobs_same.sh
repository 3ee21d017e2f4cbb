#!/bin/sh
# jobs_same.sh: rl-insight with --jobs 1 and with many threads must write the same bytes and say the same.
# Usage: jobs_same.sh RLI WORK_DIR EXPECT_DEBUG ARGS...   (ARGS: the input and outputs; no --output-path, --jobs)
# The threaded run is made with RLI_NVTX_PART_BYTES small, so that one NVTX file is read in many
# parts; EXPECT_DEBUG, unless empty, is a text its -vv log must hold (the parts were read).
set -u
rli=$1 work=$2 expect_debug=$3
shift 3
rm -rf "$work" && mkdir -p "$work" || exit 1
"$rli" "$@" --jobs 1 --output-path "$work/one" > "$work/one.stdout" 2> "$work/one.stderr"
echo "exit $?" >> "$work/one.stdout"
RLI_NVTX_PART_BYTES=${RLI_NVTX_PART_BYTES:-4096} "$rli" "$@" --jobs 16 --output-path "$work/many" \
	> "$work/many.stdout" 2> "$work/many.stderr"
echo "exit $?" >> "$work/many.stdout"
status=0
for kind in stdout stderr; do
	sed "s#$work/one#OUT#g" "$work/one.$kind" > "$work/one.$kind.n"
	sed "s#$work/many#OUT#g" "$work/many.$kind" > "$work/many.$kind.n"
	if ! cmp -s "$work/one.$kind.n" "$work/many.$kind.n"; then
		echo "jobs_same.sh: $kind differs between --jobs 1 and --jobs 16:" >&2
		diff "$work/one.$kind.n" "$work/many.$kind.n" | head -20 >&2
		status=1
	fi
done
if ! diff -r "$work/one" "$work/many" > "$work/outputs.diff" 2>&1; then
	echo "jobs_same.sh: outputs differ between --jobs 1 and --jobs 16:" >&2
	head -20 "$work/outputs.diff" >&2
	status=1
fi
if [ -n "$expect_debug" ]; then
	RLI_NVTX_PART_BYTES=${RLI_NVTX_PART_BYTES:-4096} "$rli" "$@" --jobs 16 -vv --output-path "$work/debug" \
		> /dev/null 2> "$work/debug.stderr"
	grep -qF -- "$expect_debug" "$work/debug.stderr" ||
		{ echo "jobs_same.sh: the -vv log lacks '$expect_debug'" >&2; status=1; }
fi
exit $status
