//! Connect four for every front end: its computer opponents, which boards
//! offer them, and the cells of a win.

use boardkit::connect4::ai::PerfectPlayer;
use boardkit::connect4::solver::Shape;
use boardkit::connect4::{Board, RandomPlayer, SmartPlayer};
use boardkit::player::Strategy;

/// The computer opponents: the exercise's own `--ai` values (the starter's
/// program takes the same), read by every front end.
pub(crate) use boardkit::harness::connect4::AiKind as Computer;

/// The opponents the full screen and the browser offer on a board of
/// `cols` x `rows`: the perfect player answers at once on 7 x 6 only (its
/// early moves are stored), so it is offered there alone.
pub(crate) fn offered(cols: usize, rows: usize) -> &'static [Computer] {
    if (cols, rows) == (7, 6) {
        &[Computer::Random, Computer::Smart, Computer::Perfect]
    } else {
        &[Computer::Random, Computer::Smart]
    }
}

/// The reference's player of this level on a board of `shape`, drawing
/// its random choices from `seed`.
pub(crate) fn player(
    level: Computer,
    shape: Shape,
    seed: u64,
) -> Box<dyn Strategy<Board, usize> + Send> {
    match level {
        Computer::Random => Box::new(RandomPlayer::new(seed)),
        Computer::Smart => Box::new(SmartPlayer::new(seed)),
        Computer::Perfect => Box::new(PerfectPlayer::new(shape, seed)),
    }
}

/// The game's mode as the scoreboard records it (`7x6 vs smart`, `7x6 two
/// players`); `opponent` is the computer's name (`scripted` for the kit's
/// tests' columns).
pub(crate) fn mode(cols: usize, rows: usize, opponent: Option<&str>) -> String {
    match opponent {
        Some(name) => format!("{cols}x{rows} vs {name}"),
        None => format!("{cols}x{rows} two players"),
    }
}

/// The cells of the lines of four or more through `(row, col)`, as
/// `(row, col)` pairs.
pub(crate) fn winning_cells(board: &Board, row: usize, col: usize) -> Vec<(usize, usize)> {
    let Some(disc) = board.get(row, col) else {
        return Vec::new();
    };
    let mut cells = Vec::new();
    for (dr, dc) in [(0isize, 1isize), (1, 0), (1, 1), (1, -1)] {
        let mut line = vec![(row, col)];
        for sign in [1isize, -1] {
            let (mut r, mut c) = (row as isize, col as isize);
            loop {
                r += sign * dr;
                c += sign * dc;
                if r < 0 || c < 0 || board.get(r as usize, c as usize) != Some(disc) {
                    break;
                }
                line.push((r as usize, c as usize));
            }
        }
        if line.len() >= 4 {
            cells.extend(line);
        }
    }
    cells
}
