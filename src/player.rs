//! One trait between a game and whoever plays it.
//!
//! A game loop asks each seat's [`Player`] for its next move and never knows
//! whether a human at a console, an AI or student code is behind it (the shape of
//! roget's Wordle guesser). Humans read from the [`Console`]; computer players are
//! pure [`Strategy`] values wrapped in [`Computer`], so AIs never touch I/O.

use crate::console::{Console, InputError};

/// Anyone who chooses moves in a game whose positions are `B` and moves are `M`.
pub trait Player<B: ?Sized, M> {
    /// The next move for the side to play in `board`. A human player prompts on
    /// the console and re-asks after an invalid input; it fails only when the
    /// input ends or cannot be read.
    fn next_move(&mut self, board: &B, console: &mut Console<'_>) -> Result<M, InputError>;
}

/// A pure move chooser: rules in, move out, no I/O.
pub trait Strategy<B: ?Sized, M> {
    /// A legal move for the side to play. Only called when one exists.
    fn choose(&mut self, board: &B) -> M;
}

impl<B: ?Sized, M, S: Strategy<B, M> + ?Sized> Strategy<B, M> for Box<S> {
    fn choose(&mut self, board: &B) -> M {
        (**self).choose(board)
    }
}

/// A computer seat: a [`Strategy`] seen as a [`Player`].
pub struct Computer<S>(pub S);

impl<B: ?Sized, M, S: Strategy<B, M>> Player<B, M> for Computer<S> {
    fn next_move(&mut self, board: &B, _console: &mut Console<'_>) -> Result<M, InputError> {
        Ok(self.0.choose(board))
    }
}
