#!/usr/bin/env bash
# Times a student's first `cargo test` in a fresh starter, as a student
# meets it: the stub as shipped, a fresh target folder, the crates already
# downloaded (`cargo fetch` first, untimed). Prints, per game, the seconds
# and the number of packages in the starter's lock.
#
#   scripts/starter-first-test.sh                 # every game
#   GAMES=velha BOARDKIT=path/to/boardkit scripts/starter-first-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BOARDKIT="${BOARDKIT:-target/debug/boardkit}"
[ -x "$BOARDKIT" ] || cargo build --quiet
for game in ${GAMES:-velha connect4 mastermind}; do
  work="$(mktemp -d)"
  "$BOARDKIT" starter "$game" "$work/starter" >/dev/null
  (cd "$work/starter" && cargo fetch --quiet)
  start=$(date +%s.%N)
  # The stub fails every level: the exit status says nothing here.
  (cd "$work/starter" && CARGO_TARGET_DIR="$work/target" cargo test --quiet >/dev/null 2>&1) || true
  end=$(date +%s.%N)
  packages=$(grep -c '^\[\[package\]\]' "$work/starter/Cargo.lock")
  printf '%s: first cargo test %.1f s, %d packages in its lock\n' "$game" "$(awk "BEGIN{print $end - $start}")" "$packages"
  rm -rf "$work"
done
