//! The two ends of a network game, over any `BufRead` and `Write` (a TCP
//! socket, or byte slices and pipes in tests): [`host`], authoritative,
//! and [`join`], which only sends its own moves and follows the host.
//!
//! Each end has a person at a [`Console`] (stdin and stdout for the
//! binary). The conversation, message by message (docs/players.md, "Network
//! play"):
//!
//! 1. The host sends `hello`; the joiner answers with the same `hello`.
//! 2. For each game: the host sends `start` (which mark the joiner plays)
//!    and the empty `state`. Then, move by move: the player to move is the
//!    host's person (read from its console) or the joiner, whose `move`
//!    the host checks (its turn, by `ply`, then its legality); either way
//!    the host sends the new `state`, which the joiner replays and checks.
//! 3. After the result: the host sends `again` (its person's answer); on a
//!    yes the joiner sends its own. Both yes: another game, started by the
//!    loser of the last one (after a draw, by the one who did not start
//!    it), since `X` starts both games.
//!
//! Whatever goes wrong ends the session with a [`SessionError`]; when the
//! peer is still there to hear it, it first gets an `error` message saying
//! why. Everything one end reads from the other has a deadline.
//!
//! The person's side is the plain terminal mode of `boardkit play`: the
//! game's prompts and messages, the board after every move, painted when
//! the palette is on; "play again" is asked only when interactive (a
//! terminal, or `--interactive`), so a piped transcript is one game ending
//! with the result line.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use super::games::{Game, NetworkGame, Round, Rules};
use super::protocol::{Fault, Message, MessageReader, ReadError, Side, shown, shown_long};
use crate::play::paint::{Emphasis, Palette};
use crate::play::session::{Language, Terminal, ask_again};
use boardkit::console::{Console, InputError};

/// How long one end waits for the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Timeouts {
    /// For the hello (and the joiner's wait for the first game).
    pub hello: Duration,
    /// For a move, an answer or the next game: a person is thinking.
    pub turn: Duration,
}

/// The games' results, from this end's side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    pub won: u32,
    pub lost: u32,
    pub drawn: u32,
}

/// Why a session ended before its people were done.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SessionError {
    /// The peer broke the protocol or the rules (it was told so).
    #[error(transparent)]
    Fault(#[from] Fault),
    /// The peer ended the session, saying why (its `error` message).
    #[error("the opponent ended the game: {0}")]
    Remote(String),
    /// The connection ended without a word from the peer.
    #[error("the opponent disconnected {0}")]
    Disconnected(&'static str),
    /// The connection failed otherwise.
    #[error("the connection to the opponent failed: {0}")]
    Connection(io::Error),
    /// This end's person's input ended before the game did.
    #[error("{}", .0.input_ended())]
    InputEnded(Language),
    /// This end's console could not be read or written.
    #[error("cannot read input or write output: {0}")]
    Local(#[from] io::Error),
    /// This end's person left the game (the full-screen UI was closed).
    #[error("you left the game")]
    Left,
}

impl SessionError {
    /// What the peer is told, if it can still hear it.
    fn for_peer(&self) -> Option<String> {
        match self {
            SessionError::Fault(fault) => Some(fault.for_peer()),
            SessionError::InputEnded(_) => {
                Some("their input ended before the game was over".to_owned())
            }
            SessionError::Local(e) => Some(format!("their terminal failed: {e}")),
            SessionError::Left => Some("they left the game".to_owned()),
            SessionError::Remote(_)
            | SessionError::Disconnected(_)
            | SessionError::Connection(_) => None,
        }
    }
}

/// A person's input error, in the game's language.
fn input_error(language: Language, error: InputError) -> SessionError {
    match error {
        InputError::EndOfInput => SessionError::InputEnded(language),
        InputError::Io(e) => SessionError::Local(e),
    }
}

fn unexpected(expected: &'static str, got: &Message) -> SessionError {
    Fault::Unexpected {
        expected,
        got: got.kind(),
    }
    .into()
}

/// Whether an I/O error means the peer is gone.
fn is_disconnection(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::ConnectionReset
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::BrokenPipe
            | io::ErrorKind::NotConnected
            | io::ErrorKind::UnexpectedEof
    )
}

/// Where a session stands, for saying when the peer disconnected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    Hello,
    Game,
    AfterGame,
}

impl Phase {
    fn during(self) -> &'static str {
        match self {
            Phase::Hello => "during the hello",
            Phase::Game => "in the middle of the game",
            Phase::AfterGame => "after the game",
        }
    }
}

/// The connection to the peer: messages in, messages out.
pub(crate) struct Link<R, W> {
    reader: MessageReader<R>,
    writer: W,
    phase: Phase,
}

impl<R: BufRead, W: Write> Link<R, W> {
    /// A link at the start of a session (the hello).
    pub(crate) fn new(reader: MessageReader<R>, writer: W) -> Self {
        Link {
            reader,
            writer,
            phase: Phase::Hello,
        }
    }

    pub(crate) fn set_phase(&mut self, phase: Phase) {
        self.phase = phase;
    }

    fn disconnected_or_failed(&self, error: io::Error) -> SessionError {
        if is_disconnection(&error) {
            SessionError::Disconnected(self.phase.during())
        } else {
            SessionError::Connection(error)
        }
    }

    /// Sends one message; a peer that is gone is [`SessionError::Disconnected`].
    pub(crate) fn send(&mut self, message: &Message) -> Result<(), SessionError> {
        super::protocol::write_message(&mut self.writer, message)
            .map_err(|e| self.disconnected_or_failed(e))
    }

    /// The next message within `within`; the peer's `error` becomes
    /// [`SessionError::Remote`], a closed connection
    /// [`SessionError::Disconnected`].
    pub(crate) fn receive(&mut self, within: Duration) -> Result<Message, SessionError> {
        match self.reader.read_message(within) {
            Ok(Message::Error { message }) => Err(SessionError::Remote(shown_long(&message))),
            Ok(message) => Ok(message),
            Err(ReadError::Closed) => Err(SessionError::Disconnected(self.phase.during())),
            Err(ReadError::Fault(fault)) => Err(fault.into()),
            Err(ReadError::Io(e)) => Err(self.disconnected_or_failed(e)),
        }
    }

    /// Tells the peer why the session ends, when it can still hear it.
    fn farewell<T>(&mut self, result: &Result<T, SessionError>) {
        if let Err(error) = result {
            if let Some(message) = error.for_peer() {
                // The peer may be gone already: nothing more to do then.
                let _ = self.send(&Message::Error { message });
            }
        }
    }
}

/// What a session tells the person at its end, as it happens. The console
/// prints it as `boardkit play` would ([`ConsolePerson`]); the full-screen
/// UI draws it (`crate::tui::network`).
pub(crate) enum News<'r, G: Rules> {
    /// A game begins: this end plays `me`.
    Introduce(Side),
    /// The board at the start of a game and after every move.
    Board(&'r Round<G>),
    /// The opponent is to move.
    WaitingMove,
    /// The opponent played this move.
    Opponent(G::Move),
    /// The game is over (`round` holds its result); `tally` counts it.
    Finished {
        round: &'r Round<G>,
        me: Side,
        tally: Tally,
    },
    /// This end wants another game; the opponent has not answered yet.
    WaitingAnswer,
    /// The opponent wants no other game.
    Declined,
}

/// The person at one end of a session: told the news, asked for moves and
/// for another game. One session loop serves every kind of person.
pub(crate) trait Person {
    fn tell<G: Rules>(&mut self, rules: G, news: News<'_, G>) -> Result<(), SessionError>;
    /// This end's move in `round`, legal by the game's rules.
    fn choose<G: Rules>(
        &mut self,
        rules: G,
        round: &Round<G>,
        me: Side,
    ) -> Result<G::Move, SessionError>;
    /// Whether this end's person wants another game.
    fn again(&mut self, language: Language) -> Result<bool, SessionError>;
}

/// Plays as the host: sends the hello for `game`, then games for as long
/// as both people want. The joiner plays `O` in the first game.
pub(crate) fn host<R: BufRead, W: Write>(
    link: &mut Link<R, W>,
    game: Game,
    console: &mut Console<'_>,
    terminal: Terminal,
    timeouts: Timeouts,
) -> Result<Tally, SessionError> {
    host_for(
        link,
        game,
        &mut ConsolePerson::new(console, terminal),
        timeouts,
    )
}

/// [`host`] for any [`Person`].
pub(crate) fn host_for<R: BufRead, W: Write>(
    link: &mut Link<R, W>,
    game: Game,
    person: &mut impl Person,
    timeouts: Timeouts,
) -> Result<Tally, SessionError> {
    let result = host_games(link, game, person, timeouts);
    link.farewell(&result);
    result
}

fn host_games<R: BufRead, W: Write>(
    link: &mut Link<R, W>,
    game: Game,
    person: &mut impl Person,
    timeouts: Timeouts,
) -> Result<Tally, SessionError> {
    link.send(&game.hello())?;
    match link.receive(timeouts.hello)? {
        Message::Hello {
            game: name,
            options,
            ..
        } if name != game.name() || options != game.options() => {
            return Err(Fault::Mismatch(format!(
                "{} {} instead of {} {}",
                shown(&name),
                serde_json::to_string(&options).unwrap_or_default(),
                game.name(),
                serde_json::to_string(&game.options()).unwrap_or_default(),
            ))
            .into());
        }
        Message::Hello { .. } => {}
        other => return Err(unexpected("hello", &other)),
    }
    Seat::new(game.rules(), link, person, timeouts).host()
}

/// Plays as the joiner: accepts the host's hello (a game and board this
/// build plays, in this protocol version), then follows the host's games.
/// Returns the game played and the tally.
pub(crate) fn join<R: BufRead, W: Write>(
    link: &mut Link<R, W>,
    games: &[&'static NetworkGame],
    console: &mut Console<'_>,
    terminal: Terminal,
    timeouts: Timeouts,
) -> Result<(Game, Tally), SessionError> {
    join_for(
        link,
        games,
        &mut ConsolePerson::new(console, terminal),
        timeouts,
    )
}

/// [`join`] for any [`Person`].
pub(crate) fn join_for<R: BufRead, W: Write>(
    link: &mut Link<R, W>,
    games: &[&'static NetworkGame],
    person: &mut impl Person,
    timeouts: Timeouts,
) -> Result<(Game, Tally), SessionError> {
    let result = join_games(link, games, person, timeouts);
    link.farewell(&result);
    result
}

fn join_games<R: BufRead, W: Write>(
    link: &mut Link<R, W>,
    games: &[&'static NetworkGame],
    person: &mut impl Person,
    timeouts: Timeouts,
) -> Result<(Game, Tally), SessionError> {
    let game = match link.receive(timeouts.hello)? {
        Message::Hello { game, options, .. } => Game::from_hello(games, &game, options)?,
        other => return Err(unexpected("hello", &other)),
    };
    link.send(&game.hello())?;
    let tally = Seat::new(game.rules(), link, person, timeouts).join()?;
    Ok((game, tally))
}

/// Which mark the joiner plays in the next game: the loser of the last
/// game starts (plays `X`); after a draw, the one who did not start it.
pub(crate) fn next_joiner_side(joiner: Side, last: super::protocol::Status) -> Side {
    match last.winner() {
        // The joiner won: the host lost, so the host starts.
        Some(winner) if winner == joiner => Side::O,
        Some(_) => Side::X,
        None => joiner.other(),
    }
}

/// One end's seat at the table: its rules, its link, its person.
struct Seat<'s, G, R, W, P> {
    rules: G,
    link: &'s mut Link<R, W>,
    person: &'s mut P,
    timeouts: Timeouts,
    tally: Tally,
}

impl<'s, G: Rules, R: BufRead, W: Write, P: Person> Seat<'s, G, R, W, P> {
    fn new(rules: G, link: &'s mut Link<R, W>, person: &'s mut P, timeouts: Timeouts) -> Self {
        Seat {
            rules,
            link,
            person,
            timeouts,
            tally: Tally::default(),
        }
    }

    fn tell(&mut self, news: News<'_, G>) -> Result<(), SessionError> {
        self.person.tell(self.rules, news)
    }

    /// The host's games.
    fn host(mut self) -> Result<Tally, SessionError> {
        let mut joiner = Side::O;
        for number in 1.. {
            let me = joiner.other();
            self.link.set_phase(Phase::Game);
            self.link.send(&Message::Start {
                round: number,
                joiner,
            })?;
            let mut round = Round::new(self.rules, number);
            self.link.send(&round.state())?;
            self.tell(News::Introduce(me))?;
            self.tell(News::Board(&round))?;
            while let Some(turn) = round.turn() {
                if turn == me {
                    let play = self.person.choose(self.rules, &round, me)?;
                    round.play(play).map_err(|why| {
                        io::Error::other(format!("the person's move was illegal: {why}"))
                    })?;
                    self.link.send(&round.state())?;
                } else {
                    self.tell(News::WaitingMove)?;
                    let play = self.receive_move(&mut round)?;
                    self.link.send(&round.state())?;
                    self.tell(News::Opponent(play))?;
                }
                self.tell(News::Board(&round))?;
            }
            self.link.set_phase(Phase::AfterGame);
            self.finish(&round, me)?;
            let ours = self.person.again(self.rules.language())?;
            self.link.send(&Message::Again { answer: ours })?;
            if !ours {
                break;
            }
            self.tell(News::WaitingAnswer)?;
            match self.link.receive(self.timeouts.turn)? {
                Message::Again { answer: true } => {}
                Message::Again { answer: false } => {
                    self.tell(News::Declined)?;
                    break;
                }
                other => return Err(unexpected("again", &other)),
            }
            joiner = next_joiner_side(joiner, round.status());
        }
        Ok(self.tally)
    }

    /// The joiner's move, checked: its turn (by ply), then the rules.
    fn receive_move(&mut self, round: &mut Round<G>) -> Result<G::Move, SessionError> {
        match self.link.receive(self.timeouts.turn)? {
            Message::Move { ply, notation } => {
                if ply != round.ply() {
                    return Err(Fault::OutOfTurn {
                        got: ply,
                        expected: round.ply(),
                    }
                    .into());
                }
                let illegal = |why: super::games::IllegalMove| Fault::Illegal {
                    notation: super::protocol::shown(&notation),
                    why: why.to_string(),
                };
                let play = self.rules.parse(&notation).map_err(illegal)?;
                round.play(play).map_err(illegal)?;
                Ok(play)
            }
            other => Err(unexpected("move", &other)),
        }
    }

    /// The joiner's games.
    fn join(mut self) -> Result<Tally, SessionError> {
        for number in 1.. {
            // The first game starts at once; a later one once the host's
            // person has answered, so it gets a person's time.
            let within = if number == 1 {
                self.timeouts.hello
            } else {
                self.timeouts.turn
            };
            let me = match self.link.receive(within)? {
                Message::Start { round, joiner } if round == number => joiner,
                Message::Start { round, .. } => {
                    return Err(Fault::Inconsistent(format!(
                        "game {round} started where game {number} was next"
                    ))
                    .into());
                }
                other => return Err(unexpected("start", &other)),
            };
            self.link.set_phase(Phase::Game);
            let mut round = Round::new(self.rules, number);
            self.tell(News::Introduce(me))?;
            let first = self.link.receive(self.timeouts.hello)?;
            if !round.follow(&first)?.is_empty() {
                return Err(Fault::Inconsistent("a game that starts with moves".into()).into());
            }
            self.tell(News::Board(&round))?;
            while let Some(turn) = round.turn() {
                if turn == me {
                    let play = self.person.choose(self.rules, &round, me)?;
                    self.link.send(&Message::Move {
                        ply: round.ply(),
                        notation: self.rules.notation(play),
                    })?;
                    let state = self.link.receive(self.timeouts.hello)?;
                    let added = round.follow(&state)?;
                    if added != [play] {
                        let added: Vec<String> =
                            added.iter().map(|&m| self.rules.notation(m)).collect();
                        return Err(Fault::Inconsistent(format!(
                            "the move {} was answered with the moves [{}]",
                            self.rules.notation(play),
                            added.join(", ")
                        ))
                        .into());
                    }
                } else {
                    self.tell(News::WaitingMove)?;
                    let state = self.link.receive(self.timeouts.turn)?;
                    let added = round.follow(&state)?;
                    let [play] = added[..] else {
                        return Err(Fault::Inconsistent(format!(
                            "{} moves at once where one was expected",
                            added.len()
                        ))
                        .into());
                    };
                    self.tell(News::Opponent(play))?;
                }
                self.tell(News::Board(&round))?;
            }
            self.link.set_phase(Phase::AfterGame);
            self.finish(&round, me)?;
            // The host's person answers first.
            self.tell(News::WaitingAnswer)?;
            match self.link.receive(self.timeouts.turn)? {
                Message::Again { answer: true } => {}
                Message::Again { answer: false } => {
                    self.tell(News::Declined)?;
                    break;
                }
                other => return Err(unexpected("again", &other)),
            }
            let ours = self.person.again(self.rules.language())?;
            self.link.send(&Message::Again { answer: ours })?;
            if !ours {
                break;
            }
        }
        Ok(self.tally)
    }

    /// Counts the result and tells the person.
    fn finish(&mut self, round: &Round<G>, me: Side) -> Result<(), SessionError> {
        match round.status().winner() {
            Some(winner) if winner == me => self.tally.won += 1,
            Some(_) => self.tally.lost += 1,
            None => self.tally.drawn += 1,
        }
        let tally = self.tally;
        self.tell(News::Finished { round, me, tally })
    }
}

/// A person at a console, as in `boardkit play`: the game's prompts and
/// messages, the board after every move (painted when the palette is on);
/// the verdict, the score and "play again?" only when interactive, so a
/// piped transcript is one game ending with the result line.
pub(crate) struct ConsolePerson<'s, 'c> {
    console: &'s mut Console<'c>,
    palette: Palette,
    interactive: bool,
}

impl<'s, 'c> ConsolePerson<'s, 'c> {
    pub(crate) fn new(console: &'s mut Console<'c>, terminal: Terminal) -> Self {
        ConsolePerson {
            console,
            palette: Palette {
                color: terminal.color,
            },
            interactive: terminal.interactive,
        }
    }

    fn say(&mut self, line: &str) -> Result<(), SessionError> {
        writeln!(self.console.out, "{line}")?;
        // The person reads it before this end waits for anything.
        self.console.out.flush()?;
        Ok(())
    }
}

impl Person for ConsolePerson<'_, '_> {
    fn tell<G: Rules>(&mut self, rules: G, news: News<'_, G>) -> Result<(), SessionError> {
        let words = Words(rules.language());
        match news {
            News::Introduce(me) => {
                if let Some(title) = rules.title() {
                    let title = self.palette.strong(title);
                    self.say(&title)?;
                }
                let mark = self.palette.mark(me.as_char(), Emphasis::default());
                self.say(&words.you_play(me, &mark))
            }
            News::Board(round) => {
                let board = rules.draw(round.board(), round.last(), self.palette);
                write!(self.console.out, "{board}")?;
                self.console.out.flush()?;
                Ok(())
            }
            News::WaitingMove => self.say(words.waiting_move()),
            News::Opponent(play) => self.say(&rules.announce(play)),
            News::Finished { round, me, tally } => {
                let status = round.status();
                let line = self.palette.strong(&rules.result_line(status));
                self.say(&line)?;
                if self.interactive {
                    if let Some(verdict) = words.verdict(status, me) {
                        self.say(verdict)?;
                    }
                    self.say(&words.score(tally))?;
                }
                Ok(())
            }
            // Only a person asked to play again waits for the answer.
            News::WaitingAnswer if self.interactive => self.say(words.waiting_answer()),
            News::Declined if self.interactive => self.say(words.declined()),
            News::WaitingAnswer | News::Declined => Ok(()),
        }
    }

    fn choose<G: Rules>(
        &mut self,
        rules: G,
        round: &Round<G>,
        me: Side,
    ) -> Result<G::Move, SessionError> {
        let mark = self.palette.mark(me.as_char(), Emphasis::default());
        let line = Words(rules.language()).your_turn(&mark);
        self.say(&line)?;
        let language = rules.language();
        rules
            .ask(round.board(), self.console)
            .map_err(|e| input_error(language, e))
    }

    /// Asked only when interactive (a piped transcript is one game); the
    /// end of input is a no.
    fn again(&mut self, language: Language) -> Result<bool, SessionError> {
        if !self.interactive {
            return Ok(false);
        }
        ask_again(language, self.console).map_err(|e| input_error(language, e))
    }
}

/// What an end says to its person, in the game's language (the console's
/// lines and the full-screen UI's status).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Words(pub Language);

impl Words {
    pub(crate) fn you_play(self, me: Side, mark: &str) -> String {
        match (self.0, me) {
            (Language::Portuguese, Side::X) => format!("Você joga com {mark} e começa."),
            (Language::Portuguese, Side::O) => {
                format!("Você joga com {mark}; o adversário começa.")
            }
            (Language::English, Side::X) => format!("You are player one ({mark}) and start."),
            (Language::English, Side::O) => {
                format!("You are player two ({mark}); your opponent starts.")
            }
        }
    }

    pub(crate) fn your_turn(self, mark: &str) -> String {
        match self.0 {
            Language::Portuguese => format!("Sua vez ({mark})."),
            Language::English => format!("Your turn ({mark})."),
        }
    }

    pub(crate) fn waiting_move(self) -> &'static str {
        match self.0 {
            Language::Portuguese => "aguardando a jogada do adversário...",
            Language::English => "waiting for the opponent's move...",
        }
    }

    pub(crate) fn waiting_answer(self) -> &'static str {
        match self.0 {
            Language::Portuguese => "aguardando a resposta do adversário...",
            Language::English => "waiting for the opponent's answer...",
        }
    }

    pub(crate) fn declined(self) -> &'static str {
        match self.0 {
            Language::Portuguese => "O adversário não quer jogar de novo.",
            Language::English => "Your opponent does not want to play again.",
        }
    }

    /// The winner said from this end's side; `None` for a draw.
    pub(crate) fn verdict(self, status: super::protocol::Status, me: Side) -> Option<&'static str> {
        let won = status.winner()? == me;
        Some(match (self.0, won) {
            (Language::Portuguese, true) => "Você venceu!",
            (Language::Portuguese, false) => "O adversário venceu.",
            (Language::English, true) => "You won!",
            (Language::English, false) => "Your opponent won.",
        })
    }

    pub(crate) fn score(self, tally: Tally) -> String {
        let (you, opponent) = match self.0 {
            Language::Portuguese => ("você", "adversário"),
            Language::English => ("you", "opponent"),
        };
        format!(
            "{}: {you} {}, {opponent} {}, {} {}",
            self.0.score(),
            tally.won,
            tally.lost,
            self.0.draws(),
            tally.drawn
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::games::{connect4, velha};
    use crate::net::protocol::{Options, Status, decode, encode};

    const SHORT: Timeouts = Timeouts {
        hello: Duration::from_secs(10),
        turn: Duration::from_secs(10),
    };
    const PLAIN: Terminal = Terminal {
        color: false,
        interactive: false,
    };
    const GAMES: [&NetworkGame; 2] = [&velha::NETWORK, &connect4::NETWORK];

    fn velha(size: u32) -> Game {
        let options = Options {
            size: Some(size),
            ..Options::default()
        };
        Game::new(&velha::NETWORK, options).unwrap()
    }

    fn script(messages: &[Message]) -> Vec<u8> {
        messages.iter().map(encode).collect::<String>().into_bytes()
    }

    fn sent(bytes: &[u8]) -> Vec<Message> {
        String::from_utf8_lossy(bytes)
            .lines()
            .map(|line| decode(line).expect("this end sends only messages"))
            .collect()
    }

    fn play(notation: &str) -> Message {
        let (ply, notation) = notation.split_once(':').unwrap();
        Message::Move {
            ply: ply.parse().unwrap(),
            notation: notation.into(),
        }
    }

    fn state(moves: &[&str], turn: Option<Side>, status: Status) -> Message {
        Message::State {
            round: 1,
            moves: moves.iter().map(|m| m.to_string()).collect(),
            turn,
            status,
        }
    }

    /// Runs the host against a scripted joiner: its result, its screen and
    /// what it sent.
    fn host_against(
        game: Game,
        joiner: &[Message],
        input: &str,
    ) -> (Result<Tally, SessionError>, String, Vec<Message>) {
        let peer = script(joiner);
        let mut link = Link::new(MessageReader::new(&peer[..]), Vec::new());
        let mut input = input.as_bytes();
        let mut screen = Vec::new();
        let mut console = Console::new(&mut input, &mut screen);
        let result = host(&mut link, game, &mut console, PLAIN, SHORT);
        (
            result,
            String::from_utf8(screen).unwrap(),
            sent(&link.writer),
        )
    }

    /// Runs the joiner against a scripted host.
    fn join_against(
        host_lines: &[u8],
        input: &str,
    ) -> (Result<(Game, Tally), SessionError>, String, Vec<Message>) {
        let mut link = Link::new(MessageReader::new(host_lines), Vec::new());
        let mut input = input.as_bytes();
        let mut screen = Vec::new();
        let mut console = Console::new(&mut input, &mut screen);
        let result = join(&mut link, &GAMES, &mut console, PLAIN, SHORT);
        (
            result,
            String::from_utf8(screen).unwrap(),
            sent(&link.writer),
        )
    }

    /// The joiner's side of a velha game that X wins on row A.
    fn honest_joiner() -> Vec<Message> {
        vec![velha(3).hello(), play("1:B1"), play("3:B2")]
    }

    #[test]
    fn the_host_plays_a_whole_game_and_sends_every_state() {
        let (result, screen, sent) = host_against(velha(3), &honest_joiner(), "A1\nA2\nA3\n");
        assert_eq!(
            result.unwrap(),
            Tally {
                won: 1,
                lost: 0,
                drawn: 0
            }
        );
        assert!(screen.starts_with("Jogo da Velha\nVocê joga com X e começa.\n"));
        assert!(
            screen.contains("aguardando a jogada do adversário...\nO adversário jogou em B1.\n")
        );
        assert!(screen.ends_with("Vencedor: X\n"), "{screen}");
        assert_eq!(sent[0], velha(3).hello());
        assert_eq!(
            sent[1],
            Message::Start {
                round: 1,
                joiner: Side::O
            }
        );
        assert_eq!(sent[2], state(&[], Some(Side::X), Status::Playing));
        assert_eq!(
            sent[7],
            state(&["A1", "B1", "A2", "B2", "A3"], None, Status::XWon)
        );
        // A piped host plays one game and says so.
        assert_eq!(sent[8..], [Message::Again { answer: false }]);
    }

    #[test]
    fn the_joiner_follows_a_whole_game() {
        let host = script(&[
            velha(3).hello(),
            Message::Start {
                round: 1,
                joiner: Side::O,
            },
            state(&[], Some(Side::X), Status::Playing),
            state(&["A1"], Some(Side::O), Status::Playing),
            state(&["A1", "B1"], Some(Side::X), Status::Playing),
            state(&["A1", "B1", "A2"], Some(Side::O), Status::Playing),
            state(&["A1", "B1", "A2", "B2"], Some(Side::X), Status::Playing),
            state(&["A1", "B1", "A2", "B2", "A3"], None, Status::XWon),
            Message::Again { answer: false },
        ]);
        // An occupied cell is refused with the game's message, then B2.
        let (result, screen, sent) = join_against(&host, "B1\nA1\nB2\n");
        let (game, tally) = result.unwrap();
        assert_eq!(game, velha(3));
        assert_eq!(tally.lost, 1);
        assert!(screen.contains("Você joga com O; o adversário começa.\n"));
        assert!(screen.contains("Jogador O, digite a posição (ex.: B2):\nPosição ocupada\n"));
        assert!(screen.ends_with("Vencedor: X\n"), "{screen}");
        assert_eq!(sent, [velha(3).hello(), play("1:B1"), play("3:B2")]);
    }

    /// The host's error, and the `error` message it sent last.
    fn host_refuses(joiner: &[Message], raw: &[u8], input: &str) -> (SessionError, Option<String>) {
        let mut peer = script(joiner);
        peer.extend_from_slice(raw);
        let mut link = Link::new(MessageReader::new(&peer[..]), Vec::new());
        let mut input = input.as_bytes();
        let mut screen = Vec::new();
        let mut console = Console::new(&mut input, &mut screen);
        let error = host(&mut link, velha(3), &mut console, PLAIN, SHORT).unwrap_err();
        let last = match sent(&link.writer).pop() {
            Some(Message::Error { message }) => Some(message),
            _ => None,
        };
        (error, last)
    }

    #[test]
    fn a_bad_joiner_is_refused_and_told_why() {
        let hello = [velha(3).hello()];
        let (error, told) = host_refuses(&[], b"GET / HTTP/1.1\r\n", "");
        assert!(matches!(error, SessionError::Fault(Fault::NotJson(_))));
        assert!(
            told.unwrap()
                .starts_with("you sent a line that is not JSON")
        );

        let old = br#"{"type":"hello","version":0,"game":"velha","options":{"size":3}}"#;
        let (error, told) = host_refuses(&[], &[&old[..], b"\n"].concat(), "");
        assert_eq!(
            error.to_string(),
            "the opponent speaks protocol version 0; this boardkit speaks version 1"
        );
        assert_eq!(
            told.unwrap(),
            "this boardkit speaks protocol version 1, not version 0"
        );

        let other = velha(4).hello();
        let (error, _) = host_refuses(&[other], b"", "");
        assert!(
            matches!(error, SessionError::Fault(Fault::Mismatch(_))),
            "{error}"
        );

        // A move before the host's first: out of turn once the host has played.
        let (error, told) = host_refuses(&[velha(3).hello(), play("0:A1")], b"", "B2\n");
        assert_eq!(
            error.to_string(),
            "the opponent played out of turn: a move for ply 0 while ply 1 was next"
        );
        assert!(told.unwrap().starts_with("you played out of turn"));

        let (error, told) = host_refuses(&[velha(3).hello(), play("1:B2")], b"", "B2\n");
        assert_eq!(
            error.to_string(),
            "the opponent played an illegal move \"B2\": position B2 is already taken"
        );
        assert_eq!(
            told.unwrap(),
            "your move \"B2\" is illegal: position B2 is already taken"
        );

        let (error, _) = host_refuses(&[velha(3).hello(), play("1:Z9")], b"", "B2\n");
        assert!(matches!(error, SessionError::Fault(Fault::Illegal { .. })));

        let (error, _) = host_refuses(
            &[velha(3).hello(), Message::Again { answer: true }],
            b"",
            "B2\n",
        );
        assert!(matches!(
            error,
            SessionError::Fault(Fault::Unexpected {
                expected: "move",
                got: "again"
            })
        ));

        // Gone mid-game: nobody to tell.
        let (error, told) = host_refuses(&hello, b"", "B2\n");
        assert_eq!(
            error.to_string(),
            "the opponent disconnected in the middle of the game"
        );
        assert_eq!(told, None);

        // The joiner's own error is shown, its escapes defused.
        let bye = Message::Error {
            message: "bye\x1b[2J".into(),
        };
        let (error, told) = host_refuses(&[velha(3).hello(), bye], b"", "B2\n");
        assert_eq!(
            error.to_string(),
            "the opponent ended the game: bye\\u{1b}[2J"
        );
        assert_eq!(told, None);

        // The host's person leaves: the joiner is told.
        let (error, told) = host_refuses(&hello, b"", "");
        assert_eq!(error.to_string(), "a entrada terminou antes do fim do jogo");
        assert_eq!(told.unwrap(), "their input ended before the game was over");
    }

    #[test]
    fn a_bad_host_is_refused_and_told_why() {
        let refuse = |lines: &[u8]| {
            let (result, _, sent) = join_against(lines, "B1\nB2\n");
            let told = match sent.last() {
                Some(Message::Error { message }) => Some(message.clone()),
                _ => None,
            };
            (result.unwrap_err(), told)
        };
        let future = br#"{"type":"hello","version":2,"game":"chess","options":[]}"#;
        let (error, told) = refuse(&[&future[..], b"\n"].concat());
        assert!(matches!(error, SessionError::Fault(Fault::Version(_))));
        assert_eq!(
            told.unwrap(),
            "this boardkit speaks protocol version 1, not version 2"
        );

        let huge = Message::Hello {
            version: 1,
            game: "connect4".into(),
            options: Options {
                size: None,
                rows: Some(6),
                cols: Some(70),
            },
        };
        let (error, _) = refuse(&script(&[huge]));
        assert!(matches!(error, SessionError::Fault(Fault::Options { .. })));

        // A host that plays the joiner's move somewhere else.
        let liar = script(&[
            velha(3).hello(),
            Message::Start {
                round: 1,
                joiner: Side::O,
            },
            state(&[], Some(Side::X), Status::Playing),
            state(&["A1"], Some(Side::O), Status::Playing),
            state(&["A1", "C3"], Some(Side::X), Status::Playing),
        ]);
        let (error, told) = refuse(&liar);
        assert!(
            matches!(error, SessionError::Fault(Fault::Inconsistent(_))),
            "{error}"
        );
        assert!(
            told.unwrap()
                .starts_with("your state does not follow the game")
        );

        // Two moves at once.
        let hasty = script(&[
            velha(3).hello(),
            Message::Start {
                round: 1,
                joiner: Side::X,
            },
            state(&[], Some(Side::X), Status::Playing),
            state(&["B1", "A1", "B2"], Some(Side::O), Status::Playing),
        ]);
        let (error, _) = refuse(&hasty);
        assert!(
            matches!(error, SessionError::Fault(Fault::Inconsistent(_))),
            "{error}"
        );
    }

    #[test]
    fn the_loser_starts_the_next_game_and_a_draw_alternates() {
        assert_eq!(next_joiner_side(Side::O, Status::XWon), Side::X);
        assert_eq!(next_joiner_side(Side::O, Status::OWon), Side::O);
        assert_eq!(next_joiner_side(Side::X, Status::XWon), Side::O);
        assert_eq!(next_joiner_side(Side::O, Status::Draw), Side::X);
        assert_eq!(next_joiner_side(Side::X, Status::Draw), Side::O);
    }

    /// Two ends over a real socket pair, on threads, people answering
    /// "play again": the loser of the first game starts the second.
    #[test]
    fn two_games_over_a_socket_pair_with_play_again_and_the_score() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap();
        let joiner_stream = std::net::TcpStream::connect(address).unwrap();
        let (host_stream, _) = listener.accept().unwrap();
        let people = Terminal {
            color: false,
            interactive: true,
        };
        let run = |stream: std::net::TcpStream, input: &'static str, hosting: bool| {
            std::thread::spawn(move || {
                let mut link = crate::net::tcp::link_over(&stream).unwrap();
                let mut input = input.as_bytes();
                let mut screen = Vec::new();
                let mut console = Console::new(&mut input, &mut screen);
                let tally = if hosting {
                    host(&mut link, velha(3), &mut console, people, SHORT)
                } else {
                    join(&mut link, &GAMES, &mut console, people, SHORT).map(|(_, tally)| tally)
                };
                crate::net::tcp::close(&stream);
                (
                    tally.map_err(|e| e.to_string()),
                    String::from_utf8(screen).unwrap(),
                )
            })
        };
        // Game 1: the host (X) wins on row A; game 2: the joiner (X now) does.
        let host_end = run(host_stream, "A1\nA2\nA3\ns\nB1\nB2\nn\n", true);
        let joiner_end = run(joiner_stream, "B1\nB2\ns\nA1\nA2\nA3\n", false);
        let (host_tally, host_screen) = host_end.join().unwrap();
        let (joiner_tally, joiner_screen) = joiner_end.join().unwrap();
        let even = Tally {
            won: 1,
            lost: 1,
            drawn: 0,
        };
        assert_eq!(host_tally, Ok(even), "{host_screen}");
        assert_eq!(joiner_tally, Ok(even), "{joiner_screen}");
        assert!(host_screen.contains(
            "Você venceu!\nPlacar: você 1, adversário 0, empates 0\nJogar de novo? (s/n)\n"
        ));
        assert!(host_screen.contains("Você joga com O; o adversário começa."));
        assert!(
            host_screen
                .ends_with("Placar: você 1, adversário 1, empates 0\nJogar de novo? (s/n)\n")
        );
        assert!(joiner_screen.contains("Você joga com X e começa."));
        assert!(
            joiner_screen.ends_with("O adversário não quer jogar de novo.\n"),
            "{joiner_screen}"
        );
    }
}
