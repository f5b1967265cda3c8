//! Mastermind codebreakers over all 1,296 secrets (SPEC 6): total guesses,
//! the most any secret takes, and the time to play every game, against the
//! published totals (Knuth 5801, Kooi 5668, optimum 5625).
//!
//! Run: `cargo bench --bench mastermind`.

use std::time::Instant;

use boardkit::mastermind::solver::{Codebreaker, Criterion, solve};
use boardkit::mastermind::{Code, Rules};

fn main() {
    let rules = Rules::default();
    println!(
        "{:<14} {:>6} {:>8} {:>4} {:>10}",
        "strategy", "total", "average", "max", "time"
    );
    for criterion in Criterion::ALL {
        let mut times = Vec::new();
        let (mut total, mut max) = (0, 0);
        for _ in 0..5 {
            let started = Instant::now();
            let mut breaker = Codebreaker::new(rules, criterion).expect("the standard game");
            (total, max) = (0, 0);
            for secret in Code::all(rules) {
                let n = solve(&mut breaker, rules, &secret, 20).guesses.len();
                total += n;
                max = max.max(n);
            }
            times.push(started.elapsed().as_secs_f64() * 1000.0);
        }
        times.sort_by(f64::total_cmp);
        println!(
            "{:<14} {total:>6} {:>8.3} {max:>4} {:>7.1} ms (median of 5, all 1,296 games)",
            criterion.name(),
            total as f64 / 1296.0,
            times[2]
        );
    }
}
