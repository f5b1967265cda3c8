//! The reference: the student's folder, as it should be written.

/// The players of `board`, most points first; on a tie, in the order
/// the board was made with.
pub fn ranking(board: &Scoreboard) -> Vec<String> {
    let mut players = board.players.clone();
    // A stable sort keeps the board's order among equal scores.
    players.sort_by_key(|(_, score)| std::cmp::Reverse(*score));
    players.into_iter().map(|(name, _)| name).collect()
}

/// The points of a game's players, each starting at 0.
pub struct Scoreboard {
    players: Vec<(String, i64)>,
}

impl Scoreboard {
    /// A scoreboard for `players`, in their order; an error when a name
    /// is given twice.
    pub fn new(players: &[String]) -> Result<Scoreboard, String> {
        for (i, name) in players.iter().enumerate() {
            if players[..i].contains(name) {
                return Err(format!("{name} is given twice"));
            }
        }
        Ok(Scoreboard {
            players: players.iter().map(|p| (p.clone(), 0)).collect(),
        })
    }

    /// Gives `points` to `player` and returns their new score; an error
    /// for a player not on the board.
    pub fn add(&mut self, player: &str, points: i64) -> Result<i64, String> {
        let entry = self.players.iter_mut().find(|(name, _)| name == player);
        match entry {
            Some((_, score)) => {
                *score += points;
                Ok(*score)
            }
            None => Err(format!("{player} is not on the board")),
        }
    }

    /// The score of `player`, or none for a player not on the board.
    pub fn score(&self, player: &str) -> Option<i64> {
        self.players
            .iter()
            .find(|(name, _)| name == player)
            .map(|(_, score)| *score)
    }

    /// Every player's score, in the board's order.
    pub fn scores(&self) -> Vec<i64> {
        self.players.iter().map(|(_, score)| *score).collect()
    }

    /// The player with the most points, the first on a tie.
    pub fn leader(&self) -> Option<String> {
        let mut best: Option<&(String, i64)> = None;
        for entry in &self.players {
            if best.is_none_or(|b| entry.1 > b.1) {
                best = Some(entry);
            }
        }
        best.map(|(name, _)| name.clone())
    }

    /// Every score back to 0.
    pub fn reset(&mut self) {
        for (_, score) in &mut self.players {
            *score = 0;
        }
    }
}
