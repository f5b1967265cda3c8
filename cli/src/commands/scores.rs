//! `boardkit scores`: the scoreboard as a table.

use super::{Failure, Outcome};

/// `boardkit scores`: the scoreboard as a table (exit 1 when it cannot be
/// read, saying why; the file is left as it is).
pub(crate) fn run(path: Option<std::path::PathBuf>, game: Option<String>) -> Outcome {
    use crate::play::scoreboard;
    let result = path
        .map_or_else(scoreboard::default_path, Ok)
        .and_then(|path| Ok((scoreboard::load(&path)?, path)));
    match result {
        Ok((mut board, path)) => {
            if let Some(game) = &game {
                board.entries.retain(|e| &e.game == game);
            }
            if board.entries.is_empty() {
                println!(
                    "no results yet in {} (games played on a terminal are recorded)",
                    path.display()
                );
            } else {
                print!("{}", scoreboard::table(&board));
            }
            Ok(())
        }
        Err(e) => Err(Failure::failed(e)),
    }
}
