#!/usr/bin/env bash
# `play connect4 --ai perfect` at human speed: whole 7 x 6 games of the
# perfect player against the random and smart players, first and second;
# the median, 90th percentile and worst time of its moves (target: median
# under 1 s, worst under 5 s). GAMES games per opponent and side (default 5).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench --locked --bench perfect -- --games "${GAMES:-5}"
