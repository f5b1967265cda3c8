//! The function-level driver for Mastermind: one request line in, one
//! answer out, through the graded functions only. Part of the kit (copied as
//! is into starters and graded crates).
//!
//! Requests: `score <secret> <guess>` (answer `<black> <white>`),
//! `parse <text>` (the code, or `length` / `colour` for the error),
//! `codebreaker <secret>` (the number of guesses the codebreaker needs,
//! scored by this driver's own rules, not the student's `score`).

use super::code::{GuessError, Rules, Score, parse_guess, score};
use super::program::DecodingBoard;
use crate::game::Level;

/// The kit's own scoring, so a codebreaker is judged on true scores.
fn kit_score(secret: &[u8], guess: &[u8]) -> (u8, u8) {
    let black = secret.iter().zip(guess).filter(|(s, g)| s == g).count() as u8;
    let common: u8 = (0..26u8)
        .map(|c| {
            secret
                .iter()
                .filter(|&&s| s == c)
                .count()
                .min(guess.iter().filter(|&&g| g == c).count()) as u8
        })
        .sum();
    (black, common - black)
}

fn codebreaker_guesses(secret: &str) -> Option<String> {
    let rules = Rules::default();
    let pegs: Vec<u8> = secret
        .bytes()
        .map(|b| b.checked_sub(b'A'))
        .collect::<Option<_>>()?;
    if pegs.len() != 4 || pegs.iter().any(|&p| p >= 6) {
        return None;
    }
    // One codebreaker plays every secret in turn, as a player would; the
    // board it is shown always says which game it is in.
    thread_local! {
        static BREAKER: std::cell::RefCell<Option<Box<dyn crate::player::Strategy<DecodingBoard, super::code::Code>>>> =
            const { std::cell::RefCell::new(None) };
    }
    let mut breaker = BREAKER
        .with(|b| b.borrow_mut().take())
        .unwrap_or_else(|| super::solver::codebreaker(rules));
    let mut board = DecodingBoard {
        rules,
        turns: 10,
        guesses: Vec::new(),
    };
    for turn in 1..=10 {
        let guess = breaker.choose(&board);
        let (black, white) = kit_score(&pegs, guess.pegs());
        if black == 4 && guess.pegs().len() == 4 {
            BREAKER.with(|b| *b.borrow_mut() = Some(breaker));
            return Some(turn.to_string());
        }
        board.guesses.push((guess, Score { black, white }));
    }
    BREAKER.with(|b| *b.borrow_mut() = Some(breaker));
    Some("not found in 10 guesses".to_owned())
}

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
        "codebreaker" => {
            codebreaker_guesses(argument).unwrap_or_else(|| format!("bad request: {request}"))
        }
        "parse" => match parse_guess(argument, rules) {
            Ok(code) => code.to_string(),
            Err(GuessError::WrongLength { .. }) => "length".to_owned(),
            Err(GuessError::UnknownColor { .. }) => "colour".to_owned(),
        },
        _ => format!("bad request: {request}"),
    }
}

/// Every answer accepted for a request: a codebreaker may take 1 to 5 guesses.
pub fn accepted(request: &str) -> Vec<String> {
    if request.starts_with("codebreaker ") {
        return (1..=5).map(|n| n.to_string()).collect();
    }
    vec![answer(request)]
}

/// The function-level cases: (level, name, requests).
pub fn cases() -> Vec<crate::game::FunctionCase> {
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
        (Level::Expert, "codebreaker_secrets_a_b", secrets("AB")),
        (Level::Expert, "codebreaker_secrets_c_d", secrets("CD")),
        (Level::Expert, "codebreaker_secrets_e_f", secrets("EF")),
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
