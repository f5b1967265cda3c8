#!/usr/bin/env bash
# A starter of each game builds its tests for Windows and macOS too
# (`cargo check --tests`, as many first-year students work there): the
# kit's shipped files name no Unix-only API. Run by .ci/run.
#
#   scripts/starters-other-os.sh                 # every game, both targets
#   BOARDKIT=path/to/boardkit TARGETS=x86_64-pc-windows-gnu scripts/starters-other-os.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BOARDKIT="${BOARDKIT:-${CARGO_TARGET_DIR:-target}/debug/boardkit}"
TARGETS="${TARGETS:-x86_64-pc-windows-gnu aarch64-apple-darwin}"
# shellcheck disable=SC2086
rustup target add $TARGETS >/dev/null
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# A student's build: rustc alone, one target folder for every game (their
# dependencies are the same), kept between runs under the kit's own.
unset RUSTC_WORKSPACE_WRAPPER CLIPPY_ARGS
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}/other-os"
for game in ${GAMES:-velha connect4 mastermind}; do
  "$BOARDKIT" starter "$game" "$work/$game" >/dev/null
  for target in $TARGETS; do
    (cd "$work/$game" && cargo check --quiet --locked --tests --bins --target "$target")
    echo "ok: $game: cargo check --tests --target $target"
  done
done
