#!/bin/sh
# torch_fixtures.sh: runs torch_fixtures.py with a Python that has torch (Debian's python3-torch); skipped (77) where none has.
# Usage: torch_fixtures.sh RL_INSIGHT RL_INSIGHT_SYNTH WORK_DIR
here=$(cd "$(dirname "$0")" && pwd)
for python in python3 /usr/bin/python3; do
	if "$python" -c 'import torch, numpy' >/dev/null 2>&1; then
		exec "$python" "$here/torch_fixtures.py" "$@"
	fi
done
echo "skipped: no python3 with torch (Debian: apt-get install python3-torch)"
exit 77
