//! Connect four on the full screen: its board and status.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use super::Connect4Game;
use crate::tui::game::Parts;
use crate::tui::game::{Busy, Round};
use crate::tui::paint::{BLUE, CURSOR, GREY, HINT, OVER_KEYS, RED, board_status, bold};
use boardkit::connect4::Disc;

pub(crate) fn connect4_parts(game: &Connect4Game, busy: Option<Busy>) -> Parts {
    let board = game.board();
    let ending = game.ending();
    let disc = board.to_move();
    let status = board_status(
        crate::play::session::Language::English,
        ending,
        busy,
        game.computer_disc().is_some(),
        Span::styled(disc.to_string(), disc_style(disc)),
        game.last_move()
            .and_then(|(r, c)| board.get(r, c))
            .map(|w| Span::styled(w.to_string(), disc_style(w))),
    );
    let note = game
        .message()
        .map(|m| Line::from(m.to_owned()))
        .or_else(|| {
            game.hint().map(|col| {
                Line::from(vec![
                    Span::styled(format!("Hint: column {}", col + 1), bold().fg(HINT)),
                    Span::raw(format!(
                        " (the {} player's move, not played)",
                        crate::opponents::name(game.hint_level())
                    )),
                ])
            })
        });
    let keys = if ending.is_some() {
        OVER_KEYS
    } else {
        "left/right or 1-9 column · Enter drop · u undo · h hint · n new game · q menu"
    };
    (
        connect4_board(game, ending.is_none() && busy.is_none()),
        status,
        note,
        keys,
    )
}

/// The connect-four board: the disc to drop over the cursor's column, the
/// columns' numbers below (the hint's in green).
pub(crate) fn connect4_board(game: &Connect4Game, show_cursor: bool) -> Vec<Line<'static>> {
    let board = game.board();
    let cols = board.cols();
    let grey = Style::new().fg(GREY);
    let winning = game.winning_cells();
    let mut lines = Vec::with_capacity(board.rows() + 3);
    let mut top = vec![Span::raw(" ")];
    for col in 0..cols {
        top.push(if show_cursor && col == game.cursor() {
            Span::styled(" ▼ ", disc_style(board.to_move()))
        } else {
            Span::raw("   ")
        });
    }
    lines.push(Line::from(top));
    for row in (0..board.rows()).rev() {
        let mut spans = vec![Span::styled("│", grey)];
        for col in 0..cols {
            match board.get(row, col) {
                Some(disc) => {
                    // The whole cell in reverse video on the winning line;
                    // the disc alone underlined when it is the last one.
                    let mut style = disc_style(disc);
                    let mut pad = Style::new();
                    if winning.contains(&(row, col)) {
                        style = style.add_modifier(Modifier::REVERSED);
                        pad = style;
                    }
                    if game.last_move() == Some((row, col)) {
                        style = style.add_modifier(Modifier::UNDERLINED);
                    }
                    spans.push(Span::styled(" ", pad));
                    spans.push(Span::styled(disc.to_string(), style));
                    spans.push(Span::styled(" ", pad));
                }
                None => spans.push(Span::styled(" · ", grey)),
            }
        }
        spans.push(Span::styled("│", grey));
        lines.push(Line::from(spans));
    }
    lines.push(Line::styled(format!("└{}┘", "─".repeat(3 * cols)), grey));
    let mut numbers = vec![Span::raw(" ")];
    for col in 0..cols {
        let style = if game.hint() == Some(col) {
            bold().fg(Color::Black).bg(HINT)
        } else if show_cursor && col == game.cursor() {
            bold().fg(CURSOR)
        } else {
            grey
        };
        numbers.push(Span::styled(format!("{:^3}", col + 1), style));
    }
    lines.push(Line::from(numbers));
    lines
}

/// A disc in its player's colour.
fn disc_style(disc: Disc) -> Style {
    match disc {
        Disc::One => bold().fg(BLUE),
        Disc::Two => bold().fg(RED),
    }
}
