#!/usr/bin/env bash
# Times a student's first test run in a fresh starter, as a student meets
# it: the stub as shipped, the kit's `boardkit` on the PATH (installed, as
# the guide has it), a fresh target folder, the crates already downloaded
# (`cargo fetch` first, untimed). Then the edit loop: touch the student's
# file and test again, three times (the median is reported).
#
# Rust: `cargo test`, then touch `src/<game>/mod.rs`. Python: `python3 -m
# pytest -q` in a Python starter, then touch `funcoes.py`.
#
# Prints, per starter, the wall and CPU time (user + sys, the children's
# included: rustc, the tests, boardkit) of both, the lines the first run
# printed, and for Rust the crates it compiled, whether it built the
# versions own tests are graded against (it should not: the stubs fail),
# and the packages in the starter's lock.
#
#   scripts/starter-first-test.sh                 # every game in Rust, velha in Python
#   GAMES=velha PYTHON_GAMES= BOARDKIT=path/to/boardkit scripts/starter-first-test.sh
#
# Budgets, each checked when set (seconds; CI sets them): MAX_FIRST_WALL,
# MAX_FIRST_CPU (the first run), MAX_EDIT_WALL (the Rust edit loop's
# median: Python's runs the cases, then again for the level table, then
# the own tests against the kit's versions, and is reported only). Over
# one, or when a run printed no level table, the script names it and fails.
set -euo pipefail
cd "$(dirname "$0")/.."
BOARDKIT="${BOARDKIT:-target/debug/boardkit}"
[ -x "$BOARDKIT" ] || cargo build --quiet
BOARDKIT="$(realpath "$BOARDKIT")"
# A student's build: rustc alone (CI's clippy wrapper is the kit's), no
# shared grading folder, no choice made for them about their own tests.
unset RUSTC_WORKSPACE_WRAPPER CLIPPY_ARGS RUSTFLAGS BOARDKIT_BUILD_DIR BOARDKIT_MINE CARGO_TARGET_DIR
export PATH="$(dirname "$BOARDKIT"):$PATH"
# The pytest a student's `python3 -m pytest` finds; Debian's where the
# PATH's python3 has none (a pyenv's, say).
PYTHON="${PYTHON:-python3}"
"$PYTHON" -m pytest --version >/dev/null 2>&1 || PYTHON=/usr/bin/python3

over=()

# `timed OUT COMMAND...`: runs COMMAND, its output to OUT, and prints its
# wall and CPU seconds (user + sys, children included). Its exit status
# says nothing here: the stubs fail.
timed() {
  local out="$1" times
  shift
  times=$( { TIMEFORMAT='%R %U %S'; time "$@" >"$out" 2>&1; } 2>&1 ) || true
  awk '{ printf "%.1f %.1f", $1, $2 + $3 }' <<<"${times##*$'\n'}"
}

# `edit_loop FILE COMMAND...`: touches FILE and runs COMMAND, three times;
# prints the median wall and CPU seconds.
edit_loop() {
  local file="$1" runs=()
  shift
  for _ in 1 2 3; do
    touch "$file"
    runs+=("$(timed /dev/null "$@")")
  done
  printf '%s\n' "${runs[@]}" | sort -n | sed -n 2p
}

# `budget NAME LIMIT SECONDS WHAT`: records WHAT as over budget when
# SECONDS exceed LIMIT (when set).
budget() {
  if [ -n "$2" ] && awk "BEGIN { exit !($3 > $2) }"; then
    over+=("$4: $3 s, over $1=$2")
  fi
}

# `ran LABEL OUT`: the run printed its level table (the tests ran, the
# starter built); else its output's end, and the script fails.
ran() {
  if ! grep -q 'levels' "$2"; then
    tail -n 30 "$2" >&2
    over+=("$1: the tests did not run")
  fi
}

# `report LABEL FIRST EDIT EXTRA LANGUAGE`: one line per starter, and its
# budgets.
report() {
  local first_wall first_cpu edit_wall edit_cpu
  read -r first_wall first_cpu <<<"$2"
  read -r edit_wall edit_cpu <<<"$3"
  printf '%s: first run %s s wall, %s s CPU; edit and test again %s s wall, %s s CPU (median of 3); %s\n' \
    "$1" "$first_wall" "$first_cpu" "$edit_wall" "$edit_cpu" "$4"
  budget MAX_FIRST_WALL "${MAX_FIRST_WALL:-}" "$first_wall" "$1, first run's wall time"
  budget MAX_FIRST_CPU "${MAX_FIRST_CPU:-}" "$first_cpu" "$1, first run's CPU time"
  if [ "$5" = rust ]; then
    budget MAX_EDIT_WALL "${MAX_EDIT_WALL:-}" "$edit_wall" "$1, the edit loop's wall time"
  fi
}

for game in ${GAMES-velha connect4 mastermind}; do
  work="$(mktemp -d)"
  starter="$work/starter"
  "$BOARDKIT" starter "$game" "$starter" >/dev/null
  (cd "$starter" && cargo fetch --quiet)
  export CARGO_TARGET_DIR="$work/target"
  first=$(cd "$starter" && timed "$work/first.txt" cargo test)
  edit=$(cd "$starter" && edit_loop "src/$game/mod.rs" cargo test)
  unset CARGO_TARGET_DIR
  compiled=$(grep -c '^ *Compiling ' "$work/first.txt" || true)
  packages=$(grep -c '^\[\[package\]\]' "$starter/Cargo.lock")
  ran "$game (Rust)" "$work/first.txt"
  built=no
  [ -e "$starter/target/boardkit-mine" ] && built=yes
  report "$game (Rust)" "$first" "$edit" \
    "$(wc -l <"$work/first.txt") lines printed, $compiled crates compiled, own tests' graded versions built: $built, $packages packages in its lock" rust
  rm -rf "$work"
done

for game in ${PYTHON_GAMES-velha}; do
  work="$(mktemp -d)"
  starter="$work/starter"
  "$BOARDKIT" starter "$game" "$starter" --language python >/dev/null
  first=$(cd "$starter" && timed "$work/first.txt" "$PYTHON" -m pytest -q)
  edit=$(cd "$starter" && edit_loop funcoes.py "$PYTHON" -m pytest -q)
  ran "$game (Python)" "$work/first.txt"
  report "$game (Python, $PYTHON -m pytest)" "$first" "$edit" "$(wc -l <"$work/first.txt") lines printed" python
  rm -rf "$work"
done

if [ "${#over[@]}" -gt 0 ]; then
  printf 'failed: %s\n' "${over[@]}" >&2
  exit 1
fi
