#!/bin/bash
# Stops the sshd of start-sshd.sh and everything below it (per-connection sshd processes and the
# commands they run: a non-pty command outlives a dropped channel), then removes STATE_DIR.
#
#   stop-sshd.sh STATE_DIR [--keep]
set -uo pipefail
state=${1:?usage: stop-sshd.sh STATE_DIR [--keep]}
[[ -f $state/env ]] || exit 0
pid=$(sed -n 's/^SSHD_PID=//p' "$state/env")
below() { local k; for k in $(ps -eo pid=,ppid= | awk -v p="$1" '$2 == p { print $1 }'); do echo "$k"; below "$k"; done; }
if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
  tree=$(below "$pid")
  kill -TERM "$pid" $tree 2>/dev/null
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" $tree 2>/dev/null
fi
[[ ${2:-} == --keep ]] || rm -rf -- "$state"
