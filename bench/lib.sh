# lib.sh: what the benchmark scripts share (sourced): tool checks, the scratch folder, inputs made once per generator build.
# The caller sets `me` (its name in messages) before sourcing, and `synth` (the generator) before using these.

# The defaults every script starts from (a script may set repeat before sourcing this file).
build=build
scratch=/tmp/rl-insight-bench
repeat=${repeat:-3}
lock=
scale=1

# Reads the options of the scripts that take exactly --build, --scratch, --repeat, --lock and --quick
# (export.sh, stats.sh) into build, scratch, repeat, lock and scale, over the defaults the caller
# set; -h prints the script's usage, lines 2-10 of its header.
bench_options() {
	while [ $# -gt 0 ]; do
		case $1 in
		--build) build=$2; shift 2 ;;
		--scratch) scratch=$2; shift 2 ;;
		--repeat) repeat=$2; shift 2 ;;
		--lock) lock=$2; shift 2 ;;
		--quick) scale=10; shift ;;
		-h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
		*) echo "$me: unknown argument $1" >&2; exit 2 ;;
		esac
	done
}

# Stops the script unless every TOOL is an executable file.
bench_need() {
	for tool in "$@"; do
		[ -x "$tool" ] || { echo "$me: $tool not built (cmake --build $build)" >&2; exit 2; }
	done
}

# Stops the script unless /usr/bin/time is there to measure wall time and peak memory.
bench_need_time() {
	[ -x /usr/bin/time ] || { echo "$me: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
}

# Makes the scratch folder DIR, refusing one inside the repository at ROOT (gigabytes of inputs).
bench_scratch() {
	case $1 in
	"$2"*) echo "$me: keep the scratch dir out of the repository" >&2; exit 2 ;;
	esac
	mkdir -p "$1"
}

# An input's stamp: how it was asked for, and which generator build made it.
bench_stamp() {
	printf '%s synth:%s\n' "$*" "$(cksum < "$synth" | cut -d' ' -f1)"
}

# True when the input in DIR was not made with these WORDS by this generator build (so make it again).
bench_stale() {
	stale_dir=$1; shift
	[ "$(cat "$stale_dir/.params" 2>/dev/null)" != "$(bench_stamp "$@")" ]
}

# Records that DIR now holds the input these WORDS ask for.
bench_made() {
	made_dir=$1; shift
	bench_stamp "$@" > "$made_dir/.params"
}

# The start of a script that runs rl-insight on generated inputs: its options (bench_options), then
# rli and synth from the build, both checked, /usr/bin/time checked, and the scratch folder made.
bench_start() {
	bench_options "$@"
	rli=$build/rl-insight
	synth=$build/bench/rl-insight-synth
	bench_need "$rli" "$synth"
	bench_need_time
	bench_scratch "$scratch" "$(cd "$(dirname "$0")/.." && pwd)"
}

# bench_generate AREA NAME ARGS...: the generator's input for ARGS in $scratch/AREA/NAME/in, unless
# the same ARGS and generator build already made it.
bench_generate() {
	generate_dir=$scratch/$1/$2; shift 2
	if bench_stale "$generate_dir" "$@"; then
		rm -rf "$generate_dir"
		mkdir -p "$generate_dir"
		"$synth" "$@" --output "$generate_dir/in" > /dev/null
		bench_made "$generate_dir" "$@"
	fi
}

# Runs a command under flock $lock when a lock was given (a machine shared with others).
locked() {
	if [ -n "${lock:-}" ]; then flock "$lock" "$@"; else "$@"; fi
}

# bench_fastest DIR MODE OK ARGS...: runs rl-insight ARGS --output-path DIR/out-MODE $repeat times (stderr in
# DIR/log-MODE) and leaves the fastest run's wall time (s) in best and that run's peak memory (KB) in rss.
# An exit status other than 0 or OK stops the script with the log's end.
bench_fastest() {
	fastest_dir=$1 fastest_mode=$2 fastest_ok=$3; shift 3
	best= rss=
	fastest_i=0
	while [ $fastest_i -lt "$repeat" ]; do
		rm -rf "$fastest_dir/out-$fastest_mode"
		fastest_status=0
		locked /usr/bin/time -f '%e %M' -o "$fastest_dir/time" "$rli" "$@" \
			--output-path "$fastest_dir/out-$fastest_mode" > /dev/null 2> "$fastest_dir/log-$fastest_mode" ||
			fastest_status=$?
		if [ "$fastest_status" != 0 ] && [ "$fastest_status" != "$fastest_ok" ]; then
			echo "$me: $fastest_dir ($fastest_mode) failed with status $fastest_status:" >&2
			tail -5 "$fastest_dir/log-$fastest_mode" >&2
			exit 1
		fi
		read -r t m < "$fastest_dir/time"
		if [ -z "$best" ] || awk "BEGIN { exit !($t < $best) }"; then
			best=$t rss=$m
		fi
		fastest_i=$((fastest_i + 1))
	done
}
