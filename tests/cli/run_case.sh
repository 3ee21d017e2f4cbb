#!/bin/sh
# run_case.sh: runs one data-driven CLI case and checks exit status, messages and files.
#
# A case is either a file (tests/cli/cases/*.case) or a folder of the bad-input catalogue
# (tests/bad-input/<format>/<case>/) holding an "expect" file and an "input" tree, which is
# copied into @IN@ before the setup lines run. Catalogue cases must also end as a tool should on
# any input: no signal, no sanitizer or assertion report, no library's words on stderr.
#
# The case (or its "expect") is a list of "directive: value" lines (# starts a comment):
#   needs: samples        skip (exit 77) when ../shared/samples is absent
#   needs: real           skip (exit 77) when ../shared/real (the real captures) is absent
#   needs: TOOL           skip (exit 77) when the command TOOL is absent
#   setup: SHELL          run in @IN@ before the command (build a fixture)
#   run-as: USER          run rl-insight as USER (when run as root), so permissions apply
#   cleanup: SHELL        run in @IN@ at the end, whatever happened (unmount what setup mounted)
#   parallel: N           run N copies of the command at once; each must end with the expected status
#   signal: NAME WHEN     send the run SIGNAME (TERM, INT, HUP) WHEN seconds after its start, or with
#                         WHEN "temporary" as soon as @OUT@ holds a temporary (a hidden file beside
#                         the run's .rl-insight.lock); a run that ended first skips the case (exit 77)
#   env: NAME=VALUE       set NAME in rl-insight's environment (one a line; SOURCE_DATE_EPOCH, say)
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
#   lines: NAME N         @OUT@/NAME must hold N lines (a JSONL table)
#   utf8: NAME            @OUT@/NAME must be valid UTF-8
#   contains: NAME TEXT   a line of @OUT@/NAME must contain TEXT (a name as the outputs write it)
#   pdf-text: NAME TEXT   the text of the PDF @OUT@/NAME (pdftotext) holds TEXT
#   pdf-pages: NAME N     the PDF @OUT@/NAME has N pages (pdfinfo)
#   pdf-size: NAME WxH    its first page is W x H points (pdfinfo)
#   stderr-not: TEXT      no line of stderr may contain TEXT
#   kept: NAME            @OUT@/NAME, made by the setup, must come out of the run byte for byte unchanged
#   output-folder: NAME   @OUT@ is NAME (spaces and all) inside the output folder, left for the tool to make
#   check: SHELL          run in @OUT@ after the command; it must exit 0 (a fact of an output, checked by a script)
# Read by tests/bad-input/CMakeLists.txt, not here:
#   label: NAME           a further ctest label (slow: left out by ctest -LE slow; CI runs it)
#   timeout: SECONDS      the ctest timeout, when 60 s is not enough
# Placeholders: @SAMPLES@ (../shared/samples), @REAL@ (../shared/real), @TESTS@ (this tests/ folder), @IN@ (a fresh input folder), @OUT@ (a fresh output folder),
# @RLI@ (the rl-insight under test), @SYNTH@ (rl-insight-synth, from $RLI_SYNTH: a fixture generated).
set -u
bin=$1 case_file=$2 samples=$3 work=$4
chmod -R u+rwx "$work" 2>/dev/null # a case may leave unreadable folders behind
rm -rf "$work" && mkdir -p "$work/in" "$work/out" || exit 1
in=$work/in out=$work/out
failures=0
catalogue=
if [ -d "$case_file" ]; then
	catalogue=$case_file
	case_file=$catalogue/expect
	if [ -d "$catalogue/input" ]; then
		cp -a "$catalogue/input/." "$in/" || exit 1
	fi
fi

real=$(dirname "$samples")/real
tests=$(cd "$(dirname "$0")/.." && pwd)
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
synth=${RLI_SYNTH:-rl-insight-synth}
expand() { printf '%s' "$1" | sed -e "s#@SAMPLES@#$samples#g" -e "s#@REAL@#$real#g" -e "s#@TESTS@#$tests#g" -e "s#@IN@#$in#g" -e "s#@OUT@#$out#g" \
	-e "s#@RLI@#$bin#g" -e "s#@SYNTH@#$synth#g"; }
directives() { sed -n "s/^$1: //p" "$case_file"; }
sub=$(directives output-folder)
[ -z "$sub" ] || out=$work/out/$sub

for need in $(directives needs); do
	if [ "$need" = samples ]; then
		if [ ! -d "$samples" ]; then
			echo "skipped: $samples is absent (the shared samples live beside the project)"
			exit 77
		fi
	elif [ "$need" = real ]; then
		if [ ! -d "$real" ]; then
			echo "skipped: $real is absent (the real captures live beside the project)"
			exit 77
		fi
	elif ! command -v "$need" >/dev/null 2>&1; then
		echo "skipped: $need is not installed"
		exit 77
	fi
done

cleanup() {
	directives cleanup | while IFS= read -r line; do
		(cd "$in" && eval "$(expand "$line")") || echo "cleanup failed: $line" >&2
	done
}
trap cleanup EXIT

# A setup line that exits 77 says this machine cannot build the fixture (no tmpfs mount, say).
directives setup | while IFS= read -r line; do
	(cd "$in" && eval "$(expand "$line")")
	code=$?
	[ "$code" = 0 ] && continue
	[ "$code" = 77 ] && { echo "skipped: setup cannot run here: $line"; exit 77; }
	echo "setup failed: $line" >&2
	exit 1
done
code=$?
[ "$code" = 0 ] || exit "$code"

for name in $(directives kept); do
	cksum <"$out/$name" >"$work/kept.$name" 2>/dev/null || { echo "setup made no $name to keep" >&2; exit 1; }
done

args=$(expand "$(directives args)")
runner=
user=$(directives run-as)
if [ -n "$user" ] && [ "$(id -u)" = 0 ]; then
	# the folders on the way must let the user in; what the case made unreadable stays so
	chmod a+rx "$work" "$work/in" && chmod a+rwx "$work/out" || exit 1
	# The tests' FONTCONFIG_FILE keeps a cache under XDG_CACHE_HOME; root's home is not the user's to write.
	mkdir -p "$work/cache" && chmod a+rwx "$work/cache" || exit 1
	runner="setpriv --reuid=$user --regid=$(id -g "$user") --clear-groups -- env XDG_CACHE_HOME=\"$work/cache\""
fi
# env(1) puts the case's variables before the command, behind whatever runner there is.
settings=$(directives env | while IFS= read -r line; do printf " '%s'" "$(expand "$line")"; done)
[ -z "$settings" ] || runner="$runner env$settings"
copies=$(directives parallel)
stop=$(directives signal)
if [ -n "$stop" ]; then
	# A Slurm time limit or a ^C: exec, so that $! is rl-insight itself; a background job's
	# SIGINT is ignored by sh, which env --default-signal undoes.
	set -- $stop
	eval "exec env --default-signal=$1 $runner \"\$bin\" $args" >"$work/stdout" 2>"$work/stderr" </dev/null &
	pid=$!
	if [ "$2" = temporary ]; then
		tries=0
		while kill -0 "$pid" 2>/dev/null && [ "$tries" -lt 6000 ] &&
			[ -z "$(ls -A "$out" 2>/dev/null | grep '^\.' | grep -vx '\.rl-insight\.lock')" ]; do
			sleep 0.01
			tries=$((tries + 1))
		done
	else
		sleep "$2"
	fi
	sent=yes
	kill -s "$1" "$pid" 2>/dev/null || sent=no
	wait "$pid"
	status=$?
	if [ "$sent" = no ]; then
		echo "skipped: the run ended (status $status) before SIG$1 was sent: a bigger input would keep it busy"
		exit 77
	fi
elif [ -n "$copies" ]; then
	# Overlapping runs (two cron jobs): each copy's status is checked, their messages pooled.
	i=1
	while [ "$i" -le "$copies" ]; do
		# shellcheck disable=SC2086
		eval "$runner \"$bin\" $args" >"$work/stdout.$i" 2>"$work/stderr.$i" </dev/null &
		echo $! >"$work/pid.$i"
		i=$((i + 1))
	done
	status=0 i=1
	while [ "$i" -le "$copies" ]; do
		wait "$(cat "$work/pid.$i")"
		one=$?
		[ "$one" = "$(directives exit | sed 's/^$/0/')" ] || { status=$one; echo "copy $i ended with $one" >&2; }
		cat "$work/stdout.$i" >>"$work/stdout"
		cat "$work/stderr.$i" >>"$work/stderr"
		i=$((i + 1))
	done
	[ "$status" != 0 ] || status=$(directives exit)
	status=${status:-0}
else
	# shellcheck disable=SC2086 # word splitting of the case's argument line is intended
	eval "$runner \"$bin\" $args" >"$work/stdout" 2>"$work/stderr" </dev/null
	status=$?
fi

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
while IFS= read -r text; do
	[ -n "$text" ] || continue
	! grep -qF -- "$(expand "$text")" "$work/stderr" || fail "stderr holds (stderr-not): $text"
done <<EOT
$(directives stderr-not)
EOT
if [ -n "$catalogue" ]; then
	# Whatever the input, the tool ends by itself, in its own words.
	[ "$status" -lt 126 ] || fail "exit status $status: killed by a signal or not run"
	for text in Sanitizer "runtime error" Assertion "libpng" "yajl" "cairo_" "zlib" "Segmentation"; do
		! grep -qF -- "$text" "$work/stderr" || fail "stderr holds a crash report or a library's words: $text"
	done
fi
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
directives lines | while read -r name want; do
	got=$(wc -l <"$out/$name" 2>/dev/null || echo missing)
	[ "$got" = "$want" ] || { echo "FAIL: $name has $got lines, want $want" >&2; exit 1; }
done || failures=$((failures + 1))
directives contains | while read -r name text; do
	grep -qF -- "$(expand "$text")" "$out/$name" 2>/dev/null || { echo "FAIL: $name lacks (contains): $text" >&2; exit 1; }
done || failures=$((failures + 1))
if [ -n "$(directives pdf-text)$(directives pdf-pages)$(directives pdf-size)" ] && ! command -v pdftotext >/dev/null 2>&1; then
	echo "skipped: pdftotext and pdfinfo (poppler-utils) read the PDF" >&2
	exit 77
fi
directives pdf-text | while read -r name text; do
	pdftotext "$out/$name" - 2>/dev/null | tr '\n' ' ' | grep -qF -- "$(expand "$text")" ||
		{ echo "FAIL: the text of $name lacks: $text" >&2; exit 1; }
done || failures=$((failures + 1))
directives pdf-size | while read -r name want; do
	got=$(pdfinfo "$out/$name" 2>/dev/null | sed -n 's/^Page size: *\([0-9.]*\) x \([0-9.]*\).*/\1x\2/p')
	[ "$got" = "$want" ] || { echo "FAIL: $name's pages are ${got:-unknown}, want $want" >&2; exit 1; }
done || failures=$((failures + 1))
directives pdf-pages | while read -r name want; do
	got=$(pdfinfo "$out/$name" 2>/dev/null | sed -n 's/^Pages: *//p')
	[ "$got" = "$want" ] || { echo "FAIL: $name has ${got:-no} pages, want $want" >&2; exit 1; }
done || failures=$((failures + 1))
for name in $(directives utf8); do
	iconv -f UTF-8 -t UTF-8 "$out/$name" >/dev/null 2>&1 || fail "$name is not valid UTF-8"
done
for name in $(directives kept); do
	[ "$(cksum <"$out/$name" 2>/dev/null)" = "$(cat "$work/kept.$name")" ] || fail "$name was changed by the run"
done
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

while IFS= read -r line; do
	[ -n "$line" ] || continue
	(cd "$out" && eval "$(expand "$line")") >"$work/check.out" 2>&1 ||
		fail "check failed: $line: $(tr '\n' ' ' <"$work/check.out")"
done <<EOT
$(directives check)
EOT

if [ "$failures" -ne 0 ]; then
	echo "--- command: rl-insight $args" >&2
	echo "--- stdout:" >&2; cat "$work/stdout" >&2
	echo "--- stderr:" >&2; cat "$work/stderr" >&2
	exit 1
fi
echo "ok: $(head -n 1 "$case_file" | sed 's/^# *//')"
exit 0
