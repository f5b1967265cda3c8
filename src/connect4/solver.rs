//! A strong connect-four solver: the exact score of a position.
//!
//! Scores follow the benchmark data's convention, from the side to move: a
//! win scores `(cells + 1 - moves) / 2` when the winner's last disc is its
//! `moves/2 + 1`-th (22 minus the winner's discs on 7 x 6), a loss the
//! negative, a draw 0.
//!
//! The method is the published one (Pascal Pons, "Solving Connect 4"):
//!
//! - a bitboard per position: the discs of the side to move and the mask of
//!   all discs, one column of `height + 1` bits each (the extra bit keeps
//!   columns apart), so a board fits 64 bits when `width * (height + 1) <= 64`;
//!   `position + mask` is a unique key;
//! - negamax with alpha-beta, answered first by what needs no search (a win
//!   in one, a forced block, two threats at once) and by bounds the number of
//!   moves left allows;
//! - moves that lose at once are never tried; the rest are tried in the order
//!   of how many winning cells they create, centre columns first on ties;
//! - a transposition table of bounds, of fixed size;
//! - the exact score found by null-window searches that halve the interval.
//!
//! Every call counts the positions it explores in [`Solver::nodes`].

use std::fmt;
use std::sync::Arc;

use super::book::Book;

/// Why a board or a position cannot be solved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolverError {
    TooLarge { width: usize, height: usize },
    NotAColumn(char),
    ColumnFull { index: usize, col: usize },
    AlreadyWon { index: usize },
    WinningMove { index: usize, col: usize },
}

impl std::fmt::Display for SolverError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolverError::TooLarge { width, height } => write!(
                f,
                "a {width} x {height} board does not fit a 64-bit bitboard: width x (height + 1) must be at most 64"
            ),
            SolverError::NotAColumn(c) => write!(f, "'{c}' is not a column"),
            SolverError::ColumnFull { index, col } => {
                write!(f, "move {index}: column {col} is full")
            }
            SolverError::AlreadyWon { index } => {
                write!(f, "move {index}: the game was already won")
            }
            SolverError::WinningMove { index, col } => write!(
                f,
                "move {index} (column {col}) wins the game: a finished position has no score"
            ),
        }
    }
}

impl std::error::Error for SolverError {}

/// A board shape that fits a bitboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    pub width: usize,
    pub height: usize,
    bottom: u64,
    full: u64,
}

impl Shape {
    pub fn new(width: usize, height: usize) -> Result<Shape, SolverError> {
        // Line detection shifts by up to 3 x (height + 2) bits.
        if width * (height + 1) > 64 || width < 1 || height < 1 || 3 * (height + 2) > 63 {
            return Err(SolverError::TooLarge { width, height });
        }
        Ok(Shape::fixed(width, height))
    }

    /// The shape without checks, usable in constants (the search's
    /// specialised copies, see [`fixed`]).
    const fn fixed(width: usize, height: usize) -> Shape {
        let mut bottom = 0u64;
        let mut col = 0;
        while col < width {
            bottom |= 1 << (col * (height + 1));
            col += 1;
        }
        Shape {
            width,
            height,
            bottom,
            full: bottom.wrapping_mul((1u64 << height).wrapping_sub(1)),
        }
    }

    /// Bits in a position's key.
    fn key_bits(&self) -> u32 {
        (self.width * (self.height + 1)) as u32
    }

    /// The standard 7 columns x 6 rows.
    pub fn standard() -> Shape {
        Shape::new(7, 6).expect("7 x 6 fits")
    }

    pub fn cells(&self) -> i32 {
        (self.width * self.height) as i32
    }

    fn column(&self, col: usize) -> u64 {
        ((1u64 << self.height) - 1) << (col * (self.height + 1))
    }

    fn top(&self, col: usize) -> u64 {
        1u64 << (self.height - 1 + col * (self.height + 1))
    }

    fn bottom_of(&self, col: usize) -> u64 {
        1u64 << (col * (self.height + 1))
    }

    /// The highest score a position can have once the trivial wins are
    /// answered without search (bounds of the table's encoding).
    pub fn max_score(&self) -> i32 {
        (self.cells() + 1) / 2 - 3
    }

    pub fn min_score(&self) -> i32 {
        -self.cells() / 2 + 3
    }
}

/// A position: the discs of the side to move, and of both.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    shape: Shape,
    current: u64,
    mask: u64,
    moves: u32,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Position {{ moves: {}, current: {:#x}, mask: {:#x} }}",
            self.moves, self.current, self.mask
        )
    }
}

impl Position {
    pub fn empty(shape: Shape) -> Position {
        Position {
            shape,
            current: 0,
            mask: 0,
            moves: 0,
        }
    }

    /// The position after `moves`, columns numbered from 1 (`"4455"`).
    /// A move into a full column, or one after or making a win, is an error.
    pub fn from_moves(shape: Shape, moves: &str) -> Result<Position, SolverError> {
        let mut position = Position::empty(shape);
        for (index, c) in moves.chars().enumerate() {
            let col = c
                .to_digit(10)
                .map(|d| d as usize)
                .filter(|&d| (1..=shape.width).contains(&d))
                .ok_or(SolverError::NotAColumn(c))?
                - 1;
            if !position.can_play(col) {
                return Err(SolverError::ColumnFull {
                    index: index + 1,
                    col: col + 1,
                });
            }
            if position.is_winning_move(col) {
                return Err(SolverError::WinningMove {
                    index: index + 1,
                    col: col + 1,
                });
            }
            position.play_col(col);
        }
        Ok(position)
    }

    /// A position of the game's own board (which must fit a bitboard).
    pub fn from_board(board: &super::Board) -> Result<Position, SolverError> {
        let shape = Shape::new(board.cols(), board.rows())?;
        let mut current = 0;
        let mut mask = 0;
        let me = board.to_move();
        for col in 0..board.cols() {
            for row in 0..board.height(col) {
                let bit = 1u64 << (col * (shape.height + 1) + row);
                mask |= bit;
                if board.get(row, col) == Some(me) {
                    current |= bit;
                }
            }
        }
        Ok(Position {
            shape,
            current,
            mask,
            moves: board.discs() as u32,
        })
    }

    pub fn moves(&self) -> u32 {
        self.moves
    }

    pub fn can_play(&self, col: usize) -> bool {
        self.mask & self.shape.top(col) == 0
    }

    fn play(&mut self, move_bit: u64) {
        self.current ^= self.mask;
        self.mask |= move_bit;
        self.moves += 1;
    }

    /// Plays column `col` (0-based) for the side to move.
    pub fn play_col(&mut self, col: usize) {
        self.play((self.mask + self.shape.bottom_of(col)) & self.shape.column(col));
    }

    /// Whether the side to move wins by playing `col`.
    pub fn is_winning_move(&self, col: usize) -> bool {
        self.winning_cells() & self.possible() & self.shape.column(col) != 0
    }

    pub fn can_win_next(&self) -> bool {
        self.winning_cells() & self.possible() != 0
    }

    fn key(&self) -> u64 {
        self.current + self.mask
    }

    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The key of the mirror image: a key is column by column (`height + 1`
    /// bits each), so mirroring reverses the columns.
    fn mirrored_key(&self) -> u64 {
        let bits = self.shape.height + 1;
        let column = (1u64 << bits) - 1;
        let key = self.key();
        let w = self.shape.width;
        (0..w).fold(0, |m, c| {
            m | ((key >> (c * bits)) & column) << ((w - 1 - c) * bits)
        })
    }

    /// One key for a position and its mirror image, which have the same score.
    pub fn canonical_key(&self) -> u64 {
        self.key().min(self.mirrored_key())
    }

    /// Whether [`Position::canonical_key`] is the mirror image's key: a
    /// column stored for the canonical key is then mirrored.
    pub fn canonical_is_mirror(&self) -> bool {
        self.mirrored_key() < self.key()
    }

    pub fn is_symmetric(&self) -> bool {
        self.key() == self.mirrored_key()
    }

    fn possible(&self) -> u64 {
        (self.mask + self.shape.bottom) & self.shape.full
    }

    fn winning_cells(&self) -> u64 {
        winning_cells(self.shape, self.current, self.mask)
    }

    fn opponent_winning_cells(&self) -> u64 {
        winning_cells(self.shape, self.current ^ self.mask, self.mask)
    }

    /// Playable cells that do not hand the opponent a win at once; when the
    /// opponent threatens to win, only the block (none with two threats).
    fn non_losing_moves(&self) -> u64 {
        let mut possible = self.possible();
        let threats = self.opponent_winning_cells();
        let forced = possible & threats;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0;
            }
            possible = forced;
        }
        possible & !(threats >> 1)
    }

    /// How many winning cells the side to move would have after `move_bit`.
    fn move_score(&self, move_bit: u64) -> u32 {
        winning_cells(self.shape, self.current | move_bit, self.mask).count_ones()
    }
}

/// Empty cells that would complete four for `position` (the discs of one side).
fn winning_cells(shape: Shape, position: u64, mask: u64) -> u64 {
    let h = shape.height;
    // Vertical: three above each other, the cell on top.
    let mut r = (position << 1) & (position << 2) & (position << 3);
    for step in [h + 1, h, h + 2] {
        let p = (position << step) & (position << (2 * step));
        r |= p & (position << (3 * step));
        r |= p & (position >> step);
        let p = (position >> step) & (position >> (2 * step));
        r |= p & (position << step);
        r |= p & (position >> (3 * step));
    }
    r & (shape.full ^ mask)
}

fn is_prime(m: usize) -> bool {
    m >= 2 && (2..).take_while(|d| d * d <= m).all(|d| m % d != 0)
}

fn prime_at_least(n: usize) -> usize {
    (n.max(2)..)
        .find(|&m| is_prime(m))
        .expect("primes are infinite")
}

/// Default transposition-table size in entries, rounded up to a prime
/// (2^24 + 43, the C++ reference's size). On 7 x 6 an entry takes 4 bytes:
/// 64 MiB.
pub const DEFAULT_TABLE_ENTRIES: usize = 1 << 24;

/// Bits of an entry that hold its value: bounds of scores up to 64 cells
/// encode below 128 (see [`Search::negamax`]).
const VALUE_BITS: u32 = 7;

/// A table entry: the kept low bits of a key, then the value.
trait Entry: Copy + Default {
    const BITS: u32;
    fn pack(kept: u64, value: u8) -> Self;
    fn kept(self) -> u64;
    fn value(self) -> u8;
}

impl Entry for u32 {
    const BITS: u32 = 32;
    fn pack(kept: u64, value: u8) -> u32 {
        ((kept as u32) << VALUE_BITS) | value as u32
    }
    fn kept(self) -> u64 {
        (self >> VALUE_BITS) as u64
    }
    fn value(self) -> u8 {
        (self & ((1 << VALUE_BITS) - 1)) as u8
    }
}

impl Entry for u64 {
    const BITS: u32 = 64;
    fn pack(kept: u64, value: u8) -> u64 {
        (kept << VALUE_BITS) | value as u64
    }
    fn kept(self) -> u64 {
        self >> VALUE_BITS
    }
    fn value(self) -> u8 {
        (self & ((1 << VALUE_BITS) - 1)) as u8
    }
}

/// `key % len` given `magic = ceil(2^128 / len)`, exact for every 64-bit
/// key and `len` (D. Lemire et al., "Faster remainder by direct
/// computation", 2019): the high 64 bits of `(magic * key mod 2^128) * len`.
fn remainder(key: u64, magic: u128, len: u64) -> u64 {
    let low = magic.wrapping_mul(key as u128);
    let len = len as u128;
    let high = (low >> 64) * len + (((low as u64) as u128 * len) >> 64);
    (high >> 64) as u64
}

/// A fixed-size table of score bounds, indexed by key modulo its size, a
/// prime. An entry keeps only the key's low bits: with the index (the
/// remainder) they tell every key apart (Chinese remainder theorem) as long
/// as `len * 2^kept >= 2^key_bits`, which [`Tables::new`] ensures.
struct Table<E> {
    entries: Vec<E>,
    /// `ceil(2^128 / len)`: `key % len` by multiplications (Lemire's
    /// direct remainder), as a division costs more than the rest of a lookup.
    magic: u128,
}

impl<E: Entry> Table<E> {
    const KEPT_BITS: u32 = E::BITS - VALUE_BITS;

    fn new(len: usize) -> Table<E> {
        // Zeroed pages from the system, mapped as the search first touches
        // them: a program that solves easy positions never pays for the rest.
        let entries = vec![E::default(); len];
        huge_pages(&entries);
        Table {
            entries,
            magic: u128::MAX / len as u128 + 1,
        }
    }

    /// Whether a table of `len` entries tells keys of `key_bits` apart.
    fn exact(len: usize, key_bits: u32) -> bool {
        key_bits <= Self::KEPT_BITS || len >> (key_bits - Self::KEPT_BITS).min(63) != 0
    }

    fn clear(&mut self) {
        // One memset.
        self.entries.fill(E::default());
    }

    fn index(&self, key: u64) -> usize {
        remainder(key, self.magic, self.entries.len() as u64) as usize
    }

    fn kept(key: u64) -> u64 {
        key & ((1u64 << Self::KEPT_BITS) - 1)
    }

    fn get(&self, key: u64) -> u8 {
        let entry = self.entries[self.index(key)];
        if entry.kept() == Self::kept(key) {
            entry.value()
        } else {
            0
        }
    }

    fn put(&mut self, key: u64, value: u8) {
        let i = self.index(key);
        self.entries[i] = E::pack(Self::kept(key), value);
    }
}

/// Asks Linux to back `entries` with 2 MiB pages where it can: every probe
/// of a large table lands on a random page, and with 4 KiB pages most
/// probes also miss the address-translation cache. Only a hint: without
/// transparent huge pages nothing changes.
fn huge_pages<E>(entries: &[E]) {
    #[cfg(target_os = "linux")]
    {
        // madvise wants a page-aligned start; the allocation's first page
        // holds the allocator's header.
        let start = entries.as_ptr() as usize;
        let end = start + std::mem::size_of_val(entries);
        let page = 4096;
        let aligned = start.next_multiple_of(page);
        if end >= aligned + (4 << 20) {
            // SAFETY: madvise only advises on pages of this live allocation;
            // it neither reads nor frees them.
            #[allow(
                unsafe_code,
                reason = "huge pages halve the solver's table misses; students get the lint"
            )]
            unsafe {
                libc::madvise(
                    aligned as *mut libc::c_void,
                    end - aligned,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = entries;
}

/// The table in the narrowest entries that keep keys apart: 4 bytes on
/// 7 x 6 from 2^24 entries (25 key bits and the value), 8 otherwise.
enum Tables {
    Narrow(Table<u32>),
    Wide(Table<u64>),
}

impl Tables {
    fn new(shape: Shape, entries: usize) -> Tables {
        let len = prime_at_least(entries.max(257));
        if Table::<u32>::exact(len, shape.key_bits()) {
            Tables::Narrow(Table::new(len))
        } else {
            Tables::Wide(Table::new(len))
        }
    }

    fn clear(&mut self) {
        match self {
            Tables::Narrow(t) => t.clear(),
            Tables::Wide(t) => t.clear(),
        }
    }
}

/// `p` with a compile-time shape when `W` is not 0, so that the shifts and
/// masks of the search fold into its code as the C++ reference's constants
/// do; `W == 0` keeps the shape `p` carries.
#[inline(always)]
fn fixed<const W: usize, const H: usize>(p: &Position) -> Position {
    if W == 0 {
        *p
    } else {
        Position {
            shape: const { Shape::fixed(W, H) },
            ..*p
        }
    }
}

/// One search's view of a [`Solver`]: generic over the table's entries and
/// the shape, so that each combination is compiled on its own.
struct Search<'a, E> {
    table: &'a mut Table<E>,
    book: Option<&'a Book>,
    order: &'a [usize],
    nodes: u64,
}

impl<E: Entry> Search<'_, E> {
    fn negamax<const W: usize, const H: usize>(
        &mut self,
        p: &Position,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        debug_assert!(alpha < beta);
        let p = &fixed::<W, H>(p);
        let shape = p.shape;
        self.nodes += 1;
        let cells = shape.cells();
        let moves = p.moves as i32;
        let next = p.non_losing_moves();
        if next == 0 {
            return -(cells - moves) / 2;
        }
        if moves >= cells - 2 {
            return 0;
        }
        let min = -(cells - 2 - moves) / 2;
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        if let Some(score) = self.book.and_then(|b| b.get(p)) {
            return score;
        }
        let mut max = (cells - 1 - moves) / 2;
        // Values: 0 unknown; an upper bound `u` as `u - min_score + 1`
        // (1 ..= span + 1); a lower bound `l` as `l + max_score - 2 *
        // min_score + 2` (above span + 1, at most 2 * span + 2 < 128).
        let (min_score, max_score) = (shape.min_score(), shape.max_score());
        let key = p.key();
        let stored = self.table.get(key) as i32;
        if stored != 0 {
            if stored > max_score - min_score + 1 {
                let min = stored + 2 * min_score - max_score - 2;
                if alpha < min {
                    alpha = min;
                    if alpha >= beta {
                        return alpha;
                    }
                }
            } else {
                max = stored + min_score - 1;
            }
        }
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        // Order the moves: most winning cells created first; centre first
        // on ties. Each as `score << 8 | column`, sorted by score, stable:
        // a small array, as zeroing one per position is not free.
        let mut sorted = [0u16; 32];
        let mut count = 0;
        for &col in self.order.iter().rev() {
            let move_bit = next & shape.column(col);
            if move_bit != 0 {
                let score = p.move_score(move_bit) as u16;
                let mut i = count;
                while i > 0 && sorted[i - 1] >> 8 > score {
                    sorted[i] = sorted[i - 1];
                    i -= 1;
                }
                sorted[i] = score << 8 | col as u16;
                count += 1;
            }
        }
        for &entry in sorted[..count].iter().rev() {
            let mut child = *p;
            child.play(next & shape.column((entry & 0xff) as usize));
            let score = -self.negamax::<W, H>(&child, -beta, -alpha);
            if score >= beta {
                self.table
                    .put(key, (score + max_score - 2 * min_score + 2) as u8);
                return score;
            }
            if score > alpha {
                alpha = score;
            }
        }
        self.table.put(key, (alpha - min_score + 1) as u8);
        alpha
    }
}

/// Solves positions of one board shape; keeps its table between calls.
pub struct Solver {
    shape: Shape,
    order: Vec<usize>,
    table: Tables,
    book: Option<Arc<Book>>,
    /// Positions explored since the last [`Solver::reset_nodes`].
    pub nodes: u64,
}

impl Solver {
    pub fn new(shape: Shape) -> Solver {
        Solver::with_table(shape, DEFAULT_TABLE_ENTRIES)
    }

    /// A solver whose table holds about `entries` positions (the first
    /// prime at least `entries`: keys are spread by their remainder, and a
    /// power of two would keep only the low bits, the first columns). It
    /// consults the embedded opening book when the shape is 7 x 6.
    pub fn with_table(shape: Shape, entries: usize) -> Solver {
        let w = shape.width as isize;
        // Centre columns first: they take part in the most lines.
        let order = (0..w)
            .map(|i| (w / 2 + (1 - 2 * (i % 2)) * (i + 1) / 2) as usize)
            .collect();
        Solver {
            shape,
            order,
            table: Tables::new(shape, entries),
            book: Book::standard(shape),
            nodes: 0,
        }
    }

    /// How many entries a table of about `mib` MiB holds: 4-byte entries
    /// where they keep keys apart (on 7 x 6 from 64 MiB), 8-byte ones
    /// otherwise.
    pub fn table_entries(shape: Shape, mib: usize) -> usize {
        let bytes = mib << 20;
        if Table::<u32>::exact(prime_at_least(bytes / 4), shape.key_bits()) {
            bytes / 4
        } else {
            bytes / 8
        }
    }

    /// Replaces the opening book (`None`: search everything).
    pub fn set_book(&mut self, book: Option<Arc<Book>>) {
        assert!(
            book.as_ref().is_none_or(|b| b.shape() == self.shape),
            "a book of another shape"
        );
        self.book = book;
    }

    pub fn book(&self) -> Option<&Book> {
        self.book.as_deref()
    }

    pub fn shape(&self) -> Shape {
        self.shape
    }

    pub fn reset_nodes(&mut self) {
        self.nodes = 0;
    }

    /// Bytes per table entry: 4 where 25 kept key bits with the index tell
    /// keys apart (7 x 6 from 2^24 entries), 8 otherwise.
    pub fn entry_bytes(&self) -> usize {
        match self.table {
            Tables::Narrow(_) => 4,
            Tables::Wide(_) => 8,
        }
    }

    /// Forgets every stored bound.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// The search of `p` in the window, compiled for this solver's table
    /// and, on 7 x 6, for its shape.
    fn negamax(&mut self, p: &Position, alpha: i32, beta: i32) -> i32 {
        let standard = self.shape.width == 7 && self.shape.height == 6;
        let book = self.book.as_deref();
        let order = &self.order[..];
        macro_rules! search {
            ($table:expr, $w:literal, $h:literal) => {{
                let mut search = Search {
                    table: $table,
                    book,
                    order,
                    nodes: 0,
                };
                let score = search.negamax::<$w, $h>(p, alpha, beta);
                self.nodes += search.nodes;
                score
            }};
        }
        match (&mut self.table, standard) {
            (Tables::Narrow(table), true) => search!(table, 7, 6),
            (Tables::Narrow(table), false) => search!(table, 0, 0),
            (Tables::Wide(table), true) => search!(table, 7, 6),
            (Tables::Wide(table), false) => search!(table, 0, 0),
        }
    }

    /// The exact score of `p` for the side to move; with `weak`, only its
    /// sign (1 win, 0 draw, -1 loss).
    pub fn solve(&mut self, p: &Position, weak: bool) -> i32 {
        let cells = self.shape.cells();
        let moves = p.moves as i32;
        if p.can_win_next() {
            return if weak { 1 } else { (cells + 1 - moves) / 2 };
        }
        if let Some(score) = self.book.as_ref().and_then(|b| b.get(p)) {
            self.nodes += 1;
            return if weak { score.signum() } else { score };
        }
        let (mut min, mut max) = if weak {
            (-1, 1)
        } else {
            (-(cells - moves) / 2, (cells + 1 - moves) / 2)
        };
        while min < max {
            let mut med = min + (max - min) / 2;
            if med <= 0 && min / 2 < med {
                med = min / 2;
            } else if med >= 0 && max / 2 > med {
                med = max / 2;
            }
            let r = self.negamax(p, med, med + 1);
            if r <= med {
                max = r;
            } else {
                min = r;
            }
        }
        if weak { min.signum() } else { min }
    }

    /// The columns (0-based) of best score for the side to move: one exact
    /// solve of `p`, then one null-window test per column, much cheaper than
    /// an exact score for every column ([`Solver::scores`]).
    pub fn best_columns(&mut self, p: &Position) -> Vec<usize> {
        let columns: Vec<usize> = (0..self.shape.width).collect();
        let mut best = Vec::new();
        let mut rest = &columns[..];
        while let Some(col) = self.first_best_column(p, rest) {
            best.push(col);
            rest = &rest[rest.iter().position(|&c| c == col).expect("from rest") + 1..];
        }
        best
    }

    /// The first column of `order` (0-based) with the best score for the
    /// side to move, testing columns one by one and stopping there: the
    /// cheapest way to play a best move. `None` if no column of `order`
    /// reaches the best score.
    pub fn first_best_column(&mut self, p: &Position, order: &[usize]) -> Option<usize> {
        let mut playable = order.iter().copied().filter(|&c| p.can_play(c));
        if p.can_win_next() {
            return playable.find(|&c| p.is_winning_move(c));
        }
        let best = self.solve(p, false);
        let cells = self.shape.cells();
        playable.find(|&col| {
            let mut child = *p;
            child.play_col(col);
            if child.can_win_next() {
                // The opponent wins with its next disc.
                -(cells - p.moves as i32) / 2 == best
            } else {
                // The child scores at most -best exactly when this column
                // reaches best (it cannot do better).
                self.negamax(&child, -best, -best + 1) <= -best
            }
        })
    }

    /// The score of every legal column (0-based) for the side to move, in
    /// the convention of [`Solver::solve`]; `None` for a full column.
    pub fn scores(&mut self, p: &Position) -> Vec<Option<i32>> {
        let cells = self.shape.cells();
        (0..self.shape.width)
            .map(|col| {
                if !p.can_play(col) {
                    None
                } else if p.is_winning_move(col) {
                    Some((cells + 1 - p.moves as i32) / 2)
                } else {
                    let mut child = *p;
                    child.play_col(col);
                    Some(-self.solve(&child, false))
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(moves: &str) -> i32 {
        let shape = Shape::standard();
        Solver::with_table(shape, 1 << 16)
            .solve(&Position::from_moves(shape, moves).unwrap(), false)
    }

    #[test]
    fn the_table_index_is_the_remainder() {
        for len in [257usize, 8_388_593, prime_at_least(1 << 31), (1 << 40) + 15] {
            let magic = u128::MAX / len as u128 + 1;
            let index = |key: u64| remainder(key, magic, len as u64);
            let mut key = 0x9e37_79b9_7f4a_7c15u64;
            for edge in [0, 1, len as u64 - 1, len as u64, u64::MAX, u64::MAX - 1] {
                assert_eq!(index(edge), edge % len as u64, "{edge} % {len}");
            }
            for _ in 0..100_000 {
                key = key
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                assert_eq!(index(key), key % len as u64, "{key} % {len}");
                assert_eq!(index(key >> 15), (key >> 15) % len as u64);
            }
        }
    }

    #[test]
    fn entries_keep_their_key_bits_and_value() {
        for value in 0..128u8 {
            for kept in [0u64, 1, (1 << 25) - 1, 0x155_5555] {
                let e = <u32 as Entry>::pack(kept, value);
                assert_eq!((e.kept(), e.value()), (kept, value));
            }
            let kept = (1u64 << 57) - 1;
            let e = <u64 as Entry>::pack(kept, value);
            assert_eq!((e.kept(), e.value()), (kept, value));
        }
        // 2^24 - 3 is the last prime below 2^24: 25 kept bits are not enough.
        assert!(!Table::<u32>::exact(16_777_213, 49));
        assert!(Table::<u32>::exact(16_777_259, 49));
        assert!(!Table::<u32>::exact(1 << 30, 64));
        assert!(Table::<u64>::exact(257, 64));
        let standard = Shape::standard();
        assert_eq!(Solver::new(standard).entry_bytes(), 4);
        assert_eq!(Solver::with_table(standard, 1 << 22).entry_bytes(), 8);
        assert_eq!(
            Solver::with_table(Shape::new(8, 7).unwrap(), 1 << 24).entry_bytes(),
            8
        );
        assert_eq!(Solver::table_entries(standard, 64), 1 << 24);
        assert_eq!(Solver::table_entries(standard, 32), 1 << 22);
        // The largest encoded value, a lower bound of the best score, fits.
        for shape in [
            standard,
            Shape::new(8, 7).unwrap(),
            Shape::new(3, 19).unwrap(),
        ] {
            let top = 2 * shape.max_score() - 2 * shape.min_score() + 2;
            assert!(top < 1 << VALUE_BITS, "{top}");
        }
    }

    #[test]
    fn table_sizes_are_prime() {
        assert_eq!(prime_at_least(DEFAULT_TABLE_ENTRIES), 16_777_259);
        assert_eq!(prime_at_least(100), 101);
        assert_eq!(prime_at_least(101), 101);
    }

    #[test]
    fn the_data_readme_examples() {
        assert_eq!(score("4455"), 18);
        assert_eq!(score("44455554221"), -15);
    }

    #[test]
    fn illegal_move_lists_are_errors() {
        let shape = Shape::standard();
        assert_eq!(
            Position::from_moves(shape, "8").unwrap_err(),
            SolverError::NotAColumn('8')
        );
        assert!(matches!(
            Position::from_moves(shape, "1111111"),
            Err(SolverError::ColumnFull { index: 7, .. })
        ));
        assert!(matches!(
            Position::from_moves(shape, "1212121"),
            Err(SolverError::WinningMove { index: 7, .. })
        ));
        assert!(Shape::new(8, 8).is_err());
        assert!(Shape::new(8, 7).is_ok());
    }
}
