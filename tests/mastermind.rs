//! Mastermind, level by level: `cargo test --test mastermind basic` (or
//! `proficient`, `advanced`, `expert`) runs one level. Only what EXERCISE.md
//! names is called: any solution that follows it can pass.
//!
//! - basic: scoring against an oracle written here (a plain peg-by-peg count
//!   of matches, not the library's multiset formula) over all 1,296 x 1,296
//!   pairs; parsing; secrets judged by their distribution, never by the
//!   draws themselves.
//! - proficient, advanced: one scripted session per file in
//!   `fixtures/mastermind`, replayed through the binary and compared by graded
//!   events (each score, the secret, the result: prompts are free).
//! - advanced::property: arbitrary bytes never make the game crash or hang.
//! - expert: one codebreaker against every secret.

mod common;

use common::check;

use std::collections::BTreeMap;

use boardkit::given::mastermind::{Code, DecodingBoard, GuessError, Rules, Score};
use boardkit::harness::mastermind::LEVELS;
use boardkit::mastermind;
use libtest_mimic::{Failed, Trial};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn main() {
    let mut trials = basic_trials();
    trials.extend(common::fixture_trials("mastermind", LEVELS));
    trials.extend(property_trials());
    trials.extend(expert_trials());
    common::run(trials);
}

/// The oracle: blacks peg by peg, then whites by pairing each remaining
/// guess peg with an unused secret peg of its colour.
fn oracle(secret: &[u8], guess: &[u8]) -> (u8, u8) {
    let mut used_secret = vec![false; secret.len()];
    let mut used_guess = vec![false; guess.len()];
    let mut black = 0;
    for i in 0..secret.len() {
        if secret[i] == guess[i] {
            black += 1;
            used_secret[i] = true;
            used_guess[i] = true;
        }
    }
    let mut white = 0;
    for (i, &g) in guess.iter().enumerate() {
        if used_guess[i] {
            continue;
        }
        if let Some(j) = (0..secret.len()).find(|&j| !used_secret[j] && secret[j] == g) {
            used_secret[j] = true;
            white += 1;
        }
    }
    (black, white)
}

fn code(text: &str) -> Code {
    mastermind::parse_guess(text, Rules::default()).expect("a valid code")
}

fn basic_trials() -> Vec<Trial> {
    let mut trials = vec![
        common::trial(
            "basic::score::all_1296_by_1296_pairs_match_a_plain_count",
            || {
                let codes: Vec<Code> = Code::all(Rules::default());
                for secret in &codes {
                    for guess in &codes {
                        let got = mastermind::score(secret, guess);
                        let (black, white) = oracle(secret.pegs(), guess.pegs());
                        check(got == Score { black, white }, || {
                            format!(
                                "secret {secret}, guess {guess}: expected {black} black, {white} white; got {got}"
                            )
                        })?;
                        check(got == mastermind::score(guess, secret), || {
                            format!("{secret}/{guess} is not symmetric")
                        })?;
                        check(got.black + got.white <= 4, || {
                            format!("{secret}/{guess}: more than 4 pegs")
                        })?;
                    }
                }
                Ok(())
            },
        ),
        common::trial("basic::score::other_sizes_match_a_plain_count", || {
            for (pegs, colors) in [(3, 2), (5, 8), (6, 3)] {
                let rules = Rules::new(pegs, colors).map_err(|e| e.to_string())?;
                let mut rng = ChaCha8Rng::seed_from_u64(pegs as u64);
                for _ in 0..20_000 {
                    let (s, g) = (
                        mastermind::random_secret(rules, &mut rng),
                        mastermind::random_secret(rules, &mut rng),
                    );
                    let (black, white) = oracle(s.pegs(), g.pegs());
                    let got = mastermind::score(&s, &g);
                    check(got == Score { black, white }, || {
                        format!("{s}/{g}: expected {black}/{white}, got {got}")
                    })?;
                }
            }
            Ok(())
        }),
        common::trial(
            "basic::random_secret::uniform_valid_and_reproducible",
            || {
                let rules = Rules::default();
                let mut counts: BTreeMap<String, u32> = BTreeMap::new();
                let mut rng = ChaCha8Rng::seed_from_u64(7);
                for _ in 0..129_600 {
                    let secret = mastermind::random_secret(rules, &mut rng);
                    check(
                        secret.pegs().len() == 4 && secret.pegs().iter().all(|&p| p < 6),
                        || format!("{secret:?} is not a code of 4 pegs A to F"),
                    )?;
                    *counts.entry(secret.to_string()).or_default() += 1;
                }
                // 100 expected draws per code: every code appears, none wildly often.
                check(counts.len() == 1296, || {
                    format!("only {} of 1296 codes drawn", counts.len())
                })?;
                check(counts.values().all(|&n| (40..=170).contains(&n)), || {
                    "the draw is far from uniform".into()
                })?;
                let draw =
                    |seed| mastermind::random_secret(rules, &mut ChaCha8Rng::seed_from_u64(seed));
                check(draw(42) == draw(42), || {
                    "the same seed gave two secrets".into()
                })
            },
        ),
    ];
    let scores: [(&str, &str, &str, u8, u8); 9] = [
        ("spec_example", "AABB", "ABAC", 1, 2),
        ("all_black", "ABCD", "ABCD", 4, 0),
        ("all_white", "ABCD", "DCBA", 0, 4),
        ("nothing", "ABCD", "EEFF", 0, 0),
        ("repeated_in_guess", "ABCD", "AAAA", 1, 0),
        ("repeated_in_secret", "AAAA", "ABCD", 1, 0),
        ("repeated_both", "AABB", "BBAA", 0, 4),
        ("three_of_a_kind", "ABBB", "BAAA", 0, 2),
        ("mixed_repeats", "FFFA", "AFFF", 2, 2),
    ];
    for (name, secret, guess, black, white) in scores {
        trials.push(common::trial(format!("basic::score::{name}"), move || {
            let got = mastermind::score(&code(secret), &code(guess));
            check(got == Score { black, white }, || {
                format!("secret {secret}, guess {guess}: expected {black} black, {white} white; got {got}")
            })
        }));
    }
    let parses: [(&str, &str, Result<&str, GuessError>); 7] = [
        ("upper", "ABCD", Ok("ABCD")),
        ("lower", "abcd", Ok("ABCD")),
        ("spaces_and_tabs", " a B\tc D ", Ok("ABCD")),
        (
            "too_short",
            "ABC",
            Err(GuessError::WrongLength {
                expected: 4,
                got: 3,
            }),
        ),
        (
            "too_long",
            "ABCDE",
            Err(GuessError::WrongLength {
                expected: 4,
                got: 5,
            }),
        ),
        (
            "unknown_letter",
            "ABCG",
            Err(GuessError::UnknownColor {
                found: 'G',
                last: 'F',
            }),
        ),
        (
            "digit",
            "AB1D",
            Err(GuessError::UnknownColor {
                found: '1',
                last: 'F',
            }),
        ),
    ];
    for (name, text, expected) in parses {
        trials.push(common::trial(
            format!("basic::parse_guess::{name}"),
            move || {
                let got = mastermind::parse_guess(text, Rules::default()).map(|c| c.to_string());
                let expected = expected.map(str::to_owned);
                check(got == expected, || {
                    format!("parse_guess({text:?}): expected {expected:?}, got {got:?}")
                })
            },
        ));
    }
    trials
}

fn property_trials() -> Vec<Trial> {
    vec![common::trial(
        "advanced::property::arbitrary_bytes_never_crash_or_hang",
        || common::survives_arbitrary_input("mastermind", b"ABCDEFabcdefg \t\r\n", 60),
    )]
}

/// Plays `breaker` against every secret of the standard game; returns the
/// total number of guesses and the most any secret took. Each game is checked
/// by the kit: scores computed here, the secret found.
fn play_every_secret(
    breaker: &mut dyn boardkit::player::Strategy<DecodingBoard, Code>,
) -> Result<(usize, usize), Failed> {
    let rules = Rules::default();
    let (mut total, mut max) = (0, 0);
    for secret in Code::all(rules) {
        let mut board = DecodingBoard {
            rules,
            turns: 10,
            guesses: Vec::new(),
        };
        loop {
            check(board.guesses.len() < 10, || {
                format!("secret {secret}: not found in 10 guesses")
            })?;
            let guess = breaker.choose(&board);
            check(
                guess.pegs().len() == 4 && guess.pegs().iter().all(|&p| p < 6),
                || format!("{guess:?} is not a code"),
            )?;
            let (black, white) = oracle(secret.pegs(), guess.pegs());
            board.guesses.push((guess, Score { black, white }));
            if black == 4 {
                break;
            }
        }
        total += board.guesses.len();
        max = max.max(board.guesses.len());
    }
    Ok((total, max))
}

fn expert_trials() -> Vec<Trial> {
    vec![common::trial(
        "expert::codebreaker::finds_every_secret_in_at_most_5_guesses",
        || {
            let (total, max) = play_every_secret(&mut *mastermind::codebreaker(Rules::default()))?;
            check(max <= 5, || {
                format!("a secret took {max} guesses (total {total})")
            })
        },
    )]
}
