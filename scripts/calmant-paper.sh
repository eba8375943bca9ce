#!/usr/bin/env bash
# [CALMANT] section 5.2 on the emulator: the complete exchange's table and figures of
# docs/calmant.md, regenerated.
#
#   scripts/calmant-paper.sh [OUT]   the complete exchange on the 4x4, 8x8 and 16x16 meshes
#                                    (16, 64, 256 nodes), blocks of 1 to 1024 words, t_s/tau = 100
#                                    and 1000: prints the table of cycles and speed-ups, and writes
#                                    Figs. 9 and 10's picture per ratio, OUT/calmant-speedup-ts100.svg
#                                    and OUT/calmant-speedup-ts1000.svg (default OUT: docs/figures);
#                                    then the 3-D table: 4x4x4 with direct, 8x8x8 without it
#
# CALMANT's and the original CC-cube's times are the lockstep times of their conflict-free
# schedules (`calmant --complete-exchange`, equal to the emulated time: see docs/calmant.md); the
# direct method runs on the emulated mesh, every word checked. ORTHOSIM names the binary (default
# build/default/app/orthosim). Needs jq. Deterministic. About 2.5 minutes of one core, nearly all of
# it the direct method on 16x16 with 256- and 1024-word blocks and the 8x8x8 schedules.
set -euo pipefail
# ORTHOSIM and OUT given relative are the caller's; the defaults are the checkout's.
caller=$PWD
cd "$(dirname "$0")/.."
orthosim=build/default/app/orthosim
[ -z "${ORTHOSIM:-}" ] || orthosim=$(cd "$caller" && realpath -m "$ORTHOSIM")
command -v jq >/dev/null || { echo "calmant-paper.sh: needs jq" >&2; exit 2; }
[ -x "$orthosim" ] || { echo "calmant-paper.sh: no orthosim at $orthosim (build it, or set ORTHOSIM)" >&2; exit 2; }
case "${1:-}" in -*) sed -n '2,16p' "$0" >&2; exit 2 ;; esac
orthosim=$(realpath "$orthosim")
out=docs/figures
[ -z "${1:-}" ] || out=$(cd "$caller" && realpath -m "$1")
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

meshes=(4x4 8x8 16x16)
blocks=1,4,16,64,256,1024
for ts in 100 1000; do
  for mesh in "${meshes[@]}"; do
    "$orthosim" calmant --mesh "$mesh" --complete-exchange --block "$blocks" --startup "$ts" \
      --json >"$work/$mesh-ts$ts.json"
  done
done

# The 3-D meshes: 4x4x4 with direct, 8x8x8 only CALMANT against the CC-cube (direct's 511 rounds
# of 512 messages would take most of an hour to emulate).
for ts in 100 1000; do
  "$orthosim" calmant --mesh 4x4x4 --complete-exchange --block "$blocks" --startup "$ts" \
    --json >"$work/4x4x4-ts$ts.json"
  "$orthosim" calmant --mesh 8x8x8 --complete-exchange --block "$blocks" --startup "$ts" \
    --emulate none --json >"$work/8x8x8-ts$ts.json"
done

table() {
  echo "| mesh | t_s | B | CC-cube | direct | CALMANT (Q) | speed-up over CC-cube | over direct | direct over CC-cube |"
  echo "|---|---|---|---|---|---|---|---|---|"
  for mesh in "$@"; do
    for ts in 100 1000; do
      jq -r --arg mesh "$mesh" --arg ts "$ts" '
        def two: (. * 100 | round) as $h
          | "\($h / 100 | floor).\($h % 100 | tostring | if length < 2 then "0" + . else . end)";
        .complete_exchange[]
        | "| \($mesh) | \($ts) | \(.block_words) | \(.cc_cube_cycles) | \(.direct.emulated_cycles // "-") | \(.calmant_cycles) (\(.best_q)) | \(.speedup_over_cc_cube | two) | \(if .direct then (.speedup_over_direct | two) else "-" end) | \(if .direct then (.cc_cube_cycles / .direct.emulated_cycles | two) else "-" end) |"' \
        "$work/$mesh-ts$ts.json"
    done
  done
}
table "${meshes[@]}"

for ts in 100 1000; do
  (cd "$work" && "$orthosim" trace plot 4x4-ts$ts.json 8x8-ts$ts.json 16x16-ts$ts.json \
    --labels "16 nodes,64 nodes,256 nodes" \
    --title "[CALMANT] Figs. 9 and 10 on the emulated 2-D mesh, t_s/tau = $ts: speed-up over the original CC-cube" \
    --out "plot-$ts" >/dev/null)
  mv "$work/plot-$ts/speedup.svg" "$out/calmant-speedup-ts$ts.svg"
  echo
  echo "wrote $out/calmant-speedup-ts$ts.svg"
done

echo
table 4x4x4 8x8x8
