//! The games as network play sees them: one [`Rules`] per game over the
//! library's boards (`velha::Board`, `connect4::Board`, which keep every
//! rule), and [`Round`], one game's moves and status, which the host
//! plays moves on and the joiner follows the host's states with.
//!
//! The session's loops are written once over [`Rules`]; what differs
//! between the games (notation, prompts, boards, result lines, language)
//! is in each game's file (`velha.rs`, `connect4.rs`), reusing its
//! program and renderer.

mod connect4;
mod velha;

pub(crate) use connect4::Connect4;
pub(crate) use velha::Velha;

use std::fmt::Debug;

use super::protocol::{Fault, Game, GameName, Message, Side, Status, shown};
use crate::play::paint::Palette;
use crate::play::session::Language;
use boardkit::console::{Console, InputError};

/// Why a move is refused, on the wire or on the screen.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum IllegalMove {
    #[error(transparent)]
    Position(#[from] boardkit::velha::board::InvalidPosition),
    #[error(transparent)]
    Velha(#[from] boardkit::velha::board::MoveError),
    #[error(transparent)]
    Connect4(#[from] boardkit::connect4::DropError),
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

    /// The game and its board, as the hello says it.
    fn game(&self) -> Game;
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

/// What runs with a game's rules, whichever game it is (the session's
/// host and join loops): network play names its games here alone.
pub(crate) trait WithRules {
    type Output;
    fn with<G: Rules>(self, rules: G) -> Self::Output;
}

impl Game {
    /// Runs `task` with this game's rules; `None` when its board is not one
    /// the library plays.
    pub(crate) fn with_rules<T: WithRules>(self, task: T) -> Option<T::Output> {
        match self {
            Game::Velha { size } => Some(task.with(Velha::new(size)?)),
            Game::Connect4 { rows, cols } => Some(task.with(Connect4::new(rows, cols)?)),
        }
    }

    /// The game and board `host`'s flags ask for (`--size`; `--rows`,
    /// `--cols`), or why they ask for none.
    pub(crate) fn from_flags(
        name: GameName,
        size: Option<u8>,
        rows: Option<u8>,
        cols: Option<u8>,
    ) -> Result<Game, String> {
        match name {
            GameName::Velha if rows.is_some() || cols.is_some() => {
                Err("--rows and --cols are connect4's: velha takes --size".into())
            }
            GameName::Velha => Ok(Game::Velha {
                size: size.map_or(3, usize::from),
            }),
            GameName::Connect4 if size.is_some() => {
                Err("--size is velha's: connect4 takes --rows and --cols".into())
            }
            GameName::Connect4 => Ok(Game::Connect4 {
                rows: rows.map_or(6, usize::from),
                cols: cols.map_or(7, usize::from),
            }),
        }
    }

    /// The language of the game's messages.
    pub(crate) fn language(self) -> Language {
        match self {
            Game::Velha { .. } => Language::Portuguese,
            Game::Connect4 { .. } => Language::English,
        }
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
            Err(IllegalMove::Velha(
                boardkit::velha::board::MoveError::Occupied(
                    boardkit::velha::parse_position("B1", 3).unwrap()
                )
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
}
