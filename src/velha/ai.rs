//! Computer players for jogo da velha, on any N x N board. Pure: no I/O.
//!
//! The search is negamax with alpha-beta pruning. A position's score is seen
//! from the side to move and accounts for depth, so that a faster win scores
//! higher and a slower loss scores less badly: a win completed with `m` marks
//! on a board of `C` cells scores `C + 1 - m`, a loss the negative, a draw 0.
//! (Plain minimax scores every win alike and may dawdle or give up early; the
//! exam's sources show that mistake.) Because the score depends on the marks
//! on the board, never on the path, positions can be shared in a
//! transposition table keyed by the board's canonical form under its eight
//! symmetries, storing lower and upper bounds.
//!
//! Before branching, each node answers what needs no search: a win in one;
//! an opponent with two ways to win next (a loss); one opponent threat (the
//! only move worth trying); no line left open for anyone (a draw).
//!
//! The kit's computer opponents of every level (`boardkit play velha --ai`)
//! are built on [`Searcher`] in the `boardkit` binary: their random choices
//! are the kit's, and a student's crate compiles no random generator for
//! jogo da velha.

use std::collections::HashMap;

use super::board::{Board, Mark, Position, winning_lines};

/// Scores of exact results are multiples of this; heuristic values stay below.
const EXACT: i32 = 1000;

/// Searches positions; counts the nodes it visits.
pub struct Searcher {
    size: usize,
    cells: usize,
    lines: &'static [u128],
    /// For each symmetry, the cell each cell maps to.
    symmetries: Vec<Vec<usize>>,
    /// Cells in the order moves are tried: most lines through them first.
    order: Vec<usize>,
    /// Canonical (x, o) -> (lower, upper) bound of the exact score.
    table: HashMap<(u128, u128), (i32, i32)>,
    /// Nodes visited since the searcher was made.
    pub nodes: u64,
}

impl Searcher {
    pub fn new(size: usize) -> Searcher {
        let lines = winning_lines(size);
        let cells = size * size;
        let mut order: Vec<usize> = (0..cells).collect();
        order.sort_by_key(|&c| {
            std::cmp::Reverse(lines.iter().filter(|&&l| l >> c & 1 == 1).count())
        });
        let map = |f: &dyn Fn(usize, usize) -> (usize, usize)| -> Vec<usize> {
            (0..cells)
                .map(|c| {
                    let (r, k) = f(c / size, c % size);
                    r * size + k
                })
                .collect()
        };
        let last = size - 1;
        let symmetries = vec![
            map(&|r, c| (r, c)),
            map(&|r, c| (c, last - r)),
            map(&|r, c| (last - r, last - c)),
            map(&|r, c| (last - c, r)),
            map(&|r, c| (r, last - c)),
            map(&|r, c| (last - r, c)),
            map(&|r, c| (c, r)),
            map(&|r, c| (last - c, last - r)),
        ];
        Searcher {
            size,
            cells,
            lines,
            symmetries,
            order,
            table: HashMap::new(),
            nodes: 0,
        }
    }

    fn transform(mask: u128, perm: &[usize]) -> u128 {
        let mut out = 0;
        let mut rest = mask;
        while rest != 0 {
            let cell = rest.trailing_zeros() as usize;
            out |= 1u128 << perm[cell];
            rest &= rest - 1;
        }
        out
    }

    fn canonical(&self, mine: u128, theirs: u128) -> (u128, u128) {
        self.symmetries
            .iter()
            .map(|perm| (Self::transform(mine, perm), Self::transform(theirs, perm)))
            .min()
            .expect("eight symmetries")
    }

    /// Cells where `mine` completes a line (the rest of the line is `mine`, it is empty).
    fn winning_cells(&self, mine: u128, theirs: u128) -> u128 {
        let mut cells = 0;
        for &line in self.lines {
            let missing = line & !mine;
            if missing.count_ones() == 1 && missing & theirs == 0 {
                cells |= missing;
            }
        }
        cells
    }

    fn any_line_open(&self, x: u128, o: u128) -> bool {
        self.lines.iter().any(|&l| l & x == 0 || l & o == 0)
    }

    /// A heuristic for cut-off searches, from the side to move (|h| < EXACT):
    /// open lines weighted by how filled they are.
    fn heuristic(&self, mine: u128, theirs: u128) -> i32 {
        let mut h = 0;
        for &line in self.lines {
            match ((line & mine).count_ones(), (line & theirs).count_ones()) {
                (m, 0) if m > 0 => h += 1 << (2 * m),
                (0, t) if t > 0 => h -= 1 << (2 * t),
                _ => {}
            }
        }
        h.clamp(-(EXACT - 1), EXACT - 1)
    }

    /// The exact score (or, with `plies`, a bounded estimate) of the position
    /// for the side to move, within the window (`alpha`, `beta`).
    fn negamax(
        &mut self,
        mine: u128,
        theirs: u128,
        mut alpha: i32,
        mut beta: i32,
        plies: Option<u32>,
    ) -> i32 {
        self.nodes += 1;
        let filled = (mine | theirs).count_ones() as i32;
        let cells = self.cells as i32;
        let all = if self.cells == 128 {
            u128::MAX
        } else {
            (1u128 << self.cells) - 1
        };
        let empty = all & !(mine | theirs);
        if self.winning_cells(mine, theirs) != 0 {
            return (cells - filled) * EXACT; // win with my next mark
        }
        if empty == 0 || !self.any_line_open(mine, theirs) {
            return 0;
        }
        let threats = self.winning_cells(theirs, mine);
        if threats.count_ones() >= 2 {
            return -(cells - filled - 1) * EXACT; // one blocked, the other wins
        }
        // Best possible now: a win with my mark after next, or a draw.
        let best_possible = (cells - filled - 2).max(0) * EXACT;
        if beta > best_possible {
            beta = best_possible;
            if alpha >= beta {
                return beta;
            }
        }
        if plies == Some(0) {
            return self.heuristic(mine, theirs);
        }
        let exact = plies.is_none();
        let key = if exact {
            Some(self.canonical(mine, theirs))
        } else {
            None
        };
        let (alpha0, beta0) = (alpha, beta);
        if let Some(key) = key {
            if let Some(&(lower, upper)) = self.table.get(&key) {
                if lower == upper {
                    return lower;
                }
                alpha = alpha.max(lower);
                beta = beta.min(upper);
                if alpha >= beta {
                    return alpha;
                }
            }
        }
        let mut best = i32::MIN;
        let forced = threats;
        for i in 0..self.cells {
            let cell = 1u128 << self.order[i];
            if empty & cell == 0 || (forced != 0 && forced & cell == 0) {
                continue;
            }
            let score = -self.negamax(theirs, mine | cell, -beta, -alpha, plies.map(|p| p - 1));
            if score > best {
                best = score;
            }
            if best > alpha {
                alpha = best;
                if alpha >= beta {
                    break;
                }
            }
        }
        if let Some(key) = key {
            let entry = self.table.entry(key).or_insert((i32::MIN, i32::MAX));
            if best <= alpha0 {
                entry.1 = entry.1.min(best);
            } else if best >= beta0 {
                entry.0 = entry.0.max(best);
            } else {
                *entry = (best, best);
            }
        }
        best
    }

    fn masks(board: &Board) -> (u128, u128) {
        let size = board.size();
        let (mut x, mut o) = (0u128, 0u128);
        for row in 0..size {
            for col in 0..size {
                match board.get(Position { row, col }) {
                    Some(Mark::X) => x |= 1 << (row * size + col),
                    Some(Mark::O) => o |= 1 << (row * size + col),
                    None => {}
                }
            }
        }
        match board.to_move() {
            Mark::X => (x, o),
            Mark::O => (o, x),
        }
    }

    /// The exact score of `board` for the side to move (searched to the end).
    pub fn score(&mut self, board: &Board) -> i32 {
        assert_eq!(board.size(), self.size);
        let (mine, theirs) = Self::masks(board);
        self.negamax(mine, theirs, -EXACT * 200, EXACT * 200, None) / EXACT
    }

    /// Every move of best score; `plies` bounds the search (None: to the end).
    /// Moves that are images of one another under a symmetry of the board are
    /// searched once.
    pub fn best_moves(&mut self, board: &Board, plies: Option<u32>) -> Vec<Position> {
        assert_eq!(board.size(), self.size);
        let (mine, theirs) = Self::masks(board);
        let mut scored: Vec<(Position, i32)> = Vec::new();
        let mut seen: HashMap<(u128, u128), i32> = HashMap::new();
        let mut best = -EXACT * 200;
        for pos in board.empty_cells() {
            let cell = 1u128 << (pos.row * self.size + pos.col);
            let child = self.canonical(theirs, mine | cell);
            let wins_now = self
                .lines
                .iter()
                .any(|&l| l & cell != 0 && l & !(mine | cell) == 0);
            let score = match seen.get(&child) {
                Some(&s) => s,
                None if wins_now => {
                    (self.cells as i32 - (mine | theirs).count_ones() as i32) * EXACT
                }
                None => {
                    // A window just below the best so far: equal moves come back exact.
                    let s = -self.negamax(
                        theirs,
                        mine | cell,
                        -EXACT * 200,
                        -(best - 1),
                        plies.map(|p| p.saturating_sub(1)),
                    );
                    seen.insert(child, s);
                    s
                }
            };
            best = best.max(score);
            scored.push((pos, score));
        }
        scored
            .into_iter()
            .filter(|&(_, s)| s == best)
            .map(|(p, _)| p)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::velha::Status;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// Plain minimax with the same depth-aware scores: the reference.
    fn plain_score(board: &Board) -> i32 {
        let cells = (board.size() * board.size()) as i32;
        board
            .empty_cells()
            .into_iter()
            .map(|pos| {
                let child = board.with_move(pos);
                match child.status() {
                    Status::Won(_) => cells + 1 - child.marks() as i32,
                    Status::Draw => 0,
                    Status::InProgress => -plain_score(&child),
                }
            })
            .max()
            .unwrap_or(0)
    }

    fn reachable(board: Board, out: &mut HashMap<Board, ()>) {
        if out.insert(board, ()).is_some() || board.status() != Status::InProgress {
            return;
        }
        for pos in board.empty_cells() {
            reachable(board.with_move(pos), out);
        }
    }

    #[test]
    fn every_reachable_3x3_position_scores_as_plain_minimax() {
        let mut all = HashMap::new();
        reachable(Board::default(), &mut all);
        let mut searcher = Searcher::new(3);
        let mut checked = 0;
        for board in all.keys().filter(|b| b.status() == Status::InProgress) {
            assert_eq!(searcher.score(board), plain_score(board), "{board:?}");
            // best_moves returns exactly the moves of best plain score.
            let cells = 10;
            let scored: Vec<(Position, i32)> = board
                .empty_cells()
                .into_iter()
                .map(|p| {
                    let child = board.with_move(p);
                    let s = match child.status() {
                        Status::Won(_) => cells - child.marks() as i32,
                        Status::Draw => 0,
                        Status::InProgress => -plain_score(&child),
                    };
                    (p, s)
                })
                .collect();
            let top = scored.iter().map(|&(_, s)| s).max().unwrap();
            let mut expected: Vec<Position> = scored
                .iter()
                .filter(|&&(_, s)| s == top)
                .map(|&(p, _)| p)
                .collect();
            let mut got = searcher.best_moves(board, None);
            expected.sort_by_key(|p| (p.row, p.col));
            got.sort_by_key(|p| (p.row, p.col));
            assert_eq!(got, expected, "{board:?}");
            checked += 1;
        }
        assert_eq!(checked, 4520, "positions in progress");
    }

    #[test]
    fn sampled_4x4_positions_score_as_plain_minimax() {
        use rand::RngExt;
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let mut searcher = Searcher::new(4);
        for _ in 0..300 {
            let mut board = Board::new(4).unwrap();
            while board.marks() < 8 {
                let cells: Vec<Position> = board.empty_cells();
                let next = board.with_move(cells[rng.random_range(0..cells.len())]);
                if next.status() != Status::InProgress {
                    break;
                }
                board = next;
            }
            if board.status() == Status::InProgress {
                assert_eq!(searcher.score(&board), plain_score(&board), "{board:?}");
            }
        }
    }

    #[test]
    fn the_empty_board_is_a_draw_and_the_first_move_is_cheap() {
        let mut searcher = Searcher::new(3);
        assert_eq!(searcher.score(&Board::default()), 0);
        let mut searcher = Searcher::new(3);
        let moves = searcher.best_moves(&Board::default(), None);
        assert_eq!(moves.len(), 9, "every first move draws");
        assert!(searcher.nodes < 549_946 / 100, "{} nodes", searcher.nodes);
    }

    #[test]
    fn prefers_the_fastest_win() {
        // X to move: A3 wins now; other moves win later or not at all.
        let mut board = Board::default();
        for p in ["A1", "B1", "A2", "B2"] {
            board
                .play(super::super::parse_position(p, 3).unwrap())
                .unwrap();
        }
        let moves = Searcher::new(3).best_moves(&board, None);
        let names: Vec<String> = moves.iter().map(|p| p.to_string()).collect();
        assert_eq!(names, vec!["A3"]);
    }
}
