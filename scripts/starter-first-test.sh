#!/usr/bin/env bash
# Times a student's first `cargo test` in a fresh starter, as a student
# meets it: the stub as shipped, a fresh target folder, the crates already
# downloaded (`cargo fetch` first, untimed). Then the edit loop: touch the
# student's `src/<game>/mod.rs` and run `cargo test` again. Prints, per
# game, both times, the crates the first run compiled and the packages in
# the starter's lock.
#
#   scripts/starter-first-test.sh                 # every game
#   GAMES=velha BOARDKIT=path/to/boardkit scripts/starter-first-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BOARDKIT="${BOARDKIT:-target/debug/boardkit}"
[ -x "$BOARDKIT" ] || cargo build --quiet
# A student's build: rustc alone (CI's clippy wrapper is the kit's).
unset RUSTC_WORKSPACE_WRAPPER CLIPPY_ARGS RUSTFLAGS
seconds() { awk "BEGIN{printf \"%.1f\", $2 - $1}"; }
for game in ${GAMES:-velha connect4 mastermind}; do
  work="$(mktemp -d)"
  "$BOARDKIT" starter "$game" "$work/starter" >/dev/null
  (cd "$work/starter" && cargo fetch --quiet)
  start=$(date +%s.%N)
  # The stub fails every level: the exit status says nothing here.
  (cd "$work/starter" && CARGO_TARGET_DIR="$work/target" cargo test >"$work/first.txt" 2>&1) || true
  end=$(date +%s.%N)
  touch "$work/starter/src/$game/mod.rs"
  (cd "$work/starter" && CARGO_TARGET_DIR="$work/target" cargo test --quiet >/dev/null 2>&1) || true
  again=$(date +%s.%N)
  compiled=$(grep -c '^ *Compiling ' "$work/first.txt" || true)
  packages=$(grep -c '^\[\[package\]\]' "$work/starter/Cargo.lock")
  printf '%s: first cargo test %s s, edit and test again %s s, %d crates compiled, %d packages in its lock\n' \
    "$game" "$(seconds "$start" "$end")" "$(seconds "$end" "$again")" "$compiled" "$packages"
  rm -rf "$work"
done
