#!/usr/bin/env bash
# Grading a class of N correct Rust submissions (default 20): `boardkit grade`
# in its sandbox (bubblewrap), the same without it (--no-sandbox), each from
# a cold build folder and again warm (the kit's dependencies already built),
# then a plain loop of `cargo test` in N separate copies, each with its own
# target folder as a naive grading script has. Outside CI: it takes minutes.
#
#   [ROUNDS=2] scripts/bench-grading.sh [N] [--no-loop]
set -euo pipefail
n="${1:-20}"
kit="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# BOARDKIT=path uses that binary instead of a release build.
if [ -z "${BOARDKIT:-}" ]; then
  cargo build --release --quiet --manifest-path "$kit/Cargo.toml"
fi
boardkit="${BOARDKIT:-${CARGO_TARGET_DIR:-$kit/target}/release/boardkit}"
for i in $(seq -w 1 "$n"); do
  "$boardkit" starter velha "$work/class/student$i" >/dev/null
  cp "$kit"/src/velha/*.rs "$work/class/student$i/src/velha/"
done
seconds() { date +%s.%N; }

grade() { # label out [flags]
  local label="$1" out="$2"
  shift 2
  local start end
  start=$(seconds)
  "$boardkit" grade velha "$work"/class/* --out "$out" "$@" >/dev/null 2>&1
  end=$(seconds)
  echo "boardkit grade, $n submissions, $label: $(echo "$end - $start" | bc) s"
  tail -n +2 "$out/grades.csv" | awk -F, '{print "   level reached: " $NF}' | sort | uniq -c
}
for round in $(seq 1 "${ROUNDS:-1}"); do
  grade "sandboxed, cold" "$work/sandboxed-$round"
  rm -rf "$work/sandboxed-$round/students"
  grade "sandboxed, warm" "$work/sandboxed-$round"
  grade "--no-sandbox, cold" "$work/plain-$round" --no-sandbox
  rm -rf "$work/plain-$round/students"
  grade "--no-sandbox, warm" "$work/plain-$round" --no-sandbox
done
[ "${2:-}" = "--no-loop" ] && exit 0

start=$(seconds)
for dir in "$work"/class/*; do
  (cd "$dir" && CARGO_TARGET_DIR="$dir/target" cargo test --quiet >/dev/null 2>&1) || echo "cargo test failed in $dir"
done
end=$(seconds)
echo "plain loop of cargo test, $n copies: $(echo "$end - $start" | bc) s"
