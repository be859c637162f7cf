#!/bin/bash
# A fake Junos NETCONF responder for the SSH tests (stdin/stdout are the channel). It sends its
# <hello> at once, offering base:1.0 and base:1.1; when the client's hello offers base:1.1 the
# rest of the session uses chunked framing (RFC 6242 4.2), else "]]>]]>". Answers:
#   <get-commit-information/>                    fixtures/commit.xml
#   <get-rollback-information> N [compare M]     fixtures/rollback/N.txt or compare/N-M.txt, escaped
#   <get-configuration rollback="N" format="text"/>  fixtures/rollback/N.txt in <configuration-text>
#   <get-software-information/>                  a fixed reply
#   <close-session/>                             <ok/>, then exit
# and anything else with an <rpc-error>. Requests are appended to commands.log as "netconf: …".
set -u
export LC_ALL=C
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fx="$here/fixtures"
EOM=']]>]]>'
NS='urn:ietf:params:xml:ns:netconf:base:1.0'
JNS='http://xml.juniper.net/junos/17.3R2/junos'
chunked=0

send() {
  if (( chunked )); then
    local n
    n=$(printf '%s' "$1" | wc -c)
    printf '\n#%d\n%s\n##\n' "$n" "$1"
  else
    printf '%s\n%s\n' "$1" "$EOM"
  fi
}
escape() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' "$1"; }
read_eom() {   # one "]]>]]>" message into $msg
  local buf="" chunk
  while IFS= read -r -d '>' chunk; do
    buf+="$chunk>"
    if [[ $buf == *"$EOM" ]]; then msg=${buf%"$EOM"}; return 0; fi
  done
  return 1
}
read_chunked() {   # one chunked message into $msg
  local line hdr chunk
  msg=""
  while true; do
    IFS= read -r line || return 1
    [[ -z $line ]] || return 1
    IFS= read -r hdr || return 1
    [[ $hdr == "##" ]] && return 0
    [[ $hdr =~ ^#([0-9]+)$ ]] || return 1
    IFS= read -r -N "${BASH_REMATCH[1]}" chunk || return 1
    msg+="$chunk"
  done
}
error() {
  send "<rpc-reply xmlns=\"$NS\" message-id=\"$1\"><rpc-error><error-type>protocol</error-type><error-tag>operation-failed</error-tag><error-severity>error</error-severity><error-message>$2</error-message></rpc-error></rpc-reply>"
}

send "<hello xmlns=\"$NS\"><capabilities><capability>urn:ietf:params:netconf:base:1.0</capability><capability>urn:ietf:params:netconf:base:1.1</capability><capability>http://xml.juniper.net/netconf/junos/1.0</capability></capabilities><session-id>$$</session-id></hello>"
read_eom || exit 1
[[ $msg == *"urn:ietf:params:netconf:base:1.1"* ]] && chunked=1

while true; do
  if (( chunked )); then read_chunked || exit 0; else read_eom || exit 0; fi
  mid=""
  [[ $msg =~ message-id=\"([^\"]*)\" ]] && mid=${BASH_REMATCH[1]}
  body=${msg#*<rpc*>}
  body=${body%</rpc>*}
  echo "netconf: $body" >> "$here/commands.log"
  if [[ $body == *"<get-commit-information"* ]]; then
    f="$fx/commit.xml"
    if [[ -f "$fx/drift" || -f "$fx/drift-always" ]]; then   # see fake-junos-cli.sh
      n=$(( $(cat "$here/commit-count" 2>/dev/null || echo 0) + 1 ))
      echo "$n" > "$here/commit-count"
      if [[ -f "$fx/drift" && $n -gt 1 ]] || [[ -f "$fx/drift-always" && $((n % 2)) == 0 ]]; then f="$fx/commit-after.xml"; fi
    fi
    send "<rpc-reply xmlns=\"$NS\" xmlns:junos=\"$JNS\" message-id=\"$mid\">$(cat "$f")</rpc-reply>"
  elif [[ $body == *"<get-software-information"* ]]; then
    send "<rpc-reply xmlns=\"$NS\" message-id=\"$mid\"><software-information><host-name>r77</host-name><product-model>vsrx</product-model><junos-version>17.3R2.10</junos-version></software-information></rpc-reply>"
  elif [[ $body =~ \<get-rollback-information\>\<rollback\>([0-9]+)\</rollback\>(\<compare\>([0-9]+)\</compare\>)? ]]; then
    n=${BASH_REMATCH[1]}; m=${BASH_REMATCH[3]}
    if [[ -n $m ]]; then f="$fx/compare/$n-$m.txt"; else f="$fx/rollback/$n.txt"; fi
    if [[ -f $f ]]; then
      send "<rpc-reply xmlns=\"$NS\" message-id=\"$mid\"><rollback-information><ok/><configuration-information><configuration-output>$(escape "$f")
</configuration-output></configuration-information></rollback-information></rpc-reply>"
    else
      error "$mid" "rollback $n is not available"
    fi
  elif [[ $body =~ \<get-configuration\ rollback=\"([0-9]+)\"\ format=\"text\"/\> ]]; then
    f="$fx/rollback/${BASH_REMATCH[1]}.txt"
    if [[ -f $f ]]; then
      send "<rpc-reply xmlns=\"$NS\" message-id=\"$mid\"><configuration-text>$(escape "$f")
</configuration-text></rpc-reply>"
    else
      error "$mid" "rollback ${BASH_REMATCH[1]} is not available"
    fi
  elif [[ $body == *"<close-session"* ]]; then
    send "<rpc-reply xmlns=\"$NS\" message-id=\"$mid\"><ok/></rpc-reply>"
    exit 0
  else
    error "$mid" "syntax error"
  fi
done
