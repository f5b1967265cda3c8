//! Each game's computer opponents and modes (not its rules, which are the
//! library's): the table layer, each game described once for every front end (the
//! terminal's `play`, the full screen, the network and the browser). What
//! a game offers and how its names read lives here; each front end keeps
//! only its drawing.
//!
//! - The computer opponents of each game, one enum per game whose names
//!   (clap's, from the variants) are the `--ai` values, the menu's labels
//!   and the browser API's words, and the player each one is.
//! - Which opponents a board offers ([`connect4::offered`]).
//! - The cells of a win, which every front end highlights.
//! - Each game's mode as the scoreboard records it, whichever front end
//!   played it.

pub(crate) mod connect4;
pub(crate) mod mastermind;
pub(crate) mod velha;

use clap::ValueEnum;

/// The name of a computer opponent, as every front end shows and reads it.
pub(crate) fn name<T: ValueEnum>(value: T) -> String {
    value
        .to_possible_value()
        .map(|v| v.get_name().to_owned())
        .unwrap_or_default()
}

/// The opponent called `name`, if the game has one.
pub(crate) fn parse<T: ValueEnum>(name: &str) -> Option<T> {
    T::from_str(name, false).ok()
}

/// Every opponent's name, in order, for messages (`easy, medium, hard`).
pub(crate) fn names<T: ValueEnum + Clone>(opponents: &[T]) -> String {
    opponents
        .iter()
        .cloned()
        .map(name)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_opponent_is_read_back_by_its_name() {
        for level in velha::Computer::value_variants() {
            assert_eq!(parse::<velha::Computer>(&name(*level)), Some(*level));
        }
        for level in connect4::Computer::value_variants() {
            assert_eq!(parse::<connect4::Computer>(&name(*level)), Some(*level));
        }
        assert_eq!(
            names(velha::Computer::value_variants()),
            "easy, medium, hard"
        );
        assert_eq!(
            names(connect4::Computer::value_variants()),
            "random, smart, perfect"
        );
        assert_eq!(parse::<velha::Computer>("impossible"), None);
    }

    /// The scoreboard's modes, the same whichever front end played.
    #[test]
    fn each_games_mode_reads_as_the_scoreboard_keeps_it() {
        assert_eq!(
            velha::mode(3, Some((velha::Computer::Hard, true))),
            "3x3 vs hard (computer first)"
        );
        assert_eq!(velha::mode(4, None), "4x4 two players");
        assert_eq!(connect4::mode(7, 6, Some("smart")), "7x6 vs smart");
        assert_eq!(connect4::mode(5, 4, None), "5x4 two players");
        assert_eq!(
            mastermind::mode(boardkit::mastermind::Rules::default(), 10),
            "4 pegs, 6 colours, 10 turns"
        );
    }
}
