//! The full screen's palette and shared pieces of drawing, for the screens
//! (`ui.rs`) and each game's own drawing (`velha/draw.rs`, ...): the
//! terminal's colours (`src/play/paint.rs`: X blue, O red, coordinates
//! grey), a board's [`Parts`], and its status line. Draws nothing by
//! itself.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use super::game::{Busy, Ending};
use crate::play::session::Language;

/// Player one's colour (X), as on the terminal.
pub(crate) const BLUE: Color = Color::Blue;
/// Player two's colour (O).
pub(crate) const RED: Color = Color::Red;
/// Row letters, column numbers, empty cells, help.
pub(crate) const GREY: Color = Color::DarkGray;
/// The cursor's brackets and the selected menu row.
pub(crate) const CURSOR: Color = Color::Yellow;
/// Hints: shown, never played.
pub(crate) const HINT: Color = Color::Green;
/// Bold text.
pub(crate) fn bold() -> Style {
    Style::new().add_modifier(Modifier::BOLD)
}

/// A line of keys, in grey.
pub(crate) fn help(text: &str) -> Line<'static> {
    Line::styled(text.to_owned(), Style::new().fg(GREY))
}

pub(crate) const OVER_KEYS: &str = "Enter or n play again · u undo · q menu";
pub(crate) const BOARD_KEYS_PT: &str =
    "setas movem · Enter joga · u desfaz · h dica · n novo jogo · q menu";
pub(crate) const OVER_KEYS_PT: &str = "Enter ou n joga de novo · u desfaz · q menu";

/// Whose turn it is, or how the game ended, for the board games.
pub(crate) fn board_status(
    language: Language,
    ending: Option<Ending>,
    busy: Option<Busy>,
    against_computer: bool,
    to_move: Span<'static>,
    winner: Option<Span<'static>>,
) -> Line<'static> {
    let pt = language == Language::Portuguese;
    let say = |en: &'static str, pt_text: &'static str| if pt { pt_text } else { en };
    match (ending, busy) {
        (Some(Ending::Draw), _) => Line::styled(say("Draw.", "Empate."), bold()),
        (Some(Ending::Won(seat)), _) if against_computer => match seat {
            0 => Line::styled(say("You win!", "Você venceu!"), bold()),
            _ => Line::styled(say("The computer wins.", "O computador venceu."), bold()),
        },
        (Some(Ending::Won(_)), _) if pt => Line::from(vec![
            Span::styled("Vencedor: ", bold()),
            winner.expect("a winner"),
        ]),
        (Some(Ending::Won(_)), _) => Line::from(vec![
            winner.expect("a winner"),
            Span::styled(" wins!", bold()),
        ]),
        (None, Some(Busy::Computer)) => Line::from(say(
            "The computer is thinking…",
            "O computador está pensando…",
        )),
        (None, Some(Busy::Hint)) => Line::from(say(
            "Looking for a hint… (Esc: stop waiting)",
            "Procurando uma dica… (Esc: parar de esperar)",
        )),
        (None, None) if against_computer => {
            Line::from(vec![Span::raw(say("Your turn: ", "Sua vez: ")), to_move])
        }
        (None, None) if pt => Line::from(vec![Span::raw("Vez de "), to_move]),
        (None, None) => Line::from(vec![to_move, Span::raw(" to play")]),
    }
}
