//! `--ai perfect` at human speed (SPEC 6): whole 7 x 6 games of the perfect
//! player against the random and the smart players, the perfect player first
//! and second, and the time of each of its moves. Target: median under 1 s,
//! worst under 5 s.
//!
//! Run: `scripts/bench-perfect.sh`, or `cargo bench --bench perfect [-- --games N]`
//! (N games per opponent and side, default 5; seeds 1..=N). Each game starts
//! a new perfect player, as `boardkit play` does; its table's allocation is
//! not a move's time.

use std::time::{Duration, Instant};

use boardkit::connect4::ai::PerfectPlayer;
use boardkit::connect4::solver::Shape;
use boardkit::connect4::{Board, RandomPlayer, SmartPlayer};
use boardkit::player::Strategy;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args
        .iter()
        .position(|a| a == "--games")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(5);
    let mut all: Vec<(Duration, usize)> = Vec::new();
    println!(
        "{:<8} {:<7} {:>5} {:>6} {:>9} {:>9} {:>9}",
        "against", "perfect", "games", "moves", "median", "p90", "worst"
    );
    for opponent in ["random", "smart"] {
        for perfect_first in [true, false] {
            let mut times = Vec::new();
            for seed in 1..=games {
                times.extend(game(opponent, perfect_first, seed));
            }
            print_row(opponent, perfect_first, games, &times);
            all.extend(times);
        }
    }
    let mut sorted: Vec<Duration> = all.iter().map(|t| t.0).collect();
    sorted.sort();
    let median = sorted[sorted.len() / 2];
    let worst = *sorted.last().expect("moves were played");
    println!(
        "all      {:<7} {:>5} {:>6} {:>8.3}s {:>8.3}s {:>8.3}s",
        "",
        4 * games,
        sorted.len(),
        median.as_secs_f64(),
        sorted[sorted.len() * 9 / 10].as_secs_f64(),
        worst.as_secs_f64()
    );
    // Where the time goes: the slowest move at each number of discs.
    let mut by_discs = std::collections::BTreeMap::new();
    for (time, discs) in &all {
        let slowest = by_discs.entry(*discs).or_insert(Duration::ZERO);
        *slowest = (*slowest).max(*time);
    }
    let slow: Vec<String> = by_discs
        .iter()
        .filter(|(_, t)| t.as_secs_f64() >= 0.1)
        .map(|(d, t)| format!("{d}: {:.2}s", t.as_secs_f64()))
        .collect();
    println!(
        "slowest move by discs on the board (0.1 s and over): {}",
        slow.join(", ")
    );
    let met = median < Duration::from_secs(1) && worst < Duration::from_secs(5);
    println!(
        "target (median < 1 s, worst < 5 s): {}",
        if met { "met" } else { "NOT met" }
    );
}

fn print_row(opponent: &str, perfect_first: bool, games: u64, times: &[(Duration, usize)]) {
    let mut sorted: Vec<Duration> = times.iter().map(|t| t.0).collect();
    sorted.sort();
    println!(
        "{:<8} {:<7} {:>5} {:>6} {:>8.3}s {:>8.3}s {:>8.3}s",
        opponent,
        if perfect_first { "first" } else { "second" },
        games,
        sorted.len(),
        sorted[sorted.len() / 2].as_secs_f64(),
        sorted[sorted.len() * 9 / 10].as_secs_f64(),
        sorted.last().expect("moves").as_secs_f64()
    );
}

/// One game; the time of each of the perfect player's moves, with the
/// number of discs on the board it moved at.
fn game(opponent: &str, perfect_first: bool, seed: u64) -> Vec<(Duration, usize)> {
    let mut perfect = PerfectPlayer::new(Shape::standard(), seed);
    let mut other: Box<dyn Strategy<Board, usize>> = match opponent {
        "random" => Box::new(RandomPlayer::new(seed)),
        _ => Box::new(SmartPlayer::new(seed)),
    };
    let mut board = Board::standard();
    let mut times = Vec::new();
    let mut perfect_to_move = perfect_first;
    while board.winner().is_none() && !board.is_full() {
        let col = if perfect_to_move {
            let started = Instant::now();
            let col = perfect.choose(&board);
            times.push((started.elapsed(), board.discs()));
            col
        } else {
            other.choose(&board)
        };
        board.play(col).expect("players play legal columns");
        perfect_to_move = !perfect_to_move;
    }
    times
}
