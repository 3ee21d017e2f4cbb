#!/bin/sh
# doc_sync.sh: every option --help lists is in the man page and the README, and both document every exit status (the signals' too).
set -u
bin=$1 man=$2 readme=$3
failures=0
flags=$("$bin" --help | grep -o -- '--[a-z][a-z-]*' | grep -vx -- '--option' | sort -u)
[ -n "$flags" ] || { echo "FAIL: --help lists no options" >&2; exit 1; }
for flag in $flags; do
	roff=$(printf '%s' "$flag" | sed 's/-/\\\\-/g')
	grep -q -- "$roff" "$man" || { echo "FAIL: $flag is missing from $man" >&2; failures=$((failures + 1)); }
done
for status in 0 1 2 3 4 5 6 7 8; do
	grep -q "^\.B $status\$" "$man" || { echo "FAIL: exit status $status is missing from $man" >&2; failures=$((failures + 1)); }
	"$bin" --help | grep -q "^  $status  " || { echo "FAIL: exit status $status is missing from --help" >&2; failures=$((failures + 1)); }
	grep -q "$status [a-z]" "$readme" || { echo "FAIL: exit status $status is missing from $readme" >&2; failures=$((failures + 1)); }
done
# The signals' statuses (128 + the signal) are listed together, on one line each.
for status in 129 130 143; do
	grep -q "$status" "$man" || { echo "FAIL: exit status $status is missing from $man" >&2; failures=$((failures + 1)); }
	"$bin" --help | grep -q "^  .*$status.*stopped by" || { echo "FAIL: exit status $status is missing from --help" >&2; failures=$((failures + 1)); }
	grep -q "$status.*stopped by\|stopped by.*$status" "$readme" || { echo "FAIL: exit status $status is missing from $readme" >&2; failures=$((failures + 1)); }
done
[ "$failures" -eq 0 ] && echo "ok: $(echo "$flags" | wc -l) options and 12 exit statuses documented"
exit "$failures"
