//! `boardkit play mastermind`: the exercise's program and options, with
//! coloured pegs on a terminal; for people, play again with a new secret
//! and the scoreboard.

use std::io::{BufRead, Write};

use super::session::{self, Ending, Language, Match, Seat, SessionArgs, Terminal};
use boardkit::console::Console;
use boardkit::mastermind::program::{Human, Outcome, Style, run};
use boardkit::program::PlayError;

/// `boardkit play mastermind`.
pub(crate) const GAME: super::TerminalGame = super::TerminalGame {
    id: "mastermind",
    about: "Mastermind: guess the secret code, such as ABCD; 10 turns",
    language: Language::English,
    args: <PlayArgs as clap::Args>::augment_args,
    session: |matches, options, input, output, terminal| {
        session(&super::options(matches)?, options, input, output, terminal)
    },
};

#[derive(Debug, clap::Args)]
#[group(skip)]
pub(crate) struct PlayArgs {
    #[command(flatten)]
    pub exercise: boardkit::harness::mastermind::PlayArgs,
}

/// Plays one game as the options say.
pub(crate) fn play(
    args: &PlayArgs,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    color: bool,
) -> Result<(), PlayError> {
    let rules = args.exercise.rules()?;
    let secret = args.exercise.secret(rules)?;
    let turns = args.exercise.turns.into();
    let mut console = Console::new(input, output);
    run(
        &secret,
        rules,
        turns,
        &mut Human,
        Style { color },
        &mut console,
    )?;
    Ok(())
}

/// `boardkit play mastermind`: the plain program when piped (the transcript
/// of [`play`], byte for byte), else games in a row for people (see
/// [`session`]). Each game has a new secret (game `k` of a seeded session
/// draws from seed `seed + k`), unless `--secret` fixes it.
pub(crate) fn session(
    args: &PlayArgs,
    options: &SessionArgs,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    terminal: Terminal,
) -> Result<(), PlayError> {
    if options.is_plain(terminal) {
        return play(args, input, output, terminal.color);
    }
    let exercise = &args.exercise;
    let rules = exercise.rules()?;
    exercise.secret(rules)?;
    let turns = usize::from(exercise.turns);
    let game = Match {
        game: "mastermind",
        mode: crate::opponents::mastermind::mode(rules, turns),
        seats: [
            Seat {
                label: "won".into(),
                person: Some(options.name.clone().unwrap_or_else(session::login_name)),
            },
            Seat {
                label: "lost".into(),
                person: None,
            },
        ],
        language: Language::English,
        draws: false,
    };
    let base_seed = exercise.seed.unwrap_or_else(rand::random);
    let mut console = Console::new(input, output);
    session::run(options, terminal, &game, &mut console, |round, console| {
        let mut this_round = exercise.clone();
        this_round.seed = Some(base_seed.wrapping_add(u64::from(round)));
        let secret = this_round
            .secret(rules)
            .unwrap_or_else(|e| unreachable!("checked before the first game: {e}"));
        let style = Style {
            color: terminal.color,
        };
        Ok(
            match run(&secret, rules, turns, &mut Human, style, console)? {
                Outcome::Won { .. } => Ending::Won(0),
                Outcome::Lost => Ending::Won(1),
            },
        )
    })
}
