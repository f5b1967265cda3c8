//! Jogo da velha on the network screen: the full screen's game for two
//! players, in the wire's notation (`B2`), as network play's rules
//! (`net/games/velha.rs`) write and check it.

use ratatui::text::Line;

use super::{VelhaGame, VelhaSetup};
use crate::net::games::velha::Velha;
use crate::net::games::{IllegalMove, Rules};
use crate::net::protocol::Options;
use crate::tui::game::{Game, NetworkBoard};

/// The board of a velha game the hello's `options` set (its `size`).
pub(crate) fn board(options: Options) -> Option<Box<dyn NetworkBoard>> {
    let size = options.size? as usize;
    Velha::new(size)?;
    let setup = VelhaSetup {
        size,
        opponent: None,
    };
    Some(Box::new(VelhaGame::new(setup, 0)))
}

impl NetworkBoard for VelhaGame {
    fn game(&self) -> &dyn Game {
        self
    }

    fn game_mut(&mut self) -> &mut dyn Game {
        self
    }

    fn lines(&self, my_turn: bool) -> Vec<Line<'static>> {
        super::draw::velha_board(self, my_turn)
    }

    fn hint(&self) -> Option<String> {
        VelhaGame::hint(self).map(|pos| pos.to_string())
    }

    fn moves(&self) -> Vec<String> {
        VelhaGame::moves(self)
            .iter()
            .map(|pos| pos.to_string())
            .collect()
    }

    fn play(&mut self, notation: &str) -> Result<(), IllegalMove> {
        let rules = Velha::new(self.board().size()).ok_or(IllegalMove::NoBoard)?;
        let pos = rules.parse(notation)?;
        self.play_move(pos)
    }
}
