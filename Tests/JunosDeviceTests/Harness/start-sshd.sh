#!/bin/bash
# Starts a throwaway OpenSSH server on 127.0.0.1:<random port> whose every session runs the fake
# Junos CLI (or, for the netconf subsystem, the fake NETCONF responder) of this folder. Nothing
# system-wide is touched except /run/sshd (the privilege-separation directory) when run as root.
#
#   start-sshd.sh STATE_DIR FIXTURES_DIR [ADDRESS…]   STATE_DIR is created (must not exist)
#
# ADDRESS…: where it listens (default 127.0.0.1; e.g. ::1, or 127.0.0.1 ::1), all on one port.
# With OWNER_PID set, a watcher stops the server (stop-sshd.sh) as soon as that process is gone,
# however it ended: a crashed or killed test run leaves no sshd behind.
#
# Writes STATE_DIR/env (sourceable): SSHD_PID WATCHER_PID SSH_TEST_HOST (the first address)
# SSH_TEST_PORT SSH_TEST_USER SSH_TEST_KEY SSH_TEST_OTHER_KEY SSH_TEST_KNOWN_HOSTS
# SSH_TEST_KNOWN_HOSTS_WRONG (both with an entry for every address). Every command a client sends
# is appended to STATE_DIR/commands.log.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
state=${1:?usage: start-sshd.sh STATE_DIR FIXTURES_DIR [ADDRESS…]}
fixtures=${2:?usage: start-sshd.sh STATE_DIR FIXTURES_DIR [ADDRESS…]}
shift 2
addresses=("$@")
(( ${#addresses[@]} )) || addresses=(127.0.0.1)
SSHD=/usr/sbin/sshd   # absolute: sshd re-executes itself
[[ -x $SSHD ]] || { echo "start-sshd: $SSHD missing (apt-get install openssh-server)" >&2; exit 1; }

mkdir -m 0700 "$state"
state=$(cd "$state" && pwd)
user=$(id -un)
cp -r "$fixtures" "$state/fixtures"
cp "$here/fake-junos-cli.sh" "$here/fake-netconf.sh" "$state/"
chmod 0755 "$state/fake-junos-cli.sh" "$state/fake-netconf.sh"
: > "$state/commands.log"

ssh-keygen -q -t ed25519 -N '' -C junoscope-test-host -f "$state/host_key"
ssh-keygen -q -t ed25519 -N '' -C junoscope-test-imposter -f "$state/imposter_key"
ssh-keygen -q -t ed25519 -N '' -C junoscope-test-client -f "$state/client_key"
ssh-keygen -q -t ed25519 -N '' -C junoscope-test-stranger -f "$state/other_key"
echo "restrict $(cat "$state/client_key.pub")" > "$state/authorized_keys"
chmod 0600 "$state/authorized_keys"
if [[ $(id -u) == 0 ]]; then mkdir -p /run/sshd && chmod 0755 /run/sshd; fi

config() {
cat <<CFG
Port $1
$(for a in "${addresses[@]}"; do echo "ListenAddress $a"; done)
HostKey $state/host_key
PidFile $state/sshd.pid
AuthorizedKeysFile $state/authorized_keys
StrictModes no
AllowUsers $user
PermitRootLogin prohibit-password
AuthenticationMethods publickey
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
HostbasedAuthentication no
UsePAM no
PermitTTY no
PermitUserRC no
PermitUserEnvironment no
X11Forwarding no
AllowTcpForwarding no
AllowAgentForwarding no
PermitTunnel no
PrintMotd no
PrintLastLog no
UseDNS no
LoginGraceTime 120
MaxStartups 64:30:128
MaxSessions 64
LogLevel VERBOSE
# bash sources ~/.bashrc for sshd sessions unless SHLVL>=2 (slow, and it could print)
SetEnv SHLVL=1
ForceCommand $state/fake-junos-cli.sh
Subsystem netconf $state/fake-netconf.sh
CFG
}

ready=0
for _ in $(seq 1 20); do
  port=$(shuf -i 20000-60999 -n 1)
  config "$port" > "$state/sshd_config"
  "$SSHD" -t -f "$state/sshd_config"
  : > "$state/sshd.log"
  "$SSHD" -D -e -f "$state/sshd_config" >>"$state/sshd.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 200); do
    kill -0 "$pid" 2>/dev/null || break
    # Ready when OUR sshd says so on every address (a banner on the port could be another server's).
    listening=0
    for a in "${addresses[@]}"; do grep -qF "Server listening on $a port $port." "$state/sshd.log" && listening=$((listening + 1)); done
    if (( listening == ${#addresses[@]} )); then ready=1; break; fi
    sleep 0.05
  done
  (( ready )) && break
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  grep -q 'Address already in use' "$state/sshd.log" && continue
  echo "start-sshd: sshd did not come up:" >&2
  cat "$state/sshd.log" >&2
  exit 1
done
(( ready )) || { echo "start-sshd: no free port" >&2; exit 1; }

names=$(for a in "${addresses[@]}"; do printf '[%s]:%s,' "$a" "$port"; done)
names=${names%,}
echo "$names $(cut -d' ' -f1,2 "$state/host_key.pub")" > "$state/known_hosts"
echo "$names $(cut -d' ' -f1,2 "$state/imposter_key.pub")" > "$state/known_hosts.wrong"
cat > "$state/env" <<ENV
SSHD_PID=$pid
SSH_TEST_STATE_DIR=$state
SSH_TEST_HOST=${addresses[0]}
SSH_TEST_PORT=$port
SSH_TEST_USER=$user
SSH_TEST_KEY=$state/client_key
SSH_TEST_OTHER_KEY=$state/other_key
SSH_TEST_KNOWN_HOSTS=$state/known_hosts
SSH_TEST_KNOWN_HOSTS_WRONG=$state/known_hosts.wrong
ENV
if [[ -n ${OWNER_PID:-} ]]; then
  # Its own process group (setsid), so that stop-sshd.sh can end it with its sleep. It keeps no
  # descriptor of ours: Foundation's Process learns that this script ended when its inherited
  # socket closes, which a watcher holding it would prevent.
  setsid bash -c 'for f in /proc/$$/fd/*; do n=${f##*/}; (( n > 2 )) && eval "exec $n>&-"; done 2>/dev/null
    while kill -0 "$1" 2>/dev/null && [[ -d $2 ]]; do sleep 0.2; done; exec "$3" "$2"' \
    watch "$OWNER_PID" "$state" "$here/stop-sshd.sh" </dev/null >/dev/null 2>&1 &
  echo "WATCHER_PID=$!" >> "$state/env"
fi
