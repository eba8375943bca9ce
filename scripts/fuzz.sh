#!/usr/bin/env bash
# Coverage-guided fuzzing of the input readers (tests/README.md, Fuzzing). Builds the `fuzz`
# preset (clang-14, libFuzzer, AddressSanitizer + UndefinedBehaviorSanitizer) and runs the
# targets of tests/fuzz/, one per reader, each over its seed corpus tests/fuzz/corpus/TARGET/.
#
#   scripts/fuzz.sh [TARGET] [SECONDS]  fuzz TARGET (default: every target, one after another)
#                                       for SECONDS each (default 60); new inputs go to a scratch
#                                       corpus outside the repository, findings to its artifacts/
#   scripts/fuzz.sh --merge [TARGET]    add the scratch corpus's inputs that reach new coverage
#                                       to tests/fuzz/corpus/TARGET/ (the only write to the repo)
#   scripts/fuzz.sh --ci                every target for a fixed number of runs with a fixed seed
#                                       over its seed corpus alone: deterministic (scripts/test.sh)
#
# The scratch corpora live in $ORTHOSIM_FUZZ_DIR (default ${TMPDIR:-/tmp}/orthosim-fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."

# Every run has the same limits: inputs up to 4 KiB, a finding for any single allocation over
# 256 MiB or a process over 2 GiB, and for an input that takes more than 10 s.
limits=(-max_len=4096 -malloc_limit_mb=256 -rss_limit_mb=2048 -timeout=10)
# CI: runs per target, with a fixed seed. The .mcp parser gets fewer: its mutants of the seeds
# on 4096 nodes expand to millions of messages (up to its limit of 2^24) and take seconds each.
ci_runs=16000
declare -A ci_runs_of=([mcp_parser]=300)
ci_seed=1

mode=fuzz
case "${1:-}" in
  --merge) mode=merge; shift ;;
  --ci) mode=ci; shift ;;
  -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac

all_targets=()
for source in tests/fuzz/*.cpp; do
  all_targets+=("$(basename "$source" .cpp)")
done
targets=("${all_targets[@]}")
if [ $# -gt 0 ] && ! [[ "$1" =~ ^[0-9]+$ ]]; then
  if [ ! -f "tests/fuzz/$1.cpp" ]; then
    echo "scripts/fuzz.sh: TARGET: expected one of ${all_targets[*]}, found '$1'" >&2
    exit 2
  fi
  targets=("$1")
  shift
fi
seconds="${1:-60}"
if [ $# -gt 1 ]; then
  echo "scripts/fuzz.sh: expected at most TARGET and SECONDS, found also '$2'" >&2
  exit 2
fi
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "scripts/fuzz.sh: SECONDS: expected a positive number of seconds, found '$seconds'" >&2
  exit 2
fi

launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
build_start=$SECONDS
# ORTHOSIM_WERROR=ON (set by scripts/test.sh) makes our warnings errors.
cmake --preset fuzz -DORTHOSIM_WERROR="${ORTHOSIM_WERROR:-OFF}" "${launcher[@]}" >/dev/null
cmake --build --preset fuzz -j "$(nproc)"
echo "=== fuzz preset built in $((SECONDS - build_start)) s ==="

scratch_root="${ORTHOSIM_FUZZ_DIR:-${TMPDIR:-/tmp}/orthosim-fuzz}"
ci_scratch=""
if [ "$mode" = ci ]; then
  ci_scratch="$(mktemp -d)"
  trap 'rm -rf "$ci_scratch"' EXIT
fi

for target in "${targets[@]}"; do
  binary="build/fuzz/tests/fuzz/fuzz_$target"
  seeds="tests/fuzz/corpus/$target"
  options=("${limits[@]}")
  if [ -f "tests/fuzz/$target.dict" ]; then
    options+=("-dict=tests/fuzz/$target.dict")
  fi
  case "$mode" in
    merge)
      scratch="$scratch_root/$target"
      if [ ! -d "$scratch" ]; then
        echo "scripts/fuzz.sh: no scratch corpus $scratch to merge (run scripts/fuzz.sh $target first)" >&2
        exit 2
      fi
      before=$(find "$seeds" -type f | wc -l)
      "$binary" "${options[@]}" -merge=1 "$seeds" "$scratch" 2>"$scratch_root/$target-merge.log"
      echo "$target: $before -> $(find "$seeds" -type f | wc -l) seed inputs"
      ;;
    ci)
      # A fresh first folder takes the inputs libFuzzer finds; the seed corpus stays as it is.
      mkdir -p "$ci_scratch/$target"
      log="$ci_scratch/$target.log"
      runs="${ci_runs_of[$target]:-$ci_runs}"
      start=$EPOCHREALTIME
      if ! "$binary" "${options[@]}" -runs="$runs" -seed="$ci_seed" \
          -artifact_prefix="$ci_scratch/$target-" "$ci_scratch/$target" "$seeds" 2>"$log"; then
        tail -n 60 "$log" >&2
        echo "=== fuzz_$target: finding (reproduce: $binary FILE) ===" >&2
        exit 1
      fi
      # The last status line: "#RUNS DONE cov: C ft: F corp: ...".
      grep -E $'^#[0-9]+\tDONE' "$log" | tr '\t' ' ' | tr -s ' ' |
        awk -v target="$target" -v runs="$runs" -v start="$start" -v now="$EPOCHREALTIME" \
          '{ s = now - start; printf "%-20s %6d runs in %5.1f s (%6.0f/s): %s %s %s %s %s %s\n",
                                     target, runs, s, runs / s, $3, $4, $5, $6, $7, $8 }'
      ;;
    fuzz)
      mkdir -p "$scratch_root/$target" "$scratch_root/artifacts"
      echo "=== fuzz_$target for $seconds s: corpus $scratch_root/$target ==="
      "$binary" "${options[@]}" -max_total_time="$seconds" -print_final_stats=1 \
        -artifact_prefix="$scratch_root/artifacts/$target-" "$scratch_root/$target" "$seeds"
      ;;
  esac
done
