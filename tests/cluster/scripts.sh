#!/bin/sh
# scripts.sh: every script of examples/slurm parses as sh and as bash, opens with its one-line header, and passes shellcheck where installed.
#
# Usage: scripts.sh EXAMPLES
set -u
examples=$1
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

count=0
for script in "$examples"/*.sh "$examples"/*.sbatch; do
	[ -f "$script" ] || continue
	count=$((count + 1))
	name=$(basename "$script")
	sh -n "$script" || fail "$name does not parse as sh"
	bash -n "$script" || fail "$name does not parse as bash"
	[ "$(sed -n 1p "$script")" = "#!/bin/bash" ] || fail "$name does not start with #!/bin/bash"
	sed -n 2p "$script" | grep -q "^# $name: " || fail "$name: line 2 is not its header comment '# $name: ...'"
	[ -x "$script" ] || fail "$name is not executable"
	grep -q '^set -euo pipefail$' "$script" || fail "$name does not stop at the first error (set -euo pipefail)"
done
[ "$count" -eq 5 ] || fail "found $count scripts, not the 5 the README names"
if command -v shellcheck >/dev/null 2>&1; then
	shellcheck "$examples"/*.sh "$examples"/*.sbatch || fail "shellcheck"
else
	echo "note: shellcheck is not installed; its check was left out"
fi
[ "$failures" -eq 0 ] && echo "ok: the $count scripts of examples/slurm"
exit "$failures"
