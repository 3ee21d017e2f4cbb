#!/bin/sh
# run_case.sh: runs one data-driven CLI case (cases/*.case) and checks exit status, messages and files.
#
# A case is a list of "directive: value" lines (# starts a comment):
#   needs: samples        skip (exit 77) when ../shared/samples is absent
#   setup: SHELL          run in @IN@ before the command (build a fixture)
#   args: ARGS            the rl-insight arguments (split by the shell; placeholders below)
#   exit: N               expected exit status
#   stdout: TEXT          a line of stdout must contain TEXT
#   stderr: TEXT          a line of stderr must contain TEXT
#   stderr-line: TEXT     a line of stderr must be exactly TEXT
#   stderr-empty: yes     nothing at all on stderr
#   stderr-lines: N       stderr has exactly N lines (no noise beside the expected ones)
#   file: NAME            @OUT@/NAME must exist and be non-empty
#   png: NAME WxH         @OUT@/NAME must be a PNG of that pixel size
#   csv-rows: NAME N      @OUT@/NAME must hold N data rows
#   nofile: NAME          @OUT@/NAME must not exist
#   out-clean: yes        @OUT@ holds no file at all (no half-written or temporary output)
#   out-holds: NAMES      @OUT@ holds exactly these entries, hidden ones included (space-separated)
# Placeholders: @SAMPLES@ (../shared/samples), @IN@ (a fresh input folder), @OUT@ (a fresh output folder).
set -u
bin=$1 case_file=$2 samples=$3 work=$4
rm -rf "$work" && mkdir -p "$work/in" "$work/out" || exit 1
in=$work/in out=$work/out
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
expand() { printf '%s' "$1" | sed -e "s#@SAMPLES@#$samples#g" -e "s#@IN@#$in#g" -e "s#@OUT@#$out#g"; }
directives() { sed -n "s/^$1: //p" "$case_file"; }

if directives needs | grep -qx samples && [ ! -d "$samples" ]; then
	echo "skipped: $samples is absent (the shared samples live beside the project)"
	exit 77
fi

directives setup | while IFS= read -r line; do
	(cd "$in" && eval "$(expand "$line")") || { echo "setup failed: $line" >&2; exit 1; }
done || exit 1

args=$(expand "$(directives args)")
# shellcheck disable=SC2086 # word splitting of the case's argument line is intended
eval "\"$bin\" $args" >"$work/stdout" 2>"$work/stderr" </dev/null
status=$?

want=$(directives exit)
[ "$status" = "${want:-0}" ] || fail "exit status $status, want ${want:-0}"

# expect DIRECTIVE FILE GREP-FLAGS: each of the case's DIRECTIVE lines must match in FILE.
expect() {
	while IFS= read -r text; do
		[ -n "$text" ] || continue
		grep -q"$3" -- "$(expand "$text")" "$2" || fail "$(basename "$2") lacks ($1): $text"
	done <<EOT
$(directives "$1")
EOT
}
expect stdout "$work/stdout" F
expect stderr "$work/stderr" F
expect stderr-line "$work/stderr" xF
if directives stderr-empty | grep -qx yes && [ -s "$work/stderr" ]; then
	fail "stderr is not empty"
fi
want_lines=$(directives stderr-lines)
if [ -n "$want_lines" ] && [ "$(wc -l <"$work/stderr")" -ne "$want_lines" ]; then
	fail "stderr has $(wc -l <"$work/stderr") lines, want $want_lines"
fi
for name in $(directives file); do
	[ -s "$out/$name" ] || fail "missing or empty output $name"
done
directives png | while read -r name size; do
	got=$(od -An -tu1 -j16 -N8 "$out/$name" 2>/dev/null | awk '{printf "%d", ($1*16777216+$2*65536+$3*256+$4); printf "x%d", ($5*16777216+$6*65536+$7*256+$8)}')
	[ "$got" = "$size" ] || { echo "FAIL: $name is ${got:-not a PNG}, want $size" >&2; exit 1; }
done || failures=$((failures + 1))
directives csv-rows | while read -r name rows; do
	got=$(($(wc -l <"$out/$name" 2>/dev/null || echo 1) - 1))
	[ "$got" = "$rows" ] || { echo "FAIL: $name has $got rows, want $rows" >&2; exit 1; }
done || failures=$((failures + 1))
for name in $(directives nofile); do
	[ ! -e "$out/$name" ] || fail "output $name should not exist"
done
if directives out-clean | grep -qx yes && [ -n "$(ls -A "$out")" ]; then
	fail "output folder not clean: $(ls -A "$out" | tr '\n' ' ')"
fi

want_entries=$(directives out-holds)
if [ -n "$want_entries" ]; then
	got_entries=$(ls -A "$out" | tr '\n' ' ' | sed 's/ $//')
	[ "$got_entries" = "$want_entries" ] || fail "output folder holds '$got_entries', want '$want_entries'"
fi

if [ "$failures" -ne 0 ]; then
	echo "--- command: rl-insight $args" >&2
	echo "--- stdout:" >&2; cat "$work/stdout" >&2
	echo "--- stderr:" >&2; cat "$work/stderr" >&2
	exit 1
fi
echo "ok: $(head -n 1 "$case_file" | sed 's/^# *//')"
exit 0
