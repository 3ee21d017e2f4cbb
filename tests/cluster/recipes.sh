#!/bin/bash
# recipes.sh: a recipe of examples/slurm run over generated multi-rank inputs; its outputs must be one plain run's, byte for byte.
#
# Usage: recipes.sh RECIPE RL_INSIGHT SYNTH EXAMPLES WORK
#   RECIPE  submit: submit.sh on a private one-node Slurm (the array job, then the merge job), and a
#                   failing shard that must cancel the merge;
#           srun:   srun.sbatch on a private one-node Slurm (the tasks of one step, then the merge);
#           xargs:  xargs.sh, no Slurm (more shards than units: some shards get none).
# The inputs: MSTX (8 ranks, 2 roles, 2 steps) and Ascend memory (2 ranks, 2 roles) from rl-insight-synth.
# The reference: rl-insight over each whole input, --vis-type png,html,pdf --export jsonl. Every file it
# writes (figures, HTML pages, the report, summary.json, the tables) must come out of the recipe with the
# same bytes: the shards' tables say which input they came from, so even the report's cover and
# summary.json's "input" name the same path and profiler.
set -u
recipe=$1 bin=$2 synth=$3 examples=$4 work=$5
here=$(dirname "$0")
# shellcheck source=tests/cluster/slurm_cluster.sh
. "$here/slurm_cluster.sh"
case $recipe in
submit | srun) cluster_require ;;
xargs) ;;
*) echo "recipes.sh: unknown recipe $recipe" >&2 && exit 2 ;;
esac
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

rm -rf "$work" && mkdir -p "$work" || exit 1
work=$(cd "$work" && pwd)
if ! "$synth" --format mstx --ranks 8 --roles 2 --steps 2 --seed 3 --output "$work/in/mstx" >/dev/null ||
	! "$synth" --format memory --ranks 2 --roles 2 --steps 2 --seed 3 --output "$work/in/memory" >/dev/null; then
	echo "FAIL: rl-insight-synth" >&2
	exit 1
fi
for format in mstx memory; do
	"$bin" -q --input-path "$work/in/$format" --output-path "$work/one/$format" --vis-type png,html,pdf --export jsonl ||
		{ echo "FAIL: the plain run over $format exited with $?" >&2; exit 1; }
done

# same_outputs FORMAT OUT WHAT: every file of the plain run over FORMAT is in OUT with the same bytes, and no other.
same_outputs() {
	local one=$work/one/$1 path name expected got
	for path in "$one"/*; do
		name=$(basename "$path")
		if [ ! -f "$2/$name" ]; then
			fail "$3: $name is missing"
		elif ! cmp -s "$path" "$2/$name"; then
			fail "$3: $name differs"
		fi
	done
	# Files only: the recipe's own folders (shards, logs) sit beside the outputs.
	expected=$(cd "$one" && find . -maxdepth 1 -type f | sort | tr '\n' ' ')
	got=$(cd "$2" && find . -maxdepth 1 -type f | sort | tr '\n' ' ')
	[ "$expected" = "$got" ] || fail "$3: wrote $got, not $expected"
}

# shards_written OUT SHARDS WHAT: OUT/shards holds shard-0 ... shard-(SHARDS-1), no more.
shards_written() {
	expected=$(seq 0 $(($2 - 1)) | sed 's/^/shard-/' | sort | tr '\n' ' ')
	got=$(cd "$1/shards" 2>/dev/null && find . -mindepth 1 -maxdepth 1 | sed 's|^\./||' | sort | tr '\n' ' ')
	[ "$expected" = "$got" ] || fail "$3: the shards' folders are '$got', not '$expected'"
}

# job_ended JOBID STATE TASKS WHAT: the job's TASKS array tasks (1: not an array) all ended in STATE.
job_ended() {
	states=$(cluster_job_states "$1")
	if [ "$(printf '%s\n' "$states" | grep -c .)" -ne "$3" ] || [ "$(printf '%s\n' "$states" | sort -u)" != "$2" ]; then
		fail "$4: job $1 ended $(echo "$states" | tr '\n' ' '), not $3 times $2"
	fi
}

# show_logs OUT: what the jobs printed, for a failure.
show_logs() {
	for log in "$1"/logs/*.log "$1".log; do
		[ -s "$log" ] || continue
		echo "--- $log" >&2
		tail -n 20 "$log" >&2
	done
}

if [ "$recipe" != xargs ]; then
	cluster_start || { cluster_logs; echo "FAIL: the cluster did not start" >&2; exit 1; }
fi
RL_INSIGHT=$bin
export RL_INSIGHT
# Shards: more than the node's CPUs (tasks wait their turn); for xargs more than the units (MSTX 32,
# memory 8): some shards get none and write empty tables.
case $recipe in
xargs) runs="mstx:40 memory:16" ;;
*) runs="mstx:5 memory:3" ;;
esac
for run in $runs; do
	format=${run%:*} shards=${run#*:}
	out=$work/$recipe-$format
	what="$recipe, $format in $shards shards"
	before=$failures
	case $recipe in
	submit)
		if ids=$(bash "$examples/submit.sh" "$work/in/$format" "$out" "$shards" 2>"$work/submit.err"); then
			# shellcheck disable=SC2086 # the two ids
			cluster_wait 60 $ids || fail "$what: the jobs did not finish in 60 s"
			job_ended "${ids% *}" COMPLETED "$shards" "$what: the array job"
			job_ended "${ids#* }" COMPLETED 1 "$what: the merge job"
		else
			fail "$what: submit.sh exited with $?: $(cat "$work/submit.err")"
		fi
		;;
	srun)
		# --overcommit: more tasks than the node's CPUs, each a process of its own.
		if id=$(sbatch --parsable --ntasks="$shards" --overcommit --output="$out.log" \
			"$examples/srun.sbatch" "$work/in/$format" "$out"); then
			cluster_wait 60 "$id" || fail "$what: the job did not finish in 60 s"
			job_ended "$id" COMPLETED 1 "$what"
		else
			fail "$what: sbatch srun.sbatch exited with $?"
		fi
		;;
	xargs)
		bash "$examples/xargs.sh" "$work/in/$format" "$out" "$shards" 2 >"$out.log" 2>&1 ||
			fail "$what: xargs.sh exited with $?"
		;;
	esac
	shards_written "$out" "$shards" "$what"
	same_outputs "$format" "$out" "$what"
	[ "$failures" -eq "$before" ] || show_logs "$out"
done

# A shard that fails: every task fails, the merge job is cancelled (not left pending), nothing is drawn.
if [ "$recipe" = submit ]; then
	out=$work/submit-failing
	what="submit, a failing rl-insight"
	if ids=$(RL_INSIGHT=false bash "$examples/submit.sh" "$work/in/mstx" "$out" 2 2>"$work/submit.err"); then
		# shellcheck disable=SC2086 # the two ids
		cluster_wait 60 $ids || fail "$what: the jobs did not finish in 60 s"
		job_ended "${ids% *}" FAILED 2 "$what: the array job"
		job_ended "${ids#* }" CANCELLED 1 "$what: the merge job"
		[ ! -e "$out/summary.json" ] || fail "$what: the merge ran"
	else
		fail "$what: submit.sh exited with $?: $(cat "$work/submit.err")"
	fi
fi

[ "$failures" -eq 0 ] || cluster_logs
cluster_stop
[ "$failures" -eq 0 ] && echo "ok: the $recipe recipe's outputs are one plain run's"
exit "$failures"
