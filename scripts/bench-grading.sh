#!/usr/bin/env bash
# Grading a class of N correct Rust submissions (default 20): `boardkit grade`
# against a plain loop of `cargo test` in N separate copies, each with its own
# target folder as a naive grading script has. Outside CI: the loop takes long.
#
#   scripts/bench-grading.sh [N]
set -euo pipefail
n="${1:-20}"
kit="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cargo build --release --quiet --manifest-path "$kit/Cargo.toml"
boardkit="${CARGO_TARGET_DIR:-$kit/target}/release/boardkit"
for i in $(seq -w 1 "$n"); do
  "$boardkit" starter velha "$work/class/student$i" >/dev/null
  cp "$kit"/src/velha/*.rs "$work/class/student$i/src/velha/"
done
seconds() { date +%s.%N; }

start=$(seconds)
"$boardkit" grade velha "$work"/class/* --out "$work/grades" >/dev/null
end=$(seconds)
echo "boardkit grade, $n submissions: $(echo "$end - $start" | bc) s"
tail -n +2 "$work/grades/grades.csv" | awk -F, '{print "level reached: " $NF}' | sort | uniq -c

start=$(seconds)
for dir in "$work"/class/*; do
  (cd "$dir" && CARGO_TARGET_DIR="$dir/target" cargo test --quiet >/dev/null 2>&1) || echo "cargo test failed in $dir"
done
end=$(seconds)
echo "plain loop of cargo test, $n copies: $(echo "$end - $start" | bc) s"
