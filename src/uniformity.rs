//! Whether draws are uniform, with both bounds: every value must come up
//! neither too rarely nor too often. Shipped with every starter; the drivers
//! of connect four's players and Mastermind's `random_secret` use it, so the
//! starter's tests and the grader judge a random draw the same way.
//!
//! Each value's count is a binomial variable of mean `mu`. By the
//! multiplicative Chernoff bound, `P(|count - mu| >= delta * mu) <= 2
//! exp(-delta^2 mu / 3)` for `0 < delta <= 1`; `delta` is chosen so that
//! this, summed over the values, is at most the false alarm asked for. A
//! uniform draw then fails with at most that probability, and a draw whose
//! likeliest value comes up 1.5 times as often as it should fails whenever
//! `delta` is well under 0.5 (enough draws: see [`tolerance`]).

/// A value drawn too rarely or too often.
#[derive(Debug, Clone, PartialEq)]
pub struct Skew {
    /// Its index in the counts.
    pub index: usize,
    pub count: usize,
    /// The count a uniform draw averages.
    pub expected: f64,
    /// How far from `expected` a uniform draw may stray.
    pub tolerance: f64,
    pub draws: usize,
}

impl std::fmt::Display for Skew {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "drawn {} times in {} draws where a uniform draw gives {:.0} +- {:.0}",
            self.count, self.draws, self.expected, self.tolerance
        )
    }
}

/// How far (a fraction of the mean `mu`) one of `values` counts may stray
/// when the whole test may fail a uniform draw with probability
/// `false_alarm`.
pub fn tolerance(values: usize, mu: f64, false_alarm: f64) -> f64 {
    (3.0 * (2.0 * values as f64 / false_alarm).ln() / mu).sqrt()
}

/// Checks `counts` (how often each of equally likely values came up): the
/// value furthest outside its tolerance, if any.
pub fn check(counts: &[usize], false_alarm: f64) -> Result<(), Skew> {
    let draws: usize = counts.iter().sum();
    if counts.is_empty() || draws == 0 {
        return Ok(());
    }
    let mu = draws as f64 / counts.len() as f64;
    let delta = tolerance(counts.len(), mu, false_alarm);
    let allowed = delta * mu;
    let worst = counts
        .iter()
        .enumerate()
        .max_by(|a, b| {
            let off = |n: usize| (n as f64 - mu).abs();
            off(*a.1).total_cmp(&off(*b.1))
        })
        .map(|(i, &n)| (i, n))
        .expect("not empty");
    if (worst.1 as f64 - mu).abs() > allowed {
        return Err(Skew {
            index: worst.0,
            count: worst.1,
            expected: mu,
            tolerance: allowed,
            draws,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// Draws `n` values of `k` from `weights` (the first value's weight, the
    /// others 1), counted.
    fn counts(k: usize, first: f64, n: usize, seed: u64) -> Vec<usize> {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let total = first + (k - 1) as f64;
        let mut counts = vec![0; k];
        for _ in 0..n {
            let x: f64 = rng.random::<f64>() * total;
            let i = if x < first {
                0
            } else {
                1 + ((x - first) as usize).min(k - 2)
            };
            counts[i] += 1;
        }
        counts
    }

    #[test]
    fn a_uniform_draw_passes_and_a_skewed_one_fails() {
        for k in 2..=7 {
            for seed in 0..20 {
                let n = 2000 * k;
                assert_eq!(check(&counts(k, 1.0, n, seed), 1e-6), Ok(()), "k {k}");
                // The likeliest value 1.5 times as often as uniform.
                let first = 1.5 * (k - 1) as f64 / (k as f64 - 1.5);
                let skew = check(&counts(k, first, n, seed), 1e-6).unwrap_err();
                // With two values the other one strays as far.
                assert!(skew.index == 0 || k == 2, "k {k}: {skew}");
            }
        }
    }

    #[test]
    fn the_tolerance_follows_the_chernoff_bound() {
        // 7 columns, 2,000 draws each, one in a million: about 15.7%.
        let delta = tolerance(7, 2000.0, 1e-6);
        assert!((0.15..0.16).contains(&delta), "{delta}");
        // The bound it rests on is met at that tolerance.
        let bound = 7.0 * 2.0 * (-delta * delta * 2000.0 / 3.0).exp();
        assert!(bound <= 1e-6 * 1.0001, "{bound}");
    }
}
