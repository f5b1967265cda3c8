//! The function-level driver for Mastermind: one request line in, one
//! answer out, through the graded functions only. Part of the kit (copied as
//! is into starters and graded crates).
//!
//! Requests: `score <secret> <guess>` (answer `<black> <white>`),
//! `parse <text>` (the code, or `length` / `colour` for the error).

use super::code::{GuessError, Rules, parse_guess, score};

/// The answer to one request (see the module documentation).
pub fn answer(request: &str) -> String {
    let rules = Rules::default();
    let (function, argument) = request.split_once(' ').unwrap_or((request, ""));
    match function {
        "score" => {
            let mut codes = argument.split_whitespace().map(|c| parse_guess(c, rules));
            match (codes.next(), codes.next()) {
                (Some(Ok(secret)), Some(Ok(guess))) => {
                    let s = score(&secret, &guess);
                    format!("{} {}", s.black, s.white)
                }
                _ => format!("bad request: {request}"),
            }
        }
        "parse" => match parse_guess(argument, rules) {
            Ok(code) => code.to_string(),
            Err(GuessError::WrongLength { .. }) => "length".to_owned(),
            Err(GuessError::UnknownColor { .. }) => "colour".to_owned(),
        },
        _ => format!("bad request: {request}"),
    }
}

/// The function-level cases of the basic level: (name, requests).
pub fn cases() -> Vec<(&'static str, Vec<String>)> {
    use rand::SeedableRng;
    let rules = Rules::default();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2026);
    let mut pairs = vec![
        "score AABB ABAC".to_owned(),
        "score ABCD ABCD".to_owned(),
        "score AAAA ABCD".to_owned(),
    ];
    for _ in 0..3000 {
        let secret = super::code::random_secret(rules, &mut rng);
        let guess = super::code::random_secret(rules, &mut rng);
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
    vec![
        ("score_random_pairs", pairs),
        (
            "score_repeated_colours",
            repeated.iter().map(|p| format!("score {p}")).collect(),
        ),
        (
            "parse_guess",
            parses.iter().map(|p| format!("parse {p}")).collect(),
        ),
    ]
}

/// The graded events of a transcript (SPEC 3.3): each `<B> black, <W>
/// white`, the `Secret:` line and the result; other text is ignored.
pub fn events(text: &str) -> Vec<String> {
    let mut events = Vec::new();
    for line in text.lines() {
        let line = line.trim_end();
        if let Some(at) = line.find(" black, ") {
            let black = line[..at]
                .rsplit(|c: char| !c.is_ascii_digit())
                .next()
                .unwrap_or("");
            let white = line[at + 8..]
                .split(|c: char| !c.is_ascii_digit())
                .next()
                .unwrap_or("");
            if line[at + 8 + white.len()..].starts_with(" white") {
                events.push(format!("{black} black, {white} white"));
            }
        }
        if let Some(at) = line.find("Secret: ") {
            let code: String = line[at + 8..]
                .chars()
                .take_while(|c| c.is_ascii_alphabetic())
                .collect();
            events.push(format!("Secret: {}", code.to_ascii_uppercase()));
        }
        for result in ["You win", "You lose!"] {
            if line.ends_with(result) {
                events.push(result.into());
            }
        }
    }
    events
}
