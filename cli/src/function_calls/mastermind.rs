//! Mastermind's function cases, and the answers accepted for each request of
//! the driver (`boardkit::harness::mastermind::answer`), computed with the
//! reference in the grader's process. Kit-only.

use super::case;
use boardkit::function_fixture::FunctionCase;
use boardkit::harness::mastermind::answer;
use boardkit::level::Level;
use boardkit::mastermind::Rules;

/// Every answer accepted for a request: a codebreaker may take 1 to 5 guesses.
pub(crate) fn accepted(request: &str) -> Vec<String> {
    if request.starts_with("codebreaker ") {
        return (1..=5).map(|n| n.to_string()).collect();
    }
    if request.starts_with("random_secret ") {
        return vec!["ok".to_owned()];
    }
    vec![answer(request)]
}

/// The function-level cases, their calls' arguments only (the accepted
/// answers are the reference's, added by the grader).
#[allow(
    clippy::too_many_lines,
    reason = "a table of cases: data, read case by case, not steps"
)]
pub(crate) fn cases() -> Vec<FunctionCase> {
    use rand::SeedableRng;
    let rules = Rules::default();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2026);
    let mut pairs = vec![
        "AABB ABAC".to_owned(),
        "ABCD ABCD".to_owned(),
        "AAAA ABCD".to_owned(),
    ];
    for _ in 0..3000 {
        let secret = boardkit::mastermind::random_secret(rules, &mut rng);
        let guess = boardkit::mastermind::random_secret(rules, &mut rng);
        pairs.push(format!("{secret} {guess}"));
    }
    let repeated = [
        "AABB ABAC",
        "ABCD DCBA",
        "ABCD EEFF",
        "ABCD AAAA",
        "AAAA ABCD",
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
        " a B\tc D ",
        "ABC",
        "ABCDE",
        "",
        "ABCG",
        "abcg",
        "AB1D",
        "A-CD",
        "ÁBCD",
        // Both wrong: the unknown colour is the error.
        "ABCDG",
        "ABG",
        "xyzzy",
    ];
    let secrets = |first: &str| -> Vec<String> {
        let all = (0..1296u32).map(|i| {
            (0..4)
                .rev()
                .map(|k| char::from(b'A' + (i / 6u32.pow(k) % 6) as u8))
                .collect::<String>()
        });
        all.filter(|s| first.contains(&s[..1])).collect()
    };
    vec![
        case(
            Level::Basic,
            "score_random_pairs",
            "score (secret, then guess) on random pairs",
            "score",
            pairs,
        ),
        case(
            Level::Basic,
            "score_repeated_colours",
            "score when colours repeat: whites count each colour at most as often as the secret holds it",
            "score",
            repeated.iter().map(|p| (*p).to_owned()).collect(),
        ),
        case(
            Level::Basic,
            "score_every_pair",
            "score agrees with the rules on every pair of the 1,296 codes",
            "score_every_pair",
            vec!["4 6".to_owned()],
        ),
        case(
            Level::Basic,
            "score_other_sizes",
            "score agrees with the rules on 20,000 pairs of games of other sizes",
            "score_sample",
            vec!["3 2 1".to_owned(), "5 8 2".to_owned(), "6 3 3".to_owned()],
        ),
        case(
            Level::Basic,
            "parse_guess",
            "parse_guess: either case, whitespace ignored; wrong lengths and unknown colours refused",
            "parse",
            parses.iter().map(|p| (*p).to_owned()).collect(),
        ),
        case(
            Level::Basic,
            "random_secret_is_uniform_and_reproducible",
            "random_secret draws valid codes, uniformly, the same for the same generator",
            "random_secret",
            (1..=3).map(|seed: usize| seed.to_string()).collect(),
        ),
        case(
            Level::Expert,
            "codebreaker_secrets_a_b",
            "the codebreaker finds every secret starting with A or B in at most 5 guesses",
            "codebreaker",
            secrets("AB"),
        ),
        case(
            Level::Expert,
            "codebreaker_secrets_c_d",
            "the codebreaker finds every secret starting with C or D in at most 5 guesses",
            "codebreaker",
            secrets("CD"),
        ),
        case(
            Level::Expert,
            "codebreaker_secrets_e_f",
            "the codebreaker finds every secret starting with E or F in at most 5 guesses",
            "codebreaker",
            secrets("EF"),
        ),
    ]
}
