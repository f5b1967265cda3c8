//! The kit's side of the Mastermind exercise, shipped as is with every
//! starter: its levels and how they are compared, the program's options, and
//! the function driver. It calls only the API that EXERCISE.md names.

use std::io::{BufRead, Write};

use rand::SeedableRng;

use crate::cli::PlayError;
use crate::given::mastermind::{Code, DecodingBoard, GuessError, Rules, Score};
use crate::level::{Graded, Level, LevelInfo};
use crate::mastermind;

/// The levels of Mastermind and how each is graded.
pub const LEVELS: &[LevelInfo] = &[
    LevelInfo {
        level: Level::Basic,
        graded: Graded::Functions(&["score", "random_secret", "parse_guess"]),
        summary: "score a guess (black and white pegs), generate a secret, parse a guess",
    },
    LevelInfo {
        level: Level::Proficient,
        graded: Graded::Program(events),
        summary: "the game program: 10 turns, feedback, result",
    },
    LevelInfo {
        level: Level::Advanced,
        graded: Graded::Program(events),
        summary: "input validation: wrong length, unknown colour, re-ask without losing a turn",
    },
    LevelInfo {
        level: Level::Expert,
        graded: Graded::Functions(&["codebreaker"]),
        summary: "a codebreaker that finds any secret in at most 5 guesses",
    },
];

/// The options of `play mastermind`.
#[derive(Debug, Clone, clap::Args)]
pub struct PlayArgs {
    /// The secret code (letters, either case), instead of a random one.
    #[arg(long, conflicts_with = "seed")]
    pub secret: Option<String>,
    /// Seed for drawing the secret, so a game can be replayed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Pegs in a code (1 to 10).
    #[arg(long, default_value_t = 4)]
    pub pegs: usize,
    /// Number of colours, letters from A (2 to 26).
    #[arg(long, default_value_t = 6)]
    pub colors: usize,
    /// Guesses allowed (1 to 100).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(1..=100))]
    pub turns: u8,
}

/// A code written as letters (either case, whitespace ignored), read by the
/// kit itself: the options and requests never go through student code.
pub fn code(text: &str, rules: Rules) -> Option<Code> {
    let pegs: Vec<u8> = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| {
            let index = (c.to_ascii_uppercase() as u32).wrapping_sub('A' as u32) as usize;
            (c.is_ascii_alphabetic() && index < rules.colors()).then_some(index as u8)
        })
        .collect::<Option<_>>()?;
    (pegs.len() == rules.pegs()).then(|| Code::from_colors(pegs))
}

impl PlayArgs {
    /// The game's rules, or a usage error.
    pub fn rules(&self) -> Result<Rules, PlayError> {
        Rules::new(self.pegs, self.colors).map_err(|e| PlayError::Usage(e.to_string()))
    }

    /// The secret: `--secret`, else one drawn by the statement's
    /// [`mastermind::random_secret`] from `--seed` (or a random seed).
    pub fn secret(&self, rules: Rules) -> Result<Code, PlayError> {
        match &self.secret {
            Some(text) => code(text, rules).ok_or_else(|| {
                PlayError::Usage(format!(
                    "invalid --secret {text:?}: expected {} letters A to {}",
                    rules.pegs(),
                    rules.last_letter()
                ))
            }),
            None => {
                let seed = self.seed.unwrap_or_else(rand::random);
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                Ok(mastermind::random_secret(rules, &mut rng))
            }
        }
    }
}

/// Plays the student's program ([`mastermind::play`]) as the options say.
pub fn play(
    args: &PlayArgs,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Result<(), PlayError> {
    let rules = args.rules()?;
    let secret = args.secret(rules)?;
    mastermind::play(&secret, rules, args.turns.into(), input, output).map_err(PlayError::from_io)
}

/// The kit's own scoring, so a codebreaker is judged on true scores.
fn kit_score(secret: &[u8], guess: &[u8]) -> Score {
    let black = secret.iter().zip(guess).filter(|(s, g)| s == g).count() as u8;
    let common: u8 = (0..26u8)
        .map(|c| {
            let count = |code: &[u8]| code.iter().filter(|&&p| p == c).count();
            count(secret).min(count(guess)) as u8
        })
        .sum();
    Score {
        black,
        white: common - black,
    }
}

thread_local! {
    /// One codebreaker plays every secret in turn, as a player would; the
    /// board it is shown always says which game it is in.
    static BREAKER: std::cell::RefCell<Option<Box<dyn crate::player::Strategy<DecodingBoard, Code>>>> =
        const { std::cell::RefCell::new(None) };
}

/// How many guesses the statement's codebreaker needs for `secret`.
fn codebreaker_guesses(secret: &Code) -> String {
    let rules = Rules::default();
    let mut breaker = BREAKER
        .with(|b| b.borrow_mut().take())
        .unwrap_or_else(|| mastermind::codebreaker(rules));
    let mut board = DecodingBoard {
        rules,
        turns: 10,
        guesses: Vec::new(),
    };
    let mut found = None;
    for turn in 1..=10 {
        let guess = breaker.choose(&board);
        let score = kit_score(secret.pegs(), guess.pegs());
        if guess == *secret {
            found = Some(turn);
            break;
        }
        board.guesses.push((guess, score));
    }
    BREAKER.with(|b| *b.borrow_mut() = Some(breaker));
    found.map_or("not found in 10 guesses".to_owned(), |n| n.to_string())
}

/// How many secrets a `random_secret` request draws.
pub const SECRET_DRAWS: usize = 12_960;

/// Draws [`SECRET_DRAWS`] secrets with `seed`: `ok` when every one is a code
/// of the rules, each colour shows at each place about as often as any
/// other, and the same seed draws the same secrets; else what is wrong.
fn random_secret_check(seed: u64) -> String {
    let rules = Rules::default();
    let draw = |n: usize| {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        (0..n)
            .map(|_| mastermind::random_secret(rules, &mut rng))
            .collect::<Vec<_>>()
    };
    let secrets = draw(SECRET_DRAWS);
    if let Some(bad) = secrets
        .iter()
        .find(|s| s.pegs().len() != 4 || s.pegs().iter().any(|&p| p >= 6))
    {
        return format!("not a code of 4 pegs A to F: {:?}", bad.pegs());
    }
    let mut counts = [[0usize; 6]; 4];
    for secret in &secrets {
        for (place, &peg) in secret.pegs().iter().enumerate() {
            counts[place][peg as usize] += 1;
        }
    }
    // 2,160 expected each; a fair draw stays within 10% by a wide margin.
    for (place, colours) in counts.iter().enumerate() {
        for (colour, &n) in colours.iter().enumerate() {
            if !(1944..=2376).contains(&n) {
                return format!(
                    "not uniform: colour {} at place {} drawn {n} times in {SECRET_DRAWS} (about 2160 expected)",
                    (b'A' + colour as u8) as char,
                    place + 1
                );
            }
        }
    }
    if draw(50) != secrets[..50] {
        return "the same seed drew other secrets: draw only from the generator given".into();
    }
    "ok".into()
}

/// The function driver: one request in, one answer out, through the
/// statement's API only.
///
/// - `score <secret> <guess>`: `<black> <white>`.
/// - `parse <text>`: the code, or `length` / `colour` for the error.
/// - `random_secret <seed>`: `ok`, or what is wrong with the draws.
/// - `codebreaker <secret>`: how many guesses the codebreaker needs (scored
///   by the kit's own rules, not the student's `score`).
pub fn answer(request: &str) -> String {
    let rules = Rules::default();
    let bad = || format!("bad request: {request}");
    let (function, argument) = request.split_once(' ').unwrap_or((request, ""));
    match function {
        "score" => {
            let mut codes = argument.split_whitespace().map(|c| code(c, rules));
            match (codes.next(), codes.next()) {
                (Some(Some(secret)), Some(Some(guess))) => {
                    let s = mastermind::score(&secret, &guess);
                    format!("{} {}", s.black, s.white)
                }
                _ => bad(),
            }
        }
        "parse" => match mastermind::parse_guess(argument, rules) {
            Ok(code) => code.to_string(),
            Err(GuessError::WrongLength { .. }) => "length".to_owned(),
            Err(GuessError::UnknownColor { .. }) => "colour".to_owned(),
        },
        "random_secret" => argument
            .trim()
            .parse()
            .map_or_else(|_| bad(), random_secret_check),
        "codebreaker" => code(argument, rules).map_or_else(bad, |s| codebreaker_guesses(&s)),
        _ => bad(),
    }
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
