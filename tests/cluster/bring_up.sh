#!/bin/bash
# bring_up.sh: a private one-node Slurm runs a 4-task array job (sbatch --array --wrap) and a job that depends on it.
#
# Usage: bring_up.sh WORK
# Proves the cluster on its own, apart from rl-insight: every array task writes its id and the count,
# the dependent job (afterok) runs once they all succeeded and sees all four files.
set -u
work=$1
here=$(dirname "$0")
# shellcheck source=tests/cluster/slurm_cluster.sh
. "$here/slurm_cluster.sh"
cluster_require
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

rm -rf "$work" && mkdir -p "$work/out" || exit 1
cluster_start || { cluster_logs; echo "FAIL: the cluster did not start" >&2; exit 1; }

array=$(sbatch --parsable --array=0-3 --output="$work/out/task-%a.log" \
	--wrap="echo \$SLURM_ARRAY_TASK_ID/\$SLURM_ARRAY_TASK_COUNT >$work/out/task-\$SLURM_ARRAY_TASK_ID") ||
	fail "sbatch --array"
after=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes --output="$work/out/after.log" \
	--wrap="cat $work/out/task-0 $work/out/task-1 $work/out/task-2 $work/out/task-3 >$work/out/all") ||
	fail "sbatch --dependency"
if [ "$failures" -eq 0 ]; then
	cluster_wait 60 "$array" "$after" || fail "the jobs did not finish in 60 s: $(squeue -h 2>&1)"
	for job in "$array" "$after"; do
		states=$(cluster_job_states "$job" | sort -u | tr '\n' ' ')
		[ "$states" = "COMPLETED " ] || fail "job $job ended $states"
	done
	printf '0/4\n1/4\n2/4\n3/4\n' >"$work/expected"
	cmp -s "$work/expected" "$work/out/all" || fail "the dependent job saw $(cat "$work/out/all" 2>&1)"
fi
[ "$failures" -eq 0 ] || cluster_logs
cluster_stop
[ "$failures" -eq 0 ] && echo "ok: a one-node Slurm ran an array job and its dependent job"
exit "$failures"
