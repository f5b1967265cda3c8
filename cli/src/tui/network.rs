//! Network play full screen, the screen's side (`network_session.rs`
//! runs `host --tui` and `join --tui`). The session of `src/net/session.rs`
//! (the same authoritative host and checking joiner as in the plain mode)
//! runs on its own thread with a [`ScreenPerson`]: it turns the session's
//! news into [`NetEvent`]s for the screen and waits for the person's
//! [`Intent`]s from it. [`NetMatch`] is the screen's side, pure like the
//! rest of the app: events and keys in, state out.
//!
//! The board is the local game of the TUI (`VelhaGame`, `Connect4Game`)
//! for two players, so the cursor, the highlights and the hint are those
//! of `boardkit tui`; keys reach it only on this end's turn, and every
//! move of the session is replayed on it, checked by its rules.

use std::sync::mpsc::{Receiver, Sender};

use crate::net::games::{Game as NetGame, Round as NetRound, Rules};
use crate::net::protocol::{Side, Status};
use crate::net::session::{News, Person, SessionError, Tally, Words};
use crate::net::tcp::NetError;
use crate::play::session::Language;

use super::game::{Game, Key, NetworkBoard};
use super::menu::TuiGame;

/// What the session thread tells the screen.
#[derive(Debug)]
pub(crate) enum NetEvent {
    /// The opponent connected from (or this end connected to) an address.
    Connected(String),
    /// A game begins: its board, and the mark this end plays.
    Introduce { game: NetGame, me: Side },
    /// Every move of the game so far, in the wire's notation.
    Moves(Vec<String>),
    /// The opponent is to move.
    WaitingMove,
    /// This end is to move: the screen answers with [`Intent::Move`].
    YourTurn,
    /// The move sent was refused by the rules (the screen checks first, so
    /// this is rare).
    Refused(String),
    /// The game is over; `tally` counts it.
    Finished { status: Status, tally: Tally },
    /// Another game? The screen answers with [`Intent::Again`].
    AskAgain,
    /// The opponent has not answered yet.
    WaitingAnswer,
    /// The opponent wants no other game.
    Declined,
    /// The session is over: the people are done, or why it failed.
    Ended(Result<Tally, NetError>),
}

/// What the person at the screen chose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Intent {
    /// A move, in the wire's notation (`B2`, a column from 1).
    Move(String),
    Again(bool),
}

/// The session's [`Person`] for the full screen: news become events, and
/// choices are waited for from the screen. A screen that is gone (the
/// person quit) ends the session with [`SessionError::Left`].
pub(crate) struct ScreenPerson {
    events: Sender<NetEvent>,
    intents: Receiver<Intent>,
}

impl ScreenPerson {
    pub(crate) fn new(events: Sender<NetEvent>, intents: Receiver<Intent>) -> ScreenPerson {
        ScreenPerson { events, intents }
    }

    fn send(&self, event: NetEvent) -> Result<(), SessionError> {
        self.events.send(event).map_err(|_| SessionError::Left)
    }

    fn next_intent(&self) -> Result<Intent, SessionError> {
        self.intents.recv().map_err(|_| SessionError::Left)
    }
}

impl Person for ScreenPerson {
    fn tell<G: Rules>(&mut self, rules: G, news: News<'_, G>) -> Result<(), SessionError> {
        self.send(match news {
            News::Introduce(me) => NetEvent::Introduce {
                game: rules.game(),
                me,
            },
            News::Board(round) => NetEvent::Moves(notations(rules, round)),
            News::WaitingMove => NetEvent::WaitingMove,
            // The board that follows shows it, with the last move marked.
            News::Opponent(_) => return Ok(()),
            News::Finished { round, tally, .. } => NetEvent::Finished {
                status: round.status(),
                tally,
            },
            News::WaitingAnswer => NetEvent::WaitingAnswer,
            News::Declined => NetEvent::Declined,
        })
    }

    fn choose<G: Rules>(
        &mut self,
        rules: G,
        round: &NetRound<G>,
        _me: Side,
    ) -> Result<G::Move, SessionError> {
        self.send(NetEvent::YourTurn)?;
        loop {
            let Intent::Move(notation) = self.next_intent()? else {
                continue;
            };
            let checked = rules.parse(&notation).and_then(|play| {
                let mut probe = round.clone();
                probe.play(play).map(|()| play)
            });
            match checked {
                Ok(play) => return Ok(play),
                Err(why) => self.send(NetEvent::Refused(why.to_string()))?,
            }
        }
    }

    fn again(&mut self, _language: Language) -> Result<bool, SessionError> {
        self.send(NetEvent::AskAgain)?;
        loop {
            if let Intent::Again(answer) = self.next_intent()? {
                return Ok(answer);
            }
        }
    }
}

fn notations<G: Rules>(rules: G, round: &NetRound<G>) -> Vec<String> {
    round.moves().iter().map(|&m| rules.notation(m)).collect()
}

/// Which end this screen is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Role {
    /// Hosting `game`, listening on an address.
    Host { game: NetGame, address: String },
    /// Joining the host at an address.
    Join { address: String },
}

/// Where the session stands, as the screen shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Before the connection (the host waits for an opponent).
    Connecting,
    /// Connected, before the first game.
    Connected,
    /// The opponent is to move.
    TheirTurn,
    /// This end is to move.
    MyTurn,
    /// This end's move is on its way to the host.
    Sent,
    /// The game is over, before the question.
    Over,
    /// Play again? (this end's answer is awaited)
    AskAgain,
    /// This end said yes; the opponent is deciding.
    WaitingAnswer,
    /// The session is over.
    Ended,
}

/// The screen's board for `game`, from the full screen's entry of the same
/// name among `games`; none when no entry plays it over the network.
fn new_board(games: &[&'static TuiGame], game: NetGame) -> Option<Box<dyn NetworkBoard>> {
    let entry = games.iter().find(|g| g.id == game.name())?;
    (entry.network?)(game.options())
}

/// The screen's side of a network session.
pub(crate) struct NetMatch {
    role: Role,
    /// The game as the hello set it; the host's from the start.
    net_game: Option<NetGame>,
    /// The board, once a game began: a two-player game of the TUI.
    game: Option<Box<dyn NetworkBoard>>,
    /// Games begun, so that an answer (a hint) for a game left is dropped.
    number: u64,
    me: Side,
    phase: Phase,
    tally: Tally,
    last_status: Option<Status>,
    /// Said once: the peer's address, a refusal, the opponent's no.
    note: Option<String>,
    intents: Sender<Intent>,
    end: Option<Result<Tally, NetError>>,
    /// The full screen's games, whose boards this screen shows.
    games: Vec<&'static TuiGame>,
}

impl NetMatch {
    pub(crate) fn new(
        role: Role,
        intents: Sender<Intent>,
        games: Vec<&'static TuiGame>,
    ) -> NetMatch {
        let net_game = match &role {
            Role::Host { game, .. } => Some(*game),
            Role::Join { .. } => None,
        };
        NetMatch {
            role,
            net_game,
            game: None,
            number: 0,
            me: Side::X,
            phase: Phase::Connecting,
            tally: Tally::default(),
            last_status: None,
            note: None,
            intents,
            end: None,
            games,
        }
    }

    /// The full screen's title of the game, once it is known.
    pub(crate) fn title(&self) -> Option<&'static str> {
        let name = self.net_game?.name();
        self.games.iter().find(|g| g.id == name).map(|g| g.title)
    }

    pub(crate) fn role(&self) -> &Role {
        &self.role
    }

    pub(crate) fn phase(&self) -> Phase {
        self.phase
    }

    pub(crate) fn game(&self) -> Option<&dyn Game> {
        self.game.as_deref().map(NetworkBoard::game)
    }

    pub(crate) fn board(&self) -> Option<&dyn NetworkBoard> {
        self.game.as_deref()
    }

    pub(crate) fn number(&self) -> u64 {
        self.number
    }

    pub(crate) fn game_mut(&mut self) -> Option<&mut dyn Game> {
        self.game.as_deref_mut().map(NetworkBoard::game_mut)
    }

    /// The mark this end plays in the current game.
    pub(crate) fn me(&self) -> Side {
        self.me
    }

    pub(crate) fn tally(&self) -> Tally {
        self.tally
    }

    pub(crate) fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    /// The result of the last game, while it is on screen.
    pub(crate) fn last_status(&self) -> Option<Status> {
        self.last_status
    }

    /// The game's language: velha's Portuguese, connect four's English.
    pub(crate) fn language(&self) -> Language {
        self.net_game.map_or(Language::English, NetGame::language)
    }

    pub(crate) fn words(&self) -> Words {
        Words(self.language())
    }

    /// How the session ended, once it has.
    pub(crate) fn end(&self) -> Option<&Result<Tally, NetError>> {
        self.end.as_ref()
    }

    /// Takes how the session ended, for the exit status.
    pub(crate) fn take_end(&mut self) -> Option<Result<Tally, NetError>> {
        self.end.take()
    }

    /// The exercise's result line of the last game (`Vencedor: X`).
    pub(crate) fn result_line(&self) -> Option<String> {
        let status = self.last_status?;
        Some(self.net_game?.rules().result_line(status))
    }

    /// What the session thread said.
    pub(crate) fn event(&mut self, event: NetEvent) {
        match event {
            NetEvent::Connected(address) => {
                self.phase = Phase::Connected;
                self.note = Some(address);
            }
            NetEvent::Introduce { game, me } => {
                self.net_game = Some(game);
                self.me = me;
                self.number += 1;
                self.game = new_board(&self.games, game);
                self.last_status = None;
                self.note = match self.game {
                    Some(_) => None,
                    None => Some(format!("no board for {game:?} on this screen")),
                };
                self.phase = Phase::TheirTurn;
            }
            NetEvent::Moves(moves) => self.follow(&moves),
            NetEvent::WaitingMove => self.phase = Phase::TheirTurn,
            NetEvent::YourTurn => self.phase = Phase::MyTurn,
            NetEvent::Refused(why) => {
                // The screen's board took the move: take it back by
                // replaying the others.
                if let Some(game) = &self.game {
                    let mut moves = game.moves();
                    moves.pop();
                    self.follow(&moves);
                }
                self.note = Some(why);
                self.phase = Phase::MyTurn;
            }
            NetEvent::Finished { status, tally } => {
                self.tally = tally;
                self.last_status = Some(status);
                self.phase = Phase::Over;
            }
            NetEvent::AskAgain => self.phase = Phase::AskAgain,
            NetEvent::WaitingAnswer => self.phase = Phase::WaitingAnswer,
            NetEvent::Declined => self.note = Some(self.words().declined().to_owned()),
            NetEvent::Ended(result) => {
                self.phase = Phase::Ended;
                self.end = Some(result);
            }
        }
    }

    /// Replays the session's moves on the screen's board where they differ
    /// from it (the opponent's move; a refused one of ours taken back).
    fn follow(&mut self, moves: &[String]) {
        let (Some(net_game), Some(game)) = (self.net_game, &mut self.game) else {
            return;
        };
        let known = game.moves();
        let replay_from = if moves.starts_with(&known) {
            known.len()
        } else {
            // Rebuild from the start.
            match new_board(&self.games, net_game) {
                Some(fresh) => *game = fresh,
                None => return,
            }
            0
        };
        for notation in &moves[replay_from..] {
            if let Err(why) = game.play(notation) {
                // The session checked these moves already: only a bug
                // lands here, and the screen says so rather than panic.
                self.note = Some(format!("the board could not follow {notation}: {why}"));
                return;
            }
        }
    }

    /// A key for the network screen (quitting is the app's).
    pub(crate) fn handle(&mut self, key: Key) {
        match self.phase {
            Phase::MyTurn => self.handle_board(key),
            Phase::AskAgain => match key {
                Key::Char('y' | 'Y' | 's' | 'S') | Key::Enter => self.answer_again(true),
                Key::Char('n' | 'N') => self.answer_again(false),
                _ => {}
            },
            // The cursor may move while the opponent thinks.
            Phase::TheirTurn | Phase::Sent
                if matches!(
                    key,
                    Key::Up | Key::Down | Key::Left | Key::Right | Key::Char('1'..='9')
                ) =>
            {
                if let Some(game) = &mut self.game {
                    game.game_mut().handle(key);
                }
            }
            _ => {}
        }
    }

    fn handle_board(&mut self, key: Key) {
        let Some(game) = &mut self.game else {
            return;
        };
        if key == Key::Char('h') {
            game.game_mut().request_hint();
            return;
        }
        if key == Key::Char('u') {
            self.note = Some(undo_refused(self.language()).to_owned());
            return;
        }
        let before = game.moves().len();
        game.game_mut().handle(key);
        let mut after = game.moves();
        if after.len() == before {
            return;
        }
        if let Some(notation) = after.pop() {
            self.note = None;
            self.phase = Phase::Sent;
            // The session thread is gone only when the session ended; its
            // Ended event says why.
            let _ = self.intents.send(Intent::Move(notation));
        }
    }

    fn answer_again(&mut self, answer: bool) {
        self.phase = Phase::WaitingAnswer;
        let _ = self.intents.send(Intent::Again(answer));
    }
}

fn undo_refused(language: Language) -> &'static str {
    match language {
        Language::Portuguese => "não há como desfazer numa partida em rede",
        Language::English => "there is no undo over the network",
    }
}

#[cfg(test)]
mod tests {
    use std::net::{TcpListener, TcpStream};
    use std::sync::mpsc;
    use std::thread;
    use std::time::Duration;

    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    use super::*;
    use crate::net::session::{self, Timeouts};
    use crate::net::tcp;
    use crate::play::session::Terminal as Plain;
    use crate::tui::app::App;
    use boardkit::console::Console;

    use crate::net::NetworkGame;
    use crate::net::games::{connect4, velha};
    use crate::net::protocol::Options;
    use crate::tui::connect4::Connect4Game;
    use crate::tui::velha::VelhaGame;

    const NETWORK: [&NetworkGame; 2] = [&velha::NETWORK, &connect4::NETWORK];

    /// The full screen's games that network play has.
    fn screens() -> Vec<&'static TuiGame> {
        vec![&crate::tui::velha::GAME, &crate::tui::connect4::GAME]
    }

    fn velha_game() -> NetGame {
        let options = Options {
            size: Some(3),
            ..Options::default()
        };
        NetGame::new(&velha::NETWORK, options).unwrap()
    }

    fn connect4_game() -> NetGame {
        let options = Options {
            rows: Some(6),
            cols: Some(7),
            ..Options::default()
        };
        NetGame::new(&connect4::NETWORK, options).unwrap()
    }

    /// The network screen's board, as its game's own type.
    fn board_of<G: 'static>(app: &App) -> &G {
        let game: &dyn std::any::Any = net(app).board().expect("a board").game();
        game.downcast_ref().expect("the board of that game")
    }

    const WAIT: Duration = Duration::from_secs(20);
    const TIMEOUTS: Timeouts = Timeouts {
        hello: Duration::from_secs(10),
        turn: Duration::from_secs(10),
    };

    fn text(app: &App) -> String {
        let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
        terminal
            .draw(|frame| super::super::ui::draw(frame, app))
            .unwrap();
        let buffer = terminal.backend().buffer();
        (0..buffer.area.height)
            .map(|y| {
                (0..buffer.area.width)
                    .map(|x| buffer[(x, y)].symbol())
                    .collect::<String>()
                    .trim_end()
                    .to_owned()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn net(app: &App) -> &NetMatch {
        match app.screen() {
            super::super::app::Screen::Network(net) => net,
            _ => panic!("not the network screen"),
        }
    }

    /// A console host (its moves typed in `input`, not interactive) and a
    /// joiner whose person is a [`ScreenPerson`]: the joiner's events and
    /// the sender of its intents.
    fn console_host_and_screen_joiner(
        input: &'static str,
    ) -> (
        thread::JoinHandle<String>,
        Receiver<NetEvent>,
        Sender<Intent>,
    ) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap();
        let host = thread::spawn(move || {
            let (stream, _) = listener.accept().unwrap();
            let mut link = tcp::link_over(&stream).unwrap();
            let mut keys = input.as_bytes();
            let mut screen = Vec::new();
            let mut console = Console::new(&mut keys, &mut screen);
            let plain = Plain {
                color: false,
                interactive: false,
            };
            let result = session::host(&mut link, velha_game(), &mut console, plain, TIMEOUTS);
            tcp::close(&stream);
            result.unwrap();
            String::from_utf8(screen).unwrap()
        });
        let (events_to, events) = mpsc::channel();
        let (intents_to, intents) = mpsc::channel();
        thread::spawn(move || {
            let stream = TcpStream::connect(address).unwrap();
            let mut link = tcp::link_over(&stream).unwrap();
            let mut person = ScreenPerson::new(events_to.clone(), intents);
            let result = session::join_for(&mut link, &NETWORK, &mut person, TIMEOUTS);
            tcp::close(&stream);
            let _ = events_to.send(NetEvent::Ended(
                result.map(|(_, tally)| tally).map_err(NetError::Session),
            ));
        });
        (host, events, intents_to)
    }

    /// Hands the session's events to the app until `until` holds.
    fn pump(app: &mut App, events: &Receiver<NetEvent>, until: impl Fn(&NetMatch) -> bool) {
        while !until(net(app)) {
            let event = events.recv_timeout(WAIT).expect("the session goes on");
            app.network(event);
        }
    }

    #[test]
    fn a_joiner_at_the_screen_plays_a_whole_game_with_arrow_keys() {
        // X (the console) plays row A; O (the screen) B1 then B2.
        let (host, events, intents) = console_host_and_screen_joiner("A1\nA2\nA3\n");
        let role = Role::Join {
            address: "the host".into(),
        };
        let mut app = App::over_network(NetMatch::new(role, intents, screens()));
        assert!(text(&app).contains("connecting to the host..."));
        pump(&mut app, &events, |net| net.phase() == Phase::MyTurn);
        assert_eq!(net(&app).me(), Side::O);
        assert_eq!(net(&app).language(), Language::Portuguese);
        let screen = text(&app);
        assert!(screen.contains("em rede, você joga com O"), "{screen}");
        assert!(screen.contains("Sua vez (O)."), "{screen}");
        // The cursor starts in the centre (B2): left to B1, Enter.
        app.handle(Key::Left);
        app.handle(Key::Enter);
        assert_eq!(net(&app).phase(), Phase::Sent, "the move is on its way");
        // Keys out of turn play nothing.
        app.handle(Key::Right);
        app.handle(Key::Enter);
        pump(&mut app, &events, |net| net.phase() == Phase::MyTurn);
        let game: &VelhaGame = board_of(&app);
        let played: Vec<String> = game.moves().iter().map(|p| p.to_string()).collect();
        assert_eq!(
            played,
            ["A1", "B1", "A2"],
            "Enter out of turn played nothing"
        );
        // No undo over the network.
        app.handle(Key::Char('u'));
        assert_eq!(
            net(&app).note(),
            Some("não há como desfazer numa partida em rede")
        );
        // The cursor is on B2 already (moved while waiting).
        app.handle(Key::Enter);
        pump(&mut app, &events, |net| net.phase() == Phase::Ended);
        let screen = text(&app);
        insta::assert_snapshot!("network_velha_lost", screen);
        assert!(
            screen.contains("Vencedor: X · O adversário venceu."),
            "{screen}"
        );
        assert!(
            screen.contains("Placar: você 0, adversário 1, empates 0"),
            "{screen}"
        );
        assert!(
            screen.contains("O adversário não quer jogar de novo."),
            "{screen}"
        );
        let game: &VelhaGame = board_of(&app);
        assert!(game.is_winning(boardkit::velha::board::Position { row: 0, col: 2 }));
        let end = app.network_end().expect("ended");
        assert_eq!(
            end.unwrap(),
            Tally {
                won: 0,
                lost: 1,
                drawn: 0
            }
        );
        let host_screen = host.join().unwrap();
        assert!(
            host_screen.contains("O adversário jogou em B1."),
            "{host_screen}"
        );
        assert!(host_screen.ends_with("Vencedor: X\n"), "{host_screen}");
    }

    #[test]
    fn a_move_the_rules_refuse_is_said_and_another_awaited() {
        let (events_to, events) = mpsc::channel();
        let (intents_to, intents) = mpsc::channel();
        let mut person = ScreenPerson::new(events_to, intents);
        let rules = velha_game().rules();
        let mut round = NetRound::new(rules, 1);
        round.play(rules.parse("B2").unwrap()).unwrap();
        for notation in ["B2", "Z9", "A1"] {
            intents_to.send(Intent::Move(notation.into())).unwrap();
        }
        let play = person.choose(rules, &round, Side::O).unwrap();
        assert_eq!(rules.notation(play), "A1");
        let said: Vec<String> = events.try_iter().map(|e| format!("{e:?}")).collect();
        assert_eq!(said.len(), 3, "{said:?}");
        assert_eq!(said[0], "YourTurn");
        assert!(said[1].starts_with("Refused(") && said[2].starts_with("Refused("));
        // A screen that is gone ends the session: the person left.
        drop(intents_to);
        assert!(matches!(
            person.choose(rules, &round, Side::O),
            Err(SessionError::Left)
        ));
    }

    #[test]
    fn connect_four_columns_go_out_numbered_from_one_and_come_back_replayed() {
        let (intents_to, intents) = mpsc::channel();
        let role = Role::Join {
            address: "the host".into(),
        };
        let mut app = App::over_network(NetMatch::new(role, intents_to, screens()));
        app.network(NetEvent::Connected("127.0.0.1:4774".into()));
        app.network(NetEvent::Introduce {
            game: connect4_game(),
            me: Side::O,
        });
        app.network(NetEvent::Moves(vec!["4".into()]));
        app.network(NetEvent::YourTurn);
        app.handle(Key::Char('7'));
        app.handle(Key::Enter);
        assert_eq!(intents.try_recv(), Ok(Intent::Move("7".into())));
        // Were the move refused, the screen's board would take it back.
        app.network(NetEvent::Refused("column 7 is full".into()));
        let game: &Connect4Game = board_of(&app);
        assert_eq!(game.moves(), [3]);
        assert_eq!(net(&app).phase(), Phase::MyTurn);
        assert_eq!(net(&app).note(), Some("column 7 is full"));
        app.network(NetEvent::Moves(vec!["4".into(), "7".into()]));
        app.network(NetEvent::WaitingMove);
        app.network(NetEvent::Moves(vec!["4".into(), "7".into(), "4".into()]));
        let game: &Connect4Game = board_of(&app);
        assert_eq!(game.moves(), [3, 6, 3]);
        assert_eq!(game.last_move(), Some((1, 3)));
        // A history the screen does not share is replayed from the start.
        app.network(NetEvent::Moves(vec!["1".into()]));
        let game: &Connect4Game = board_of(&app);
        assert_eq!(game.moves(), [0]);
        let screen = text(&app);
        assert!(screen.contains("over the network, you play O"), "{screen}");
        assert!(
            screen.contains("waiting for the opponent's move..."),
            "{screen}"
        );
    }

    #[test]
    fn a_failed_session_is_shown_and_any_key_leaves() {
        let (intents_to, _intents) = mpsc::channel();
        let role = Role::Host {
            game: connect4_game(),
            address: "127.0.0.1:4774".into(),
        };
        let mut app = App::over_network(NetMatch::new(role, intents_to, screens()));
        assert!(text(&app).contains("waiting for an opponent on 127.0.0.1:4774..."));
        app.network(NetEvent::Ended(Err(NetError::NoOpponent(300))));
        let screen = text(&app);
        assert!(
            screen.contains("no opponent connected within 300 s"),
            "{screen}"
        );
        assert!(screen.contains("any key leaves"), "{screen}");
        app.handle(Key::Char('x'));
        assert!(app.should_quit());
        assert!(matches!(
            app.network_end(),
            Some(Err(NetError::NoOpponent(300)))
        ));
    }
}
