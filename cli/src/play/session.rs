//! Playing for people (SPEC 7, "Terminal"): games in a row with a running
//! score, play again, and the persistent scoreboard.
//!
//! None of it touches a piped transcript: without a terminal on stdout (or
//! `--interactive`) and without `--rounds`, `boardkit play` runs the
//! exercise's one-game program exactly as the grader and the fixtures do.
//! With `--rounds N`, scripts get N such games, each followed by the score.

use std::path::PathBuf;

use super::scoreboard::{self, Outcome, Record, ScoreboardArgs};
use boardkit::console::{Console, InputError};
use boardkit::program::PlayError;

/// The options every game's `play` shares, for people.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct SessionArgs {
    /// Play N games in a row with the same options, printing the score after
    /// each (for scripts). On a terminal the default is to ask after each
    /// game whether to play again.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub rounds: Option<u32>,
    /// Play as on a terminal even when stdout is not one: the computer's
    /// moves announced, whose turn it is, play again.
    #[arg(long)]
    pub interactive: bool,
    /// Colours: auto (on a terminal, unless NO_COLOR is set), always, never.
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto)]
    pub color: ColorWhen,
    /// Your name on the scoreboard (default: your login name). With two
    /// players, player one's.
    #[arg(long)]
    pub name: Option<String>,
    /// Player two's name on the scoreboard, with two players.
    #[arg(long)]
    pub opponent: Option<String>,
    #[command(flatten)]
    pub scoreboard: ScoreboardArgs,
}

/// When to colour the output.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ColorWhen {
    #[default]
    Auto,
    Always,
    Never,
}

/// What the person's screen takes: colours, and the interactive extras.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Terminal {
    pub color: bool,
    pub interactive: bool,
}

impl SessionArgs {
    /// Sets anstream's colour choice from `--color`; call before stdout is
    /// opened.
    pub(crate) fn apply_color_choice(&self) {
        let choice = match self.color {
            ColorWhen::Auto => return,
            ColorWhen::Always => anstream::ColorChoice::Always,
            ColorWhen::Never => anstream::ColorChoice::Never,
        };
        choice.write_global();
    }

    /// The screen, given whether stdout takes colours.
    pub(crate) fn terminal(&self, color: bool) -> Terminal {
        Terminal {
            color,
            interactive: self.interactive || std::io::IsTerminal::is_terminal(&std::io::stdout()),
        }
    }

    /// Whether this is the exercise's plain one-game program.
    pub(crate) fn is_plain(&self, terminal: Terminal) -> bool {
        !terminal.interactive && self.rounds.is_none()
    }

    fn scoreboard_path(&self, terminal: Terminal) -> Option<Result<PathBuf, PlayError>> {
        self.scoreboard
            .path(terminal.interactive)
            .map(|path| path.map_err(|e| PlayError::Usage(e.to_string())))
    }
}

/// The language of a game's messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Language {
    Portuguese,
    English,
}

impl Language {
    pub(crate) fn play_again(self) -> &'static str {
        match self {
            Language::Portuguese => "Jogar de novo? (s/n)",
            Language::English => "Play again? (y/n)",
        }
    }

    fn answer(self, text: &str) -> Option<bool> {
        let text = text.trim().to_lowercase();
        let (yes, no): (&[&str], &[&str]) = match self {
            Language::Portuguese => (&["s", "sim", "y"], &["n", "não", "nao"]),
            Language::English => (&["y", "yes"], &["n", "no"]),
        };
        if yes.contains(&text.as_str()) {
            Some(true)
        } else if no.contains(&text.as_str()) {
            Some(false)
        } else {
            None
        }
    }

    fn answer_hint(self) -> &'static str {
        match self {
            Language::Portuguese => "Responda s ou n.",
            Language::English => "Answer y or n.",
        }
    }

    pub(crate) fn score(self) -> &'static str {
        match self {
            Language::Portuguese => "Placar",
            Language::English => "Score",
        }
    }

    pub(crate) fn draws(self) -> &'static str {
        match self {
            Language::Portuguese => "empates",
            Language::English => "draws",
        }
    }

    /// The end-of-input message on stderr.
    pub(crate) fn input_ended(self) -> &'static str {
        match self {
            Language::Portuguese => "a entrada terminou antes do fim do jogo",
            Language::English => "input ended before the game was over",
        }
    }
}

/// How one game ended, by seat (0 plays first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ending {
    Won(usize),
    Draw,
}

/// A seat: its label in the score line, and for a person, the name the
/// scoreboard keeps (none for the computer or the secret).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Seat {
    pub label: String,
    pub person: Option<String>,
}

/// One game's description for the scoreboard and the score line.
#[derive(Debug, Clone)]
pub(crate) struct Match {
    /// The game's id.
    pub game: &'static str,
    /// How it is played, such as `3x3 vs hard`.
    pub mode: String,
    pub seats: [Seat; 2],
    pub language: Language,
    /// Whether a game can be drawn (Mastermind cannot).
    pub draws: bool,
}

/// The player's name when none is given: the login name, else "player".
pub(crate) fn login_name() -> String {
    ["USER", "USERNAME", "LOGNAME"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .find(|n| !n.trim().is_empty())
        .unwrap_or_else(|| "player".to_owned())
}

/// Plays games in a row: `play_one(round, console)` plays game `round`
/// (from 0) and tells how it ended. After each: the scoreboard, the score,
/// then `--rounds` or the question decide whether another follows. The end
/// of input at the question ends the session normally.
pub(crate) fn run(
    args: &SessionArgs,
    terminal: Terminal,
    game: &Match,
    console: &mut Console<'_>,
    mut play_one: impl FnMut(u32, &mut Console<'_>) -> Result<Ending, InputError>,
) -> Result<(), PlayError> {
    let scoreboard = args.scoreboard_path(terminal).transpose()?;
    // Wins of seat 0, of seat 1, draws.
    let mut tally = [0u64; 3];
    for round in 0.. {
        let ending = play_one(round, console)?;
        match ending {
            Ending::Won(seat) => tally[seat] += 1,
            Ending::Draw => tally[2] += 1,
        }
        if let Some(path) = &scoreboard {
            save(path, game, ending);
        }
        let mut line = format!(
            "{}: {} {}, {} {}",
            game.language.score(),
            game.seats[0].label,
            tally[0],
            game.seats[1].label,
            tally[1]
        );
        if game.draws {
            line.push_str(&format!(", {} {}", game.language.draws(), tally[2]));
        }
        writeln!(console.out, "{line}").map_err(InputError::from)?;
        let again = match args.rounds {
            Some(rounds) => round + 1 < rounds,
            None => ask_again(game.language, console)?,
        };
        if !again {
            break;
        }
    }
    console.out.flush().map_err(InputError::from)?;
    Ok(())
}

/// Asks whether to play again until the answer is yes or no; the end of
/// input is a no.
pub(crate) fn ask_again(language: Language, console: &mut Console<'_>) -> Result<bool, InputError> {
    loop {
        writeln!(console.out, "{}", language.play_again())?;
        console.out.flush()?;
        match console.read_line() {
            Err(InputError::EndOfInput) => return Ok(false),
            Err(e) => return Err(e),
            Ok(Ok(text)) => {
                if let Some(answer) = language.answer(&text) {
                    return Ok(answer);
                }
            }
            Ok(Err(_)) => {}
        }
        writeln!(console.out, "{}", language.answer_hint())?;
    }
}

/// Records the game for each person; a failure is reported on stderr and
/// never ends the session.
fn save(path: &std::path::Path, game: &Match, ending: Ending) {
    let records: Vec<Record> = (0..2)
        .filter_map(|seat| {
            let person = game.seats[seat].person.clone()?;
            let outcome = match ending {
                Ending::Draw => Outcome::Draw,
                Ending::Won(s) if s == seat => Outcome::Win,
                Ending::Won(_) => Outcome::Loss,
            };
            Some(Record {
                game: game.game.to_owned(),
                mode: game.mode.clone(),
                player: person,
                outcome,
            })
        })
        .collect();
    scoreboard::record_and_report(path, &records);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_in_each_language() {
        assert_eq!(Language::Portuguese.answer(" S "), Some(true));
        assert_eq!(Language::Portuguese.answer("não"), Some(false));
        assert_eq!(Language::English.answer("yes"), Some(true));
        assert_eq!(Language::English.answer("s"), None);
    }

    #[test]
    fn rounds_then_the_question_and_the_score_line() {
        let game = Match {
            game: "velha",
            mode: "3x3 two players".into(),
            seats: [
                Seat {
                    label: "X".into(),
                    person: None,
                },
                Seat {
                    label: "O".into(),
                    person: None,
                },
            ],
            language: Language::Portuguese,
            draws: true,
        };
        let args = SessionArgs {
            rounds: Some(3),
            ..SessionArgs::default()
        };
        let mut input: &[u8] = b"";
        let mut out = Vec::new();
        let mut console = Console::new(&mut input, &mut out);
        let endings = [Ending::Won(0), Ending::Draw, Ending::Won(1)];
        run(
            &args,
            Terminal::default(),
            &game,
            &mut console,
            |round, _| Ok(endings[round as usize]),
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "Placar: X 1, O 0, empates 0\nPlacar: X 1, O 0, empates 1\nPlacar: X 1, O 1, empates 1\n"
        );

        // Asked: "talvez" is not an answer; the end of input stops.
        let args = SessionArgs::default();
        let mut input: &[u8] = b"talvez\ns\n";
        let mut out = Vec::new();
        let mut console = Console::new(&mut input, &mut out);
        let mut games = 0;
        run(&args, Terminal::default(), &game, &mut console, |_, _| {
            games += 1;
            Ok(Ending::Draw)
        })
        .unwrap();
        assert_eq!(games, 2);
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.matches("Jogar de novo? (s/n)").count(), 3);
        assert_eq!(text.matches("Responda s ou n.").count(), 1);
    }
}
