#!/bin/bash
# Runs COMMAND on behalf of the process OWNER_PID and ends it (TERM, then KILL) when OWNER_PID is
# gone, however it ended (a crashed test run cleans nothing up itself), when COMMAND ends, or when
# this script gets TERM, INT or HUP. Prints COMMAND's pid on the first line of its standard
# output; COMMAND's own output goes to standard error.
#
#   owned.sh OWNER_PID COMMAND [ARG…]
set -u
owner=${1:?usage: owned.sh OWNER_PID COMMAND [ARG…]}
shift
# (COMMAND keeps no descriptor of ours beyond 0–2: Foundation's Process learns that this script
# ended when its inherited socket closes.)
(
  for f in /proc/$BASHPID/fd/*; do n=${f##*/}; (( n > 2 )) && eval "exec $n>&-"; done 2>/dev/null
  exec "$@"
) >&2 &
child=$!
echo "$child"
nap=""
end() {
  trap '' TERM INT HUP
  [[ -z $nap ]] || kill "$nap" 2>/dev/null
  kill -TERM "$child" 2>/dev/null
  for _ in $(seq 1 40); do kill -0 "$child" 2>/dev/null || break; sleep 0.05; done
  kill -KILL "$child" 2>/dev/null
  wait "$child" 2>/dev/null
  exit 0
}
trap end TERM INT HUP
# (`sleep & wait`: a trapped signal interrupts `wait` at once, not a foreground sleep.)
while kill -0 "$owner" 2>/dev/null && kill -0 "$child" 2>/dev/null; do
  sleep 0.2 &
  nap=$!
  wait "$nap"
done
end
