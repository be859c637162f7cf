#!/usr/bin/env bash
# Fuzz one of JunosConfig's parsers, JunosDiff, JunosHistory or JunosDevice's readers with libFuzzer
# (+ AddressSanitizer).
#
#   Tests/Fuzz/run.sh [curly|set|xml|compare|diff|history|device|checklist|policy] [RUNS]   (defaults: curly 1000000)
#
# curly, set, xml: FuzzParsers.swift (see there); xml is seeded with the XML renderings of the
# Fixtures/configs files (whole when under 64 KB, and of their slices), made by the fuzz binary
# itself (FUZZ_XML_SEEDS), besides the files. compare, diff: FuzzCompare.swift, built with
# Sources/JunosDiff too (compare: compare-text parser and apply, seeded from Fixtures/diffs;
# diff: pairs of configurations separated by a '====' line, apply(compare(a, b), a) == b).
# history: FuzzHistory.swift, built with Sources/JunosDiff and Sources/JunosHistory too (CZlib
# through -I Sources/CZlib -lz) into /tmp/fuzz-junoshistory: commit listings (text and XML,
# placed, rendered, renderListing round trip), TZif zone files and gzip; seeded from
# Fixtures/commit-history, Fixtures/zoneinfo, Fixtures/rollbacks (whole and cut short) and gzip
# copies of the text listings instead of Fixtures/configs, with its own dictionary.
# device: FuzzDevice.swift, built with Sources/JunosDiff, Sources/JunosHistory and
# Sources/JunosDevice too (CZlib and CLibSSH through -I Sources/CZlib -I Sources/CLibSSH -lz -lssh)
# into /tmp/fuzz-junosdevice: the NETCONF framer (both framings, pieces, round trips), NetconfReply,
# MiniJSON, bundle manifests and the read-only command allow-list; seeded with small files the
# script writes (hellos, replies in both framings, a manifest.json, command lines) instead of
# Fixtures/configs, with its own dictionary.
# checklist: FuzzChecklist.swift, built with Sources/JunosDiff, Sources/JunosHistory and
# Sources/JunosChecklist too (CZlib through -I Sources/CZlib -lz) into /tmp/fuzz-junoschecklist:
# ChangePlan, RoleRules, SuppressionEntry and IPPrefix readers and the four Checklist.lint entry
# points. The binary writes its own seeds (FUZZ_CHECKLIST_SEEDS: snippets in the driver, files of
# Fixtures/checklist, Fixtures/configs, Fixtures/diffs and Fixtures/commit-history) instead of the
# Fixtures/configs seeding below; its own dictionary; -max_len=16384 (a plan and the files it names).
# policy: FuzzPolicy.swift, built like checklist into /tmp/fuzz-junospolicy: the concrete and
# symbolic route-policy evaluators, ASPathRegex, community patterns, and the firewall-filter
# evaluator and comparison. Seeds: each change fixture of
# Fixtures/checklist/semantic and Fixtures/checklist/incidents after its baseline (separated by a
# `====` line), and the files under 16 KB of Fixtures/configs that define a policy-statement.
#
# Builds /tmp/fuzz-junos from Sources/JunosSchema (and its C table), ArgumentKit's Suggestions.swift, Sources/JunosConfig + Tests/Fuzz/FuzzParsers.swift (and FuzzFiles.swift) as one
# module (rebuilt only when a source is newer than the binary), seeds a corpus from
# Fixtures/configs/** (files < 64 KB whole, plus line-aligned slices of <= 4000 bytes of every
# file larger than 4 KB; not for history, device or checklist), then runs RUNS inputs with -max_len=4096
# (checklist: 16384) -timeout=10.
# FuzzParsers.swift picks the parser from FUZZ_SYNTAX, which this script sets from $1.
#
# Environment (all optional):
#   FUZZ_ARTIFACTS  where crash/timeout/oom files go      (default /tmp/fuzz-artifacts)
#   FUZZ_CORPUS     working corpus directory                (default /tmp/fuzz-corpus-SYNTAX)
#   FUZZ_BIN        fuzz binary path                        (default /tmp/fuzz-junos, -junosdiff, -junoshistory,
#                                                           -junosdevice)
#   FUZZ_LOG        full libFuzzer log                      (default /tmp/fuzz-SYNTAX.log)
#   FUZZ_SEED       libFuzzer -seed (0 = random)            (default 0)
#   FUZZ_ARGS       extra libFuzzer flags, e.g. "-fork=2 -ignore_crashes=1" to keep going after a crash
#   FUZZ_CHECKLIST_KNOWN  checklist only: findings to step over (ids in FuzzChecklist.swift, or all)
#
# Exit status: 0 when all RUNS inputs passed; libFuzzer's non-zero status on a crash, a
# round-trip mismatch (fatalError), a timeout or an out-of-memory; 2 on a usage or build error.
set -uo pipefail

syntax=${1:-curly}
runs=${2:-1000000}
case $syntax in
  curly | set | xml | compare | diff | history | device | checklist | policy) ;;
  *) echo "usage: $0 [curly|set|xml|compare|diff|history|device|checklist|policy] [RUNS]" >&2; exit 2 ;;
esac
[[ $runs =~ ^[0-9]+$ ]] || { echo "usage: $0 [curly|set|xml|compare|diff|history|device|checklist|policy] [RUNS]" >&2; exit 2; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
case $syntax in
  curly | set | xml) bin=${FUZZ_BIN:-/tmp/fuzz-junos} ;;
  history) bin=${FUZZ_BIN:-/tmp/fuzz-junoshistory} ;;
  device) bin=${FUZZ_BIN:-/tmp/fuzz-junosdevice} ;;
  checklist) bin=${FUZZ_BIN:-/tmp/fuzz-junoschecklist} ;;
  policy) bin=${FUZZ_BIN:-/tmp/fuzz-junospolicy} ;;
  *) bin=${FUZZ_BIN:-/tmp/fuzz-junosdiff} ;;
esac
artifacts=${FUZZ_ARTIFACTS:-/tmp/fuzz-artifacts}
corpus=${FUZZ_CORPUS:-/tmp/fuzz-corpus-$syntax}
log=${FUZZ_LOG:-/tmp/fuzz-$syntax.log}
cd "$root" || exit 2

# --- build -------------------------------------------------------------------
extra=()
# One module: every target's sources are copied into one folder with the `import` lines of the
# package's own modules dropped (the build then works on a snapshot, so edits made meanwhile do
# not stop it).
flat=$(mktemp -d)
flatten() {
  local f
  for f in "$@"; do
    # A name qualified by its module (`JunosConfig.unquoted`) is qualified by the one module.
    grep -v '^\(public \|internal \)\?import \(ArgumentKit\|Junos\(Schema\|Config\|Diff\|History\|Device\|Checklist\)\)$' "$f" |
      sed -E 's/(^|[^A-Za-z0-9_])Junos(Config|Diff|History|Device|Checklist)\.([a-z])/\1FuzzJunos.\3/g' >"$flat/$(basename "$f")"
  done
}
case $syntax in
  curly | set | xml)
    sources=(Sources/JunosSchema/*.swift Sources/ArgumentKit/Suggestions.swift Sources/JunosConfig/*.swift Tests/Fuzz/FuzzParsers.swift Tests/Fuzz/FuzzFiles.swift) ;;
  history)
    sources=(Sources/JunosSchema/*.swift Sources/ArgumentKit/Suggestions.swift Sources/JunosConfig/*.swift Sources/JunosDiff/*.swift Sources/JunosHistory/*.swift
      Tests/Fuzz/FuzzHistory.swift Tests/Fuzz/FuzzFiles.swift)
    extra=(-I Sources/CZlib -I Sources/CGit2 -lz -lgit2) ;;
  device)
    sources=(Sources/JunosSchema/*.swift Sources/ArgumentKit/Suggestions.swift Sources/JunosConfig/*.swift Sources/JunosDiff/*.swift Sources/JunosHistory/*.swift
      Sources/JunosDevice/*.swift Tests/Fuzz/FuzzDevice.swift)
    extra=(-I Sources/CZlib -I Sources/CLibSSH -I Sources/CGit2 -lz -lssh -lgit2) ;;
  checklist | policy)
    harness=Tests/Fuzz/FuzzChecklist.swift
    [[ $syntax == policy ]] && harness=Tests/Fuzz/FuzzPolicy.swift
    sources=(Sources/JunosSchema/*.swift Sources/ArgumentKit/Suggestions.swift Sources/JunosConfig/*.swift Sources/JunosDiff/*.swift Sources/JunosHistory/*.swift
      Sources/JunosChecklist/*.swift "$harness" Tests/Fuzz/FuzzFiles.swift)
    # The package's language mode and upcoming features (one module mixes `import X` and
    # `internal import X` otherwise).
    extra=(-I Sources/CZlib -I Sources/CGit2 -lz -lgit2 -swift-version 6 -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault) ;;
  *)
    sources=(Sources/JunosSchema/*.swift Sources/ArgumentKit/Suggestions.swift Sources/JunosConfig/*.swift Sources/JunosDiff/*.swift Tests/Fuzz/FuzzCompare.swift) ;;
esac
flatten "${sources[@]}"
built=("$flat"/*.swift)
# The schema table's bytes: JunosSchema's C target, compiled on its own and linked in.
table=(Sources/CJunosSchemaTable/table.c Sources/CJunosSchemaTable/schema.jsc)
if [[ ! -x $bin ]] || [[ -n $(find "${sources[@]}" "${table[@]}" -newer "$bin" 2>/dev/null) ]]; then
  echo "== building $bin"
  if ! clang -c -O1 -I Sources/CJunosSchemaTable/include Sources/CJunosSchemaTable/table.c -o "$flat/table.o"; then
    echo "== build failed" >&2
    exit 2
  fi
  if ! swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name FuzzJunos -package-name junoscope "${extra[@]}" \
      -I Sources/CJunosSchemaTable/include "${built[@]}" "$flat/table.o" -o "$bin" 2> >(grep -v 'Cannot export local symbol' >&2); then
    echo "== build failed" >&2
    exit 2
  fi
fi

# --- corpus --------------------------------------------------------------------
mkdir -p "$corpus" "$artifacts"
slices=$(mktemp -d)
trap 'rm -rf "$slices" ${flat:+"$flat"}' EXIT
seeded=0
[[ $syntax == history || $syntax == device || $syntax == checklist || $syntax == policy ]] || while IFS= read -r -d '' f; do
  name=$(echo "${f#Fixtures/configs/}" | tr '/' '_')
  size=$(stat -c %s "$f")
  if ((size < 65536)); then
    cp -n "$f" "$corpus/seed_$name" && seeded=$((seeded + 1))
  fi
  if ((size > 4096)); then
    # Line-aligned slices of <= 4000 bytes; keep at most 24, evenly spread over the file.
    rm -f "$slices"/*
    split -C 4000 -d -a 6 "$f" "$slices/s"
    parts=("$slices"/s*)
    n=${#parts[@]}
    step=$(((n + 23) / 24))
    for ((i = 0; i < n; i += step)); do
      cp -n "${parts[i]}" "$corpus/slice_${name}_$i" && seeded=$((seeded + 1))
    done
  fi
done < <(find Fixtures/configs -type f -print0 | sort -z)
if [[ $syntax == xml ]]; then
  # The XML rendering of every seed so far (the binary writes xml_<name> beside each).
  before=$(find "$corpus" -type f | wc -l)
  FUZZ_XML_SEEDS=$corpus SWIFT_BACKTRACE=enable=no "$bin" -runs=0 "$slices" >/dev/null 2>&1
  seeded=$((seeded + $(find "$corpus" -type f | wc -l) - before))
fi
if [[ $syntax == compare ]]; then
  for f in Fixtures/diffs/*; do [[ -f $f ]] && cp -n "$f" "$corpus/diff_$(basename "$f")" && seeded=$((seeded + 1)); done
fi
if [[ $syntax == diff ]]; then
  # Pairs (under max_len): a small fixture, and the same with every third leaf line dropped and
  # one value changed, so both sides parse and differ.
  while IFS= read -r -d '' f; do
    (($(stat -c %s "$f") < 2000)) || continue
    pair="$corpus/pair_$(echo "${f#Fixtures/configs/}" | tr '/' '_')"
    [[ -e $pair ]] && continue
    { cat "$f"; printf '\n====\n'; awk '!(/;[[:space:]]*$/ && ++n % 3 == 0)' "$f" | sed '0,/ [0-9]\+;/s// 7;/'; } >"$pair"
    seeded=$((seeded + 1))
  done < <(find Fixtures/configs -type f -print0 | sort -z)
fi
dict=Tests/Fuzz/junos.dict
if [[ $syntax == history ]]; then
  # Every listing and zone file whole (all are under 4 KB), the rollback gzip files whole and cut
  # short, and gzip copies of the text listings.
  while IFS= read -r -d '' f; do
    name=$(echo "${f#Fixtures/}" | tr '/' '_')
    cp -n "$f" "$corpus/seed_$name" && seeded=$((seeded + 1))
  done < <(find Fixtures/commit-history Fixtures/zoneinfo Fixtures/rollbacks -type f -print0 | sort -z)
  for f in Fixtures/rollbacks/*.gz; do
    for cut in 64 600 1000; do
      [[ -e $corpus/cut${cut}_$(basename "$f") ]] && continue
      head -c "$cut" "$f" >"$corpus/cut${cut}_$(basename "$f")" && seeded=$((seeded + 1))
    done
  done
  for f in Fixtures/commit-history/text/*; do
    [[ -e $corpus/gz_$(basename "$f").gz ]] && continue
    gzip -9nc "$f" >"$corpus/gz_$(basename "$f").gz" && seeded=$((seeded + 1))
  done
  # The words the readers look for.
  dict=$slices/history.dict
  cat >"$dict" <<'DICT'
by=" by "
via=" via "
rescue="rescue  "
log_indent="\x0a    "
pad="   "
date="2019-11-13 "
time="15:06:51 "
leap="23:59:60 "
gmt="GMT"
bst="BST"
cst="CST"
numeric="+05:30"
confirmed=" commit confirmed, rollback in 5mins"
synchronize=" commit synchronize"
pager="---(more)---"
master="{master:0}"
edit="[edit]"
prompt="root@r1> show system commit"
completions="Possible completions:"
entry="0   2019-11-13 15:06:51 GMT by katerina via cli\x0a"
xml_info="<commit-information>"
xml_entry="<commit-history>"
xml_entry_end="</commit-history>"
xml_seq="<sequence-number>"
xml_seq_end="</sequence-number>"
xml_user="<user>"
xml_client="<client>"
xml_date="<date-time junos:seconds=\"1509285774\">"
xml_date_end="</date-time>"
xml_comment="<comment>"
xml_log="<log>"
xml_revision="<revision>"
cdata="<![CDATA["
entity="&#x301;"
int_max="9223372036854775807"
int_min="-9223372036854775808"
int32_max="2147483647"
tzif="TZif"
tzif2="TZif2"
tzif3="TZif3"
tzif4="TZif4"
footer="\x0aGMT0BST,M3.5.0/1,M10.5.0\x0a"
footer_ext="\x0a<-03>3<-02>,M3.5.0/-2,M10.5.0/-1\x0a"
gzip_magic="\x1f\x8b\x08\x00"
combining="\xcc\x81"
DICT
fi
if [[ $syntax == device ]]; then
  # Small files written here: hellos and replies in both framings, a bundle's manifest.json,
  # command lines (accepted and refused), XML with entities and CDATA, nested JSON.
  seed() { [[ -e $corpus/seed_$1 ]] || { printf '%b' "$2" >"$corpus/seed_$1" && seeded=$((seeded + 1)); }; }
  hello='<?xml version="1.0" encoding="UTF-8"?><hello xmlns="urn:ietf:params:xml:ns:netconf:base:1.0"><capabilities><capability>urn:ietf:params:netconf:base:1.0</capability><capability>urn:ietf:params:netconf:base:1.1</capability></capabilities><session-id>4711</session-id></hello>]]>]]>'
  reply='<rpc-reply xmlns="urn:ietf:params:xml:ns:netconf:base:1.0" xmlns:junos="http://xml.juniper.net/junos/17.3R2/junos" message-id="1">'
  seed hello "$hello"
  seed hello_chunked "$hello\\n\\n#10\\n<rpc-reply\\n#10\\n>ok&amp;</\\n#10\\nrpc-reply>\\n##\\n"
  seed reply_eom "$reply<commit-information><commit-history><sequence-number>0</sequence-number><user>katerina</user><client>cli</client><date-time junos:seconds=\"1509285774\">2017-10-29 14:02:54 UTC</date-time></commit-history></commit-information></rpc-reply>]]>]]>"
  seed reply_chunked "\\n#4\\n<rpc\\n#18\\n-reply><ok/></rpc-\\n#6\\nreply>\\n##\\n\\n#1\\nx\\n##\\n"
  body="$reply<rpc-error><error-severity>error</error-severity><error-message>syntax error &lt;x&gt;</error-message></rpc-error></rpc-reply>"
  seed reply_error "\\n#${#body}\\n$body\\n##\\n"
  seed reply_output "$reply<configuration-output><![CDATA[system { host-name r1; }]]> &#x301;&#65;&quot;</configuration-output></rpc-reply>]]>]]>"
  seed manifest '{"format":"junoscope.bundle","version":1,"host":"r1.example.net","transport":"netconf","device":{"hostName":"r1","model":"vsrx","version":"17.3R2.10"},"captureStart":"2024-01-02T03:04:05Z","captureEnd":"2024-01-02T03:04:09Z","restarts":0,"commands":["<get-commit-information/>","show system commit | display xml | no-more"],"files":[{"path":"commits.xml","bytes":1234,"sha256":"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"},{"path":"rollbacks/rollback-0.conf","bytes":56,"sha256":"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}]}\n'
  seed manifest_odd '{"format":"junoscope.bundle","restarts":1e19,"files":[{"path":"a/\\u0301b/..\\u0000","bytes":1e300,"sha256":"00"}]}'
  seed json '[{"a":[1,-2.5e3,true,false,null],"b\\u00e9\\ud83d\\ude00":"\\n\\t\\"x\\""},{},[],"",0.1,1e400]'
  seed commands 'show system commit | no-more\nshow system commit | display xml | no-more\nshow system rollback 7 | no-more\nshow system rollback 3 compare 12 | display set\nshow configuration | display set | no-more\nshow version\nrequest system reboot\nshow system rollback 50\n'
  dict=$slices/device.dict
  cat >"$dict" <<'DICT'
eom="]]>]]>"
chunk="\x0a#"
chunk_len="\x0a#12\x0a"
chunk_end="\x0a##\x0a"
big_len="\x0a#4294967295\x0a"
lt="&lt;"
gt="&gt;"
amp="&amp;"
quot="&quot;"
apos="&apos;"
dec="&#65;"
hex="&#x301;"
cdata="<![CDATA["
cdata_end="]]>"
capability="<capability>"
capability_end="</capability>"
rpc_error="<rpc-error>"
error_message="<error-message>"
prefix="<junos:"
format="\"format\":\"junoscope.bundle\""
files="\"files\":[{\"path\":"
bytes="\"bytes\":"
sha="\"sha256\":\"\""
restarts="\"restarts\":"
dotdot="../"
slash="\"/"
u0000="\\u0000"
surrogate="\\ud83d\\ude00"
huge="1e999"
int_max="9223372036854775807"
combining="\xcc\x81"
combining_slash="/\xcc\x81"
e300="1e300"
nul="\x00"
show="show "
rollback="show system rollback "
compare=" compare "
pipe=" | "
no_more="no-more"
display_xml="display xml"
display_set="display set"
DICT
fi
if [[ $syntax == policy ]]; then
  # A baseline, a `====` line and a change; small configurations that define policies alone.
  pair() { [[ -e $corpus/$1 ]] || { { cat "$2"; printf '\n====\n'; cat "$3"; } >"$corpus/$1" && seeded=$((seeded + 1)); }; }
  for c in Fixtures/checklist/semantic/*-*.set; do
    b=Fixtures/checklist/semantic/$(basename "$c" | sed 's/-\(route-type-leak\|ospf-takes-bgp\|sanity-too-strict\|and-to-list\|negated\)\.set$//')
    for base in "$b.set" "$b.conf"; do [[ -f $base ]] && pair "pair_$(basename "$c")" "$base" "$c"; done
  done
  pair pair_re-filter Fixtures/checklist/incidents/re-filter-baseline.conf Fixtures/checklist/incidents/re-filter-bfd-narrowed.set
  # The JVD border leaf's `( A && B )` export (its policies only: the whole file is too long),
  # with a tag and table term, changed as Fixtures/checklist/semantic/jvd-borderleaf1-and-to-list.set.
  if [[ ! -e $corpus/pair_jvd-expression ]]; then
    {
      cat <<'SEED'
set policy-options policy-statement AllPodNetworks term AllPodNetworks-10 from family inet
set policy-options policy-statement AllPodNetworks term AllPodNetworks-10 from protocol direct
set policy-options policy-statement AllPodNetworks term AllPodNetworks-10 then community add DEFAULT_DIRECT_V4
set policy-options policy-statement AllPodNetworks term AllPodNetworks-10 then accept
set policy-options policy-statement AllPodNetworks term AllPodNetworks-20 from family inet6
set policy-options policy-statement AllPodNetworks term AllPodNetworks-20 from protocol direct
set policy-options policy-statement AllPodNetworks term AllPodNetworks-20 then community add DEFAULT_DIRECT_V6
set policy-options policy-statement AllPodNetworks term AllPodNetworks-20 then accept
set policy-options policy-statement AllPodNetworks term AllPodNetworks-100 then reject
set policy-options policy-statement BGP-AOS-Policy term BGP-AOS-Policy-10 from policy AllPodNetworks
set policy-options policy-statement BGP-AOS-Policy term BGP-AOS-Policy-10 then accept
set policy-options policy-statement BGP-AOS-Policy term BGP-AOS-Policy-20 from protocol bgp
set policy-options policy-statement BGP-AOS-Policy term BGP-AOS-Policy-20 then accept
set policy-options policy-statement BGP-AOS-Policy term BGP-AOS-Policy-100 then reject
set policy-options policy-statement LEAF_TO_SPINE_FABRIC_OUT term LEAF_TO_SPINE_FABRIC_OUT-10 from protocol bgp
set policy-options policy-statement LEAF_TO_SPINE_FABRIC_OUT term LEAF_TO_SPINE_FABRIC_OUT-10 from community FROM_SPINE_FABRIC_TIER
set policy-options policy-statement LEAF_TO_SPINE_FABRIC_OUT term LEAF_TO_SPINE_FABRIC_OUT-10 then reject
set policy-options policy-statement LEAF_TO_SPINE_FABRIC_OUT term LEAF_TO_SPINE_FABRIC_OUT-20 then accept
set policy-options community FROM_SPINE_FABRIC_TIER members 0:15
set protocols bgp group l3clos-l type external
set protocols bgp group l3clos-l neighbor 10.0.1.0 export ( LEAF_TO_SPINE_FABRIC_OUT && BGP-AOS-Policy )
set protocols bgp group l3clos-l neighbor 10.0.1.0 peer-as 64512
set policy-options policy-statement TAGGED term T from tag 100
set policy-options policy-statement TAGGED term T from rib inet.3
set policy-options policy-statement TAGGED term T then accept
SEED
      printf '\n====\n'
      cat Fixtures/checklist/semantic/jvd-borderleaf1-and-to-list.set
    } >"$corpus/pair_jvd-expression" && seeded=$((seeded + 1))
  fi
  for c in Fixtures/checklist/incidents/*.compare; do
    base=Fixtures/checklist/incidents/bb-router.conf
    [[ $(basename "$c") == spine* ]] && base=Fixtures/checklist/incidents/spine.conf
    pair "pair_$(basename "$c")" "$base" "$c"
  done
  while IFS= read -r -d '' f; do
    (($(stat -c %s "$f") < 16384)) && grep -q policy-statement "$f" || continue
    cp -n "$f" "$corpus/seed_$(echo "${f#Fixtures/}" | tr '/' '_')" && seeded=$((seeded + 1))
  done < <(find Fixtures/configs Fixtures/checklist -type f -print0 | sort -z)
fi
if [[ $syntax == checklist ]]; then
  # The binary writes its seeds (byte 0 picks the lint, `==== NAME` lines start the files a plan
  # names, `roles` and `suppressions` sections); LLVMFuzzerInitialize does it before the corpus
  # is read.
  seeded=$(FUZZ_CHECKLIST_SEEDS=$corpus SWIFT_BACKTRACE=enable=no "$bin" -runs=0 "$slices" 2>&1 | sed -n 's/^checklist seeds: \([0-9]*\).*/\1/p')
  dict=$slices/checklist.dict
  cat >"$dict" <<'DICT'
plan="#@ plan node=r1 platform=mx10003 kind=swap "
step="\x0a#@ step s \"t\"\x0a"
rollback="\x0a#@ rollback\x0a"
baseline="#@ baseline base.conf\x0a"
inventory="#@ inventory ports.txt\x0a"
load="#@ load override "
load_merge="#@ load merge "
load_set="#@ load set "
load_replace="#@ load replace "
commit="#@ commit confirmed 10\x0a"
commit_opts=" comment \"x\" and-quit check synchronize at "
confirm="#@ confirm check\x0a"
confirm_commit="#@ confirm commit comment \"ok\"\x0a"
patch="#@ patch et-0/0/4 spine1:et-0/0/48\x0a"
unpatch="#@ unpatch et-0/0/0\x0a"
verify="#@ verify isis-adjacency et-0/0/0.0 up\x0a"
verify_bgp="#@ verify bgp-session 10.32.0.1 established\x0a"
verify_ldp="#@ verify ldp-session 10.255.0.12 operational\x0a"
wait="#@ wait 120\x0a"
accept="#@ accept bgp-missing-prefix-limit \"why\"\x0a"
role="#@ role core et-0/0/0 et-0/0/1\x0a"
role_client="#@ role client et-0/0/4\x0a"
section="\x0a==== "
section_roles="\x0a==== roles\x0a"
section_suppress="\x0a==== suppressions\x0a"
section_base="\x0a==== base.conf\x0a"
pattern="pattern client ^cust"
set="set "
delete="delete "
deactivate="deactivate "
activate="activate "
insert="insert "
rename="rename "
annotate="annotate "
disable=" disable\x0a"
overload="set protocols isis overload\x0a"
overload_timeout="set protocols isis overload timeout 300\x0a"
bgp_group="set protocols bgp group DC-FABRIC "
neighbor=" neighbor 10.32.0.1 peer-as 65100"
external=" type external"
export=" export DC-FABRIC-OUT"
import=" import DC-FABRIC-IN"
prefix_limit=" family inet unicast prefix-limit maximum 2000"
graceful=" graceful-shutdown sender"
aggregate="set routing-options aggregate route 10.0.0.0/8"
generate="set routing-options generate route 0.0.0.0/0"
policy=" policy AGG-FROM-CORE"
passive=" passive"
term="set policy-options policy-statement P term t "
from_protocol="from protocol aggregate"
then_accept="then accept"
then_reject="then reject"
route_filter="from route-filter 10.40.0.0/16 orlonger"
iface="set interfaces et-0/0/0 unit 0 family inet address 10.254.0.0/31\x0a"
iso=" family iso"
mpls=" family mpls"
description=" description \"Core: cr2\""
macro=" apply-macro checklist role core"
isis_if="set protocols isis interface et-0/0/0.0 point-to-point\x0a"
ldp_if="set protocols ldp interface et-0/0/0.0\x0a"
ldp_sync=" ldp-synchronization"
bfd=" bfd-liveness-detection minimum-interval 300"
cos="set class-of-service interfaces et-0/0/0 scheduler-map CORE-MAP\x0a"
flow="set routing-options flow route B match protocol tcp\x0a"
allow="/* checklist: allow "
edit="[edit protocols isis]\x0a"
plus="+   "
minus="-   "
bang="!    "
v6="2001:db8::/32"
v6_mapped="::ffff:10.0.0.1/104"
v6_zeros="0:0:0:0:0:0:0:0/0"
v4_long="255.255.255.255/32"
slash128="/128"
confirmed_entry="1   2018-07-27 08:44:07 BST by ben via cli commit confirmed, rollback in 5mins\x0a"
entry="0   2018-07-27 08:44:26 BST by ben via cli\x0a"
crlf="\x0d\x0a"
cr="\x0d"
bom="\xef\xbb\xbf"
combining="\xcc\x81"
DICT
fi
echo "== corpus $corpus: $(find "$corpus" -type f | wc -l) files (seeds offered: $seeded)"

# --- fuzz ----------------------------------------------------------------------
max_len=4096
[[ $syntax == checklist ]] && max_len=16384
[[ $syntax == policy ]] && max_len=8192
echo "== FUZZ_SYNTAX=$syntax $bin -runs=$runs (log: $log, artifacts: $artifacts/)"
# SWIFT_BACKTRACE=enable=no: the Swift runtime's crash backtracer reads the stack in a way ASan
# reports as a stack-buffer-underflow, hiding the real failure; libFuzzer reports traps itself.
: >"$log"
marker="$slices/started"
touch "$marker"
# LeakSanitizer: Swift's own regex library leaks the parse tree of every pattern it compiles
# (_RegexParser's AST boxes), which made a clean 10^6 campaign exit 1 at its end. The schema
# check now reads Juniper's patterns with the C library's regcomp; the lint's interface-role
# patterns are still Swift regexes. Those frames alone are suppressed; any other leak still
# fails the run.
lsan_supp="$slices/lsan.supp"
printf 'leak:_RegexParser\nleak:_StringProcessing\n' >"$lsan_supp"
# shellcheck disable=SC2086
LSAN_OPTIONS="suppressions=$lsan_supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}" SWIFT_BACKTRACE=enable=no FUZZ_SYNTAX=$syntax "$bin" \
  -runs="$runs" -max_len="$max_len" -timeout=10 -seed="${FUZZ_SEED:-0}" \
  -dict="$dict" -print_final_stats=1 \
  -artifact_prefix="$artifacts/$syntax-" ${FUZZ_ARGS:-} \
  "$corpus" >"$log" 2>&1 &
pid=$!
# Progress: libFuzzer's pulse lines and anything alarming, as they come.
tail -n +1 -f --pid=$pid "$log" | grep --line-buffered -E 'pulse|INITED|ERROR|Fatal error|deadly|SUMMARY|Test unit written|crash|timeout|Base64|oom|leak'
wait $pid
status=$?

executed=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
# Fork mode prints no final stats: take the last "#N:" status line.
[[ -z $executed ]] && executed=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
done_line=$(grep -E '^Done [0-9]+ runs' "$log" | tail -1)
# With FUZZ_ARGS="-fork=N -ignore_crashes=1" libFuzzer goes on and exits 0: new artifacts still fail.
new_artifacts=$(find "$artifacts" -maxdepth 1 -type f -name "$syntax-*" -newer "$marker" | sort)
if ((status == 0)) && [[ -n $new_artifacts ]]; then status=1; fi
echo "== $syntax: exit status $status, executed inputs: ${executed:-unknown}"
[[ -n $done_line ]] && echo "$done_line"
if ((status != 0)); then
  echo "== FAILURE, see $log; artifacts:" >&2
  echo "${new_artifacts:-(none written)}" >&2
fi
exit $status
