//! Mastermind's function cases, and the answers accepted for each request of
//! the driver (`crate::harness::mastermind::answer`), computed with the
//! reference in the grader's process. Kit-only.

use crate::harness::mastermind::answer;
use crate::level::Level;
use crate::mastermind::Rules;

/// Every answer accepted for a request: a codebreaker may take 1 to 5 guesses.
pub fn accepted(request: &str) -> Vec<String> {
    if request.starts_with("codebreaker ") {
        return (1..=5).map(|n| n.to_string()).collect();
    }
    if request.starts_with("random_secret ") {
        return vec!["ok".to_owned()];
    }
    vec![answer(request)]
}

/// The function-level cases: (level, name, requests).
pub fn cases() -> Vec<crate::registry::FunctionCase> {
    use rand::SeedableRng;
    let rules = Rules::default();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2026);
    let mut pairs = vec![
        "score AABB ABAC".to_owned(),
        "score ABCD ABCD".to_owned(),
        "score AAAA ABCD".to_owned(),
    ];
    for _ in 0..3000 {
        let secret = crate::mastermind::random_secret(rules, &mut rng);
        let guess = crate::mastermind::random_secret(rules, &mut rng);
        pairs.push(format!("score {secret} {guess}"));
    }
    let repeated = [
        "AABB BBAA",
        "ABBB BAAA",
        "FFFA AFFF",
        "AABC CCAA",
        "EEEE EEEF",
        "ABAB BABA",
    ];
    let parses = [
        "ABCD",
        "abcd",
        " a b c d ",
        "a\tbcd",
        "ABC",
        "ABCDE",
        "",
        "ABCG",
        "AB1D",
        "A-CD",
        "ÁBCD",
    ];
    let secrets = |first: &str| -> Vec<String> {
        let all = (0..1296u32).map(|i| {
            (0..4)
                .rev()
                .map(|k| char::from(b'A' + (i / 6u32.pow(k) % 6) as u8))
                .collect::<String>()
        });
        all.filter(|s| first.contains(&s[..1]))
            .map(|s| format!("codebreaker {s}"))
            .collect()
    };
    vec![
        (Level::Basic, "score_random_pairs", pairs),
        (
            Level::Basic,
            "score_repeated_colours",
            repeated.iter().map(|p| format!("score {p}")).collect(),
        ),
        (
            Level::Basic,
            "parse_guess",
            parses.iter().map(|p| format!("parse {p}")).collect(),
        ),
        (
            Level::Basic,
            "random_secret_is_uniform_and_seeded",
            (1..=3)
                .map(|seed| format!("random_secret {seed}"))
                .collect(),
        ),
        (Level::Expert, "codebreaker_secrets_a_b", secrets("AB")),
        (Level::Expert, "codebreaker_secrets_c_d", secrets("CD")),
        (Level::Expert, "codebreaker_secrets_e_f", secrets("EF")),
    ]
}
