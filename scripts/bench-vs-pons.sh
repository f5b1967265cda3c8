#!/usr/bin/env bash
# The connect-four solver against Pascal Pons' C++ solver, side by side:
# both whole processes (startup and table allocation included), on each of
# the six standard sets in turn, strong and weak, in interleaved pairs on
# this machine; prints each program's median time and the median of the
# pairs' ratios (boardkit / C++). Neither uses an opening book.
#
#   scripts/bench-vs-pons.sh C4SOLVER DATA_DIR
#
# C4SOLVER: his solver, built outside this repository (AGPL; never commit
# it), from its unmodified sources:
#   git clone https://github.com/PascalPons/connect4 /tmp/pons
#   make -C /tmp/pons c4solver
# DATA_DIR: the folder of the six sets (Test_L3_R1 ... Test_L1_R3).
# Environment: ROUNDS (pairs per set, default 3), LINES (lines of each easy
# set, default all), MEDIUM_LINES (Begin-Medium, default 200), HARD_LINES
# (Begin-Hard, default 25), BOARDKIT (our binary; default: built here in
# release), MODES ("strong weak" by default), SETS (names to run, such as
# "End-Easy Middle-Easy"; default all six), CLOCK (wall, the default, or
# cpu: user + system seconds, which other work on the machine disturbs
# less).
set -euo pipefail
cd "$(dirname "$0")/.."
pons=$(realpath "${1:?usage: $0 C4SOLVER DATA_DIR}")
data=$(realpath "${2:?usage: $0 C4SOLVER DATA_DIR}")
if [ -z "${BOARDKIT:-}" ]; then
  cargo build --locked --release --quiet
  BOARDKIT=$PWD/target/release/boardkit
fi
rounds=${ROUNDS:-3}
if [ "${CLOCK:-wall}" = cpu ] && [ ! -x /usr/bin/time ]; then
  echo "CLOCK=cpu needs /usr/bin/time (Debian's package time)" >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Run from an empty folder: his solver loads ./7x6.book when there is one.
cd "$work"

now() { date +%s.%N; }
# Seconds a command takes on a file of positions, its output discarded.
timed() {
  local input=$1; shift
  local start end
  if [ "${CLOCK:-wall}" = cpu ]; then
    # His solver says on stderr that it found no book, every run.
    /usr/bin/time -f '%U %S' -o cpu.t "$@" < "$input" > /dev/null 2> stderr \
      || { cat stderr >&2; return 1; }
    awk '{printf "%.6f\n", $1 + $2}' cpu.t
    return
  fi
  start=$(now)
  "$@" < "$input" > /dev/null 2> stderr || { cat stderr >&2; return 1; }
  end=$(now)
  awk -v a="$start" -v b="$end" 'BEGIN {printf "%.6f\n", b - a}'
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

printf '%-7s %-14s %6s %12s %12s %8s\n' mode set lines boardkit_s cpp_s ratio
for mode in ${MODES:-strong weak}; do
  ours=("$BOARDKIT" solve connect4 --no-book)
  his=("$pons")
  if [ "$mode" = weak ]; then ours+=(--weak); his+=(-w); fi
  for entry in Test_L3_R1:End-Easy Test_L2_R1:Middle-Easy Test_L2_R2:Middle-Medium \
               Test_L1_R1:Begin-Easy Test_L1_R2:Begin-Medium Test_L1_R3:Begin-Hard; do
    file=${entry%%:*}; name=${entry#*:}
    if [ -n "${SETS:-}" ] && [[ " $SETS " != *" $name "* ]]; then continue; fi
    lines=${LINES:-1000}
    [ "$name" = Begin-Medium ] && lines=${MEDIUM_LINES:-200}
    [ "$name" = Begin-Hard ] && lines=${HARD_LINES:-25}
    # His solver reads moves only; ours takes "moves score" as well.
    head -n "$lines" "$data/$file" | cut -d' ' -f1 > positions
    : > ours.t; : > his.t; : > ratios
    for round in $(seq "$rounds"); do
      # Alternate who goes first, so neither always finds a warm cache.
      if [ $((round % 2)) = 1 ]; then
        a=$(timed positions "${ours[@]}"); b=$(timed positions "${his[@]}")
      else
        b=$(timed positions "${his[@]}"); a=$(timed positions "${ours[@]}")
      fi
      echo "$a" >> ours.t; echo "$b" >> his.t; awk -v a="$a" -v b="$b" 'BEGIN {printf "%.6f\n", a / b}' >> ratios
    done
    printf '%-7s %-14s %6s %12.3f %12.3f %8.3f\n' "$mode" "$name" "$(wc -l < positions)" \
      "$(median < ours.t)" "$(median < his.t)" "$(median < ratios)"
  done
done
