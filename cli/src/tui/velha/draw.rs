//! Jogo da velha on the full screen: its board and status.

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::VelhaGame;
use crate::play::session::Language;
use crate::tui::game::Parts;
use crate::tui::game::{Busy, Round};
use crate::tui::paint::{
    BLUE, BOARD_KEYS_PT, CURSOR, GREY, HINT, OVER_KEYS_PT, RED, board_status, bold,
};
use boardkit::velha::board::{Mark, Position};

pub(crate) fn velha_parts(game: &VelhaGame, busy: Option<Busy>) -> Parts {
    let board = game.board();
    let ending = game.ending();
    let mark = board.to_move();
    // Velha speaks Portuguese on every front end, as `boardkit play velha`.
    let status = board_status(
        Language::Portuguese,
        ending,
        busy,
        game.computer_mark().is_some(),
        Span::styled(mark.to_string(), mark_style(mark)),
        game.last_move()
            .and_then(|p| board.get(p))
            .map(|w| Span::styled(w.to_string(), mark_style(w))),
    );
    let note = game
        .message()
        .map(|m| Line::from(m.to_owned()))
        .or_else(|| {
            game.hint().map(|pos| {
                Line::from(vec![
                    Span::styled(format!("Dica: {pos}"), bold().fg(HINT)),
                    Span::raw(" (a jogada da IA difícil, não jogada)"),
                ])
            })
        });
    let keys = if ending.is_some() {
        OVER_KEYS_PT
    } else {
        BOARD_KEYS_PT
    };
    (velha_board(game, ending.is_none()), status, note, keys)
}

/// The velha grid: column numbers above, row letters on the left, the
/// cursor in brackets, the hint as a green `?`.
pub(crate) fn velha_board(game: &VelhaGame, show_cursor: bool) -> Vec<Line<'static>> {
    let board = game.board();
    let n = board.size();
    let grey = Style::new().fg(GREY);
    let mut lines = Vec::with_capacity(2 * n);
    let numbers: Vec<String> = (1..=n).map(|c| format!(" {c} ")).collect();
    lines.push(Line::styled(format!("   {}", numbers.join(" ")), grey));
    for row in 0..n {
        let mut spans = vec![Span::styled(
            format!(" {} ", (b'A' + row as u8) as char),
            grey,
        )];
        for col in 0..n {
            if col > 0 {
                spans.push(Span::styled("│", grey));
            }
            let pos = Position { row, col };
            let cursor = show_cursor && game.cursor() == pos;
            let mut style = Style::new();
            let symbol = match board.get(pos) {
                Some(mark) => {
                    style = mark_style(mark);
                    if game.last_move() == Some(pos) {
                        style = style.add_modifier(Modifier::UNDERLINED);
                    }
                    mark.to_string()
                }
                None if game.hint() == Some(pos) => {
                    style = bold().fg(HINT);
                    "?".to_owned()
                }
                None => " ".to_owned(),
            };
            let frame_style = if game.is_winning(pos) {
                style = style.add_modifier(Modifier::REVERSED);
                style
            } else {
                Style::new()
            };
            let (left, right) = if cursor { ("[", "]") } else { (" ", " ") };
            let bracket = if cursor {
                bold().fg(CURSOR)
            } else {
                frame_style
            };
            spans.push(Span::styled(left, bracket));
            spans.push(Span::styled(symbol, style));
            spans.push(Span::styled(right, bracket));
        }
        lines.push(Line::from(spans));
        if row + 1 < n {
            let rule = vec!["───"; n].join("┼");
            lines.push(Line::styled(format!("   {rule}"), grey));
        }
    }
    lines
}

/// A mark in its player's colour.
fn mark_style(mark: Mark) -> Style {
    match mark {
        Mark::X => bold().fg(BLUE),
        Mark::O => bold().fg(RED),
    }
}
