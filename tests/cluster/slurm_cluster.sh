# slurm_cluster.sh: sourced by the cluster tests; starts a private one-node Slurm (munged, slurmctld, slurmd) and stops it by pid.
# shellcheck shell=bash
#
# cluster_require                 exits 77 with a message when the daemons or the clients are missing, or when not root
# cluster_start                   munged, slurmctld and slurmd under a new folder of $TMPDIR (short: a Unix socket
#                                 lives there); exports SLURM_CONF and returns once sinfo shows the node idle
# cluster_stop                    stops what cluster_start started, by pid, and removes its folder (the trap
#                                 cluster_start sets calls it: on exit, INT and TERM)
# cluster_wait SECONDS JOBID...   returns 0 once squeue lists none of the jobs, 1 when the time runs out
# cluster_job_states JOBID        the states of a job (one line per array task), from scontrol
# cluster_logs                    the daemons' logs, to stderr, for a failed test
#
# Nothing outside that folder is touched: no /etc, no systemctl, no system munge socket (AuthInfo names ours),
# private ports picked free. The node is "localhost" (slurmd -N), whatever the machine's name.

cluster_pids=""
cluster_state=""
cluster_conf=""

cluster_require() {
	local tool
	for tool in munged slurmctld slurmd sbatch srun squeue sinfo scontrol; do
		if ! command -v "$tool" >/dev/null 2>&1; then
			echo "skipped: $tool is not installed (apt-get install slurm-wlm munge)"
			exit 77
		fi
	done
	if [ "$(id -u)" -ne 0 ]; then
		echo "skipped: a private Slurm needs root (slurmd runs jobs as their user)"
		exit 77
	fi
}

# A TCP port nothing listens on: random in 20000-59999, checked against /proc/net/tcp and tcp6
# (state 0A is LISTEN; the local port is the hex after the address's colon).
cluster_free_port() {
	local tries=0 port hex
	while [ "$tries" -lt 50 ]; do
		tries=$((tries + 1))
		port=$((20000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 40000))
		[ "$port" = "${cluster_taken_port:-}" ] && continue
		hex=$(printf '%04X' "$port")
		if ! cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk -v hex="$hex" '
			$4 == "0A" { split($2, local_address, ":"); if (local_address[2] == hex) found = 1 }
			END { exit !found }'; then
			echo "$port"
			return 0
		fi
	done
	echo "no free TCP port found" >&2
	return 1
}

# cluster_wait_for SECONDS COMMAND...: runs COMMAND every half second until it succeeds; 1 when the time runs out.
cluster_wait_for() {
	local ticks=$(($1 * 2))
	shift
	while [ "$ticks" -gt 0 ]; do
		"$@" && return 0
		ticks=$((ticks - 1))
		sleep 0.5
	done
	return 1
}

cluster_node_idle() {
	[ "$(sinfo -h -n localhost -o %t 2>/dev/null)" = idle ]
}

cluster_pid_alive() {
	[ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null
}

cluster_start() {
	local munge_dir slurm_dir munge_socket ctld_port slurmd_port variable
	# Whatever happens from here on, the daemons and their folder go with the test.
	trap cluster_stop EXIT
	trap 'cluster_stop; exit 130' INT
	trap 'cluster_stop; exit 143' TERM
	cluster_state=$(mktemp -d "${TMPDIR:-/tmp}/rli-slurm.XXXXXX") || return 1
	munge_dir=$cluster_state/munge
	slurm_dir=$cluster_state/slurm
	mkdir -p "$munge_dir" "$cluster_state/socket" "$slurm_dir/state" "$slurm_dir/spool" || return 1
	# munged wants its socket's folders searchable by all (a job's user talks to it), its key's private.
	chmod 0755 "$cluster_state" "$cluster_state/socket" && chmod 0700 "$munge_dir" || return 1

	# munged: its own key, socket, pid, log and seed files.
	dd if=/dev/urandom of="$munge_dir/munge.key" bs=1 count=1024 2>/dev/null && chmod 0400 "$munge_dir/munge.key" ||
		return 1
	munge_socket=$cluster_state/socket/munge.socket
	munged --socket="$munge_socket" --key-file="$munge_dir/munge.key" --pid-file="$munge_dir/munged.pid" \
		--log-file="$munge_dir/munged.log" --seed-file="$munge_dir/munged.seed" ||
		{ echo "munged did not start" >&2; return 1; }
	cluster_wait_for 10 cluster_pid_alive "$munge_dir/munged.pid" ||
		{ echo "munged wrote no pid file" >&2; return 1; }
	cluster_pids="$(cat "$munge_dir/munged.pid")"

	ctld_port=$(cluster_free_port) || return 1
	cluster_taken_port=$ctld_port
	slurmd_port=$(cluster_free_port) || return 1
	: >"$slurm_dir/plugstack.conf"
	cat >"$slurm_dir/slurm.conf" <<-EOF || return 1
		# A one-node cluster for rl-insight's tests, all of it under $slurm_dir.
		ClusterName=rli-test
		SlurmctldHost=localhost
		SlurmctldPort=$ctld_port
		SlurmdPort=$slurmd_port
		SlurmUser=root
		SlurmdUser=root
		AuthType=auth/munge
		CredType=cred/munge
		AuthInfo=socket=$munge_socket
		StateSaveLocation=$slurm_dir/state
		SlurmdSpoolDir=$slurm_dir/spool
		SlurmctldPidFile=$slurm_dir/slurmctld.pid
		SlurmdPidFile=$slurm_dir/slurmd.pid
		SlurmctldLogFile=$slurm_dir/slurmctld.log
		SlurmdLogFile=$slurm_dir/slurmd.log
		PlugStackConfig=$slurm_dir/plugstack.conf
		ProctrackType=proctrack/linuxproc
		TaskPlugin=task/none
		SelectType=select/cons_tres
		SelectTypeParameters=CR_CPU
		MpiDefault=none
		JobAcctGatherType=jobacct_gather/none
		AccountingStorageType=accounting_storage/none
		JobCompType=jobcomp/none
		ReturnToService=2
		SlurmctldTimeout=30
		SlurmdTimeout=30
		InactiveLimit=0
		# Start a batch job at once, not up to 3 s later: the tests wait for every job.
		SchedulerParameters=batch_sched_delay=0
		MinJobAge=600
		NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
		PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
	EOF
	# The clients (and the jobs, which inherit them) see this cluster only: nothing of a Slurm job or a
	# site's defaults this test may run under (SLURM_JOB_ID, SBATCH_PARTITION...).
	for variable in $(env | sed -n 's/^\(SLURM_[A-Za-z0-9_]*\|SBATCH_[A-Za-z0-9_]*\|SRUN_[A-Za-z0-9_]*\|SALLOC_[A-Za-z0-9_]*\)=.*/\1/p'); do
		unset "$variable"
	done
	cluster_conf=$slurm_dir/slurm.conf
	SLURM_CONF=$cluster_conf
	export SLURM_CONF

	# In the foreground (-D) behind &, so the pids are theirs.
	slurmctld -D -f "$SLURM_CONF" >"$slurm_dir/slurmctld.out" 2>&1 &
	cluster_pids="$cluster_pids $!"
	cluster_wait_for 20 scontrol ping >/dev/null 2>&1 ||
		{ echo "slurmctld does not answer on port $ctld_port" >&2; return 1; }
	slurmd -D -N localhost -f "$SLURM_CONF" >"$slurm_dir/slurmd.out" 2>&1 &
	cluster_pids="$cluster_pids $!"
	cluster_wait_for 30 cluster_node_idle || {
		echo "the node is not idle after 30 s: $(sinfo -h -N -o '%N %t %E' 2>&1)" >&2
		return 1
	}
}

cluster_stop() {
	# The jobs first (slurmd's steps would outlive it), then the daemons, newest first. Only a cluster
	# this file started: SLURM_CONF from outside may name a real one.
	if [ -n "$cluster_pids" ] && [ -n "$cluster_conf" ]; then
		SLURM_CONF=$cluster_conf scancel --quiet --user="$(id -un)" 2>/dev/null
		SLURM_CONF=$cluster_conf cluster_wait_for 10 cluster_no_jobs
	fi
	local reversed="" pid ticks
	for pid in $cluster_pids; do reversed="$pid $reversed"; done
	for pid in $reversed; do
		kill "$pid" 2>/dev/null || continue
		ticks=20
		while kill -0 "$pid" 2>/dev/null && [ "$ticks" -gt 0 ]; do
			sleep 0.5
			ticks=$((ticks - 1))
		done
		kill -9 "$pid" 2>/dev/null
	done
	cluster_pids=""
	cluster_conf=""
	[ -z "$cluster_state" ] || rm -rf "$cluster_state"
	cluster_state=""
}

cluster_wait() {
	local seconds=$1 jobs
	shift
	jobs=$(echo "$@" | tr ' ' ',')
	cluster_wait_for "$seconds" cluster_jobs_gone "$jobs"
}

cluster_no_jobs() {
	[ -z "$(squeue -h -o %i 2>/dev/null)" ]
}

cluster_jobs_gone() {
	local listed
	listed=$(squeue -h -j "$1" -o %i 2>/dev/null) || return 1
	[ -z "$listed" ]
}

cluster_job_states() {
	scontrol -o show job "$1" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'
}

cluster_logs() {
	local log
	[ -n "$cluster_state" ] || return 0
	for log in "$cluster_state"/munge/munged.log "$cluster_state"/slurm/*.log "$cluster_state"/slurm/*.out; do
		[ -s "$log" ] || continue
		echo "--- $log (last 30 lines)" >&2
		tail -n 30 "$log" >&2
	done
}
