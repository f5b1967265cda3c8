//! The live games of a server: an id → game map with a cap and an idle
//! expiry, so that no client (nor a script creating games in a loop) can
//! make the server's memory grow without bound.
//!
//! Two levels of locks, neither held long: the map's own lock only to find,
//! add or drop an entry (never across an `.await` or an AI's move), and one
//! lock per game, held while that game changes, the computer's thinking
//! included. A perfect connect-four move thus delays only requests about
//! its own game; every other game, and the map, stay free.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::games::WebGame;

/// One game, locked while it changes.
pub(crate) type SharedGame = Arc<tokio::sync::Mutex<WebGame>>;

/// How much a server keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
    /// Live games at most; a new game beyond them is refused (503) until
    /// some expire or are deleted.
    pub max_games: usize,
    /// A game not asked about for this long is forgotten.
    pub idle: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_games: DEFAULT_MAX_GAMES,
            idle: DEFAULT_IDLE,
        }
    }
}

/// Live games at most, by default.
pub(crate) const DEFAULT_MAX_GAMES: usize = 1000;
/// How long an untouched game lives, by default: 30 minutes.
pub(crate) const DEFAULT_IDLE: Duration = Duration::from_secs(30 * 60);

/// Why a game was not stored.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the server holds {0} live games, its limit: finish or delete one, or wait for idle ones to expire"
)]
pub(crate) struct Full(pub usize);

struct Slot {
    game: SharedGame,
    touched: Instant,
}

/// The live games.
pub(crate) struct Store {
    limits: Limits,
    games: Mutex<HashMap<String, Slot>>,
}

impl Store {
    pub(crate) fn new(limits: Limits) -> Store {
        Store {
            limits,
            games: Mutex::new(HashMap::new()),
        }
    }

    pub(crate) fn limits(&self) -> Limits {
        self.limits
    }

    /// The map, even if a thread panicked while holding it (every change
    /// to it is one call on the map: never half done).
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Slot>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stores a new game under a fresh random id, after forgetting idle
    /// ones; refused when the store is full.
    pub(crate) fn insert(&self, game: WebGame) -> Result<(String, SharedGame), Full> {
        let now = Instant::now();
        let mut games = self.lock();
        let idle = self.limits.idle;
        games.retain(|_, slot| now.duration_since(slot.touched) < idle);
        if games.len() >= self.limits.max_games {
            return Err(Full(games.len()));
        }
        let id = loop {
            let id = format!("{:032x}", rand::random::<u128>());
            if !games.contains_key(&id) {
                break id;
            }
        };
        let game = Arc::new(tokio::sync::Mutex::new(game));
        games.insert(
            id.clone(),
            Slot {
                game: game.clone(),
                touched: now,
            },
        );
        Ok((id, game))
    }

    /// The game under `id`, if it lives; asking keeps it alive. A game idle
    /// too long is gone even if no sweep has dropped it yet.
    pub(crate) fn get(&self, id: &str) -> Option<SharedGame> {
        let now = Instant::now();
        let mut games = self.lock();
        let slot = games.get_mut(id)?;
        if now.duration_since(slot.touched) >= self.limits.idle {
            games.remove(id);
            return None;
        }
        slot.touched = now;
        Some(slot.game.clone())
    }

    /// Forgets the game under `id`; whether it lived.
    pub(crate) fn remove(&self, id: &str) -> bool {
        self.lock().remove(id).is_some()
    }

    /// Forgets every game idle too long; how many.
    pub(crate) fn sweep(&self) -> usize {
        let now = Instant::now();
        let idle = self.limits.idle;
        let mut games = self.lock();
        let before = games.len();
        games.retain(|_, slot| now.duration_since(slot.touched) < idle);
        before - games.len()
    }

    #[cfg(test)]
    /// How many games are stored (idle ones not yet swept included).
    pub(crate) fn len(&self) -> usize {
        self.lock().len()
    }

    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn game() -> WebGame {
        let Value::Object(request) = json!({"game": "mastermind", "seed": 1}) else {
            unreachable!()
        };
        WebGame::new(&request, 0, &crate::registry::web_games()).unwrap()
    }

    #[test]
    fn the_store_refuses_games_beyond_its_cap_until_one_goes() {
        let store = Store::new(Limits {
            max_games: 2,
            idle: Duration::from_secs(60),
        });
        let (a, _) = store.insert(game()).unwrap();
        let (b, _) = store.insert(game()).unwrap();
        assert_ne!(a, b);
        assert_eq!(store.insert(game()).err(), Some(Full(2)));
        assert!(store.remove(&a));
        assert!(!store.remove(&a));
        assert!(store.get(&a).is_none());
        assert!(store.get(&b).is_some());
        store.insert(game()).unwrap();
    }

    #[test]
    fn idle_games_expire_and_make_room() {
        let store = Store::new(Limits {
            max_games: 1,
            idle: Duration::from_millis(50),
        });
        let (a, _) = store.insert(game()).unwrap();
        std::thread::sleep(Duration::from_millis(80));
        assert!(store.get(&a).is_none(), "expired on access");
        let (b, _) = store.insert(game()).unwrap();
        std::thread::sleep(Duration::from_millis(80));
        assert_eq!(store.sweep(), 1);
        assert!(store.is_empty());
        assert!(store.get(&b).is_none());
        store.insert(game()).unwrap();
    }
}
