//! An opening book: the exact score of every position of up to `depth` discs,
//! computed by this crate's own [`Solver`], so early positions answer without
//! search.
//!
//! How it is stored: positions are not written, only their scores, one byte
//! each, in the order of their canonical key (the smaller of a position's key
//! and its mirror image's; a position and its mirror have the same score).
//! Loading enumerates the same positions again (well under a second) and pairs
//! them with the bytes. The file starts with one header line,
//! `boardkit connect4 book v1 <width> <height> <depth> <count>`.
//!
//! How it is made ([`Book::generate`], `boardkit book connect4`): every
//! position at the book's depth is solved, on several threads, each thread
//! with its own table kept from one position to the next (neighbours in key
//! order share most of their trees). Shallower positions are then scored
//! from their children, with no search. Solved scores can be saved as they
//! come and handed back, so a stopped generation goes on where it was.
//!
//! The 7 x 6 book in this folder is embedded in the binary; [`Solver::new`]
//! consults it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use super::solver::{Position, Shape, Solver, SolverError};

/// The 7 x 6 book, as `boardkit book connect4` wrote it.
static STANDARD_BYTES: &[u8] = include_bytes!("7x6.book");

const MAGIC: &str = "boardkit connect4 book v1";

/// Why a book file cannot be read.
#[derive(Debug)]
pub enum BookError {
    Header,
    Shape(SolverError),
    Count {
        found: usize,
        expected: usize,
        depth: u32,
    },
    Score {
        index: usize,
        score: i8,
    },
}

impl std::fmt::Display for BookError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BookError::Header => f.write_str("not a boardkit connect4 book (bad header)"),
            BookError::Shape(e) => e.fmt(f),
            BookError::Count {
                found,
                expected,
                depth,
            } => write!(
                f,
                "the book holds {found} scores, but {expected} positions have up to {depth} discs"
            ),
            BookError::Score { index, score } => {
                write!(f, "score {score} is out of range for position {index}")
            }
        }
    }
}

impl std::error::Error for BookError {}

impl From<SolverError> for BookError {
    fn from(e: SolverError) -> Self {
        BookError::Shape(e)
    }
}

/// Exact scores of every position of up to [`Book::depth`] discs.
pub struct Book {
    shape: Shape,
    depth: u32,
    /// Canonical keys, ascending; `scores[i]` is the score of `keys[i]`.
    keys: Vec<u64>,
    scores: Vec<i8>,
}

/// Every position reachable in `d` moves without a win, one per mirror pair,
/// sorted by canonical key; index `d` of the result, for `d` in `0..=depth`.
pub fn positions_by_depth(shape: Shape, depth: u32) -> Vec<Vec<Position>> {
    let mut levels = vec![vec![Position::empty(shape)]];
    for _ in 0..depth {
        let mut next: Vec<(u64, Position)> = Vec::new();
        for p in levels.last().expect("one level at least") {
            for col in 0..shape.width {
                if p.can_play(col) && !p.is_winning_move(col) {
                    let mut child = *p;
                    child.play_col(col);
                    next.push((child.canonical_key(), child));
                }
            }
        }
        next.sort_unstable_by_key(|&(key, _)| key);
        next.dedup_by_key(|&mut (key, _)| key);
        levels.push(next.into_iter().map(|(_, p)| p).collect());
    }
    levels
}

/// Reads a progress file of [`Book::generate`]'s solved scores, a line
/// `<index> <score>` each, into `total` slots; other lines are ignored (a
/// line cut short by a stop is only solved again).
pub fn read_progress(text: &str, total: usize) -> Vec<Option<i8>> {
    let mut known = vec![None; total];
    for line in text.lines() {
        let mut fields = line.split_whitespace();
        if let (Some(Ok(i)), Some(Ok(score)), None) = (
            fields.next().map(str::parse::<usize>),
            fields.next().map(str::parse::<i8>),
            fields.next(),
        ) {
            if let Some(slot) = known.get_mut(i) {
                *slot = Some(score);
            }
        }
    }
    known
}

/// One line of a progress file: see [`read_progress`].
pub fn progress_line(index: usize, score: i8) -> String {
    format!("{index} {score}\n")
}

impl Book {
    /// The 7 x 6 book embedded in the binary, loaded on first use; `None` for
    /// other shapes.
    pub fn standard(shape: Shape) -> Option<Arc<Book>> {
        static STANDARD: OnceLock<Arc<Book>> = OnceLock::new();
        if shape != Shape::standard() {
            return None;
        }
        Some(
            STANDARD
                .get_or_init(|| {
                    Arc::new(Book::parse(STANDARD_BYTES).expect("the embedded book is valid"))
                })
                .clone(),
        )
    }

    pub fn depth(&self) -> u32 {
        self.depth
    }

    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Positions held (one per mirror pair).
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The exact score of `p`, if it has at most [`Book::depth`] discs.
    pub fn get(&self, p: &Position) -> Option<i32> {
        if p.moves() > self.depth {
            return None;
        }
        let i = self.keys.binary_search(&p.canonical_key()).ok()?;
        Some(self.scores[i] as i32)
    }

    /// Pairs `scores_by_depth` (in the order of [`positions_by_depth`]) with
    /// their positions.
    fn from_levels(shape: Shape, levels: &[Vec<Position>], scores_by_depth: &[Vec<i8>]) -> Book {
        let mut pairs: Vec<(u64, i8)> = levels
            .iter()
            .zip(scores_by_depth)
            .flat_map(|(level, scores)| {
                level
                    .iter()
                    .zip(scores)
                    .map(|(p, &s)| (p.canonical_key(), s))
            })
            .collect();
        pairs.sort_unstable_by_key(|&(key, _)| key);
        Book {
            shape,
            depth: levels.len() as u32 - 1,
            keys: pairs.iter().map(|&(k, _)| k).collect(),
            scores: pairs.iter().map(|&(_, s)| s).collect(),
        }
    }

    /// The positions [`Book::generate`] solves, in the order of its
    /// `known` and `solved` indices.
    pub fn deepest_positions(shape: Shape, depth: u32) -> Vec<Position> {
        positions_by_depth(shape, depth)
            .pop()
            .expect("one level at least")
    }

    /// Solves every position of `depth` discs on `threads` threads, each with
    /// a table of `table_entries`, except those whose score `known` gives
    /// (indices of [`Book::deepest_positions`]); calls `solved(index, score)`
    /// for each one it solves, so a caller can save progress. Then scores
    /// the shallower positions from their children.
    pub fn generate(
        shape: Shape,
        depth: u32,
        threads: usize,
        table_entries: usize,
        known: &[Option<i8>],
        solved: &(dyn Fn(usize, i8) + Sync),
    ) -> Book {
        let levels = positions_by_depth(shape, depth);
        let deepest = &levels[depth as usize];
        let todo: Vec<usize> = (0..deepest.len())
            .filter(|&i| known.get(i).copied().flatten().is_none())
            .collect();
        let next = AtomicUsize::new(0);
        // Small chunks in key order: neighbours share subtrees in one table.
        const CHUNK: usize = 4;
        let mut scores: Vec<i8> = (0..deepest.len())
            .map(|i| known.get(i).copied().flatten().unwrap_or(0))
            .collect();
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads.max(1))
                .map(|_| {
                    scope.spawn(|| {
                        let mut solver = Solver::with_table(shape, table_entries);
                        solver.set_book(None);
                        let mut results = Vec::new();
                        loop {
                            let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                            if start >= todo.len() {
                                break results;
                            }
                            for &i in todo.iter().skip(start).take(CHUNK) {
                                let score = solver.solve(&deepest[i], false) as i8;
                                solved(i, score);
                                results.push((i, score));
                            }
                        }
                    })
                })
                .collect();
            for worker in workers {
                for (i, score) in worker.join().expect("a solver thread panicked") {
                    scores[i] = score;
                }
            }
        });
        let mut scores_by_depth = vec![Vec::new(); depth as usize + 1];
        scores_by_depth[depth as usize] = scores;
        for d in (0..depth as usize).rev() {
            let below: Vec<u64> = levels[d + 1].iter().map(|p| p.canonical_key()).collect();
            let below_scores = &scores_by_depth[d + 1];
            let scores = levels[d]
                .iter()
                .map(|p| {
                    score_from_children(p, |child| {
                        let i = below
                            .binary_search(&child.canonical_key())
                            .expect("every child is one level down");
                        below_scores[i] as i32
                    }) as i8
                })
                .collect();
            scores_by_depth[d] = scores;
        }
        Book::from_levels(shape, &levels, &scores_by_depth)
    }

    /// The file: the header line, then one byte per position.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = format!(
            "{MAGIC} {} {} {} {}\n",
            self.shape.width,
            self.shape.height,
            self.depth,
            self.keys.len()
        )
        .into_bytes();
        bytes.extend(self.scores.iter().map(|&s| s as u8));
        bytes
    }

    pub fn parse(bytes: &[u8]) -> Result<Book, BookError> {
        let end = bytes
            .iter()
            .position(|&b| b == b'\n')
            .ok_or(BookError::Header)?;
        let header = std::str::from_utf8(&bytes[..end]).map_err(|_| BookError::Header)?;
        let fields = header
            .strip_prefix(MAGIC)
            .ok_or(BookError::Header)?
            .split_whitespace()
            .map(|f| f.parse::<usize>().map_err(|_| BookError::Header))
            .collect::<Result<Vec<_>, _>>()?;
        let [width, height, depth, count] = fields[..] else {
            return Err(BookError::Header);
        };
        let shape = Shape::new(width, height)?;
        let depth = depth.min(shape.cells() as usize) as u32;
        let scores = &bytes[end + 1..];
        let levels = positions_by_depth(shape, depth);
        let expected = levels.iter().map(Vec::len).sum();
        if scores.len() != count || count != expected {
            return Err(BookError::Count {
                found: scores.len(),
                expected,
                depth,
            });
        }
        let mut keys: Vec<u64> = levels.iter().flatten().map(|p| p.canonical_key()).collect();
        keys.sort_unstable();
        let limit = (shape.cells() + 1) / 2;
        let scores: Vec<i8> = scores.iter().map(|&b| b as i8).collect();
        if let Some((index, &score)) = scores
            .iter()
            .enumerate()
            .find(|(_, s)| (**s as i32).abs() > limit)
        {
            return Err(BookError::Score { index, score });
        }
        Ok(Book {
            shape,
            depth,
            keys,
            scores,
        })
    }
}

/// The score of `p` from the scores of its children (none of which ends the
/// game): a win at once if there is one, else the best child, negated.
fn score_from_children(p: &Position, child_score: impl Fn(&Position) -> i32) -> i32 {
    let shape = p.shape();
    let cells = shape.cells();
    let moves = p.moves() as i32;
    if p.can_win_next() {
        return (cells + 1 - moves) / 2;
    }
    (0..shape.width)
        .filter(|&col| p.can_play(col))
        .map(|col| {
            let mut child = *p;
            child.play_col(col);
            -child_score(&child)
        })
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions per depth on 7 x 6 without mirror images: OEIS A212693
    /// counts 1, 7, 49, 238, 1120, 4263 with mirrors (4 discs: 1120).
    #[test]
    fn enumeration_counts_match_the_known_totals() {
        let shape = Shape::standard();
        let levels = positions_by_depth(shape, 5);
        assert_eq!(levels[1].len(), 4);
        // Two discs: 49 positions, one symmetric (both in the middle).
        assert_eq!(levels[2].len(), 25);
        let with_mirrors: Vec<usize> = levels
            .iter()
            .map(|level| {
                level
                    .iter()
                    .map(|p| if p.is_symmetric() { 1 } else { 2 })
                    .sum()
            })
            .collect();
        assert_eq!(with_mirrors, [1, 7, 49, 238, 1120, 4263]);
    }

    #[test]
    fn a_small_book_matches_the_solver_and_survives_its_file() {
        let shape = Shape::new(5, 4).unwrap();
        let book = Book::generate(shape, 6, 2, 1 << 16, &[], &|_, _| {});
        let again = Book::parse(&book.to_bytes()).unwrap();
        assert_eq!(again.keys, book.keys);
        assert_eq!(again.scores, book.scores);
        let mut solver = Solver::with_table(shape, 1 << 16);
        solver.set_book(None);
        for level in positions_by_depth(shape, 6) {
            for p in level {
                assert_eq!(book.get(&p), Some(solver.solve(&p, false)), "{p:?}");
            }
        }
    }

    #[test]
    fn progress_lines_read_back_and_bad_ones_are_skipped() {
        let text = [progress_line(2, -5), progress_line(0, 7)].concat() + "9 1\n1 x\n1\n1 2 3\n";
        assert_eq!(read_progress(&text, 4), [Some(7), None, Some(-5), None]);
    }

    #[test]
    fn damaged_files_are_refused() {
        let shape = Shape::new(5, 4).unwrap();
        let bytes = Book::generate(shape, 3, 1, 1 << 12, &[], &|_, _| {}).to_bytes();
        assert!(matches!(Book::parse(b"hello\n"), Err(BookError::Header)));
        assert!(matches!(
            Book::parse(&bytes[..bytes.len() - 1]),
            Err(BookError::Count { .. })
        ));
        let mut bad = bytes.clone();
        *bad.last_mut().unwrap() = 100;
        assert!(matches!(Book::parse(&bad), Err(BookError::Score { .. })));
    }
}
