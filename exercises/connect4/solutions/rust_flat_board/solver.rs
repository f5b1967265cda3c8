//! The perfect player on the standard 7 x 6 board.
//!
//! Positions are bitboards: column `c` uses bits `7c .. 7c+5`, bit `7c+6` is
//! an always-empty guard, so four-in-a-row tests are a few shifts. The search
//! is a negamax with alpha-beta over the moves that do not hand the opponent
//! an immediate win, ordered by how many winning cells they create (centre
//! first on ties), narrowed by null-window probes, and it remembers, per
//! position, a lower and an upper bound of its score in a table that lasts
//! across calls (a bound is a fact about a position, whoever asks).
//!
//! Scores: a win with the player's k-th own disc scores 22 - k, a loss by the
//! opponent's k-th disc scores k - 22, a draw 0. So a faster win and a slower
//! loss score higher.

use std::cell::RefCell;

use super::Board;

const WIDTH: usize = 7;
const HEIGHT: usize = 6;
const CELLS: i32 = (WIDTH * HEIGHT) as i32;
/// Bits per column: the cells and the guard above them.
const STRIDE: usize = HEIGHT + 1;

/// The bottom cell of every column.
const BOTTOMS: u64 = {
    let mut mask = 0;
    let mut c = 0;
    while c < WIDTH {
        mask |= 1 << (c * STRIDE);
        c += 1;
    }
    mask
};
/// Every playable cell (guards excluded).
const PLAYABLE_CELLS: u64 = BOTTOMS * ((1 << HEIGHT) - 1);

/// Columns tried first to last: the centre ones make more lines.
const CENTRE_FIRST: [usize; WIDTH] = [3, 2, 4, 1, 5, 0, 6];

fn column_cells(col: usize) -> u64 {
    ((1u64 << HEIGHT) - 1) << (col * STRIDE)
}

/// The empty cells that would complete four for the owner of `stones`.
fn open_fours(stones: u64, occupied: u64) -> u64 {
    // Vertical: three below.
    let mut cells = (stones << 1) & (stones << 2) & (stones << 3);
    // Horizontal, and both diagonals: steps of STRIDE, STRIDE - 1, STRIDE + 1.
    for step in [STRIDE, STRIDE - 1, STRIDE + 1] {
        let two_before = (stones << step) & (stones << (2 * step));
        cells |= two_before & (stones << (3 * step));
        cells |= two_before & (stones >> step);
        let two_after = (stones >> step) & (stones >> (2 * step));
        cells |= two_after & (stones << step);
        cells |= two_after & (stones >> (3 * step));
    }
    cells & PLAYABLE_CELLS & !occupied
}

/// A 7 x 6 position seen from the side to move.
#[derive(Debug, Clone, Copy)]
struct Bits {
    /// The discs of the side to move.
    own: u64,
    /// Every disc.
    occupied: u64,
    /// Discs played so far.
    plies: i32,
}

impl Bits {
    fn from_board(board: &Board) -> Bits {
        let me = board.to_move();
        let mut bits = Bits {
            own: 0,
            occupied: 0,
            plies: board.disc_count() as i32,
        };
        for col in 0..WIDTH {
            for row in 0..HEIGHT {
                if let Some(disc) = board.get(row, col) {
                    let bit = 1u64 << (col * STRIDE + row);
                    bits.occupied |= bit;
                    if disc == me {
                        bits.own |= bit;
                    }
                }
            }
        }
        bits
    }

    /// The cell each open column would fill next.
    fn landing_cells(self) -> u64 {
        (self.occupied + BOTTOMS) & PLAYABLE_CELLS
    }

    fn can_win_now(self) -> bool {
        open_fours(self.own, self.occupied) & self.landing_cells() != 0
    }

    /// Plays the landing cell `cell`; the other side is then to move.
    fn after(self, cell: u64) -> Bits {
        Bits {
            own: self.own ^ self.occupied,
            occupied: self.occupied | cell,
            plies: self.plies + 1,
        }
    }

    /// A unique number for this position (own discs plus the column tops).
    fn key(self) -> u64 {
        self.own + self.occupied + BOTTOMS
    }

    /// The landing cells that do not let the opponent win next move (the
    /// side to move cannot win at once here). Empty when every move loses.
    fn safe_landings(self) -> u64 {
        let mut landings = self.landing_cells();
        let threats = open_fours(self.own ^ self.occupied, self.occupied);
        let must_block = landings & threats;
        if must_block != 0 {
            if must_block & (must_block - 1) != 0 {
                return 0; // two threats at once: lost
            }
            landings = must_block;
        }
        // Never play right under an opponent's winning cell.
        landings & !(threats >> 1)
    }

    /// The best score the side to move can still hope for, and the worst.
    fn ceiling(self) -> i32 {
        (CELLS + 1 - self.plies) / 2
    }
    fn floor(self) -> i32 {
        -(CELLS - self.plies) / 2
    }
}

/// Bounds table size (a power of two).
const TABLE_BITS: u32 = 22;
/// Scores are stored shifted by this, in six bits each.
const BIAS: i32 = 32;

/// A search with its bounds table.
struct Searcher {
    /// Each slot: `key << 12 | (lower + BIAS) << 6 | (upper + BIAS)`, 0 if empty.
    slots: Vec<u64>,
}

impl Searcher {
    fn new() -> Searcher {
        Searcher {
            slots: vec![0; 1 << TABLE_BITS],
        }
    }

    fn slot(key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - TABLE_BITS)) as usize
    }

    /// The (lower, upper) bounds known for `key`.
    fn recall(&self, key: u64) -> Option<(i32, i32)> {
        let entry = self.slots[Self::slot(key)];
        if entry == 0 || entry >> 12 != key {
            return None;
        }
        let lower = ((entry >> 6) & 63) as i32 - BIAS;
        let upper = (entry & 63) as i32 - BIAS;
        Some((lower, upper))
    }

    /// Records that the score of `key` is within `lower..=upper`, merged with
    /// what is known of the same position.
    fn remember(&mut self, key: u64, mut lower: i32, mut upper: i32) {
        if let Some((old_lower, old_upper)) = self.recall(key) {
            lower = lower.max(old_lower);
            upper = upper.min(old_upper);
        }
        let packed = (key << 12) | (((lower + BIAS) as u64) << 6) | (upper + BIAS) as u64;
        self.slots[Self::slot(key)] = packed;
    }

    /// The exact score of `pos`.
    fn score(&mut self, pos: Bits) -> i32 {
        if pos.can_win_now() {
            return pos.ceiling();
        }
        if pos.plies >= CELLS {
            return 0;
        }
        let (mut low, mut high) = (pos.floor(), pos.ceiling());
        while low < high {
            // Probe nearer zero first: most positions are close games.
            let mut probe = low + (high - low) / 2;
            if probe <= 0 && low / 2 < probe {
                probe = low / 2;
            } else if probe >= 0 && high / 2 > probe {
                probe = high / 2;
            }
            let found = self.negamax(pos, probe, probe + 1);
            if found <= probe {
                high = found;
            } else {
                low = found;
            }
        }
        low
    }

    /// Alpha-beta negamax for a position whose side to move cannot win at
    /// once. A result `<= alpha` bounds the score from above, `>= beta` from
    /// below, and in between it is exact.
    fn negamax(&mut self, pos: Bits, mut alpha: i32, mut beta: i32) -> i32 {
        let safe = pos.safe_landings();
        if safe == 0 {
            // Whatever is played, the opponent wins with the next disc.
            return -(CELLS - pos.plies) / 2;
        }
        if pos.plies >= CELLS - 2 {
            return 0; // two discs left and neither wins
        }
        // The opponent cannot win with their next disc any more.
        alpha = alpha.max(-(CELLS - 2 - pos.plies) / 2);
        beta = beta.min((CELLS - 1 - pos.plies) / 2);
        if alpha >= beta {
            return alpha;
        }
        let key = pos.key();
        if let Some((lower, upper)) = self.recall(key) {
            if lower >= beta {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
            if alpha >= beta {
                return alpha;
            }
        }

        let moves = order(pos, safe);
        let start_alpha = alpha;
        for &cell in moves.iter().flatten() {
            let value = -self.negamax(pos.after(cell), -beta, -alpha);
            if value >= beta {
                self.remember(key, value, pos.ceiling());
                return value;
            }
            alpha = alpha.max(value);
        }
        if alpha > start_alpha {
            self.remember(key, alpha, alpha);
        } else {
            self.remember(key, pos.floor(), alpha);
        }
        alpha
    }
}

/// The cells of `landings`, most promising first: more winning cells made
/// after the move, then nearer the centre.
fn order(pos: Bits, landings: u64) -> [Option<u64>; WIDTH] {
    let mut ranked: [(u32, u64); WIDTH] = [(0, 0); WIDTH];
    let mut count = 0;
    for &col in &CENTRE_FIRST {
        let cell = landings & column_cells(col);
        if cell == 0 {
            continue;
        }
        let strength = open_fours(pos.own | cell, pos.occupied | cell).count_ones();
        // Insert keeping ties in centre-first order.
        let mut at = count;
        while at > 0 && ranked[at - 1].0 < strength {
            ranked[at] = ranked[at - 1];
            at -= 1;
        }
        ranked[at] = (strength, cell);
        count += 1;
    }
    let mut out = [None; WIDTH];
    for (slot, &(_, cell)) in out.iter_mut().zip(&ranked[..count]) {
        *slot = Some(cell);
    }
    out
}

thread_local! {
    static SEARCHER: RefCell<Option<Searcher>> = const { RefCell::new(None) };
}

/// A column (0-based) of best exact score for the player to move on 7 x 6:
/// the fastest forced win, else a draw, else the slowest loss.
///
/// On another size, where the solver does not apply, it takes a win, else
/// blocks one, else plays the open column nearest the centre.
pub fn best_move(board: &Board) -> usize {
    let open = board.open_columns();
    let me = board.to_move();
    let by_centre = |cols: &mut Vec<usize>| {
        let mid = board.cols() as isize / 2;
        cols.sort_by_key(|&c| ((c as isize - mid).abs(), c));
    };
    let mut candidates = open.clone();
    by_centre(&mut candidates);
    if let Some(&col) = candidates.iter().find(|&&c| board.would_connect(c, me)) {
        return col;
    }
    if board.rows() != HEIGHT || board.cols() != WIDTH {
        return candidates
            .iter()
            .copied()
            .find(|&c| board.would_connect(c, me.other()))
            .or_else(|| candidates.first().copied())
            .unwrap_or(0);
    }

    let root = Bits::from_board(board);
    SEARCHER.with(|cell| {
        let mut guard = cell.borrow_mut();
        let searcher = guard.get_or_insert_with(Searcher::new);
        let mut best: Option<(i32, usize)> = None;
        for &col in CENTRE_FIRST.iter().filter(|c| open.contains(c)) {
            let landing = root.landing_cells() & column_cells(col);
            let child = root.after(landing);
            let value = -searcher.score(child);
            if best.is_none_or(|(top, _)| value > top) {
                best = Some((value, col));
            }
        }
        best.map_or(0, |(_, col)| col)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::given::connect4::Disc;

    fn board_after(moves: &str) -> Board {
        let mut board = Board::new(6, 7).unwrap();
        let mut disc = Disc::One;
        for ch in moves.chars() {
            let col = ch.to_digit(10).unwrap() as usize - 1;
            board.drop_piece(col, disc).unwrap();
            disc = disc.other();
        }
        board
    }

    #[test]
    fn scores_of_known_positions() {
        let mut searcher = Searcher::new();
        // Pascal Pons' benchmark positions with their scores.
        for (moves, expected) in [
            ("2252576253462244111563365343671351441", -1),
            ("7422341735647741166133573473242566", 1),
            ("52753311433677442422121", 8),
            ("271713432331713132", -11),
        ] {
            let pos = Bits::from_board(&board_after(moves));
            assert_eq!(searcher.score(pos), expected, "{moves}");
        }
    }
}
