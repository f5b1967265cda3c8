//! Jogo da velha search benchmark (SPEC 6): nodes and time for the first
//! move on an empty 3 x 3 board against plain minimax's 549,946 nodes, and
//! the solve of the empty 4 x 4 board (a draw) against 0.1 s.
//!
//! Run: `cargo bench --bench velha`. Node counts do not depend on the machine.

use std::time::Instant;

use boardkit::velha::Board;
use boardkit::velha::ai::Searcher;

/// Plain minimax over the whole 3 x 3 game tree: the anchor's 549,946 nodes.
fn plain_minimax_nodes(board: &Board) -> u64 {
    let mut nodes = 1;
    if board.status() == boardkit::velha::Status::InProgress {
        for pos in board.empty_cells() {
            nodes += plain_minimax_nodes(&board.with_move(pos));
        }
    }
    nodes
}

fn main() {
    let started = Instant::now();
    let plain = plain_minimax_nodes(&Board::default());
    println!(
        "3x3 plain minimax, whole tree:        {plain:>9} nodes  {:>8.3} ms",
        ms(started)
    );

    let started = Instant::now();
    let mut searcher = Searcher::new(3);
    let moves = searcher.best_moves(&Board::default(), None);
    println!(
        "3x3 hard, first move (empty board):   {:>9} nodes  {:>8.3} ms  ({} best moves; {:.4} of plain)",
        searcher.nodes,
        ms(started),
        moves.len(),
        searcher.nodes as f64 / plain as f64
    );

    for size in [4] {
        let runs = 5;
        let mut times = Vec::new();
        let mut nodes = 0;
        let mut score = 0;
        for _ in 0..runs {
            let started = Instant::now();
            let mut searcher = Searcher::new(size);
            score = searcher.score(&Board::new(size).unwrap());
            times.push(ms(started));
            nodes = searcher.nodes;
        }
        times.sort_by(f64::total_cmp);
        println!(
            "{size}x{size} solve from empty (score {score}):     {nodes:>9} nodes  {:>8.3} ms median of {runs}",
            times[runs / 2]
        );
    }
}

fn ms(started: Instant) -> f64 {
    started.elapsed().as_secs_f64() * 1000.0
}
