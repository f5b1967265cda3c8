//! The games as network play sees them: one [`Rules`] per game over the
//! library's boards (`velha::Board`, `connect4::Board`, which keep every
//! rule), and [`Round`], one game's moves and status, which the host
//! plays moves on and the joiner follows the host's states with.
//!
//! The session's loops are written once over [`Rules`]; what differs
//! between the games (notation, prompts, boards, result lines, language)
//! is in each game's file (`velha.rs`, `connect4.rs`), reusing its
//! program and renderer.

pub(crate) mod connect4;
pub(crate) mod velha;

use std::any::Any;
use std::collections::HashMap;
use std::fmt::Debug;
use std::sync::Mutex;

use super::protocol::{Fault, Message, Options, Side, Status, VERSION, shown};
use crate::play::paint::Palette;
use crate::play::session::Language;
use boardkit::console::{Console, InputError};

/// Why a move is refused, on the wire or on the screen.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum IllegalMove {
    /// The game's own reason, in its words.
    #[error("{0}")]
    Rule(String),
    #[error("column {column} does not exist: choose 1 to {cols}")]
    NoColumn { column: usize, cols: usize },
    #[error("not a column number")]
    NotAColumn,
    #[error("the game is over")]
    Over,
    #[error("no such board")]
    NoBoard,
    #[error("another game")]
    OtherGame,
}

/// One game's rules and its people-facing words, for network play.
pub(crate) trait Rules: Copy {
    type Board: Clone;
    type Move: Copy + PartialEq + Debug;

    /// The game it is the rules of.
    fn network(&self) -> &'static NetworkGame;
    /// Its board, as the hello says it.
    fn options(&self) -> Options;
    /// The game and its board.
    fn game(&self) -> Game {
        Game::new(self.network(), self.options()).expect("rules of a board the library plays")
    }
    /// The language of the game's messages.
    fn language(&self) -> Language;
    /// The line printed at the start of each game, if any.
    fn title(&self) -> Option<&'static str>;
    fn empty(&self) -> Self::Board;
    /// A move from its notation on the wire (`B2`; a column from 1).
    fn parse(&self, notation: &str) -> Result<Self::Move, IllegalMove>;
    fn notation(&self, play: Self::Move) -> String;
    /// Plays the side to move, or says why the move is illegal; returns
    /// the status after it.
    fn play(&self, board: &mut Self::Board, play: Self::Move) -> Result<Status, IllegalMove>;
    /// Asks the person at the console for a legal move, with the game's
    /// prompt and messages (those of `boardkit play`).
    fn ask(&self, board: &Self::Board, console: &mut Console<'_>)
    -> Result<Self::Move, InputError>;
    /// The board as printed after every move, painted when the palette is.
    fn draw(&self, board: &Self::Board, last: Option<Self::Move>, palette: Palette) -> String;
    /// The exercise's last line of a finished game.
    fn result_line(&self, status: Status) -> String;
    /// Says what the opponent just played.
    fn announce(&self, play: Self::Move) -> String;
}

/// A game network play plays, as its registry entry gives it: network play
/// names no game of its own; the commands hand it the registry's.
pub(crate) struct NetworkGame {
    /// Its name on the wire and on `host`'s command line.
    pub id: &'static str,
    /// The language of its messages.
    pub language: Language,
    /// The hello's options for `host`'s board flags, or why they ask for
    /// no board of it.
    pub options_of: fn(BoardFlags) -> Result<Options, String>,
    /// Its rules on the board `options` make, if the library plays it.
    pub rules: fn(Options) -> Option<AnyRules>,
}

impl Debug for NetworkGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id)
    }
}

/// `host`'s board flags: `--size`, `--rows`, `--cols`.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct BoardFlags {
    pub size: Option<u8>,
    pub rows: Option<u8>,
    pub cols: Option<u8>,
}

/// A game and its board, as both ends agree on it in the hello: one the
/// library plays (made only through [`Game::new`]).
#[derive(Clone, Copy)]
pub(crate) struct Game {
    network: &'static NetworkGame,
    options: Options,
    rules: AnyRules,
}

impl PartialEq for Game {
    fn eq(&self, other: &Game) -> bool {
        self.name() == other.name() && self.options == other.options
    }
}

impl Eq for Game {}

impl Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let options = serde_json::to_string(&self.options).unwrap_or_default();
        write!(f, "{} {options}", self.name())
    }
}

impl Game {
    /// `network`'s game on the board `options` make, if the library plays it.
    pub(crate) fn new(network: &'static NetworkGame, options: Options) -> Option<Game> {
        let rules = (network.rules)(options)?;
        Some(Game {
            network,
            options,
            rules,
        })
    }

    /// The game and board `host`'s flags ask for, or why they ask for none.
    pub(crate) fn from_flags(
        network: &'static NetworkGame,
        flags: BoardFlags,
    ) -> Result<Game, String> {
        let options = (network.options_of)(flags)?;
        Game::new(network, options).ok_or_else(|| format!("no {} board of {options:?}", network.id))
    }

    /// The game a hello offers, if it is one of `games` on a board this
    /// build plays.
    pub(crate) fn from_hello(
        games: &[&'static NetworkGame],
        name: &str,
        options: Options,
    ) -> Result<Game, Fault> {
        let Some(network) = games.iter().find(|g| g.id == name) else {
            return Err(Fault::UnknownGame(shown(name)));
        };
        Game::new(network, options).ok_or_else(|| Fault::Options {
            game: network.id,
            options: serde_json::to_string(&options).unwrap_or_default(),
        })
    }

    /// Its name on the wire.
    pub(crate) fn name(self) -> &'static str {
        self.network.id
    }

    pub(crate) fn options(self) -> Options {
        self.options
    }

    /// The language of the game's messages.
    pub(crate) fn language(self) -> Language {
        self.network.language
    }

    /// Its rules, whichever game it is: the session is written once over
    /// them.
    pub(crate) fn rules(self) -> AnyRules {
        self.rules
    }

    /// The host's hello for this game.
    pub(crate) fn hello(self) -> Message {
        Message::Hello {
            version: VERSION,
            game: self.name().to_owned(),
            options: self.options,
        }
    }
}

/// A move as a number, so that the rules of every game are one type
/// ([`AnyRules`]): a game's move type says how.
pub(crate) trait MoveCode: Copy + PartialEq + Debug {
    fn code(self) -> u32;
    fn from_code(code: u32) -> Option<Self>;
}

/// A board of any game, for [`AnyRules`].
pub(crate) struct AnyBoard(Box<dyn ErasedBoard>);

trait ErasedBoard: Send {
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
    fn clone_box(&self) -> Box<dyn ErasedBoard>;
}

impl<B: Clone + Send + 'static> ErasedBoard for B {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
    fn clone_box(&self) -> Box<dyn ErasedBoard> {
        Box::new(self.clone())
    }
}

impl Clone for AnyBoard {
    fn clone(&self) -> AnyBoard {
        AnyBoard(self.0.clone_box())
    }
}

impl Debug for AnyBoard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a board")
    }
}

impl AnyBoard {
    /// The board as its game's own type: a board of these rules always is.
    fn of<B: 'static>(&self) -> &B {
        self.0
            .as_any()
            .downcast_ref()
            .expect("a board made by the same rules")
    }

    fn of_mut<B: 'static>(&mut self) -> &mut B {
        self.0
            .as_any_mut()
            .downcast_mut()
            .expect("a board made by the same rules")
    }
}

/// The erasure behind [`AnyRules`], in a room of its own: its methods share
/// [`Rules`]' names, and code that has both in scope could not tell them
/// apart.
mod erased {
    use super::*;

    /// [`Rules`] with the board and the moves erased.
    pub(super) trait ErasedRules: Send + Sync {
        fn network(&self) -> &'static NetworkGame;
        fn options(&self) -> Options;
        fn language(&self) -> Language;
        fn title(&self) -> Option<&'static str>;
        fn empty(&self) -> AnyBoard;
        fn parse(&self, notation: &str) -> Result<u32, IllegalMove>;
        fn notation(&self, play: u32) -> String;
        fn play(&self, board: &mut AnyBoard, play: u32) -> Result<Status, IllegalMove>;
        fn ask(&self, board: &AnyBoard, console: &mut Console<'_>) -> Result<u32, InputError>;
        fn draw(&self, board: &AnyBoard, last: Option<u32>, palette: Palette) -> String;
        fn result_line(&self, status: Status) -> String;
        fn announce(&self, play: u32) -> String;
    }

    /// A code no game made: a move of another game.
    fn decoded<M: MoveCode>(code: u32) -> M {
        M::from_code(code).expect("a move made by the same rules")
    }

    impl<G> ErasedRules for G
    where
        G: Rules + Send + Sync,
        G::Board: Send + 'static,
        G::Move: MoveCode,
    {
        fn network(&self) -> &'static NetworkGame {
            Rules::network(self)
        }
        fn options(&self) -> Options {
            Rules::options(self)
        }
        fn language(&self) -> Language {
            Rules::language(self)
        }
        fn title(&self) -> Option<&'static str> {
            Rules::title(self)
        }
        fn empty(&self) -> AnyBoard {
            AnyBoard(Box::new(Rules::empty(self)))
        }
        fn parse(&self, notation: &str) -> Result<u32, IllegalMove> {
            Rules::parse(self, notation).map(MoveCode::code)
        }
        fn notation(&self, play: u32) -> String {
            Rules::notation(self, decoded(play))
        }
        fn play(&self, board: &mut AnyBoard, play: u32) -> Result<Status, IllegalMove> {
            let play = G::Move::from_code(play).ok_or(IllegalMove::OtherGame)?;
            Rules::play(self, board.of_mut::<G::Board>(), play)
        }
        fn ask(&self, board: &AnyBoard, console: &mut Console<'_>) -> Result<u32, InputError> {
            Rules::ask(self, board.of::<G::Board>(), console).map(MoveCode::code)
        }
        fn draw(&self, board: &AnyBoard, last: Option<u32>, palette: Palette) -> String {
            Rules::draw(self, board.of::<G::Board>(), last.map(decoded), palette)
        }
        fn result_line(&self, status: Status) -> String {
            Rules::result_line(self, status)
        }
        fn announce(&self, play: u32) -> String {
            Rules::announce(self, decoded(play))
        }
    }
}

/// The rules of any game the registry has, one type: what the session and
/// the screens hold.
#[derive(Clone, Copy)]
pub(crate) struct AnyRules(&'static dyn erased::ErasedRules);

impl AnyRules {
    /// `rules`, erased. One each board for the whole process, kept: boards
    /// are few (the library's sizes bound them).
    pub(crate) fn of<G>(rules: G) -> AnyRules
    where
        G: Rules + Send + Sync + 'static,
        G::Board: Send + 'static,
        G::Move: MoveCode,
    {
        static KEPT: Mutex<Option<HashMap<(&'static str, Options), AnyRules>>> = Mutex::new(None);
        let key = (rules.network().id, rules.options());
        let mut kept = KEPT
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *kept
            .get_or_insert_with(HashMap::new)
            .entry(key)
            .or_insert_with(|| AnyRules(Box::leak(Box::new(rules))))
    }
}

impl AnyRules {
    /// The game these are the rules of, on their board.
    pub(crate) fn game(self) -> Game {
        Game {
            network: self.0.network(),
            options: self.0.options(),
            rules: self,
        }
    }
}

impl Debug for AnyRules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.game())
    }
}

impl Rules for AnyRules {
    type Board = AnyBoard;
    type Move = u32;

    fn game(&self) -> Game {
        AnyRules::game(*self)
    }

    fn network(&self) -> &'static NetworkGame {
        self.0.network()
    }
    fn options(&self) -> Options {
        self.0.options()
    }
    fn language(&self) -> Language {
        self.0.language()
    }
    fn title(&self) -> Option<&'static str> {
        self.0.title()
    }
    fn empty(&self) -> AnyBoard {
        self.0.empty()
    }
    fn parse(&self, notation: &str) -> Result<u32, IllegalMove> {
        self.0.parse(notation)
    }
    fn notation(&self, play: u32) -> String {
        self.0.notation(play)
    }
    fn play(&self, board: &mut AnyBoard, play: u32) -> Result<Status, IllegalMove> {
        self.0.play(board, play)
    }
    fn ask(&self, board: &AnyBoard, console: &mut Console<'_>) -> Result<u32, InputError> {
        self.0.ask(board, console)
    }
    fn draw(&self, board: &AnyBoard, last: Option<u32>, palette: Palette) -> String {
        self.0.draw(board, last, palette)
    }
    fn result_line(&self, status: Status) -> String {
        self.0.result_line(status)
    }
    fn announce(&self, play: u32) -> String {
        self.0.announce(play)
    }
}

/// One game in progress: the board, the moves played, the status. The
/// host plays moves on it ([`Round::play`]) and sends [`Round::state`];
/// the joiner replays the host's states on its own ([`Round::follow`]), so
/// a host that breaks the rules is caught.
#[derive(Debug, Clone)]
pub(crate) struct Round<G: Rules> {
    rules: G,
    number: u32,
    board: G::Board,
    moves: Vec<G::Move>,
    status: Status,
}

impl<G: Rules> Round<G> {
    /// Game `number` (from 1), from an empty board.
    pub(crate) fn new(rules: G, number: u32) -> Self {
        Round {
            rules,
            number,
            board: rules.empty(),
            moves: Vec::new(),
            status: Status::Playing,
        }
    }

    pub(crate) fn board(&self) -> &G::Board {
        &self.board
    }

    pub(crate) fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    pub(crate) fn last(&self) -> Option<G::Move> {
        self.moves.last().copied()
    }

    /// How many moves were played: the `ply` the next move must carry.
    pub(crate) fn ply(&self) -> u32 {
        self.moves.len() as u32
    }

    pub(crate) fn status(&self) -> Status {
        self.status
    }

    /// Whose turn it is; none once the game is over. `X` starts both games.
    pub(crate) fn turn(&self) -> Option<Side> {
        match self.status {
            Status::Playing if self.moves.len() % 2 == 0 => Some(Side::X),
            Status::Playing => Some(Side::O),
            _ => None,
        }
    }

    /// Plays the side to move, or says why the move is illegal (the board
    /// is then unchanged).
    pub(crate) fn play(&mut self, play: G::Move) -> Result<(), IllegalMove> {
        if self.status != Status::Playing {
            return Err(IllegalMove::Over);
        }
        self.status = self.rules.play(&mut self.board, play)?;
        self.moves.push(play);
        Ok(())
    }

    /// The host's `state` message for this game.
    pub(crate) fn state(&self) -> Message {
        Message::State {
            round: self.number,
            moves: self.moves.iter().map(|&m| self.rules.notation(m)).collect(),
            turn: self.turn(),
            status: self.status,
        }
    }

    /// Follows a `state` from the host: the moves already known must come
    /// first, the new ones must be legal, and the turn and status it claims
    /// must be what the rules say. Returns the new moves.
    pub(crate) fn follow(&mut self, state: &Message) -> Result<Vec<G::Move>, Fault> {
        let Message::State {
            round,
            moves,
            turn,
            status,
        } = state
        else {
            return Err(Fault::Unexpected {
                expected: "state",
                got: state.kind(),
            });
        };
        let wrong = |why: String| Err(Fault::Inconsistent(why));
        if *round != self.number {
            return wrong(format!(
                "a state of game {round} during game {}",
                self.number
            ));
        }
        if moves.len() < self.moves.len() {
            return wrong(format!(
                "{} moves where {} were already played",
                moves.len(),
                self.moves.len()
            ));
        }
        for (i, (known, notation)) in self.moves.iter().zip(moves).enumerate() {
            if self.rules.parse(notation).ok() != Some(*known) {
                return wrong(format!(
                    "move {} is {:?}, not {}",
                    i + 1,
                    shown(notation),
                    self.rules.notation(*known)
                ));
            }
        }
        let known = self.moves.len();
        for (i, notation) in moves.iter().enumerate().skip(known) {
            let play = self.rules.parse(notation);
            if let Err(why) = play.and_then(|play| self.play(play)) {
                return wrong(format!(
                    "move {} {:?} is illegal: {why}",
                    i + 1,
                    shown(notation)
                ));
            }
        }
        if *status != self.status || *turn != self.turn() {
            return wrong(format!(
                "it says {status:?} with {turn:?} to move, the rules say {:?} with {:?}",
                self.status,
                self.turn()
            ));
        }
        Ok(self.moves[known..].to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use connect4::Connect4;
    use velha::Velha;

    fn velha() -> Velha {
        Velha::new(3).unwrap()
    }

    #[test]
    fn sizes_outside_the_library_bounds_make_no_rules() {
        assert!(Velha::new(2).is_none() && Velha::new(10).is_none());
        assert!(Connect4::new(3, 7).is_none() && Connect4::new(6, 21).is_none());
        assert!(Connect4::new(4, 20).is_some());
    }

    #[test]
    fn a_round_plays_a_velha_game_to_its_result() {
        let mut round = Round::new(velha(), 1);
        for notation in ["A1", "B1", "A2", "B2"] {
            round.play(velha().parse(notation).unwrap()).unwrap();
        }
        assert_eq!(round.turn(), Some(Side::X));
        assert_eq!(
            round.play(velha().parse("B1").unwrap()),
            Err(IllegalMove::Rule(
                boardkit::velha::board::MoveError::Occupied(
                    boardkit::velha::parse_position("B1", 3).unwrap()
                )
                .to_string()
            ))
        );
        round.play(velha().parse("A3").unwrap()).unwrap();
        assert_eq!(round.status(), Status::XWon);
        assert_eq!(round.turn(), None);
        assert_eq!(velha().result_line(round.status()), "Vencedor: X");
        assert_eq!(
            round.play(velha().parse("C3").unwrap()),
            Err(IllegalMove::Over)
        );
        assert_eq!(
            round.state(),
            Message::State {
                round: 1,
                moves: ["A1", "B1", "A2", "B2", "A3"].map(String::from).to_vec(),
                turn: None,
                status: Status::XWon,
            }
        );
    }

    #[test]
    fn connect_four_columns_are_numbered_from_one_on_the_wire() {
        let rules = Connect4::new(6, 7).unwrap();
        assert_eq!(rules.parse("7"), Ok(6));
        assert!(rules.parse("0").is_err() && rules.parse("8").is_err());
        assert!(rules.parse("x").is_err() && rules.parse("").is_err());
        let mut round = Round::new(rules, 1);
        for col in [1, 2, 1, 2, 1, 2, 6, 2] {
            round.play(col - 1).unwrap();
        }
        assert_eq!(round.status(), Status::OWon);
        assert_eq!(rules.result_line(round.status()), "Player two won!");
    }

    #[test]
    fn the_follower_replays_states_and_catches_a_lying_host() {
        let mut host = Round::new(velha(), 1);
        let mut joiner = Round::new(velha(), 1);
        assert_eq!(joiner.follow(&host.state()), Ok(vec![]));
        host.play(velha().parse("B2").unwrap()).unwrap();
        assert_eq!(
            joiner.follow(&host.state()),
            Ok(vec![velha().parse("B2").unwrap()])
        );

        let lie = |moves: &[&str], turn, status| Message::State {
            round: 1,
            moves: moves.iter().map(|m| m.to_string()).collect(),
            turn,
            status,
        };
        let inconsistent = |follower: &mut Round<Velha>, state: Message| {
            matches!(follower.follow(&state), Err(Fault::Inconsistent(_)))
        };
        // A rewritten history, an illegal move, a false status or turn.
        assert!(inconsistent(
            &mut joiner.clone(),
            lie(&["A1", "C3"], Some(Side::X), Status::Playing)
        ));
        assert!(inconsistent(
            &mut joiner.clone(),
            lie(&["B2", "B2"], Some(Side::X), Status::Playing)
        ));
        assert!(inconsistent(
            &mut joiner.clone(),
            lie(&["B2", "A1"], None, Status::XWon)
        ));
        assert!(inconsistent(
            &mut joiner.clone(),
            lie(&["B2", "A1"], Some(Side::O), Status::Playing)
        ));
        assert!(inconsistent(
            &mut joiner.clone(),
            lie(&[], Some(Side::X), Status::Playing)
        ));
        assert!(matches!(
            joiner.follow(&Message::Again { answer: true }),
            Err(Fault::Unexpected { .. })
        ));
    }

    const GAMES: [&NetworkGame; 2] = [&velha::NETWORK, &connect4::NETWORK];

    #[test]
    fn hellos_offer_only_games_and_boards_this_build_plays() {
        let options = |size, rows, cols| Options { size, rows, cols };
        let velha_4 = Game::from_hello(&GAMES, "velha", options(Some(4), None, None)).unwrap();
        assert_eq!((velha_4.name(), velha_4.options().size), ("velha", Some(4)));
        let c4 = Game::from_hello(&GAMES, "connect4", options(None, Some(6), Some(7))).unwrap();
        assert_eq!((c4.name(), c4.options().cols), ("connect4", Some(7)));
        for (game, o) in [
            ("velha", options(Some(2), None, None)),
            ("velha", options(None, None, None)),
            ("velha", options(Some(3), Some(6), None)),
            ("connect4", options(None, Some(6), Some(21))),
            ("connect4", options(Some(3), Some(6), Some(7))),
            ("connect4", options(None, Some(u32::MAX), Some(7))),
        ] {
            assert!(
                matches!(
                    Game::from_hello(&GAMES, game, o),
                    Err(Fault::Options { .. })
                ),
                "{game} {o:?}"
            );
        }
        assert_eq!(
            Game::from_hello(&GAMES, "mastermind", Options::default()),
            Err(Fault::UnknownGame("mastermind".into()))
        );
    }

    #[test]
    fn host_flags_make_each_games_board() {
        let flags = |size, rows, cols| BoardFlags { size, rows, cols };
        let velha = Game::from_flags(&velha::NETWORK, flags(None, None, None)).unwrap();
        assert_eq!(velha.options().size, Some(3));
        assert!(Game::from_flags(&velha::NETWORK, flags(None, Some(6), None)).is_err());
        let c4 = Game::from_flags(&connect4::NETWORK, flags(None, None, Some(9))).unwrap();
        assert_eq!((c4.options().rows, c4.options().cols), (Some(6), Some(9)));
        assert!(Game::from_flags(&connect4::NETWORK, flags(Some(3), None, None)).is_err());
    }

    #[test]
    fn the_erased_rules_play_as_the_games_own() {
        let game = Game::new(
            &velha::NETWORK,
            Options {
                size: Some(3),
                ..Options::default()
            },
        )
        .unwrap();
        let rules = game.rules();
        assert_eq!(rules.game(), game);
        let mut round = Round::new(rules, 1);
        for notation in ["A1", "B1", "A2", "B2", "A3"] {
            round.play(rules.parse(notation).unwrap()).unwrap();
        }
        assert_eq!(round.status(), Status::XWon);
        assert_eq!(rules.result_line(round.status()), "Vencedor: X");
        let moves: Vec<String> = round.moves().iter().map(|&m| rules.notation(m)).collect();
        assert_eq!(moves, ["A1", "B1", "A2", "B2", "A3"]);
        // One board of one game: the same rules, kept once.
        let again = Game::new(&velha::NETWORK, game.options()).unwrap();
        assert!(std::ptr::addr_eq(again.rules().0, rules.0));
    }
}
