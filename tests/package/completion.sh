#!/usr/bin/env bash
# completion.sh: the bash completion offers every option of rl-insight --help, and exactly the values the command accepts.
#
# Arguments: the rl-insight binary, completion/rl-insight.bash.
set -u
bin=$1 script=$2
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# shellcheck source=../../completion/rl-insight.bash
source "$script" || { echo "FAIL: $script does not load" >&2; exit 1; }
complete -p rl-insight >/dev/null 2>&1 || fail "$script registers no completion for rl-insight"

# What the completion offers for the words of a command line, the last being completed; sorted.
offers() {
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_rl_insight
	printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | sort
}
expect() { # expect "WANTED (space-separated)" WORDS...
	local want=$1 got
	shift
	got=$(offers "$@" | tr '\n' ' ')
	# shellcheck disable=SC2086 # the wanted words, one each
	[ -z "$want" ] || want=$(printf '%s\n' $want | sort | tr '\n' ' ')
	[ "$got" = "$want" ] || fail "completing '$*': got '$got', want '$want'"
}

scratch=$(mktemp -d) || exit 1
trap 'rm -rf "$scratch"' EXIT
cd "$scratch" || exit 1 # no file around: PATH values complete to nothing
missing=$scratch/none

# Every option --help lists, read here as a reader would: the words before the description.
options=$("$bin" --help | sed -n '/^Options/,/^$/p' | grep -E '^ +-' | sed -e 's/^ *//' -e 's/  .*//' |
	grep -oE -- '(^|[ ,])-{1,2}[a-zA-Z][a-z-]*' | tr -d ' ,' | sort -u)
[ "$(printf '%s\n' "$options" | wc -l)" -ge 20 ] || fail "read only these options from --help: $options"
offered=$(offers "$bin" -)
for option in $options; do
	printf '%s\n' "$offered" | grep -qx -- "$option" || fail "'$bin -' does not offer $option"
done
for option in $offered; do
	printf '%s\n' "$options" | grep -qx -- "$option" || fail "'$bin -' offers $option, which --help does not list"
done

# Each value-taking option's values (--help writes its argument in capitals): where the command
# names its choices, exactly those; any other value offered must be one the command takes (exit
# 3 for the missing input, not 2 for usage).
takes_value=$("$bin" --help | sed -n '/^Options/,/^$/p' | grep -oE -- '--[a-z-]+ [A-Z]+' | cut -d' ' -f1)
[ -n "$takes_value" ] || fail "no option of --help takes a value"
for option in $takes_value; do
	refusal=$("$bin" "$option" __bogus__ --input-path "$missing" 2>&1 >/dev/null)
	values=$(offers "$bin" "$option" "")
	choices=$(printf '%s\n' "$refusal" | sed -n 's/.*(choose from \(.*\))$/\1/p' | tr -d ' ' | tr ',' '\n' | sort)
	if [ -n "$choices" ]; then
		[ "$values" = "$choices" ] ||
			fail "'$option' completes to '$(printf '%s ' $values)', the command takes '$(printf '%s ' $choices)'"
	fi
	# trend draws a history's runs: it is taken with --history (which a missing input never opens)
	extra=
	[ "$option" != --vis-type ] || extra="--history $scratch/none.db"
	for value in $values; do
		# shellcheck disable=SC2086 # the extra option and its value, two words
		"$bin" "$option" "$value" --input-path "$missing" $extra >/dev/null 2>&1
		[ $? -eq 3 ] || fail "'$option' completes to '$value', which the command refuses"
	done
done

expect "png,html" "$bin" --vis-type png,h            # comma lists: the item after the last comma
expect "png pdf" "$bin" --vis-type = p               # --vis-type=p, "=" being a word break
expect "csv jsonl" "$bin" -q --export ""
expect "--all-rows" "$bin" --caption --a               # after a switch, options again
expect "" "$bin" --width ""                            # a number: nothing to offer
expect "mstx" "$bin" timeline.parser.type = ms       # the key=value form of the Python tool
expect "timeline.parser.type= timeline.visualizer.all_rows= timeline.visualizer.scale= timeline.visualizer.style= timeline.visualizer.type= timeline.visualizer.width=" "$bin" time
mkdir -p "$scratch/prof/a" && touch "$scratch/prof/summary.json"
expect "prof/a" "$bin" --input-path prof/
expect "prof/a prof/summary.json" "$bin" --baseline prof/

[ "$failures" -eq 0 ] || exit 1
echo "ok: $(printf '%s\n' "$options" | wc -l) options and their values complete"
