//! Mastermind full screen: the secret, the guesses with their black and
//! white pegs, the guess being composed (a slot cursor and its colours),
//! undo, the hint, and the kit's codebreaker to watch. Pure: keys in, state
//! out; [`draw`] draws its board, [`crate::tui::ui`] the screen around it.

pub(crate) mod draw;

use std::any::Any;
use std::rc::Rc;
use std::time::Duration;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use boardkit::mastermind::solver::{BEST, Codebreaker};
use boardkit::mastermind::{Code, DecodingBoard, Rules, random_secret, score};
use boardkit::player::Strategy;

use super::game::Parts;
use super::game::{Busy, Ending, Game, Key, Round, Setup, Thought, Work, lend, thought};
use super::menu::{GameMenu, TuiGame};

/// Guesses a game allows, as `boardkit play mastermind` by default.
pub(crate) const TURNS: usize = 10;

/// How long the watched codebreaker waits between guesses.
pub(crate) const WATCH_PAUSE: Duration = Duration::from_millis(700);

/// What the menu chose for a game of Mastermind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct MastermindSetup {
    /// The kit's best codebreaker guesses; the person watches.
    pub watch: bool,
}

/// Mastermind on the full screen's menu.
pub(crate) const GAME: TuiGame = TuiGame {
    id: "mastermind",
    title: "Mastermind",
    menu: |_| Box::new(MastermindSetup { watch: false }),
    network: None,
};

/// Mastermind's one choice, to break the code or watch, is its setup.
impl GameMenu for MastermindSetup {
    fn rows(&self) -> Vec<(&'static str, String)> {
        let mode = if self.watch {
            "watch the codebreaker"
        } else {
            "you break the code"
        };
        vec![("Mode", mode.into())]
    }

    fn change(&mut self, _row: usize, _step: i32) {
        self.watch = !self.watch;
    }

    fn setup(&self) -> Rc<dyn Setup> {
        Rc::new(*self)
    }

    fn clone_box(&self) -> Box<dyn GameMenu> {
        Box::new(*self)
    }
}

impl Setup for MastermindSetup {
    fn title(&self) -> &'static str {
        GAME.title
    }

    fn description(&self) -> String {
        if self.watch {
            "the kit's codebreaker at work".into()
        } else {
            format!("find the code in {TURNS} guesses")
        }
    }

    fn seats(&self) -> [&'static str; 2] {
        ["found", "missed"]
    }

    fn draws(&self) -> bool {
        false
    }

    fn record(&self) -> Option<(&'static str, String)> {
        // The watched codebreaker's games are nobody's.
        (!self.watch).then(|| {
            (
                "mastermind",
                crate::opponents::mastermind::mode(boardkit::mastermind::Rules::default(), TURNS),
            )
        })
    }

    fn start(&self, seed: u64) -> Box<dyn Game> {
        Box::new(MastermindGame::new(*self, seed))
    }
}

impl Game for MastermindGame {
    fn parts(&self, busy: Option<Busy>) -> Parts {
        draw::mastermind_parts(self, busy)
    }
}

/// One game of Mastermind in progress (or over, until the next one).
pub(crate) struct MastermindGame {
    setup: MastermindSetup,
    secret: Code,
    board: DecodingBoard,
    /// The guess being composed: a colour index per slot, or none yet.
    pegs: Vec<Option<u8>>,
    slot: usize,
    /// The best codebreaker, made on the first hint or watched guess (its
    /// table of scores and its memo are kept); `None` while it thinks on
    /// another thread.
    breaker: Option<Box<dyn Strategy<DecodingBoard, Code> + Send>>,
    hint_out: bool,
    hint: Option<Code>,
    hint_wanted: bool,
    message: Option<String>,
    /// Counts the changes of the guesses, so a late hint is known stale.
    version: u64,
}

impl MastermindGame {
    /// A new game with a secret drawn from `seed`.
    pub(crate) fn new(setup: MastermindSetup, seed: u64) -> MastermindGame {
        let rules = Rules::default();
        let secret = random_secret(rules, &mut ChaCha8Rng::seed_from_u64(seed));
        Self::with_secret(setup, secret)
    }

    /// A new game against `secret` (of the standard rules).
    pub(crate) fn with_secret(setup: MastermindSetup, secret: Code) -> MastermindGame {
        let rules = Rules::default();
        MastermindGame {
            setup,
            secret,
            board: DecodingBoard {
                rules,
                turns: TURNS,
                guesses: Vec::new(),
            },
            pegs: vec![None; rules.pegs()],
            slot: 0,
            breaker: None,
            hint_out: false,
            hint: None,
            hint_wanted: false,
            message: None,
            version: 0,
        }
    }

    pub(crate) fn setup(&self) -> MastermindSetup {
        self.setup
    }

    pub(crate) fn rules(&self) -> Rules {
        self.board.rules
    }

    /// The guesses so far with their scores, and the number of turns.
    pub(crate) fn board(&self) -> &DecodingBoard {
        &self.board
    }

    /// The secret: show it only at the end, or when watching.
    pub(crate) fn secret(&self) -> &Code {
        &self.secret
    }

    /// The guess being composed.
    pub(crate) fn pegs(&self) -> &[Option<u8>] {
        &self.pegs
    }

    /// The slot under the cursor (0-based).
    pub(crate) fn slot(&self) -> usize {
        self.slot
    }

    /// The hinted guess (the best codebreaker's next), until a guess is made.
    pub(crate) fn hint(&self) -> Option<&Code> {
        self.hint.as_ref()
    }

    /// What the last key did not do, and why.
    pub(crate) fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// Whether the game is over: found, or out of turns.
    pub(crate) fn is_over(&self) -> bool {
        self.ending().is_some()
    }

    fn new_breaker(rules: Rules) -> Box<dyn Strategy<DecodingBoard, Code> + Send> {
        Box::new(Codebreaker::new(rules, BEST).expect("the standard game suits a codebreaker"))
    }

    fn submit(&mut self, guess: Code) {
        let result = score(&self.secret, &guess);
        self.board.guesses.push((guess, result));
        self.version += 1;
        self.pegs = vec![None; self.board.rules.pegs()];
        self.slot = 0;
        self.hint = None;
        self.message = None;
    }

    /// The codebreaker's next guess, when watching.
    fn watched_guess(&mut self) {
        if self.is_over() {
            return;
        }
        let rules = self.board.rules;
        let breaker = self.breaker.get_or_insert_with(|| Self::new_breaker(rules));
        let guess = breaker.choose(&self.board);
        self.submit(guess);
    }

    fn set_colour(&mut self, colour: u8) {
        self.pegs[self.slot] = Some(colour);
        self.message = None;
    }

    fn cycle_colour(&mut self, step: i32) {
        let colours = self.board.rules.colors() as i32;
        let next = match self.pegs[self.slot] {
            Some(c) => (c as i32 + step).rem_euclid(colours),
            None if step > 0 => 0,
            None => colours - 1,
        };
        self.set_colour(next as u8);
    }
}

impl Round for MastermindGame {
    fn handle(&mut self, key: Key) {
        if self.is_over() {
            return;
        }
        if self.setup.watch {
            if matches!(key, Key::Enter | Key::Char(' ')) {
                self.watched_guess();
            }
            return;
        }
        let last_slot = self.pegs.len() - 1;
        match key {
            Key::Left => self.slot = self.slot.saturating_sub(1),
            Key::Right => self.slot = (self.slot + 1).min(last_slot),
            Key::Up => self.cycle_colour(1),
            Key::Down => self.cycle_colour(-1),
            Key::Char(c) if c.is_ascii_alphabetic() => {
                let colour = c.to_ascii_uppercase() as u8 - b'A';
                if usize::from(colour) < self.board.rules.colors() {
                    self.set_colour(colour);
                    self.slot = (self.slot + 1).min(last_slot);
                }
            }
            Key::Backspace => {
                if self.pegs[self.slot].is_none() {
                    self.slot = self.slot.saturating_sub(1);
                }
                self.pegs[self.slot] = None;
            }
            Key::Enter => {
                let pegs: Option<Vec<u8>> = self.pegs.iter().copied().collect();
                match pegs {
                    Some(pegs) => self.submit(Code::from_colors(pegs)),
                    None => self.message = Some("give every slot a colour first".into()),
                }
            }
            _ => {}
        }
    }

    /// Takes back the last guess (its turn comes back; the guess stands
    /// composed again). Never once the secret is shown.
    fn undo(&mut self) {
        if self.setup.watch {
            return;
        }
        match self.board.guesses.pop() {
            Some((guess, _)) => {
                self.version += 1;
                self.pegs = guess.pegs().iter().map(|&c| Some(c)).collect();
                self.slot = 0;
                self.hint = None;
                self.message = None;
            }
            None => self.message = Some("nothing to undo".into()),
        }
    }

    fn request_hint(&mut self) {
        if !self.is_over() && !self.setup.watch {
            self.hint_wanted = true;
        }
    }

    fn cancel_hint(&mut self) {
        self.hint_wanted = false;
    }

    fn busy(&self) -> Option<Busy> {
        (self.hint_wanted && !self.is_over()).then_some(Busy::Hint)
    }

    fn take_work(&mut self) -> Option<Work> {
        if self.busy().is_none() || self.hint_out {
            return None;
        }
        self.hint_out = true;
        let rules = self.board.rules;
        let breaker = self
            .breaker
            .take()
            .unwrap_or_else(|| Self::new_breaker(rules));
        Some(lend(Busy::Hint, self.version, self.board.clone(), breaker))
    }

    fn finish_work(&mut self, result: Box<dyn Any + Send>) {
        let Thought {
            asked_at,
            choice,
            player,
            ..
        } = thought::<DecodingBoard, Code>(result);
        self.breaker = Some(player);
        self.hint_out = false;
        if self.hint_wanted && asked_at == self.version {
            self.hint = Some(choice);
            self.hint_wanted = false;
        }
    }

    fn ending(&self) -> Option<Ending> {
        let (_, last) = self.board.guesses.last()?;
        if usize::from(last.black) == self.board.rules.pegs() {
            Some(Ending::Won(0))
        } else if self.board.guesses.len() >= self.board.turns {
            Some(Ending::Won(1))
        } else {
            None
        }
    }

    fn tick_interval(&self) -> Option<Duration> {
        (self.setup.watch && !self.is_over()).then_some(WATCH_PAUSE)
    }

    fn tick(&mut self) {
        if self.setup.watch {
            self.watched_guess();
        }
    }

    fn can_undo_after_the_end(&self) -> bool {
        // The secret is shown at the end: taking a guess back would give it away.
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boardkit::mastermind::parse_guess;

    fn game(secret: &str) -> MastermindGame {
        let secret = parse_guess(secret, Rules::default()).unwrap();
        MastermindGame::with_secret(MastermindSetup { watch: false }, secret)
    }

    #[test]
    fn letters_and_arrows_compose_a_guess_and_enter_scores_it() {
        let mut game = game("ABCD");
        game.handle(Key::Enter);
        assert_eq!(game.message(), Some("give every slot a colour first"));
        for c in ['a', 'b', 'd'] {
            game.handle(Key::Char(c));
        }
        game.handle(Key::Up); // the fourth slot: none, then A
        game.handle(Key::Up);
        assert_eq!(game.pegs(), [Some(0), Some(1), Some(3), Some(1)]);
        game.handle(Key::Enter);
        let (guess, result) = &game.board().guesses[0];
        assert_eq!(guess.to_string(), "ABDB");
        assert_eq!((result.black, result.white), (2, 1));
        assert_eq!(game.pegs(), [None; 4]);
    }

    #[test]
    fn the_watched_codebreaker_finds_the_secret() {
        let secret = parse_guess("FEDC", Rules::default()).unwrap();
        let mut game = MastermindGame::with_secret(MastermindSetup { watch: true }, secret);
        while game.tick_interval().is_some() {
            game.tick();
        }
        assert_eq!(game.ending(), Some(Ending::Won(0)));
        assert!(game.board().guesses.len() <= 6);
    }
}
