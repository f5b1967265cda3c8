//! The event loop, the one part that touches the terminal: raw mode and the
//! alternate screen on the way in, and on every way out (the loop's end, an
//! error, Ctrl-C, which raw mode delivers as a key, a panic, through a hook
//! that restores the terminal before the panic message is printed, and
//! SIGTERM, SIGHUP or SIGINT from outside, which end the loop).

use std::io::{self, IsTerminal};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::{Backend, CrosstermBackend};
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::crossterm::{cursor, execute, terminal};

use super::app::{Answer, App};
use super::game::Key;

use super::network::NetEvent;
use super::ui;

/// How often the screen looks for a job's answer while the person waits,
/// and for the network's news.
const WAITING_POLL: Duration = Duration::from_millis(50);
/// The longest wait for a key: a signal is noticed within it.
const SIGNAL_POLL: Duration = Duration::from_millis(200);
/// The signals that end the program with the terminal restored.
const STOPPING_SIGNALS: [i32; 3] = [
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
    signal_hook::consts::SIGINT,
];

/// How the full screen ended: the app as it was, and the signal that
/// stopped it, if one did (the exit status is then 128 + the signal).
pub(crate) struct Stopped {
    pub app: App,
    pub signal: Option<i32>,
}

/// [`run`], with the news of a network session handed to the app as they
/// come.
pub(crate) fn run_with_events(
    app: App,
    events: Option<&Receiver<NetEvent>>,
) -> io::Result<Stopped> {
    if !io::stdout().is_terminal() {
        return Err(io::Error::other(
            "the full screen needs a terminal; without one, play in the plain mode",
        ));
    }
    let signal = Arc::new(AtomicUsize::new(0));
    for number in STOPPING_SIGNALS {
        signal_hook::flag::register_usize(number, Arc::clone(&signal), number as usize)?;
    }
    install_panic_hook();
    let result = enter().and_then(|mut screen| event_loop(&mut screen, app, events, &signal));
    // Also after a failed `enter`: raw mode may be on already.
    restore();
    result
}

/// Raw mode (keys one by one, no echo) and the alternate screen (the
/// shell's screen comes back intact at the end).
fn enter() -> io::Result<Terminal<CrosstermBackend<io::Stdout>>> {
    terminal::enable_raw_mode()?;
    execute!(io::stdout(), terminal::EnterAlternateScreen)?;
    Terminal::new(CrosstermBackend::new(io::stdout()))
}

/// Leaves the alternate screen, ends raw mode and shows the cursor. Safe to
/// call twice, and from a panic.
pub(crate) fn restore() {
    // Nothing more can be done if these fail: the terminal is going away.
    let _ = terminal::disable_raw_mode();
    let _ = execute!(io::stdout(), terminal::LeaveAlternateScreen, cursor::Show);
}

/// A panic restores the terminal first, so that its message is readable
/// and the shell usable.
fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
}

/// Draws, reads a key, hands it to the app; runs the app's jobs (the
/// computer's moves, hints) on their own threads and hands back their
/// answers, keys still working meanwhile; ticks while waiting for keys.
fn event_loop<B: Backend>(
    screen: &mut Terminal<B>,
    mut app: App,
    events: Option<&Receiver<NetEvent>>,
    signal: &AtomicUsize,
) -> io::Result<Stopped> {
    let (answers_to, answers) = mpsc::channel::<Answer>();
    let mut idle_since = Instant::now();
    loop {
        // Also after a resize: `draw` takes the terminal's new size.
        screen.draw(|frame| ui::draw(frame, &app))?;
        let signal = match signal.load(Ordering::Relaxed) {
            0 => None,
            number => Some(number as i32),
        };
        if app.should_quit() || signal.is_some() {
            // A job still running ends with the process.
            return Ok(Stopped { app, signal });
        }
        if let Some(event) = events.and_then(|events| events.try_recv().ok()) {
            app.network(event);
            continue;
        }
        while let Some(job) = app.job() {
            let to = answers_to.clone();
            std::thread::spawn(move || {
                // The receiver is gone only when the program is ending.
                let _ = to.send(job.run());
            });
        }
        if let Ok(answer) = answers.try_recv() {
            app.answer(answer);
            continue;
        }
        // A tick is due after its interval without a key.
        let tick_in = app
            .tick_interval()
            .filter(|_| app.busy().is_none())
            .map(|interval| interval.saturating_sub(idle_since.elapsed()));
        if tick_in == Some(Duration::ZERO) {
            app.tick();
            idle_since = Instant::now();
            continue;
        }
        let mut wait = SIGNAL_POLL.min(tick_in.unwrap_or(SIGNAL_POLL));
        if app.busy().is_some() || events.is_some() {
            wait = wait.min(WAITING_POLL);
        }
        if !event::poll(wait)? {
            continue;
        }
        idle_since = Instant::now();
        if let Event::Key(event) = event::read()? {
            if let Some(key) = key_of(event) {
                app.handle(key);
            }
        }
    }
}

/// The app's key for a terminal key event; `None` for keys it does not use
/// and for key releases (some terminals report them).
pub(crate) fn key_of(event: KeyEvent) -> Option<Key> {
    if event.kind == KeyEventKind::Release {
        return None;
    }
    let control = event.modifiers.contains(KeyModifiers::CONTROL);
    Some(match event.code {
        KeyCode::Char('c' | 'C') if control => Key::Interrupt,
        KeyCode::Char(_) if control => return None,
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Esc,
        KeyCode::Tab => Key::Tab,
        KeyCode::Backspace => Key::Backspace,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ctrl_c_is_the_interrupt_key_and_releases_are_ignored() {
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(key_of(ctrl_c), Some(Key::Interrupt));
        let c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::NONE);
        assert_eq!(key_of(c), Some(Key::Char('c')));
        let mut release = KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE);
        release.kind = KeyEventKind::Release;
        assert_eq!(key_of(release), None);
        assert_eq!(
            key_of(KeyEvent::new(KeyCode::Left, KeyModifiers::NONE)),
            Some(Key::Left)
        );
    }
}
