#!/bin/bash
# A fake Junos CLI for the SSH tests. sshd runs it for every session (ForceCommand); the command
# the client sent is in SSH_ORIGINAL_COMMAND (for the netconf subsystem: the Subsystem line).
# Every command is logged to commands.log beside this script, so tests can prove what reached
# the device. Output comes from fixtures/:
#   show system commit [| display xml]        commit.txt / commit.xml (see "drift" below)
#   show system rollback N                    rollback/N.txt
#   show system rollback N compare M          compare/N-M.txt
#   show version                              version.txt
# (`| no-more` is accepted and ignored.) With a file fixtures/misbehave, some rollback numbers
# misbehave on purpose:
#   40 stays silent for 60 s (ends early when its connection goes away)
#   41 prints a Junos-style "error:" line on standard output and exits 0
#   42 exits with status 7 after an error on standard error
#   43 prints 50 MiB of configuration-like lines
#   44 prints part of a configuration, then kills its own connection's sshd
# Drift (a commit landing during a capture): with a file fixtures/drift, the first commit list
# served (text or XML, counted together, NETCONF included) is commit.*, every later one
# commit-after.*; with fixtures/drift-always they alternate for ever.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fx="$here/fixtures"
orig=${SSH_ORIGINAL_COMMAND-}
echo "$orig" >> "$here/commands.log"
read -r -a w <<<"$orig"
cmd="${w[*]-}"
cmd=${cmd% | no-more}

# The commit list file to serve (.txt or .xml), following the drift rules.
commits() {
  local n=1
  if [[ -f "$fx/drift" || -f "$fx/drift-always" ]]; then
    n=$(( $(cat "$here/commit-count" 2>/dev/null || echo 0) + 1 ))
    echo "$n" > "$here/commit-count"
  fi
  if [[ -f "$fx/drift" && $n -gt 1 ]] || [[ -f "$fx/drift-always" && $((n % 2)) == 0 ]]; then
    echo "$fx/commit-after.$1"
  else
    echo "$fx/commit.$1"
  fi
}

serve() {
  if [[ -f "$1" ]]; then cat -- "$1"; exit 0; fi
  echo "error: configuration database does not exist"   # Junos prints its errors on stdout
  exit 1
}

[[ -f "$fx/misbehave" ]] && case "$cmd" in
  "show system rollback 40")
    echo "## Last commit: 2024-01-01 00:00:00 UTC by slow"
    for ((i = 0; i < 300; i++)); do kill -0 "$PPID" 2>/dev/null || exit 1; sleep 0.2; done
    exit 0 ;;
  "show system rollback 41")
    echo "error: could not open configuration database (/config/juniper.conf.41.gz)"; exit 0 ;;
  "show system rollback 42")
    echo "error: permission denied" >&2; exit 7 ;;
  "show system rollback 43")
    head -c 52428800 < <(yes '    set interfaces ge-0/0/0 unit 0 family inet address 192.0.2.1/24;'); exit 0 ;;
  "show system rollback 44")
    printf 'system {\n    host-name half;\n'
    p=$$
    while [[ $p -gt 1 ]]; do
      p=$(ps -o ppid= -p "$p" | tr -d ' ')
      [[ $(ps -o comm= -p "$p") == sshd* ]] && { kill -9 "$p"; exit 1; }
    done
    exit 1 ;;
esac

case "$cmd" in
  "$here/fake-netconf.sh" | "netconf")
    exec "$here/fake-netconf.sh" ;;
  "show system commit") serve "$(commits txt)" ;;
  "show system commit | display xml") serve "$(commits xml)" ;;
  "show version") serve "$fx/version.txt" ;;
  "show system rollback "*" compare "*)
    if [[ $cmd =~ ^show\ system\ rollback\ ([0-9]+)\ compare\ ([0-9]+)$ ]]; then
      serve "$fx/compare/${BASH_REMATCH[1]}-${BASH_REMATCH[2]}.txt"
    fi ;;
  "show system rollback "*)
    if [[ $cmd =~ ^show\ system\ rollback\ ([0-9]+)$ ]]; then serve "$fx/rollback/${BASH_REMATCH[1]}.txt"; fi ;;
esac
echo "error: syntax error, expecting <command>: $orig"
exit 1
