//! Connect-four strong solver over the six standard sets (SPEC 6): every
//! score checked, mean positions explored and mean time per position, next
//! to the reference C++ solver's published means.
//!
//! Run: `cargo bench --bench connect4 [-- --lines N --every K --sets A,B --data DIR --no-book]`.
//! `--lines N` takes the first N lines of each set (default: all; Begin-Hard
//! takes seconds a position); `--every K` takes one line in K, a sample
//! spread over the whole set. The data defaults to `../shared/data/connect4`
//! beside the repository. As in the reference harness, the table is cleared
//! before each position (not timed), so positions explored compare. The
//! embedded opening book answers positions of up to its depth; `--no-book`
//! searches everything, as the reference does.

use std::path::PathBuf;
use std::time::Instant;

use boardkit::connect4::solver::{Position, Shape, Solver};

const SETS: [(&str, &str, f64, f64); 6] = [
    ("Test_L3_R1", "End-Easy", 51.28, 4.568e-6),
    ("Test_L2_R1", "Middle-Easy", 449.6, 37.45e-6),
    ("Test_L2_R2", "Middle-Medium", 39_900.0, 3.212e-3),
    ("Test_L1_R1", "Begin-Easy", 3_298.0, 254.6e-6),
    ("Test_L1_R2", "Begin-Medium", 1_201_000.0, 96.63e-3),
    ("Test_L1_R3", "Begin-Hard", 65_920_000.0, 5.490),
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let lines: usize = value("--lines")
        .and_then(|v| v.parse().ok())
        .unwrap_or(usize::MAX);
    let every: usize = value("--every")
        .and_then(|v| v.parse().ok())
        .unwrap_or(1)
        .max(1);
    // `--sets Test_L3_R1,Test_L2_R1` (file names) or `--sets End-Easy,...` (names).
    let sets: Option<Vec<String>> =
        value("--sets").map(|v| v.split(',').map(str::to_owned).collect());
    let data = value("--data").map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/connect4")
    });
    let shape = Shape::standard();
    let mut solver = Solver::new(shape);
    if args.iter().any(|a| a == "--no-book") {
        solver.set_book(None);
    }
    match solver.book() {
        Some(book) => println!(
            "opening book: every position of up to {} discs ({} positions)",
            book.depth(),
            book.len()
        ),
        None => println!("no opening book"),
    }
    println!(
        "{:<14} {:>6} {:>6} {:>9} {:>14} {:>14} {:>12} {:>12}",
        "set", "lines", "wrong", "in book", "mean positions", "published", "mean time", "published"
    );
    let book_depth = solver.book().map(|b| b.depth());
    for (file, name, published_nodes, published_time) in SETS {
        if sets
            .as_ref()
            .is_some_and(|s| !s.iter().any(|x| x == file || x == name))
        {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(data.join(file)) else {
            println!("{name:<14} (no data at {})", data.join(file).display());
            continue;
        };
        let (mut count, mut wrong, mut nodes, mut seconds) = (0u64, 0u64, 0u64, 0f64);
        let mut in_book = 0u64;
        for line in text.lines().step_by(every).take(lines) {
            let mut fields = line.split_whitespace();
            let (Some(moves), Some(expected)) = (
                fields.next(),
                fields.next().and_then(|s| s.parse::<i32>().ok()),
            ) else {
                continue;
            };
            let position = Position::from_moves(shape, moves).expect("a legal position");
            solver.clear();
            solver.reset_nodes();
            let started = Instant::now();
            let score = solver.solve(&position, false);
            seconds += started.elapsed().as_secs_f64();
            nodes += solver.nodes;
            count += 1;
            wrong += u64::from(score != expected);
            in_book += u64::from(book_depth.is_some_and(|d| position.moves() <= d));
        }
        let mean_time = seconds / count.max(1) as f64;
        println!(
            "{name:<14} {count:>6} {wrong:>6} {in_book:>9} {:>14.1} {published_nodes:>14.1} {:>12} {:>12}",
            nodes as f64 / count.max(1) as f64,
            human(mean_time),
            human(published_time)
        );
    }
}

fn human(seconds: f64) -> String {
    if seconds >= 1.0 {
        format!("{seconds:.3} s")
    } else if seconds >= 1e-3 {
        format!("{:.3} ms", seconds * 1e3)
    } else {
        format!("{:.2} us", seconds * 1e6)
    }
}
