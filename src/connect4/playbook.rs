//! The perfect player's repertoire: for every position the perfect player
//! can face early in a 7 x 6 game, whatever its opponent plays, the column it
//! plays there, computed once by this crate's [`Solver`].
//!
//! Why not a deeper [`Book`](super::book::Book): a book scores every
//! position of a depth, and choosing a move needs the children's scores, so
//! a move at depth `d` is instant only below the book's depth, and the
//! positions of depth 4 to 7 take the solver seconds to minutes each (about
//! 9,000 positions at depth 6 alone, hours of solving). The perfect player
//! only meets the positions its own moves lead to: at each of its turns one
//! column (the first best one, centre first), at each of the opponent's turns
//! every column. Up to 8 discs, playing first or second, that is a few
//! thousand positions; past them the solver needs about a second a move.
//!
//! Stored compactly: a header line
//! `boardkit connect4 playbook v1 <width> <height> <depth first> <depth second> <count>`,
//! then per position its canonical key (8 bytes, little-endian, ascending)
//! and its column (1 byte, for the canonical orientation).
//!
//! Generation ([`generate`], `boardkit book connect4 --playbook`) goes
//! level by level, on several threads, and hands each answer to a callback
//! as it comes, so a stopped run resumes with the answers it had.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use super::solver::{Position, Shape, Solver};

/// The 7 x 6 repertoire, as `boardkit book connect4 --playbook` wrote it.
static STANDARD_BYTES: &[u8] = include_bytes!("7x6.playbook");

const MAGIC: &str = "boardkit connect4 playbook v1";

/// Why a repertoire file cannot be read.
#[derive(Debug)]
pub enum PlaybookError {
    Header,
    Truncated(usize),
    Column { column: u8, width: usize },
}

impl std::fmt::Display for PlaybookError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlaybookError::Header => f.write_str("not a boardkit connect4 playbook (bad header)"),
            PlaybookError::Truncated(n) => {
                write!(f, "the playbook is cut short: {n} positions announced")
            }
            PlaybookError::Column { column, width } => {
                write!(f, "column {column} is not on a board of {width} columns")
            }
        }
    }
}

impl std::error::Error for PlaybookError {}

/// The column the perfect player plays in each position it can meet early.
pub struct Playbook {
    shape: Shape,
    /// The deepest position (discs on the board) it answers when the perfect
    /// player moves first, and when it moves second.
    depths: (u32, u32),
    moves: BTreeMap<u64, u8>,
}

impl Playbook {
    /// The embedded 7 x 6 repertoire; `None` for other shapes.
    pub fn standard(shape: Shape) -> Option<Arc<Playbook>> {
        static STANDARD: OnceLock<Option<Arc<Playbook>>> = OnceLock::new();
        if shape != Shape::standard() {
            return None;
        }
        STANDARD
            .get_or_init(|| Playbook::parse(STANDARD_BYTES).ok().map(Arc::new))
            .clone()
    }

    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    pub fn depths(&self) -> (u32, u32) {
        self.depths
    }

    /// The column (0-based) to play in `p`, when the repertoire holds it.
    pub fn get(&self, p: &Position) -> Option<usize> {
        if p.shape() != self.shape {
            return None;
        }
        let column = *self.moves.get(&p.canonical_key())? as usize;
        Some(if p.canonical_is_mirror() {
            self.shape.width - 1 - column
        } else {
            column
        })
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = format!(
            "{MAGIC} {} {} {} {} {}\n",
            self.shape.width,
            self.shape.height,
            self.depths.0,
            self.depths.1,
            self.moves.len()
        )
        .into_bytes();
        for (key, column) in &self.moves {
            out.extend_from_slice(&key.to_le_bytes());
            out.push(*column);
        }
        out
    }

    pub fn parse(bytes: &[u8]) -> Result<Playbook, PlaybookError> {
        let end = bytes
            .iter()
            .position(|&b| b == b'\n')
            .ok_or(PlaybookError::Header)?;
        let header = std::str::from_utf8(&bytes[..end]).map_err(|_| PlaybookError::Header)?;
        let numbers: Vec<usize> = header
            .strip_prefix(MAGIC)
            .ok_or(PlaybookError::Header)?
            .split_whitespace()
            .map(|n| n.parse().map_err(|_| PlaybookError::Header))
            .collect::<Result<_, _>>()?;
        let [width, height, first, second, count] = numbers[..] else {
            return Err(PlaybookError::Header);
        };
        let shape = Shape::new(width, height).map_err(|_| PlaybookError::Header)?;
        let body = &bytes[end + 1..];
        if body.len() != count * 9 {
            return Err(PlaybookError::Truncated(count));
        }
        let mut moves = BTreeMap::new();
        for record in body.chunks_exact(9) {
            let key = u64::from_le_bytes(record[..8].try_into().expect("8 bytes"));
            let column = record[8];
            if column as usize >= width {
                return Err(PlaybookError::Column { column, width });
            }
            moves.insert(key, column);
        }
        Ok(Playbook {
            shape,
            depths: (first as u32, second as u32),
            moves,
        })
    }
}

/// The column the repertoire stores for `p`: the first best column, centre
/// first (the left one on a tie), for the canonical orientation.
fn best_column(solver: &mut Solver, p: &Position) -> u8 {
    let width = p.shape().width;
    let last = width - 1;
    let mut order: Vec<usize> = (0..width).collect();
    order.sort_by_key(|&c| ((2 * c).abs_diff(last), c));
    let column = solver
        .first_best_column(p, &order)
        .expect("a position of the repertoire has a legal column");
    // Stored for the canonical orientation.
    if p.canonical_is_mirror() {
        (width - 1 - column) as u8
    } else {
        column as u8
    }
}

/// The positions one level deeper: the perfect player plays its column in
/// each of `level`, then the opponent every column that does not end the
/// game. One per canonical key, ascending.
fn next_level(level: &[Position], answers: &BTreeMap<u64, u8>) -> Vec<Position> {
    let mut next: BTreeMap<u64, Position> = BTreeMap::new();
    for p in level {
        let Some(&stored) = answers.get(&p.canonical_key()) else {
            continue;
        };
        let width = p.shape().width;
        let column = if p.canonical_is_mirror() {
            width - 1 - stored as usize
        } else {
            stored as usize
        };
        let mut after = *p;
        after.play_col(column);
        for reply in 0..width {
            if !after.can_play(reply) || after.is_winning_move(reply) {
                continue;
            }
            let mut q = after;
            q.play_col(reply);
            // A full board, or a win the player takes at once: no question.
            if (q.moves() as i32) < p.shape().cells() && !q.can_win_next() {
                next.entry(q.canonical_key()).or_insert(q);
            }
        }
    }
    next.into_values().collect()
}

/// The perfect player's positions up to `depths.0` discs when it moves
/// first and `depths.1` when it moves second, answered with `threads`
/// solvers of `table_entries` entries each. `known` holds answers of an
/// earlier run (by canonical key); `on_answer` sees each new one.
pub fn generate(
    shape: Shape,
    depths: (u32, u32),
    threads: usize,
    table_entries: usize,
    known: &BTreeMap<u64, u8>,
    on_answer: &(dyn Fn(u64, u8, usize) + Sync),
) -> Playbook {
    let answers = Mutex::new(known.clone());
    let solvers: Vec<Mutex<Solver>> = (0..threads.max(1))
        .map(|_| Mutex::new(Solver::with_table(shape, table_entries)))
        .collect();
    let empty = Position::empty(shape);
    // Second: the opponent's first disc, anywhere.
    let mut seconds: BTreeMap<u64, Position> = BTreeMap::new();
    for col in 0..shape.width {
        let mut p = empty;
        p.play_col(col);
        seconds.entry(p.canonical_key()).or_insert(p);
    }
    for (mut level, deepest) in [
        (vec![empty], depths.0),
        (seconds.into_values().collect::<Vec<_>>(), depths.1),
    ] {
        while level.first().is_some_and(|p| p.moves() <= deepest) {
            let todo: Vec<&Position> = {
                let answers = answers.lock().expect("no panics while held");
                level
                    .iter()
                    .filter(|p| !answers.contains_key(&p.canonical_key()))
                    .collect()
            };
            let next_index = AtomicUsize::new(0);
            std::thread::scope(|scope| {
                for solver in &solvers {
                    let (todo, next_index, answers) = (&todo, &next_index, &answers);
                    scope.spawn(move || {
                        let mut solver = solver.lock().expect("one thread a solver");
                        loop {
                            let i = next_index.fetch_add(1, Ordering::Relaxed);
                            let Some(p) = todo.get(i) else { break };
                            let column = best_column(&mut solver, p);
                            let key = p.canonical_key();
                            answers
                                .lock()
                                .expect("no panics while held")
                                .insert(key, column);
                            on_answer(key, column, p.moves() as usize);
                        }
                    });
                }
            });
            let answers = answers.lock().expect("no panics while held");
            level = next_level(&level, &answers);
        }
    }
    let moves = answers.into_inner().expect("no panics while held");
    Playbook {
        shape,
        depths,
        moves,
    }
}

/// One answer of a generation, as a line of its progress file.
pub fn progress_line(key: u64, column: u8) -> String {
    format!("{key} {column}\n")
}

/// The answers of a progress file; damaged lines (a run stopped mid-write)
/// are skipped.
pub fn read_progress(text: &str) -> BTreeMap<u64, u8> {
    text.lines()
        .filter_map(|line| {
            let (key, column) = line.split_once(' ')?;
            Some((key.parse().ok()?, column.trim().parse().ok()?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_repertoire_plays_best_columns_and_survives_its_file() {
        // 5 x 4: small enough to check every answer against every column's score.
        let shape = Shape::new(5, 4).unwrap();
        let playbook = generate(shape, (4, 3), 2, 1 << 16, &BTreeMap::new(), &|_, _, _| {});
        assert!(playbook.len() > 20, "{}", playbook.len());
        let mut solver = Solver::with_table(shape, 1 << 16);
        let mut checked = 0;
        // Every answer is a best column of its position, in both orientations.
        let mut stack = vec![Position::empty(shape)];
        while let Some(p) = stack.pop() {
            if let Some(column) = playbook.get(&p) {
                let scores = solver.scores(&p);
                let best = scores.iter().flatten().max().copied();
                assert_eq!(scores[column], best, "{p:?}");
                checked += 1;
            }
            if p.moves() < 4 {
                for col in 0..shape.width {
                    if p.can_play(col) && !p.is_winning_move(col) {
                        let mut q = p;
                        q.play_col(col);
                        stack.push(q);
                    }
                }
            }
        }
        assert!(checked >= playbook.len(), "{checked} of {}", playbook.len());
        let again = Playbook::parse(&playbook.to_bytes()).unwrap();
        assert_eq!(again.moves, playbook.moves);
        assert_eq!(again.depths(), (4, 3));
        assert!(Playbook::parse(&playbook.to_bytes()[..30]).is_err());
    }

    #[test]
    fn a_stopped_generation_resumes_with_its_answers() {
        let shape = Shape::new(5, 4).unwrap();
        let lines = Mutex::new(String::new());
        let whole = generate(shape, (2, 3), 1, 1 << 16, &BTreeMap::new(), &|k, c, _| {
            lines.lock().unwrap().push_str(&progress_line(k, c))
        });
        let text = lines.into_inner().unwrap();
        // Half the lines and a torn one, as a stopped run leaves them.
        let cut: String = text
            .lines()
            .take(text.lines().count() / 2)
            .map(|l| format!("{l}\n"))
            .collect();
        let known = read_progress(&format!("{cut}12 "));
        let asked = AtomicUsize::new(0);
        let resumed = generate(shape, (2, 3), 1, 1 << 16, &known, &|_, _, _| {
            asked.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(resumed.moves, whole.moves);
        assert_eq!(asked.into_inner(), whole.len() - known.len());
    }

    #[test]
    fn the_embedded_repertoire_plays_best_columns() {
        let shape = Shape::standard();
        let playbook = Playbook::standard(shape).expect("the embedded playbook");
        assert_eq!(playbook.depths(), (8, 7));
        assert!(playbook.len() > 1000, "{}", playbook.len());
        // The first move: the centre.
        assert_eq!(playbook.get(&Position::empty(shape)), Some(3));
        // Every answer of up to 2 discs (its children's scores are in the
        // opening book, so they come at once) is a best column.
        let mut solver = Solver::with_table(shape, 1 << 16);
        let mut level = vec![Position::empty(shape)];
        let mut checked = 0;
        for _ in 0..3 {
            let mut next = Vec::new();
            for p in &level {
                if let Some(column) = playbook.get(p) {
                    let scores = solver.scores(p);
                    let best = scores.iter().flatten().max().copied();
                    assert_eq!(scores[column], best, "{p:?}");
                    checked += 1;
                }
                for col in 0..shape.width {
                    let mut q = *p;
                    q.play_col(col);
                    next.push(q);
                }
            }
            level = next;
        }
        // The empty board, the 7 first discs, the 7 x 7 second ones.
        assert_eq!(checked, 1 + 7 + 7, "{checked}");
    }
}
