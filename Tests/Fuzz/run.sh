#!/usr/bin/env bash
# Fuzz one of JunosConfig's parsers, or JunosDiff, with libFuzzer (+ AddressSanitizer).
#
#   Tests/Fuzz/run.sh [curly|set|compare|diff] [RUNS]        (defaults: curly 1000000)
#
# curly, set: FuzzParsers.swift (see there). compare, diff: FuzzCompare.swift, built with
# Sources/JunosDiff too (compare: compare-text parser and apply, seeded from Fixtures/diffs;
# diff: pairs of configurations separated by a '====' line, apply(compare(a, b), a) == b).
#
# Builds /tmp/fuzz-junos from Sources/JunosConfig/*.swift + Tests/Fuzz/FuzzParsers.swift as one
# module (rebuilt only when a source is newer than the binary), seeds a corpus from
# Fixtures/configs/** (files < 64 KB whole, plus line-aligned slices of <= 4000 bytes of every
# file larger than 4 KB), then runs RUNS inputs with -max_len=4096 -timeout=10.
# FuzzParsers.swift picks the parser from FUZZ_SYNTAX, which this script sets from $1.
#
# Environment (all optional):
#   FUZZ_ARTIFACTS  where crash/timeout/oom files go      (default /tmp/fuzz-artifacts)
#   FUZZ_CORPUS     working corpus directory                (default /tmp/fuzz-corpus-SYNTAX)
#   FUZZ_BIN        fuzz binary path                        (default /tmp/fuzz-junos)
#   FUZZ_LOG        full libFuzzer log                      (default /tmp/fuzz-SYNTAX.log)
#   FUZZ_SEED       libFuzzer -seed (0 = random)            (default 0)
#   FUZZ_ARGS       extra libFuzzer flags, e.g. "-fork=2 -ignore_crashes=1" to keep going after a crash
#
# Exit status: 0 when all RUNS inputs passed; libFuzzer's non-zero status on a crash, a
# round-trip mismatch (fatalError), a timeout or an out-of-memory; 2 on a usage or build error.
set -uo pipefail

syntax=${1:-curly}
runs=${2:-1000000}
case $syntax in
  curly | set | compare | diff) ;;
  *) echo "usage: $0 [curly|set|compare|diff] [RUNS]" >&2; exit 2 ;;
esac
[[ $runs =~ ^[0-9]+$ ]] || { echo "usage: $0 [curly|set|compare|diff] [RUNS]" >&2; exit 2; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
case $syntax in
  curly | set) bin=${FUZZ_BIN:-/tmp/fuzz-junos} ;;
  *) bin=${FUZZ_BIN:-/tmp/fuzz-junosdiff} ;;
esac
artifacts=${FUZZ_ARTIFACTS:-/tmp/fuzz-artifacts}
corpus=${FUZZ_CORPUS:-/tmp/fuzz-corpus-$syntax}
log=${FUZZ_LOG:-/tmp/fuzz-$syntax.log}
cd "$root" || exit 2

# --- build -------------------------------------------------------------------
if [[ $syntax == curly || $syntax == set ]]; then
  sources=(Sources/JunosConfig/*.swift Tests/Fuzz/FuzzParsers.swift)
  built=("${sources[@]}")
else
  sources=(Sources/JunosConfig/*.swift Sources/JunosDiff/*.swift Tests/Fuzz/FuzzCompare.swift)
  # One module: JunosDiff's `import JunosConfig` lines are dropped from copies.
  flat=$(mktemp -d)
  for f in Sources/JunosDiff/*.swift; do grep -v '^\(public \)\?import JunosConfig$' "$f" >"$flat/$(basename "$f")"; done
  built=(Sources/JunosConfig/*.swift "$flat"/*.swift Tests/Fuzz/FuzzCompare.swift)
fi
if [[ ! -x $bin ]] || [[ -n $(find "${sources[@]}" -newer "$bin" 2>/dev/null) ]]; then
  echo "== building $bin"
  if ! swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name FuzzJunos \
      "${built[@]}" -o "$bin" 2> >(grep -v 'Cannot export local symbol' >&2); then
    echo "== build failed" >&2
    exit 2
  fi
fi

# --- corpus --------------------------------------------------------------------
mkdir -p "$corpus" "$artifacts"
slices=$(mktemp -d)
trap 'rm -rf "$slices"' EXIT
seeded=0
while IFS= read -r -d '' f; do
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
echo "== corpus $corpus: $(find "$corpus" -type f | wc -l) files (seeds offered from Fixtures/configs: $seeded)"

# --- fuzz ----------------------------------------------------------------------
echo "== FUZZ_SYNTAX=$syntax $bin -runs=$runs (log: $log, artifacts: $artifacts/)"
# SWIFT_BACKTRACE=enable=no: the Swift runtime's crash backtracer reads the stack in a way ASan
# reports as a stack-buffer-underflow, hiding the real failure; libFuzzer reports traps itself.
: >"$log"
marker="$slices/started"
touch "$marker"
# shellcheck disable=SC2086
SWIFT_BACKTRACE=enable=no FUZZ_SYNTAX=$syntax "$bin" \
  -runs="$runs" -max_len=4096 -timeout=10 -seed="${FUZZ_SEED:-0}" \
  -dict=Tests/Fuzz/junos.dict -print_final_stats=1 \
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
