#!/bin/bash
# How much a search slows beside another one: `xiangqi bench DEPTH` alone on core 0, alone on
# core 1, then on both at once, for ROUNDS rounds; prints nodes per second.
#
#     docs/side-by-side.sh BIN [ROUNDS] [DEPTH] [bench options, e.g. --hand-made]
set -euo pipefail
bin=$1
rounds=${2:-5}
depth=${3:-12}
shift $(($# < 3 ? $# : 3))
nps() { taskset -c "$1" "$bin" bench "$depth" "${@:2}" 2>&1 | tail -1 | awk '{print $3}'; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for _ in $(seq "$rounds"); do
    alone0=$(nps 0 "$@")
    alone1=$(nps 1 "$@")
    nps 0 "$@" > "$out/0" &
    nps 1 "$@" > "$out/1" &
    wait
    echo "alone core0 $alone0 core1 $alone1 | together core0 $(cat "$out/0") core1 $(cat "$out/1")"
done
