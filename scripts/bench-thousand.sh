#!/usr/bin/env bash
# A class of a thousand, measured: `boardkit grade` over a generated class
# of PROGRAMS Python programs (default 1000) and CRATES Rust crates (default
# 100), in its sandbox, on this machine's cores. Prints the wall time, the
# time per submission, the grader's peak memory (its own resident set, read
# from /proc as it runs: the sandboxed cases are processes of their own) and
# the size of every output; then opens report.html in headless Chromium (if
# installed) and says how long it took to load and draw.
#
# The programs are mixed as a class is: correct (70%), wrong (a diagonal
# never counted, 15%), crashing on their third move (10%), and slow in one
# case (5%: a control character makes them sleep, graded with --timeout 1).
# The crates: correct (90%) and wrong (10%).
#
#   [PROGRAMS=1000] [CRATES=100] [KEEP=DIR] scripts/bench-thousand.sh
#
# BOARDKIT names the binary (default: a release build of this checkout).
# Outside CI: it takes about half an hour on 2 cores.
set -euo pipefail
programs="${PROGRAMS:-1000}"
crates="${CRATES:-100}"
kit="$(cd "$(dirname "$0")/.." && pwd)"
work="${KEEP:-$(mktemp -d)}"
mkdir -p "$work"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
if [ -z "${BOARDKIT:-}" ]; then
  cargo build --release --quiet --manifest-path "$kit/Cargo.toml" -p boardkit-cli
fi
boardkit="${BOARDKIT:-${CARGO_TARGET_DIR:-$kit/target}/release/boardkit}"
ok="$kit/cli/tests/grading/python/python_ok/programa.py"
wrong="$kit/cli/tests/grading/python/python_no_diagonal/programa.py"

echo "generating $programs programs and $crates crates in $work"
rm -rf "$work/programs" "$work/crates"
mkdir -p "$work/programs" "$work/crates"
for i in $(seq -w 1 "$programs"); do
  dir="$work/programs/p$i"
  mkdir -p "$dir"
  case $((10#$i % 20)) in
    0 | 1 | 2) cp "$wrong" "$dir/programa.py" ;;
    3 | 4)
      # Crashes on its third move.
      sed 's/^\(\s*\)entrada = input(\(.*\))$/\1entrada = input(\2)\n\1main.moves = getattr(main, "moves", 0) + 1\n\1assert main.moves < 3, "third move"/' \
        "$ok" >"$dir/programa.py" ;;
    5)
      # Slow in one case: a control character makes it sleep.
      sed 's/^\(\s*\)entrada = input(\(.*\))$/\1entrada = input(\2)\n\1if "\\t" in entrada: __import__("time").sleep(30)/' \
        "$ok" >"$dir/programa.py" ;;
    *) cp "$ok" "$dir/programa.py" ;;
  esac
  # Each its own name in a comment: copies, as a class of the same
  # exercise has many.
  echo "# student p$i" >>"$dir/programa.py"
done
for i in $(seq -w 1 "$crates"); do
  dir="$work/crates/c$i"
  "$boardkit" starter velha "$dir" >/dev/null
  cp "$kit"/src/velha/*.rs "$dir/src/velha/"
  if [ $((10#$i % 10)) = 0 ]; then
    sed -i 's#lines.push((0..n).map(|i| cell(i, n - 1 - i)).sum());##' "$dir/src/velha/board.rs"
  fi
done

# Runs `boardkit grade ...`, sampling its peak resident set (VmHWM).
measure() { # label count out args...
  local label="$1" count="$2" out="$3"
  shift 3
  rm -rf "$out"
  local start end pid peak=0 hwm
  start=$(date +%s%N)
  "$boardkit" grade "$@" --out "$out" >"$out.log" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    hwm=$(awk '/^VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
    [ -n "$hwm" ] && [ "$hwm" -gt "$peak" ] && peak=$hwm
    sleep 0.2
  done
  wait "$pid"
  end=$(date +%s%N)
  local ms=$(((end - start) / 1000000))
  echo "== $label: $count submissions"
  echo "   wall: $((ms / 1000)).$(printf %03d $((ms % 1000))) s; per submission: $((ms / count)) ms; grader's peak memory: $((peak / 1024)) MiB"
  tail -n +2 "$out/grades.csv" | awk -F, '{print $NF}' | sort | uniq -c | awk '{printf "   level %s: %s\n", $2, $1}'
  for file in grades.csv report.html junit.xml similarity.csv run.json; do
    [ -f "$out/$file" ] && echo "   $file: $(du -k "$out/$file" | cut -f1) KiB"
  done
  echo "   students/ (results.json, hidden.json...): $(du -sk "$out/students" | cut -f1) KiB"
  if command -v chromium >/dev/null; then
    local load
    start=$(date +%s%N)
    chromium --headless --no-sandbox --disable-gpu --virtual-time-budget=1000 \
      --window-size=1280,900 --screenshot="$out.png" "file://$out/report.html" >/dev/null 2>&1 || true
    load=$((($(date +%s%N) - start) / 1000000))
    echo "   report.html in headless Chromium: loaded and drawn in $load ms (screenshot $out.png)"
  fi
}

measure "programs (python3 programa.py, --timeout 1)" "$programs" "$work/out-programs" \
  velha "$work"/programs/* --program "python3 programa.py" --timeout 1
measure "crates" "$crates" "$work/out-crates" velha "$work"/crates/*
