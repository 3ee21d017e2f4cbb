#!/bin/bash
# submit.sh: submits the array job (a shard of the input per task) and the merge job that runs once they all succeeded.
#
# Usage: submit.sh INPUT OUTPUT SHARDS [SBATCH_OPTION...]
#   INPUT    the profiles, at the same path on every node;
#   OUTPUT   a shared folder: the outputs, the shards' tables in OUTPUT/shards (emptied first) and the
#            jobs' logs in OUTPUT/logs;
#   SHARDS   how many array tasks (1 to Slurm's MaxArraySize, 1001 unless the site changed it);
#   SBATCH_OPTION...  given to both sbatch calls (--partition, --account, --time, --cpus-per-task...).
# RL_INSIGHT names the command on the nodes (default: rl-insight); RL_INSIGHT_VIS_TYPE the merge's outputs.
# Prints the two job ids, the array job's then the merge job's, on one line. Wait for the merge with
# `squeue -j <id>`, or follow OUTPUT/logs/merge.log.
set -euo pipefail

if [ "$#" -lt 3 ]; then
	echo "usage: submit.sh INPUT OUTPUT SHARDS [SBATCH_OPTION...]" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
# Absolute paths: the jobs may start in another folder than this one.
input=$(cd "$1" && pwd)
mkdir -p "$2"
output=$(cd "$2" && pwd)
shards=$3
shift 3
case $shards in
'' | *[!0-9]* | 0*)
	echo "submit.sh: SHARDS must be a positive integer, not '$shards'" >&2
	exit 2
	;;
esac

# Shards of an earlier run (more of them, say) would be merged too: start from an empty folder.
rm -rf "$output/shards"
mkdir -p "$output/shards" "$output/logs"
# --export: RL_INSIGHT and RL_INSIGHT_VIS_TYPE reach the jobs even where the site exports nothing by default.
export RL_INSIGHT=${RL_INSIGHT:-rl-insight}
export RL_INSIGHT_VIS_TYPE=${RL_INSIGHT_VIS_TYPE:-png,html,pdf}
environment=ALL,RL_INSIGHT,RL_INSIGHT_VIS_TYPE
# --parsable prints "id" or "id;cluster".
array=$(sbatch --parsable --export="$environment" --array="0-$((shards - 1))" --output="$output/logs/shard-%a.log" \
	"$@" "$here/array.sbatch" "$input" "$output/shards")
array=${array%%;*}
# --kill-on-invalid-dep: a failed shard cancels the merge instead of leaving it pending for ever.
merge=$(sbatch --parsable --export="$environment" --dependency="afterok:$array" --kill-on-invalid-dep=yes \
	--output="$output/logs/merge.log" "$@" "$here/merge.sbatch" "$output/shards" "$output")
merge=${merge%%;*}
echo "submit.sh: array job $array ($shards shards of $input), then merge job $merge into $output" >&2
echo "$array $merge"
