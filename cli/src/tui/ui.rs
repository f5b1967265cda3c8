//! Draws an [`App`] into a ratatui [`Frame`]: the menu, or a game's board
//! with its title, whose turn it is, the score, hints and messages, and the
//! keys. The palette is the terminal one's (`src/play/paint.rs`): X blue, O
//! red, coordinates grey, the winning line in reverse video, the last move
//! underlined. A screen that does not fit says how large it needs to be.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::app::{App, Match, Screen, Tally};
use super::game::Busy;
use super::menu::{Menu, Row};
use super::network::{NetMatch, Phase, Role};
use super::paint::{BLUE, CURSOR, GREY, HINT, RED, bold, help};
use crate::net::protocol::Side;
use crate::play::session::Language;

/// Draws the whole screen.
pub(crate) fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    let screen = match app.screen() {
        Screen::Menu(menu) => menu_screen(menu),
        Screen::Playing(game) => game_screen(game, app.score().unwrap_or_default(), app.busy()),
        Screen::Network(net) => network_screen(net, app.busy()),
    };
    let (width, height) = screen.size();
    if area.width < width || area.height < height {
        too_small(frame, area, width, height);
        return;
    }
    screen.render(frame.buffer_mut(), area);
}

/// A screen as lines, each either centred or part of the left-aligned
/// block (the board), which is centred as a whole.
struct Layout {
    lines: Vec<(Line<'static>, Place)>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Centred,
    Block,
    /// A blank line for air, left out when the screen is short of lines.
    Spacer,
}

impl Layout {
    fn new() -> Layout {
        Layout { lines: Vec::new() }
    }

    fn centred(&mut self, line: impl Into<Line<'static>>) {
        self.lines.push((line.into(), Place::Centred));
    }

    fn block(&mut self, lines: Vec<Line<'static>>) {
        self.lines
            .extend(lines.into_iter().map(|line| (line, Place::Block)));
    }

    fn blank(&mut self) {
        self.lines.push((Line::default(), Place::Spacer));
    }

    fn block_width(&self) -> u16 {
        self.lines
            .iter()
            .filter(|(_, place)| *place == Place::Block)
            .map(|(line, _)| line.width() as u16)
            .max()
            .unwrap_or(0)
    }

    /// The smallest area that shows every line whole (without spacers).
    fn size(&self) -> (u16, u16) {
        let widest = self
            .lines
            .iter()
            .map(|(line, _)| line.width() as u16)
            .max()
            .unwrap_or(0);
        let spacers = self.lines.iter().filter(|(_, p)| *p == Place::Spacer);
        (widest, (self.lines.len() - spacers.count()) as u16)
    }

    /// Centred both ways in `area`, which is large enough; with its spacers
    /// if they fit.
    fn render(&self, buf: &mut Buffer, area: Rect) {
        let airy = usize::from(area.height) >= self.lines.len();
        let lines: Vec<_> = self
            .lines
            .iter()
            .filter(|(_, place)| airy || *place != Place::Spacer)
            .collect();
        let top = area.y + (area.height - lines.len() as u16) / 2;
        let block_x = area.x + (area.width - self.block_width()) / 2;
        for (i, (line, place)) in lines.into_iter().enumerate() {
            let x = match place {
                Place::Block => block_x,
                Place::Centred | Place::Spacer => area.x + (area.width - line.width() as u16) / 2,
            };
            buf.set_line(x, top + i as u16, line, area.width);
        }
    }
}

/// The centred notice of a terminal too small for the screen.
fn too_small(frame: &mut Frame, area: Rect, width: u16, height: u16) {
    let text = vec![
        Line::styled(
            "The terminal is too small",
            Style::new().add_modifier(Modifier::BOLD),
        ),
        Line::from(format!(
            "this screen needs {width} x {height}, it is {} x {}",
            area.width, area.height
        )),
        Line::styled("enlarge it, or press q", Style::new().fg(GREY)),
    ];
    // The lines once wrapped, to centre them vertically.
    let lines: usize = text
        .iter()
        .map(|line| line.width().div_ceil(usize::from(area.width.max(1))).max(1))
        .sum();
    let lines = lines.min(usize::from(area.height)) as u16;
    let paragraph = Paragraph::new(text)
        .alignment(Alignment::Center)
        .wrap(Wrap { trim: true });
    let middle = Rect {
        y: area.y + (area.height - lines) / 2,
        height: lines,
        ..area
    };
    frame.render_widget(paragraph, middle);
}

fn menu_screen(menu: &Menu) -> Layout {
    let mut screen = Layout::new();
    screen.centred(Line::styled("boardkit", bold()));
    screen.centred(if menu.game_fixed {
        Line::from(menu.title())
    } else {
        Line::from("Pick a game")
    });
    screen.blank();
    let rows = menu.rows();
    let selected = menu.current();
    let mut block = Vec::new();
    for &row in &rows {
        let (label, value) = menu.line(row);
        let chosen = row == selected;
        let line = if row == Row::Start {
            let style = if chosen {
                bold().fg(Color::Black).bg(CURSOR)
            } else {
                bold()
            };
            Line::from(vec![
                Span::raw(" ".repeat(11)),
                Span::styled("[ Start ]", style),
            ])
        } else {
            let value_style = if chosen {
                bold().fg(Color::Black).bg(CURSOR)
            } else {
                Style::new()
            };
            let (left, right) = if chosen { ("< ", " >") } else { ("  ", "  ") };
            Line::from(vec![
                Span::styled(format!("{label:<9}"), Style::new().fg(GREY)),
                Span::styled(left, Style::new().fg(CURSOR)),
                Span::styled(format!("{value:<27}"), value_style),
                Span::styled(right, Style::new().fg(CURSOR)),
            ])
        };
        block.push(line);
    }
    screen.block(block);
    screen.blank();
    match menu.note() {
        Some(note) => screen.centred(Line::styled(note, Style::new().fg(CURSOR))),
        None => screen.blank(),
    }
    screen.centred(help(
        "up/down choose · left/right change · Enter start · q quit",
    ));
    screen
}

fn game_screen(game: &Match, score: Tally, busy: Option<Busy>) -> Layout {
    let mut screen = Layout::new();
    screen.centred(Line::from(vec![
        Span::styled(game.setup.title(), bold()),
        Span::styled(format!(" · {}", game.description), Style::new().fg(GREY)),
    ]));
    screen.blank();
    let (block, status, note, keys) = game.game.parts(busy);
    screen.block(block);
    screen.blank();
    screen.centred(status);
    screen.centred(score_line(game, score));
    screen.centred(note.unwrap_or_default());
    screen.centred(help(keys));
    screen
}

fn score_line(game: &Match, score: Tally) -> Line<'static> {
    let mut text = format!(
        "{}: {} {} · {} {}",
        game.language.score(),
        game.seats[0],
        score.wins[0],
        game.seats[1],
        score.wins[1]
    );
    if game.draws {
        text.push_str(&format!(" · {} {}", game.language.draws(), score.draws));
    }
    Line::from(text)
}

/// A network game: whose turn it is, the result and the score in the
/// game's language (velha's Portuguese), the opponent's answer awaited.
fn network_screen(net: &NetMatch, busy: Option<Busy>) -> Layout {
    let mut screen = Layout::new();
    let portuguese = net.language() == Language::Portuguese;
    let words = net.words();
    screen.centred(network_heading(net, portuguese));
    screen.blank();
    let my_turn = net.phase() == Phase::MyTurn && busy.is_none();
    let hint = net.board().and_then(|board| {
        screen.block(board.lines(my_turn));
        board.hint()
    });
    screen.blank();
    screen.centred(network_status(net, busy, portuguese));
    screen.centred(
        if net.last_status().is_some() || net.tally() != Default::default() {
            Line::from(words.score(net.tally()))
        } else {
            Line::default()
        },
    );
    let note = match net.phase() {
        Phase::AskAgain => Some(Line::styled(net.language().play_again(), bold().fg(CURSOR))),
        Phase::WaitingAnswer => Some(Line::from(words.waiting_answer())),
        Phase::Connecting | Phase::Connected => None,
        _ => net
            .note()
            .map(|note| Line::from(note.to_owned()))
            .or_else(|| {
                hint.map(|hint| {
                    Line::styled(
                        if portuguese {
                            format!("Dica: {hint} (a jogada da IA, não jogada)")
                        } else {
                            format!("Hint: column {hint} (the AI's move, not played)")
                        },
                        bold().fg(HINT),
                    )
                })
            }),
    };
    screen.centred(note.unwrap_or_default());
    screen.centred(help(network_keys(net.phase(), portuguese)));
    screen
}

/// A network game's title, with the mark you play once the game is on.
fn network_heading(net: &NetMatch, portuguese: bool) -> Line<'static> {
    let mark = |side: Side| {
        let style = match side {
            Side::X => bold().fg(BLUE),
            Side::O => bold().fg(RED),
        };
        Span::styled(side.as_char().to_string(), style)
    };
    let title = net.title().unwrap_or("boardkit");
    let subtitle = match (net.game().is_some(), portuguese) {
        (false, _) => " · network play".to_owned(),
        (true, true) => " · em rede, você joga com ".to_owned(),
        (true, false) => " · over the network, you play ".to_owned(),
    };
    let mut heading = vec![
        Span::styled(title, bold()),
        Span::styled(subtitle, Style::new().fg(GREY)),
    ];
    if net.game().is_some() {
        heading.push(mark(net.me()));
    }
    Line::from(heading)
}

/// A network game's status line: the connection, whose turn, the result.
fn network_status(net: &NetMatch, busy: Option<Busy>, portuguese: bool) -> Line<'static> {
    let words = net.words();
    let result = || {
        let line = net.result_line().unwrap_or_default();
        let verdict = net
            .last_status()
            .and_then(|status| words.verdict(status, net.me()));
        let mut spans = vec![Span::styled(line, bold())];
        if let Some(verdict) = verdict {
            spans.push(Span::raw(format!(" · {verdict}")));
        }
        Line::from(spans)
    };
    match net.phase() {
        Phase::Connecting => Line::from(match (net.role(), portuguese) {
            (Role::Host { address, .. }, true) => {
                format!("aguardando um adversário em {address}...")
            }
            (Role::Host { address, .. }, false) => {
                format!("waiting for an opponent on {address}...")
            }
            (Role::Join { address }, _) => format!("connecting to {address}..."),
        }),
        Phase::Connected => Line::from(format!(
            "connected with {}; the game is starting...",
            net.note().unwrap_or("the opponent")
        )),
        Phase::MyTurn if busy == Some(Busy::Hint) => Line::from(if portuguese {
            "procurando uma dica... (Esc: parar de esperar)"
        } else {
            "Looking for a hint… (Esc: stop waiting)"
        }),
        Phase::MyTurn => Line::styled(words.your_turn(&net.me().as_char().to_string()), bold()),
        Phase::TheirTurn | Phase::Sent => Line::from(words.waiting_move()),
        Phase::Over | Phase::AskAgain | Phase::WaitingAnswer => result(),
        Phase::Ended => match net.end() {
            Some(Err(error)) => Line::styled(format!("{error}"), bold().fg(RED)),
            _ if net.last_status().is_some() => result(),
            _ => Line::from(""),
        },
    }
}

/// The keys a network game takes in its phase.
fn network_keys(phase: Phase, portuguese: bool) -> &'static str {
    match (phase, portuguese) {
        (Phase::Ended, true) => "qualquer tecla sai",
        (Phase::Ended, false) => "any key leaves",
        (Phase::AskAgain, true) => "s sim · n não · q sai",
        (Phase::AskAgain, false) => "y yes · n no · q quit",
        (Phase::MyTurn, true) => "setas movem · Enter joga · h dica · q sai",
        (Phase::MyTurn, false) => "left/right or 1-9 column · Enter drop · h hint · q quit",
        (_, true) => "q sai",
        (_, false) => "q quit",
    }
}

#[cfg(test)]
mod tests {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    use super::*;
    use crate::tui::game::Key;

    fn screen(app: &App, width: u16, height: u16) -> Terminal<TestBackend> {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal.draw(|frame| draw(frame, app)).unwrap();
        terminal
    }

    fn press(app: &mut App, keys: &[Key]) {
        for &key in keys {
            app.handle(key);
            app.settle();
        }
    }

    fn typed(text: &str) -> Vec<Key> {
        text.chars()
            .map(|c| match c {
                '\n' => Key::Enter,
                c => Key::Char(c),
            })
            .collect()
    }

    fn app(game: Option<&str>, seed: u64) -> App {
        let args = crate::tui::TuiArgs {
            game: game.map(Into::into),
            ..Default::default()
        };
        App::new(Menu::new(&crate::registry::tui_games(), &args), seed)
    }

    /// The buffer's line `y` as text.
    fn text_of(buffer: &Buffer, y: u16) -> String {
        (0..buffer.area.width)
            .map(|x| buffer[(x, y)].symbol())
            .collect()
    }

    /// The first line holding `needle`, and where it starts (in cells).
    fn find(buffer: &Buffer, needle: &str) -> (u16, u16) {
        for y in 0..buffer.area.height {
            let line = text_of(buffer, y);
            if let Some(at) = line.find(needle) {
                return (line[..at].chars().count() as u16, y);
            }
        }
        panic!("{needle:?} is not on the screen");
    }

    #[test]
    fn the_menu() {
        let app = app(None, 1);
        insta::assert_snapshot!("menu", screen(&app, 80, 24).backend());
    }

    #[test]
    fn a_velha_game_in_progress_with_the_cursor() {
        let mut app = app(Some("velha"), 1);
        // Against the computer (medium): B2, its reply, then the cursor to A3.
        press(&mut app, &[Key::Enter, Key::Enter, Key::Up, Key::Right]);
        let terminal = screen(&app, 80, 24);
        insta::assert_snapshot!("velha_in_progress", terminal.backend());
        let buffer = terminal.backend().buffer();
        let (x, y) = find(buffer, "[ ]");
        assert_eq!(buffer[(x, y)].fg, CURSOR);
        // B2 is X, blue, and not the last move (the computer's reply is).
        let (x, y) = find(buffer, " X ");
        assert_eq!(buffer[(x + 1, y)].fg, BLUE);
        assert!(!buffer[(x + 1, y)].modifier.contains(Modifier::UNDERLINED));
        let (x, y) = find(buffer, " O ");
        assert_eq!(buffer[(x + 1, y)].fg, RED);
        assert!(buffer[(x + 1, y)].modifier.contains(Modifier::UNDERLINED));
    }

    #[test]
    fn a_connect_four_win_with_its_line_highlighted() {
        let mut app = app(Some("connect4"), 1);
        press(&mut app, &[Key::Left, Key::Enter]); // two players
        // X along the bottom row, O on top of it: X wins with column 4.
        press(&mut app, &typed("1\n1\n2\n2\n3\n3\n4\n"));
        let terminal = screen(&app, 80, 24);
        insta::assert_snapshot!("connect4_won", terminal.backend());
        let buffer = terminal.backend().buffer();
        let (left, bottom) = find(buffer, "└");
        let row = bottom - 1;
        for col in 0..7u16 {
            let x = left + 2 + 3 * col;
            let cell = &buffer[(x, row)];
            if col < 4 {
                assert_eq!(cell.symbol(), "X");
                assert_eq!(cell.fg, BLUE);
                assert!(cell.modifier.contains(Modifier::REVERSED), "column {col}");
                // The whole cell, not the letter alone.
                assert!(buffer[(x - 1, row)].modifier.contains(Modifier::REVERSED));
                assert_eq!(
                    cell.modifier.contains(Modifier::UNDERLINED),
                    col == 3,
                    "only the last disc is underlined"
                );
            } else {
                assert_eq!(cell.symbol(), "·");
                assert!(!cell.modifier.contains(Modifier::REVERSED));
            }
        }
        // The O above are not part of the line.
        let o = &buffer[(left + 2, row - 1)];
        assert_eq!((o.symbol(), o.fg), ("O", RED));
        assert!(!o.modifier.contains(Modifier::REVERSED));
        assert!(text_of(buffer, find(buffer, "wins!").1).contains("X wins!"));
    }

    #[test]
    fn a_velha_win_is_highlighted_too() {
        let mut app = app(Some("velha"), 1);
        press(&mut app, &[Key::Left, Key::Enter]); // two players
        // X: B2, A2 ... O: B1, C1; X completes the middle column with C2.
        let keys = [
            Key::Enter,
            Key::Left,
            Key::Enter,
            Key::Right,
            Key::Up,
            Key::Enter,
            Key::Left,
            Key::Down,
            Key::Down,
            Key::Enter,
            Key::Right,
            Key::Enter,
        ];
        press(&mut app, &keys);
        let terminal = screen(&app, 80, 24);
        let buffer = terminal.backend().buffer();
        let (x, y) = find(buffer, "A ");
        let reversed: Vec<bool> = (0..3)
            .map(|row| {
                buffer[(x + 7, y + 2 * row)]
                    .modifier
                    .contains(Modifier::REVERSED)
            })
            .collect();
        assert_eq!(reversed, [true, true, true], "{}", terminal.backend());
        assert!(!buffer[(x + 3, y + 2)].modifier.contains(Modifier::REVERSED));
        // In the game's language, as `boardkit play velha` says it.
        let said = text_of(buffer, find(buffer, "Vencedor: ").1);
        assert!(said.contains("Vencedor: X"), "{said}");
        let score = text_of(buffer, find(buffer, "Placar: ").1);
        assert!(score.contains("Placar: X 1 · O 0 · empates 0"), "{score}");
    }

    #[test]
    fn a_mastermind_game_with_feedback_undo_and_hint() {
        let mut app = app(Some("mastermind"), 4);
        press(&mut app, &[Key::Enter]);
        press(&mut app, &typed("abcd\neeff\naabb\nu"));
        press(&mut app, &[Key::Right, Key::Up, Key::Char('h')]);
        let terminal = screen(&app, 90, 24);
        insta::assert_snapshot!("mastermind_undo_hint", terminal.backend());
        let buffer = terminal.backend().buffer();
        let (_, y) = find(buffer, "Hint:");
        assert!(text_of(buffer, y).contains("not played"));
        let (x, y) = find(buffer, "Hint ");
        assert_eq!(buffer[(x, y)].fg, HINT);
        let (x, y) = find(buffer, "[");
        assert_eq!(buffer[(x, y)].fg, CURSOR);
    }

    #[test]
    fn a_terminal_too_small_says_how_large_it_needs_to_be() {
        let mut app = app(Some("velha"), 1);
        press(&mut app, &[Key::Enter]);
        let terminal = screen(&app, 30, 8);
        insta::assert_snapshot!("too_small", terminal.backend());
    }
}
