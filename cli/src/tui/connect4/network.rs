//! Connect four on the network screen: the full screen's game for two
//! players, in the wire's notation (a column from 1), as network play's
//! rules (`net/games/connect4.rs`) write and check it.

use ratatui::text::Line;

use super::{Connect4Game, Connect4Setup};
use crate::net::games::connect4::Connect4;
use crate::net::games::{IllegalMove, Rules};
use crate::net::protocol::Options;
use crate::tui::game::{Game, NetworkBoard};

/// The board of a connect-four game the hello's `options` set (its `rows`
/// and `cols`).
pub(crate) fn board(options: Options) -> Option<Box<dyn NetworkBoard>> {
    let (rows, cols) = (options.rows? as usize, options.cols? as usize);
    Connect4::new(rows, cols)?;
    let setup = Connect4Setup {
        cols,
        rows,
        opponent: None,
    };
    Some(Box::new(Connect4Game::new(setup, 0)))
}

impl NetworkBoard for Connect4Game {
    fn game(&self) -> &dyn Game {
        self
    }

    fn game_mut(&mut self) -> &mut dyn Game {
        self
    }

    fn lines(&self, my_turn: bool) -> Vec<Line<'static>> {
        super::draw::connect4_board(self, my_turn)
    }

    fn hint(&self) -> Option<String> {
        Connect4Game::hint(self).map(|col| (col + 1).to_string())
    }

    fn moves(&self) -> Vec<String> {
        Connect4Game::moves(self)
            .iter()
            .map(|col| (col + 1).to_string())
            .collect()
    }

    fn play(&mut self, notation: &str) -> Result<(), IllegalMove> {
        let board = self.board();
        let rules = Connect4::new(board.rows(), board.cols()).ok_or(IllegalMove::NoBoard)?;
        let col = rules.parse(notation)?;
        self.play_move(col)
    }
}
