//! The calls made of each game's functions (the function cases' requests),
//! and the answers accepted for them,
//! computed with the reference. Kit-only: starters get the cases as data
//! (`fixtures/<game>/functions/`). The registry points here; this module
//! imports only the games, their harnesses and the cases' format, so
//! nothing here imports the registry or the grader.

pub(crate) mod connect4;
pub(crate) mod mastermind;
pub(crate) mod velha;

use boardkit::function_fixture::FunctionCase;
use boardkit::level::Level;

/// A public case: `function` on each of `arguments`, the accepted answers
/// still to be computed (by the grader, with the reference).
fn case(
    level: Level,
    name: &str,
    description: &str,
    function: &str,
    arguments: Vec<String>,
) -> FunctionCase {
    FunctionCase {
        name: name.to_owned(),
        level,
        description: description.to_owned(),
        function: function.to_owned(),
        calls: arguments.into_iter().map(|a| vec![a]).collect(),
    }
}
