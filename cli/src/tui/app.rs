//! The full-screen program's state machine: the menu or a game, the running
//! score of the session, and what each key does. Pure: keys arrive as data
//! ([`Key`]), the computer's moves and hints are [`Job`]s that the event
//! loop runs on another thread and hands back ([`App::answer`]), and
//! nothing here reads or writes a terminal, so every behaviour is a unit
//! test ([`App::settle`] runs the jobs in line).
//!
//! Why jobs and not calls: the perfect connect-four player answers a hint
//! on an early position outside its repertoire in seconds to minutes. The
//! screen stays alive meanwhile: Ctrl-C, `q`, a new game, a resize, and Esc
//! to stop waiting for a hint.

use std::any::Any;
use std::collections::HashMap;
use std::time::Duration;

use std::rc::Rc;

use super::game::{Busy, Ending, Game, Key, Setup, Work};
use super::menu::{Menu, MenuAction};
use super::network::{NetEvent, NetMatch, Phase as NetPhase};
use crate::net::NetError;
use crate::net::session::Tally as NetTally;
use crate::play::scoreboard::{Outcome, Record};
use crate::play::session::Language;

/// Games won by each seat and games drawn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    pub wins: [u32; 2],
    pub draws: u32,
}

impl Tally {
    fn add(&mut self, ending: Ending) {
        match ending {
            Ending::Won(seat) => self.wins[seat] += 1,
            Ending::Draw => self.draws += 1,
        }
    }
}

/// A game and what the session knows of it: its setup, title and seats.
pub(crate) struct Match {
    /// The game's number in the session: answers to a game left are dropped.
    pub number: u64,
    pub setup: Rc<dyn Setup>,
    pub game: Box<dyn Game>,
    /// Such as `3 x 3, you against the computer (hard)`.
    pub description: String,
    /// The score's names for seat 0 and seat 1.
    pub seats: [&'static str; 2],
    /// Whether the score shows draws (Mastermind has none).
    pub draws: bool,
    /// The language of its screen.
    pub language: Language,
}

impl Match {
    fn new(setup: Rc<dyn Setup>, number: u64, seed: u64) -> Match {
        Match {
            number,
            game: setup.start(seed),
            description: setup.description(),
            seats: setup.seats(),
            draws: setup.draws(),
            language: setup.language(),
            setup,
        }
    }
}

/// Work to run off the event loop's thread: [`Job::run`], then
/// [`App::answer`].
pub(crate) struct Job {
    game: u64,
    work: Work,
}

impl Job {
    pub(crate) fn run(self) -> Answer {
        Answer {
            game: self.game,
            result: (self.work)(),
        }
    }
}

/// A job's result, for [`App::answer`].
pub(crate) struct Answer {
    game: u64,
    result: Box<dyn Any + Send>,
}

/// What the screen shows.
pub(crate) enum Screen {
    Menu(Menu),
    Playing(Box<Match>),
    /// A game over the network (`host --tui`, `join --tui`): no menu.
    Network(Box<NetMatch>),
}

/// The program's state: the screen, the session's scores and the seed.
pub(crate) struct App {
    screen: Screen,
    /// The menu as last left, to come back to.
    menu: Menu,
    /// The score of each setup played this session, finished games only.
    scores: HashMap<String, Tally>,
    seed: u64,
    /// Games started this session: game `k` uses seed `seed + k`.
    started: u64,
    quit: bool,
    /// The person's name on the scoreboard; `None`: nothing is recorded.
    player: Option<String>,
    /// Results for the scoreboard, finished games only, not yet written.
    records: Vec<Record>,
}

impl App {
    /// The app on its menu. `seed` makes the computer's choices, the hints
    /// and the secrets repeatable.
    pub(crate) fn new(menu: Menu, seed: u64) -> App {
        App {
            screen: Screen::Menu(menu.clone()),
            menu,
            scores: HashMap::new(),
            seed,
            started: 0,
            quit: false,
            player: None,
            records: Vec::new(),
        }
    }

    /// Keeps each finished game's result for the scoreboard, under `name`
    /// (seat 0: the person against the computer, X between two players).
    pub(crate) fn record_as(&mut self, name: String) {
        self.player = Some(name);
    }

    /// Counts the game on screen if it is over, and takes the results kept
    /// for the scoreboard: what the program records when it ends.
    pub(crate) fn close(&mut self) -> Vec<Record> {
        self.finish();
        // Counted once: the game is left for the menu.
        if matches!(self.screen, Screen::Playing(_)) {
            self.screen = Screen::Menu(self.menu.clone());
        }
        std::mem::take(&mut self.records)
    }

    /// The app for a network session: its screen only, no menu.
    pub(crate) fn over_network(net: NetMatch) -> App {
        // No menu to go back to: the session is the program.
        let mut app = App::new(Menu::new(&[], &super::TuiArgs::default()), 0);
        app.screen = Screen::Network(Box::new(net));
        app
    }

    /// News from the network session, if one is on screen.
    pub(crate) fn network(&mut self, event: NetEvent) {
        if let Screen::Network(net) = &mut self.screen {
            net.event(event);
        }
    }

    /// How the network session ended, once it has.
    pub(crate) fn network_end(&mut self) -> Option<Result<NetTally, NetError>> {
        match &mut self.screen {
            Screen::Network(net) => net.take_end(),
            _ => None,
        }
    }

    pub(crate) fn screen(&self) -> &Screen {
        &self.screen
    }

    /// Whether the person asked to leave.
    pub(crate) fn should_quit(&self) -> bool {
        self.quit
    }

    /// The score of the match on screen: past games of the same setup, and
    /// this one if it is over.
    pub(crate) fn score(&self) -> Option<Tally> {
        let Screen::Playing(game) = &self.screen else {
            return None;
        };
        let mut tally = self
            .scores
            .get(&score_key(&game.setup))
            .copied()
            .unwrap_or_default();
        if let Some(ending) = game.game.ending() {
            tally.add(ending);
        }
        Some(tally)
    }

    /// What a key does.
    pub(crate) fn handle(&mut self, key: Key) {
        if key == Key::Interrupt {
            self.quit = true;
            return;
        }
        match &mut self.screen {
            Screen::Network(net) => match key {
                Key::Char('q') | Key::Esc => self.quit = true,
                // Once the session is over, any key leaves.
                _ if net.phase() == NetPhase::Ended => self.quit = true,
                _ => net.handle(key),
            },
            Screen::Menu(menu) => match menu.handle(key) {
                MenuAction::Stay => {}
                MenuAction::Quit => self.quit = true,
                MenuAction::Start(setup) => {
                    self.menu = menu.clone();
                    self.start(setup);
                }
            },
            Screen::Playing(game) => {
                let round = &mut game.game;
                let over = round.ending().is_some();
                if let Some(busy) = round.busy() {
                    // Waiting: the board takes no key, leaving does.
                    match key {
                        Key::Esc | Key::Char('h') if busy == Busy::Hint => round.cancel_hint(),
                        // Asked while the computer thinks: shown once it has played.
                        Key::Char('h') => round.request_hint(),
                        Key::Char('q') | Key::Esc => self.screen = Screen::Menu(self.menu.clone()),
                        Key::Char('n') => self.play_again(),
                        _ => {}
                    }
                    return;
                }
                match key {
                    Key::Char('q') | Key::Esc => {
                        self.finish();
                        self.screen = Screen::Menu(self.menu.clone());
                    }
                    Key::Char('n') => self.play_again(),
                    Key::Enter if over => self.play_again(),
                    Key::Char('u') if !over || round.can_undo_after_the_end() => round.undo(),
                    Key::Char('h') => round.request_hint(),
                    _ => round.handle(key),
                }
            }
        }
    }

    /// What the game on screen waits for, if anything (the screen says so).
    pub(crate) fn busy(&self) -> Option<Busy> {
        match &self.screen {
            Screen::Playing(game) => game.game.busy(),
            Screen::Network(net) => net.game().and_then(|game| game.busy()),
            Screen::Menu(_) => None,
        }
    }

    /// The work the game waits for, to run on another thread; `None` when
    /// nothing waits or its job is out already.
    pub(crate) fn job(&mut self) -> Option<Job> {
        match &mut self.screen {
            Screen::Playing(game) => {
                let work = game.game.take_work()?;
                Some(Job {
                    game: game.number,
                    work,
                })
            }
            Screen::Network(net) => {
                let number = net.number();
                let work = net.game_mut()?.take_work()?;
                Some(Job { game: number, work })
            }
            Screen::Menu(_) => None,
        }
    }

    /// A job's result: the computer's move played, or the hint shown;
    /// dropped if its game was left.
    pub(crate) fn answer(&mut self, answer: Answer) {
        match &mut self.screen {
            Screen::Playing(game) if game.number == answer.game => {
                game.game.finish_work(answer.result);
            }
            Screen::Network(net) if net.number() == answer.game => {
                if let Some(game) = net.game_mut() {
                    game.finish_work(answer.result);
                }
            }
            _ => {}
        }
    }

    #[cfg(test)]
    /// Runs the waiting jobs here, one after the other, until the person
    /// is to play (the computer's replies, a hint): what tests do.
    pub(crate) fn settle(&mut self) {
        while let Some(job) = self.job() {
            let answer = job.run();
            self.answer(answer);
        }
    }

    /// How long the event loop may wait for a key before [`App::tick`].
    pub(crate) fn tick_interval(&self) -> Option<Duration> {
        match &self.screen {
            Screen::Playing(game) => game.game.tick_interval(),
            Screen::Network(_) | Screen::Menu(_) => None,
        }
    }

    /// Time passed without a key.
    pub(crate) fn tick(&mut self) {
        if let Screen::Playing(game) = &mut self.screen {
            game.game.tick();
        }
    }

    fn start(&mut self, setup: Rc<dyn Setup>) {
        let number = self.started;
        self.started += 1;
        let seed = self.seed.wrapping_add(number);
        self.screen = Screen::Playing(Box::new(Match::new(setup, number, seed)));
    }

    /// Counts the game on screen in the session's score, and keeps its
    /// result for the scoreboard, if it is over.
    fn finish(&mut self) {
        if let Screen::Playing(game) = &self.screen {
            if let Some(ending) = game.game.ending() {
                self.scores
                    .entry(score_key(&game.setup))
                    .or_default()
                    .add(ending);
                if let Some(name) = &self.player {
                    self.records
                        .extend(scoreboard_record(game.setup.as_ref(), ending, name));
                }
            }
        }
    }

    /// A new game of the same setup; the score goes on.
    fn play_again(&mut self) {
        self.finish();
        if let Screen::Playing(game) = &self.screen {
            let setup = Rc::clone(&game.setup);
            self.start(setup);
        }
    }
}

/// Games of the same setup share a score.
fn score_key(setup: &Rc<dyn Setup>) -> String {
    format!("{setup:?}")
}

/// The scoreboard's record of a finished game for the person at seat 0,
/// with the game and mode as `boardkit play` names them; `None` for the
/// watched codebreaker, which is nobody's game.
fn scoreboard_record(setup: &dyn Setup, ending: Ending, name: &str) -> Option<Record> {
    let (game, mode) = setup.record()?;
    let outcome = match ending {
        Ending::Won(0) => Outcome::Win,
        Ending::Won(_) => Outcome::Loss,
        Ending::Draw => Outcome::Draw,
    };
    Some(Record {
        game: game.to_owned(),
        mode,
        player: name.to_owned(),
        outcome,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::opponents::connect4::Computer as Connect4Computer;
    use crate::opponents::velha::Computer as Difficulty;
    use crate::tui::connect4::{Connect4Game, Connect4Menu};
    use crate::tui::velha::{VelhaGame, VelhaMenu};

    /// The menu with `game` named on the command line.
    fn menu(game: &str) -> Menu {
        let args = crate::tui::TuiArgs {
            game: Some(game.into()),
            ..Default::default()
        };
        Menu::new(&crate::registry::tui_games(), &args)
    }

    fn velha_menu(choices: VelhaMenu) -> Menu {
        let mut menu = menu("velha");
        *menu.choices_mut() = choices;
        menu
    }

    fn connect4_menu(choices: Connect4Menu) -> Menu {
        let mut menu = menu("connect4");
        *menu.choices_mut() = choices;
        menu
    }

    fn velha_app(level: Difficulty) -> App {
        let menu = velha_menu(VelhaMenu {
            level,
            ..Default::default()
        });
        let mut app = App::new(menu, 11);
        app.handle(Key::Enter);
        app
    }

    /// The game on screen, as its own type.
    fn playing<T: 'static>(app: &App) -> &T {
        let Screen::Playing(m) = app.screen() else {
            panic!("not playing")
        };
        let game: &dyn Any = m.game.as_ref();
        game.downcast_ref().expect("another game")
    }

    fn velha(app: &App) -> &VelhaGame {
        playing(app)
    }

    fn press(app: &mut App, keys: &[Key]) {
        for &key in keys {
            app.handle(key);
            app.settle();
        }
    }

    /// Plays the leftmost open column until the connect-four game on
    /// screen is over (against the perfect player: a loss).
    fn play_the_leftmost_column_to_the_end(app: &mut App) {
        loop {
            let game: &Connect4Game = playing(app);
            if game.is_over() {
                return;
            }
            let col = game.board().legal_columns()[0];
            let digit = char::from_digit(col as u32 + 1, 10).unwrap();
            press(app, &[Key::Char(digit), Key::Enter]);
        }
    }

    #[test]
    fn undo_against_the_computer_takes_back_its_reply_and_your_move() {
        let mut app = velha_app(Difficulty::Hard);
        press(&mut app, &[Key::Enter]); // B2, the centre
        assert_eq!(velha(&app).board().marks(), 2, "the computer replied");
        let reply = velha(&app).last_move().unwrap();
        press(&mut app, &[Key::Char('u')]);
        assert_eq!(velha(&app).board().marks(), 0);
        assert_eq!(app.busy(), None, "your turn again, not the computer's");
        press(&mut app, &[Key::Enter]);
        assert_eq!(velha(&app).board().marks(), 2);
        assert_ne!(velha(&app).board().get(reply), None, "the same reply");
    }

    #[test]
    fn a_hint_is_shown_and_never_played() {
        let mut app = velha_app(Difficulty::Easy);
        press(&mut app, &[Key::Enter]);
        let before = *velha(&app).board();
        app.handle(Key::Char('h'));
        assert_eq!(app.busy(), Some(Busy::Hint));
        app.settle();
        let hint = velha(&app).hint().expect("a hint");
        assert_eq!(*velha(&app).board(), before, "nothing played");
        assert_eq!(velha(&app).board().get(hint), None, "an empty cell");
        assert_eq!(velha(&app).board().to_move(), before.to_move());
        // Playing elsewhere clears it.
        let elsewhere = before
            .empty_cells()
            .into_iter()
            .find(|&p| p != hint)
            .unwrap();
        let cursor = velha(&app).cursor();
        let mut keys = Vec::new();
        keys.extend(std::iter::repeat_n(Key::Up, cursor.row));
        keys.extend(std::iter::repeat_n(Key::Left, cursor.col));
        keys.extend(std::iter::repeat_n(Key::Down, elsewhere.row));
        keys.extend(std::iter::repeat_n(Key::Right, elsewhere.col));
        keys.push(Key::Enter);
        press(&mut app, &keys);
        assert_eq!(velha(&app).hint(), None);
        assert_eq!(velha(&app).board().get(elsewhere), Some(before.to_move()));
    }

    #[test]
    fn play_again_keeps_the_score() {
        let menu = menu("connect4");
        let mut app = App::new(menu, 5);
        // Two players: X fills column 1 while O plays column 2.
        press(&mut app, &[Key::Left, Key::Enter]);
        let Screen::Playing(m) = app.screen() else {
            panic!("playing")
        };
        assert_eq!(m.seats, ["X", "O"]);
        let x_wins = [
            Key::Char('1'),
            Key::Enter,
            Key::Char('2'),
            Key::Enter,
            Key::Char('1'),
            Key::Enter,
            Key::Char('2'),
            Key::Enter,
            Key::Char('1'),
            Key::Enter,
            Key::Char('2'),
            Key::Enter,
            Key::Char('1'),
            Key::Enter,
        ];
        press(&mut app, &x_wins);
        let won = Tally {
            wins: [1, 0],
            draws: 0,
        };
        assert_eq!(app.score(), Some(won));
        press(&mut app, &[Key::Char('n')]);
        assert_eq!(app.score(), Some(won), "the new game starts with the score");
        press(&mut app, &x_wins);
        press(&mut app, &[Key::Enter]); // Enter after the end: play again
        let twice = Tally {
            wins: [2, 0],
            draws: 0,
        };
        assert_eq!(app.score(), Some(twice));
        // Undo reopens a finished game and takes its result back.
        press(&mut app, &x_wins[..13]);
        press(&mut app, &[Key::Enter, Key::Char('u')]);
        assert_eq!(app.score(), Some(twice));
        // Back to the menu and into the same setup: the score is the session's.
        press(&mut app, &[Key::Char('q'), Key::Enter]);
        assert_eq!(app.score(), Some(twice));
    }

    #[test]
    fn the_perfect_player_never_loses_and_ctrl_c_quits() {
        let menu = connect4_menu(Connect4Menu {
            level: Connect4Computer::Perfect,
            computer_first: true,
            ..Default::default()
        });
        let mut app = App::new(menu, 2);
        press(&mut app, &[Key::Enter]);
        let Screen::Playing(m) = app.screen() else {
            panic!("playing")
        };
        assert_eq!(m.description, "7 x 6, you against the computer (perfect)");
        assert_eq!(m.setup.record().unwrap().1, "7x6 vs perfect");
        play_the_leftmost_column_to_the_end(&mut app);
        assert_eq!(
            app.score(),
            Some(Tally {
                wins: [0, 1],
                draws: 0
            })
        );
        app.handle(Key::Interrupt);
        assert!(app.should_quit());
    }

    #[test]
    fn while_waiting_for_a_hint_the_board_takes_no_key_and_esc_stops_waiting() {
        let menu = menu("connect4");
        let mut app = App::new(menu, 9);
        press(&mut app, &[Key::Left, Key::Enter]); // two players
        app.handle(Key::Char('h'));
        let job = app.job().expect("the hint's job");
        assert!(app.job().is_none(), "one job at a time");
        app.handle(Key::Enter);
        assert_eq!(app.busy(), Some(Busy::Hint));
        app.handle(Key::Esc);
        assert_eq!(app.busy(), None, "no longer waiting");
        assert!(matches!(app.screen(), Screen::Playing(_)), "still playing");
        app.answer(job.run());
        let game: &Connect4Game = playing(&app);
        assert_eq!(game.board().discs(), 0, "Enter dropped nothing");
        assert_eq!(game.hint(), None, "the late answer is not shown");
        // The next hint is found, by the player that came back.
        press(&mut app, &[Key::Char('h')]);
        let game: &Connect4Game = playing(&app);
        assert_eq!(
            game.hint(),
            Some(3),
            "the perfect player opens in the centre"
        );
    }

    #[test]
    fn the_answer_for_a_game_left_is_dropped() {
        let menu = velha_menu(VelhaMenu {
            computer_first: true,
            ..Default::default()
        });
        let mut app = App::new(menu, 9);
        app.handle(Key::Enter);
        assert_eq!(app.busy(), Some(Busy::Computer));
        let job = app.job().expect("the computer's move");
        app.handle(Key::Char('n'));
        app.answer(job.run());
        assert_eq!(velha(&app).board().marks(), 0, "not played in the new game");
        app.settle();
        assert_eq!(velha(&app).board().marks(), 1, "its own computer opened");
    }

    #[test]
    fn finished_games_are_kept_for_the_scoreboard_as_play_names_them() {
        let menu = connect4_menu(Connect4Menu {
            level: Connect4Computer::Perfect,
            computer_first: true,
            ..Default::default()
        });
        let mut app = App::new(menu, 2);
        app.record_as("ana".into());
        press(&mut app, &[Key::Enter]);
        play_the_leftmost_column_to_the_end(&mut app);
        // A game left unfinished is not a result.
        press(&mut app, &[Key::Char('n'), Key::Char('1'), Key::Enter]);
        let records = app.close();
        assert_eq!(
            records,
            [Record {
                game: "connect4".into(),
                mode: "7x6 vs perfect".into(),
                player: "ana".into(),
                outcome: Outcome::Loss,
            }]
        );
        assert!(app.close().is_empty(), "taken once");
        // Velha's modes are play's too; without a name nothing is kept.
        let velha = crate::tui::velha::VelhaSetup {
            size: 3,
            opponent: Some(crate::tui::velha::VelhaOpponent {
                level: Difficulty::Hard,
                computer_first: true,
            }),
        };
        let record = scoreboard_record(&velha, Ending::Draw, "bo").unwrap();
        assert_eq!(record.mode, "3x3 vs hard (computer first)");
        assert_eq!(record.outcome, Outcome::Draw);
        let watched = crate::tui::mastermind::MastermindSetup { watch: true };
        assert_eq!(scoreboard_record(&watched, Ending::Won(0), "bo"), None);
        let mut nobody = velha_app(Difficulty::Easy);
        press(&mut nobody, &[Key::Char('q')]);
        assert!(nobody.close().is_empty());
    }

    #[test]
    fn q_leaves_a_game_for_the_menu_and_the_menu_for_good() {
        let mut app = velha_app(Difficulty::Easy);
        press(&mut app, &[Key::Char('q')]);
        assert!(matches!(app.screen(), Screen::Menu(_)));
        assert!(!app.should_quit());
        press(&mut app, &[Key::Esc]);
        assert!(app.should_quit());
    }
}
