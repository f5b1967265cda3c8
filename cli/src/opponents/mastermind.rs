//! Mastermind for every front end: how its games are named.

use boardkit::mastermind::Rules;

/// The game's mode as the scoreboard records it (`4 pegs, 6 colours, 10
/// turns`), for `play` and the full screen alike.
pub(crate) fn mode(rules: Rules, turns: usize) -> String {
    format!(
        "{} pegs, {} colours, {turns} turns",
        rules.pegs(),
        rules.colors()
    )
}
