#!/usr/bin/env bash
# [LCC] section 6 on the emulator: the numbers and figures of docs/lcc.md, regenerated.
#
#   scripts/lcc-paper.sh figures [OUT]   Figs. 5, 6 and 7: latency against accepted throughput of
#                                        transpose, bit-reverse and reverse-flip on the 8-cube
#                                        with e-cube, P-cube, M-S and M-G; writes
#                                        OUT/lcc-fig5-transpose.svg, -fig6-bitrev, -fig7-reverse-flip
#                                        (default OUT: docs/figures) and prints the tables
#   scripts/lcc-paper.sh fft             Tables 1 and 2: the Parallel_FFT on the 8-cube, m = 2^10
#                                        to 2^16, e-cube with and without bit-reverse's optimal
#                                        reordering; prints the table
#
# ORTHOSIM names the binary (default build/default/app/orthosim). Needs jq. Every run is
# deterministic (the traffic's seed is the default), so the output is the same on every machine.
# Figures: about 15 minutes of one core; fft: about 30 seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
orthosim=${ORTHOSIM:-build/default/app/orthosim}
command -v jq >/dev/null || { echo "lcc-paper.sh: needs jq" >&2; exit 2; }
[ -x "$orthosim" ] || { echo "lcc-paper.sh: no orthosim at $orthosim (build it, or set ORTHOSIM)" >&2; exit 2; }
orthosim=$(realpath "$orthosim")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Section 6.1: 256 nodes, 20-flit messages, 1-flit buffers, exponential inter-arrival times; a
# measured window of 3000 cycles after 1000 of warm-up at each rate.
rates=0.02,0.05,0.08,0.1,0.12,0.15,0.2,0.25,0.3,0.35,0.4,0.45,0.5
traffic=(traffic --topology hypercube --dim 8 --flits 20 --buffers 1 --injection exponential
         --warmup 1000 --cycles 3000 --quiet --json)

figures() {
  local out=${1:-docs/figures}
  mkdir -p "$out"
  "$orthosim" lcc --dim 8 --pattern transpose --pattern bitrev --pattern reverse-flip \
    --out "$work/joint.map" >/dev/null
  local figure=5
  for p in transpose bitrev reverse-flip; do
    "$orthosim" lcc --dim 8 --pattern "$p" --out "$work/$p.map" >/dev/null
    "$orthosim" "${traffic[@]}" --pattern "$p" --rates "$rates" >"$work/$p-ecube.json"
    "$orthosim" "${traffic[@]}" --pattern "$p" --rates "$rates" --routing pcube >"$work/$p-pcube.json"
    "$orthosim" "${traffic[@]}" --pattern "$p" --rates "$rates" --embedding "$work/$p.map" \
      >"$work/$p-ms.json"
    "$orthosim" "${traffic[@]}" --pattern "$p" --rates "$rates" --embedding "$work/joint.map" \
      >"$work/$p-mg.json"
    (cd "$work" && "$orthosim" trace plot "$p-ecube.json" "$p-pcube.json" "$p-ms.json" \
      "$p-mg.json" --labels e-cube,P-cube,M-S,M-G \
      --title "[LCC] Fig. $figure: $p on the 8-cube, mean latency against accepted throughput" \
      --out "plot-$p" >/dev/null)
    mv "$work/plot-$p/latency-throughput.svg" "$out/lcc-fig$figure-$p.svg"
    echo "Fig. $figure, $p ($out/lcc-fig$figure-$p.svg): accepted (mean latency), per rate"
    echo
    echo "| rate | e-cube | P-cube | M-S | M-G |"
    echo "|---|---|---|---|---|"
    jq -r -s '
      (.[0].points | length) as $n
      | range(0; $n) as $i
      | "| \(.[0].points[$i].rate) | " + ([.[] | .points[$i]
          | "\(.accepted * 10000 | round / 10000) (\(.latency_avg | round))"
          + (if .sustainable then "" else " *" end)] | join(" | ")) + " |"' \
      "$work/$p-ecube.json" "$work/$p-pcube.json" "$work/$p-ms.json" "$work/$p-mg.json"
    echo
    echo "round contention (e-cube, P-cube, M-S, M-G): $(jq -r -s 'map(.round_contention | tostring) | join(", ")' \
      "$work/$p-ecube.json" "$work/$p-pcube.json" "$work/$p-ms.json" "$work/$p-mg.json") (* not sustainable)"
    echo
    figure=$((figure + 1))
  done
}

# Section 6.2: the nCUBE 2 costs of `gen fft` (one cycle = 570 ns, one byte on a channel), the
# software latency as the network's start-up. Steps: 1 the bit-reverse, 3, 5, .., 2n+1 the
# neighbour exchanges, the others computation.
fft() {
  "$orthosim" lcc --dim 8 --pattern bitrev --out "$work/bitrev.map" >/dev/null
  echo "| m | bit-reverse e-cube | reordered | speed-up | neighbour e-cube | reordered | computation | total e-cube | reordered | speed-up |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  for m in 1024 4096 16384 65536; do
    "$orthosim" gen fft --dim 8 --points "$m" --out "$work/fft.mcp"
    "$orthosim" run "$work/fft.mcp" --arch hypercube --dim 8 --startup 288 --clock-ns 570 \
      --quiet --json >"$work/ecube.json"
    "$orthosim" run "$work/fft.mcp" --arch hypercube --dim 8 --startup 288 --clock-ns 570 \
      --embedding "$work/bitrev.map" --quiet --json >"$work/reordered.json"
    jq -r -s --arg m "$m" '
      def two: (. * 100 | round) as $h
        | "\($h / 100 | floor).\($h % 100 | tostring | if length < 2 then "0" + . else . end)";
      def ms: . * 570 / 1e6 | two;
      def parts: (.steps | length) as $last
        | {bitrev: (.steps[0].cycles),
           neighbour: ([.steps[] | select(.step % 2 == 1 and .step > 1 and .step < $last) | .cycles] | add),
           compute: ([.steps[] | select(.step % 2 == 0 or .step == $last) | .cycles] | add),
           total: .total_cycles};
      (.[0] | parts) as $a | (.[1] | parts) as $b
      | "| \($m) | \($a.bitrev | ms) | \($b.bitrev | ms) | \($a.bitrev / $b.bitrev | two) | \($a.neighbour | ms) | \($b.neighbour | ms) | \($a.compute | ms) | \($a.total | ms) | \($b.total | ms) | \($a.total / $b.total | two) |"' \
      "$work/ecube.json" "$work/reordered.json"
  done
  echo
  echo "times in ms (cycles x 570 ns); computation is the same in both runs"
}

case "${1:-}" in
  figures) figures "${2:-}" ;;
  fft) fft ;;
  *) sed -n '2,16p' "$0" >&2; exit 2 ;;
esac
