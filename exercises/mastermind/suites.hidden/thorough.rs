//! A careful student's tests of Mastermind, written from EXERCISE.md
//! alone: `dev check` proves they catch every mutant, public and hidden.

use boardkit::mastermind::*;
use boardkit::player::Strategy;
use rand::SeedableRng;

fn code(text: &str) -> Code {
    parse_guess(text, Rules::default()).unwrap()
}

#[test]
fn scores_count_each_colour_once() {
    let cases = [
        ("AABB", "ABAC", 1, 2),
        ("ABCD", "ABCD", 4, 0),
        ("ABCD", "DCBA", 0, 4),
        ("AAAA", "AAAB", 3, 0),
        ("ABBB", "BAAA", 0, 2),
        ("FFFA", "AFFF", 2, 2),
        ("ABCD", "EEFF", 0, 0),
    ];
    for (secret, guess, black, white) in cases {
        assert_eq!(score(&code(secret), &code(guess)), Score { black, white }, "{secret} {guess}");
    }
}

#[test]
fn guesses_in_either_case_and_any_whitespace() {
    assert_eq!(code(" a b\tc d ").to_string(), "ABCD");
    assert_eq!(code("fFfF").to_string(), "FFFF");
}

#[test]
fn a_no_break_space_is_whitespace_too() {
    assert_eq!(code("a\u{a0}b c d").to_string(), "ABCD");
}

#[test]
fn wrong_guesses_say_what_is_wrong() {
    let rules = Rules::default();
    assert_eq!(
        parse_guess("ABC", rules),
        Err(GuessError::WrongLength { expected: 4, got: 3 })
    );
    assert_eq!(
        parse_guess("ABCDE", rules),
        Err(GuessError::WrongLength { expected: 4, got: 5 })
    );
    assert_eq!(
        parse_guess("abcg", rules),
        Err(GuessError::UnknownColor { found: 'g', last: 'F' })
    );
    assert_eq!(
        parse_guess("ÁBCD", rules),
        Err(GuessError::UnknownColor { found: 'Á', last: 'F' })
    );
}

#[test]
fn a_seed_draws_the_same_secrets_again() {
    let rules = Rules::default();
    let mut one = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let mut two = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    for _ in 0..20 {
        assert_eq!(random_secret(rules, &mut one), random_secret(rules, &mut two));
    }
}

/// Each place draws each colour about a sixth of the time, and two places
/// agree about a sixth of the time.
#[test]
fn secrets_are_uniform() {
    let rules = Rules::default();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let mut same = 0;
    let mut colours = [[0usize; 6]; 4];
    for _ in 0..6000 {
        let secret = random_secret(rules, &mut rng);
        let pegs = secret.pegs();
        same += usize::from(pegs[0] == pegs[1]);
        for (place, &peg) in pegs.iter().enumerate() {
            colours[place][usize::from(peg)] += 1;
        }
    }
    assert!((800..1200).contains(&same), "{same}");
    for place in colours {
        for count in place {
            assert!((800..1200).contains(&count), "{colours:?}");
        }
    }
}

fn game(secret: &str, turns: usize, input: &str) -> String {
    let mut out = Vec::new();
    play(&code(secret), Rules::default(), turns, &mut input.as_bytes(), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn a_first_guess_can_win() {
    let out = game("ABCD", 10, "abcd\n");
    assert!(out.contains("4 black, 0 white"), "{out}");
    assert!(out.lines().any(|l| l == "Secret: ABCD"), "{out}");
    assert_eq!(out.lines().last(), Some("You win"));
}

#[test]
fn the_last_turn_is_played() {
    let out = game("ABCD", 2, "AABB\nABCD\n");
    assert!(out.contains("1 black, 1 white"), "{out}");
    assert_eq!(out.lines().last(), Some("You win"));
    let out = game("ABCD", 2, "AABB\nFFFF\n");
    assert_eq!(out.lines().last(), Some("You lose!"));
}

#[test]
fn an_invalid_guess_does_not_use_a_turn() {
    let out = game("ABCD", 1, "XYZ\nABCD\n");
    assert_eq!(out.lines().last(), Some("You win"));
}

/// Every secret found in at most five guesses: the game tree walked once,
/// each board asked of the codebreaker once (its guess depends on the
/// board alone), the secrets split by the score they give.
#[test]
fn the_codebreaker_finds_every_secret_in_five() {
    let rules = Rules::default();
    let all: Vec<Code> = (0..1296u32)
        .map(|n| Code::from_colors((0..4).map(|i| (n / 6u32.pow(i) % 6) as u8).collect()))
        .collect();
    let mut breaker = codebreaker(rules);
    let mut boards = vec![(DecodingBoard { rules, turns: 10, guesses: Vec::new() }, all)];
    while let Some((board, secrets)) = boards.pop() {
        let guess = breaker.choose(&board);
        let mut classes: std::collections::BTreeMap<Score, Vec<Code>> = Default::default();
        for secret in secrets {
            classes.entry(score(&secret, &guess)).or_default().push(secret);
        }
        for (result, secrets) in classes {
            if result.black == 4 {
                continue;
            }
            let mut next = board.clone();
            next.guesses.push((guess.clone(), result));
            assert!(next.guesses.len() < 5, "{:?} left after {:?}", secrets, next.guesses);
            boards.push((next, secrets));
        }
    }
}
