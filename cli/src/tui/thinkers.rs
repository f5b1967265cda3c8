//! The computer opponent and the hint's player of a board game, lent to a
//! thread while they think and given back with their choice. Velha and
//! connect four differ only in their boards, moves and players, so this is
//! written once for both (Mastermind's codebreaker also plays the watched
//! guesses, in line, and keeps its own).

use std::any::Any;

use boardkit::player::Strategy;

use super::game::{Busy, Thought, Work, lend, thought};

/// A player that can be sent to a thread.
pub(crate) type Player<B, M> = Box<dyn Strategy<B, M> + Send>;

/// A game's computer player and hint's player, and the hint.
pub(crate) struct Thinkers<B, M> {
    /// The computer opponent; `None` without one, or while it thinks.
    computer: Option<Player<B, M>>,
    /// The hint's player, made on the first hint (what it learns is kept);
    /// `None` until then, or while it thinks.
    hinter: Option<Player<B, M>>,
    hint_out: bool,
    hint: Option<M>,
    hint_wanted: bool,
}

impl<B: Send + 'static, M: Copy + Send + 'static> Thinkers<B, M> {
    pub(crate) fn new(computer: Option<Player<B, M>>) -> Self {
        Thinkers {
            computer,
            hinter: None,
            hint_out: false,
            hint: None,
            hint_wanted: false,
        }
    }

    /// The hint shown, until a move is played or taken back.
    pub(crate) fn hint(&self) -> Option<M> {
        self.hint
    }

    /// A move was played or taken back: the hint on screen is stale; once
    /// the game is over, a hint asked for has no move to show.
    pub(crate) fn board_changed(&mut self, over: bool) {
        self.hint = None;
        if over {
            self.hint_wanted = false;
        }
    }

    pub(crate) fn request_hint(&mut self) {
        self.hint_wanted = true;
    }

    pub(crate) fn cancel_hint(&mut self) {
        self.hint_wanted = false;
    }

    /// What the game waits for: the computer when it is to move, else the
    /// hint asked for.
    pub(crate) fn busy(&self, over: bool, computer_to_move: bool) -> Option<Busy> {
        if over {
            None
        } else if computer_to_move {
            Some(Busy::Computer)
        } else if self.hint_wanted {
            Some(Busy::Hint)
        } else {
            None
        }
    }

    /// The work for `busy` on `board` at `version`, with its player (the
    /// hint's made by `new_hinter` the first time); `None` when that
    /// player is out already.
    pub(crate) fn take_work(
        &mut self,
        busy: Busy,
        version: u64,
        board: B,
        new_hinter: impl FnOnce() -> Player<B, M>,
    ) -> Option<Work> {
        let player = match busy {
            Busy::Computer => self.computer.take()?,
            Busy::Hint if self.hint_out => return None,
            Busy::Hint => {
                self.hint_out = true;
                self.hinter.take().unwrap_or_else(new_hinter)
            }
        };
        Some(lend(busy, version, board, player))
    }

    /// Takes back the player of finished work. Returns the computer's move
    /// when it was asked at `version` (the caller plays it if the computer
    /// is still to move); a current hint is kept to show.
    pub(crate) fn finish_work(&mut self, result: Box<dyn Any + Send>, version: u64) -> Option<M> {
        let Thought {
            busy,
            asked_at,
            choice,
            player,
        } = thought::<B, M>(result);
        let current = asked_at == version;
        match busy {
            Busy::Computer => {
                self.computer = Some(player);
                current.then_some(choice)
            }
            Busy::Hint => {
                self.hinter = Some(player);
                self.hint_out = false;
                if current && self.hint_wanted {
                    self.hint = Some(choice);
                    self.hint_wanted = false;
                }
                None
            }
        }
    }
}

/// The index of the last move a person played, the one undo takes back
/// (with the computer's replies after it); `None` when there is none.
pub(crate) fn last_person_move(moves: usize, by_computer: impl Fn(usize) -> bool) -> Option<usize> {
    (0..moves).rev().find(|&i| !by_computer(i))
}
