//! Mastermind on the full screen: its decoding board, pegs and status.

use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};

use super::MastermindGame;
use crate::tui::game::Parts;
use crate::tui::game::{Busy, Ending, Round};
use crate::tui::paint::{CURSOR, GREY, HINT, bold};
use boardkit::mastermind::Score;

/// Mastermind's colours A to F, as `boardkit play mastermind` paints them.
const PEG_COLOURS: [Color; 6] = [
    Color::Red,
    Color::Green,
    Color::Yellow,
    Color::Blue,
    Color::Magenta,
    Color::Cyan,
];

pub(crate) fn mastermind_parts(game: &MastermindGame, busy: Option<Busy>) -> Parts {
    let board = game.board();
    let turn = board.guesses.len();
    let watch = game.setup().watch;
    let status = match (game.ending(), busy) {
        (Some(Ending::Won(0)), _) if watch => {
            Line::styled(format!("The codebreaker found it in {turn}."), bold())
        }
        (Some(Ending::Won(0)), _) => Line::styled(
            format!(
                "Found in {turn} {}!",
                if turn == 1 { "guess" } else { "guesses" }
            ),
            bold(),
        ),
        (Some(_), _) => Line::styled("Out of guesses: the secret is shown.", bold()),
        (None, Some(_)) => Line::from("Looking for a hint… (Esc: stop waiting)"),
        (None, None) if watch => Line::from(format!(
            "The codebreaker is on guess {} of {}",
            turn + 1,
            board.turns
        )),
        (None, None) => Line::from(format!("Guess {} of {}", turn + 1, board.turns)),
    };
    let note = game
        .message()
        .map(|m| Line::from(m.to_owned()))
        .or_else(|| {
            game.hint().map(|code| {
                Line::from(vec![
                    Span::styled(format!("Hint: {code}"), bold().fg(HINT)),
                    Span::raw(" (the best codebreaker's next guess, not played)"),
                ])
            })
        });
    let keys = match (game.is_over(), watch) {
        (true, _) => "Enter or n play again · q menu",
        (false, true) => "Enter next guess now · n new game · q menu",
        (false, false) => {
            "left/right slot · up/down or A-F colour · Enter guess · u undo · h hint · n new · q menu"
        }
    };
    (mastermind_board(game), status, note, keys)
}

pub(super) fn peg(colour: u8) -> Span<'static> {
    Span::styled(
        format!(" {} ", (b'A' + colour) as char),
        bold()
            .fg(Color::Black)
            .bg(PEG_COLOURS[usize::from(colour) % PEG_COLOURS.len()]),
    )
}

/// Black pegs as `●`, white as `○`, the rest as `·`, then in words.
pub(super) fn feedback(score: Score, pegs: usize) -> Vec<Span<'static>> {
    let mut spans = vec![Span::raw("  ")];
    let (black, white) = (usize::from(score.black), usize::from(score.white));
    let mut symbols = Vec::with_capacity(pegs);
    symbols.extend(std::iter::repeat_n("●", black));
    symbols.extend(std::iter::repeat_n("○", white));
    symbols.extend(std::iter::repeat_n("·", pegs.saturating_sub(black + white)));
    spans.push(Span::styled(symbols.join(" "), bold()));
    spans.push(Span::styled(format!("   {score}"), Style::new().fg(GREY)));
    spans
}

/// Pegs side by side, one space apart, in a row of brackets when one is
/// selected: `[` and `]` take the spaces around it.
pub(super) fn slots(pegs: Vec<Span<'static>>, selected: Option<usize>) -> Vec<Span<'static>> {
    let mut spans = Vec::with_capacity(2 * pegs.len() + 1);
    let count = pegs.len();
    for (i, peg) in pegs.into_iter().enumerate() {
        spans.push(match selected {
            Some(k) if k == i => Span::styled("[", bold().fg(CURSOR)),
            Some(k) if k + 1 == i => Span::styled("]", bold().fg(CURSOR)),
            _ => Span::raw(" "),
        });
        spans.push(peg);
    }
    spans.push(match selected {
        Some(k) if k + 1 == count => Span::styled("]", bold().fg(CURSOR)),
        _ => Span::raw(" "),
    });
    spans
}

/// The decoding board: one row per turn (guesses with their feedback, the
/// guess being composed with its slot in brackets, the turns to come), the
/// secret (hidden until the end, unless watching), the hint, the colours.
pub(crate) fn mastermind_board(game: &MastermindGame) -> Vec<Line<'static>> {
    let board = game.board();
    let pegs = game.rules().pegs();
    let grey = Style::new().fg(GREY);
    let over = game.is_over();
    let watch = game.setup().watch;
    let row = |label: String, style: Style, rest: Vec<Span<'static>>| {
        let mut spans = vec![Span::styled(label, style)];
        spans.extend(rest);
        Line::from(spans)
    };
    let mut lines = Vec::with_capacity(board.turns + 5);
    for turn in 0..board.turns {
        let number = format!("{:>7}", turn + 1);
        lines.push(if let Some((guess, score)) = board.guesses.get(turn) {
            let mut spans = slots(guess.pegs().iter().map(|&c| peg(c)).collect(), None);
            spans.extend(feedback(*score, pegs));
            row(number, grey, spans)
        } else if turn == board.guesses.len() && !over && !watch {
            let composed = game
                .pegs()
                .iter()
                .map(|colour| match colour {
                    Some(c) => peg(*c),
                    None => Span::styled(" _ ", bold()),
                })
                .collect();
            row(
                number,
                bold().fg(CURSOR),
                slots(composed, Some(game.slot())),
            )
        } else {
            let empty = vec![Span::styled(" · ", grey); pegs];
            row(number, grey, slots(empty, None))
        });
    }
    lines.push(Line::default());
    let shown = over || watch;
    let secret = game
        .secret()
        .pegs()
        .iter()
        .map(|&c| {
            if shown {
                peg(c)
            } else {
                Span::styled(" ? ", bold())
            }
        })
        .collect();
    lines.push(row("Secret ".into(), grey, slots(secret, None)));
    if let Some(hint) = game.hint() {
        let pegs = hint.pegs().iter().map(|&c| peg(c)).collect();
        lines.push(row("Hint   ".into(), bold().fg(HINT), slots(pegs, None)));
    }
    let colours = (0..game.rules().colors() as u8).map(peg).collect();
    lines.push(row("Colours".into(), grey, slots(colours, None)));
    lines
}
