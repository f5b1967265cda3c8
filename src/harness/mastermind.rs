//! The kit's side of the Mastermind exercise, shipped as is with every
//! starter: its levels and how they are compared, the program's options, and
//! the function driver. It calls only the API that EXERCISE.md names.

use std::io::{BufRead, Write};

use rand::SeedableRng;

use crate::given::mastermind::{Code, DecodingBoard, GuessError, Rules, Score};
use crate::level::{Graded, Level, LevelInfo};
use crate::mastermind;
use crate::program::PlayError;

/// The levels of Mastermind and how each is graded.
pub const LEVELS: &[LevelInfo] = &[
    LevelInfo {
        level: Level::Basic,
        graded: Graded::Functions(&["score", "random_secret", "parse_guess"]),
        summary: "the functions score (black and white pegs), random_secret (uniform) and parse_guess",
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
        summary: "codebreaker: finds any secret in at most 5 guesses",
    },
];

/// The options of `play mastermind`.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "kit", derive(clap::Args))]
pub struct PlayArgs {
    /// The secret code (letters, either case), instead of a random one.
    #[cfg_attr(feature = "kit", arg(long, conflicts_with = "seed"))]
    pub secret: Option<String>,
    /// Seed for drawing the secret, so a game can be replayed.
    #[cfg_attr(feature = "kit", arg(long))]
    pub seed: Option<u64>,
    /// Pegs in a code (1 to 10).
    #[cfg_attr(feature = "kit", arg(long, default_value_t = 4))]
    pub pegs: usize,
    /// Number of colours, letters from A (2 to 26).
    #[cfg_attr(feature = "kit", arg(long, default_value_t = 6))]
    pub colors: usize,
    /// Guesses allowed (1 to 100).
    #[cfg_attr(feature = "kit", arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(1..=100)))]
    pub turns: u8,
}

impl crate::program::Options for PlayArgs {
    const HELP: &'static str = "Options:
  --secret <SECRET>  The secret code (letters, either case), instead of a random one
  --seed <SEED>      Seed for drawing the secret, so a game can be replayed
  --pegs <PEGS>      Pegs in a code (1 to 10) [default: 4]
  --colors <COLORS>  Number of colours, letters from A (2 to 26) [default: 6]
  --turns <TURNS>    Guesses allowed (1 to 100) [default: 10]";

    fn from_words(words: &[String]) -> Result<Self, PlayError> {
        use crate::program::{number_in, text};
        use lexopt::Arg::Long;
        let mut args = PlayArgs {
            secret: None,
            seed: None,
            pegs: 4,
            colors: 6,
            turns: 10,
        };
        let mut parser = lexopt::Parser::from_args(words);
        while let Some(arg) = parser.next()? {
            match arg {
                Long("secret") => args.secret = Some(text(&mut parser)?),
                Long("seed") => args.seed = Some(number_in(&mut parser, "seed", 0..=u64::MAX)?),
                Long("pegs") => args.pegs = number_in(&mut parser, "pegs", 0..=usize::MAX)?,
                Long("colors") => args.colors = number_in(&mut parser, "colors", 0..=usize::MAX)?,
                Long("turns") => args.turns = number_in(&mut parser, "turns", 1..=100)?,
                _ => return Err(arg.unexpected().into()),
            }
        }
        if args.secret.is_some() && args.seed.is_some() {
            return Err(PlayError::Usage(
                "the argument '--secret' cannot be used with '--seed'".into(),
            ));
        }
        Ok(args)
    }
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
        if let Some(text) = &self.secret {
            return code(text, rules).ok_or_else(|| {
                PlayError::Usage(format!(
                    "invalid --secret {text:?}: expected {} letters A to {}",
                    rules.pegs(),
                    rules.last_letter()
                ))
            });
        }
        let seed = self.seed.unwrap_or_else(rand::random);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        Ok(mastermind::random_secret(rules, &mut rng))
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
pub const SECRET_DRAWS: usize = 36_000;

/// How many `random_secret` requests a public case makes at most: together
/// they fail a uniform draw at most once in a million runs.
pub const SECRET_REQUESTS: usize = 4;

/// Draws [`SECRET_DRAWS`] secrets with `seed`: `ok` when every one is a code
/// of the rules, each colour shows at each place, and each pair of colours
/// at each pair of places, as often as a uniform draw allows (see
/// [`crate::uniformity`]: a draw that favours a colour, or ties one place to
/// another, fails), and the same seed draws the same secrets; else what is
/// wrong.
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
    let letter = |colour: usize| char::from(b'A' + colour as u8);
    // Four places, and six pairs of places: ten tests sharing the false alarm.
    let false_alarm = 1e-6 / (SECRET_REQUESTS * 10) as f64;
    for place in 0..4 {
        let mut counts = [0usize; 6];
        for secret in &secrets {
            counts[secret.pegs()[place] as usize] += 1;
        }
        if let Err(skew) = crate::uniformity::check(&counts, false_alarm) {
            return format!(
                "not uniform: colour {} at place {} {skew}",
                letter(skew.index),
                place + 1
            );
        }
    }
    for first in 0..4 {
        for second in first + 1..4 {
            let mut counts = [0usize; 36];
            for secret in &secrets {
                let pegs = secret.pegs();
                counts[pegs[first] as usize * 6 + pegs[second] as usize] += 1;
            }
            if let Err(skew) = crate::uniformity::check(&counts, false_alarm) {
                return format!(
                    "not uniform: colours {}{} at places {} and {} {skew}",
                    letter(skew.index / 6),
                    letter(skew.index % 6),
                    first + 1,
                    second + 1
                );
            }
        }
    }
    if draw(50) != secrets[..50] {
        return "the same seed drew other secrets: draw only from the generator given".into();
    }
    "ok".into()
}

/// The student's `score` on many pairs of codes of `pegs` pegs and
/// `colors` colours, against the kit's own rules: `agrees`, or the first
/// pair scored otherwise. Every pair when `seed` is `None`, else 20,000
/// pairs drawn from it.
fn score_against_the_rules(pegs: usize, colors: usize, seed: Option<u64>) -> String {
    let Ok(rules) = Rules::new(pegs, colors) else {
        return format!("no game of {pegs} pegs and {colors} colours");
    };
    let pairs: Vec<(Code, Code)> = match seed {
        None => {
            let all = Code::all(rules);
            all.iter()
                .flat_map(|s| all.iter().map(move |g| (s.clone(), g.clone())))
                .collect()
        }
        Some(seed) => {
            use rand::{RngExt, SeedableRng};
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let count = rules.code_count();
            (0..20_000)
                .map(|_| {
                    (
                        Code::from_index(rules, rng.random_range(0..count)),
                        Code::from_index(rules, rng.random_range(0..count)),
                    )
                })
                .collect()
        }
    };
    for (secret, guess) in pairs {
        let got = mastermind::score(&secret, &guess);
        let right = kit_score(secret.pegs(), guess.pegs());
        if got != right {
            return format!(
                "secret {secret}, guess {guess}: {} black, {} white where the rules give {} black, {} white",
                got.black, got.white, right.black, right.white
            );
        }
    }
    "agrees".to_owned()
}

/// A driver's request as the student's code is called, in Rust: never the
/// driver's words (`score ABCD AABB`).
pub fn shown_call(request: &str, _python: bool) -> String {
    let (function, argument) = request.split_once(' ').unwrap_or((request, ""));
    let words: Vec<&str> = argument.split_whitespace().collect();
    let word = |i: usize| words.get(i).copied().unwrap_or_default();
    match function {
        "score" => format!(
            "score(&secret, &guess), the secret {} and the guess {}",
            word(0),
            word(1)
        ),
        "parse" => format!("parse_guess({argument:?}, Rules::default()) (4 pegs, 6 colours)"),
        "score_every_pair" => format!(
            "score(&secret, &guess) on every pair of codes of {} pegs and {} colours, against the rules",
            word(0),
            word(1)
        ),
        "score_sample" => format!(
            "score(&secret, &guess) on 20,000 pairs of codes of {} pegs and {} colours drawn from seed {}, against the rules",
            word(0),
            word(1),
            word(2)
        ),
        "random_secret" => format!(
            "random_secret(Rules::default(), &mut rng), 36,000 draws from seed {argument}: uniform, and the same again from the same seed"
        ),
        "codebreaker" => format!(
            "codebreaker(Rules::default()), playing against the secret {argument}: at most 5 guesses"
        ),
        _ => crate::function_fixture::call_text(request),
    }
}

/// The function driver: one request in, one answer out, through the
/// statement's API only.
///
/// - `score <secret> <guess>`: `<black> <white>`.
/// - `score_every_pair <pegs> <colors>`, `score_sample <pegs> <colors>
///   <seed>`: whether `score` agrees with the rules on every pair of codes,
///   or on 20,000 drawn from the seed (see [`score_against_the_rules`]).
/// - `parse <text>`: the code, or the error with its fields:
///   `length <expected> <got>`, `colour <found> <last>`.
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
            Err(GuessError::WrongLength { expected, got }) => format!("length {expected} {got}"),
            Err(GuessError::UnknownColor { found, last }) => format!("colour {found} {last}"),
        },
        "score_every_pair" | "score_sample" => {
            let numbers: Vec<u64> = argument
                .split_whitespace()
                .map(|w| w.parse().ok())
                .collect::<Option<_>>()
                .unwrap_or_default();
            match (function, numbers.as_slice()) {
                ("score_every_pair", &[pegs, colors]) => {
                    score_against_the_rules(pegs as usize, colors as usize, None)
                }
                ("score_sample", &[pegs, colors, seed]) => {
                    score_against_the_rules(pegs as usize, colors as usize, Some(seed))
                }
                _ => bad(),
            }
        }
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
