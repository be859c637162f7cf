#!/bin/bash
# Stops the sshd of start-sshd.sh and everything below it (per-connection sshd processes and the
# commands they run: a non-pty command outlives a dropped channel), then removes STATE_DIR.
#
#   stop-sshd.sh STATE_DIR [--keep]
set -uo pipefail
state=${1:?usage: stop-sshd.sh STATE_DIR [--keep]}
[[ -f $state/env ]] || exit 0
pid=$(sed -n 's/^SSHD_PID=//p' "$state/env")
watcher=$(sed -n 's/^WATCHER_PID=//p' "$state/env")
# The watcher (start-sshd.sh with OWNER_PID) runs this script itself when its owner is gone.
if [[ -n $watcher && $watcher != $$ ]]; then kill -TERM -- "-$watcher" 2>/dev/null; fi
# Alive: exists and is not a zombie (an orphan waits for init to reap it, which can take a while).
alive() { local st; st=$(ps -o stat= -p "$1" 2>/dev/null) && [[ $st != Z* ]]; }
below() { local k; for k in $(ps -eo pid=,ppid= | awk -v p="$1" '$2 == p { print $1 }'); do echo "$k"; below "$k"; done; }
if [[ -n $pid ]] && alive "$pid"; then
  tree=$(below "$pid")
  kill -TERM "$pid" $tree 2>/dev/null
  for _ in $(seq 1 50); do alive "$pid" || break; sleep 0.1; done
  kill -KILL "$pid" $tree 2>/dev/null
fi
[[ ${2:-} == --keep ]] || rm -rf -- "$state" "$state.fixtures"  # (.fixtures: what the tests wrote for it)
