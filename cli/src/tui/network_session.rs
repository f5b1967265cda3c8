//! `boardkit host <GAME> --tui` and `boardkit join <HOST:PORT> --tui`:
//! the session of `src/net/session.rs` on its own thread, with a
//! [`ScreenPerson`] between it and the app full screen (`app.rs`, its
//! network screen's state in `network.rs`), run by the event loop
//! (`terminal.rs`).

use std::net::{TcpListener, TcpStream};
use std::sync::mpsc::{self, Sender};
use std::thread;
use std::time::Duration;

use crate::net::NetworkGame;
use crate::net::games::Game as NetGame;
use crate::net::session::{self, SessionError, Tally, Timeouts};
use crate::net::tcp::{self, HostArgs, JoinArgs, NetError};

use super::app::App;
use super::menu::TuiGame;
use super::network::{NetEvent, NetMatch, Role, ScreenPerson};

/// How long the screen waits, after the person left, for the session to
/// tell the opponent so (it does at once when it was waiting for the
/// person; while it waits for the peer, the process ends without it).
const FAREWELL: Duration = Duration::from_millis(300);

/// How a session thread ends: the tally or the error, and the connection
/// to close once the screen has heard.
type SessionEnd = Result<(Tally, TcpStream), (NetError, Option<TcpStream>)>;

/// `boardkit host <GAME> --tui`: listens (the address printed first, on
/// the shell's screen), then plays full screen. Returns the signal that
/// stopped it, if one did.
pub(crate) fn host(args: &HostArgs, games: &[&'static TuiGame]) -> Result<Option<i32>, NetError> {
    let game = args.game()?;
    needs_a_terminal()?;
    let timeouts = args.peer.timeouts();
    let address = std::net::SocketAddr::new(args.bind, args.port);
    let listen_error = |source| NetError::Listen {
        address: address.to_string(),
        source,
    };
    let listener = TcpListener::bind(address).map_err(listen_error)?;
    let local = listener.local_addr().map_err(listen_error)?;
    println!("waiting for an opponent on {local}");
    if let Some(reachable) = tcp::reachable_at(local) {
        println!("from another machine: boardkit join {reachable}");
    }
    let role = Role::Host {
        game,
        address: local.to_string(),
    };
    play(role, games, move |person, events| {
        host_session(listener, game, timeouts, person, events)
    })
}

/// `boardkit join <HOST:PORT> --tui`: connects and plays full screen.
pub(crate) fn join(
    args: &JoinArgs,
    games: &[&'static TuiGame],
    network: &[&'static NetworkGame],
) -> Result<Option<i32>, NetError> {
    needs_a_terminal()?;
    let timeouts = args.peer.timeouts();
    let address = args.address.clone();
    let role = Role::Join {
        address: address.clone(),
    };
    let network = network.to_vec();
    play(role, games, move |person, events| {
        join_session(&address, &network, timeouts, person, events)
    })
}

/// `--tui` without a terminal is a usage error, found before listening or
/// connecting.
fn needs_a_terminal() -> Result<(), NetError> {
    if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        Ok(())
    } else {
        Err(NetError::Usage(
            "--tui needs a terminal; without it, host and join play in the plain mode".into(),
        ))
    }
}

/// The host's session thread: the opponent's arrival, then the games.
fn host_session(
    listener: TcpListener,
    game: NetGame,
    timeouts: Timeouts,
    mut person: ScreenPerson,
    events: Sender<NetEvent>,
) -> SessionEnd {
    let (stream, from) = tcp::accept_within(&listener, timeouts.turn)
        .map_err(|e| match e {
            None => NetError::NoOpponent(timeouts.turn.as_secs()),
            Some(source) => NetError::Listen {
                address: listener
                    .local_addr()
                    .map_or_else(|_| "?".into(), |a| a.to_string()),
                source,
            },
        })
        .map_err(|e| (e, None))?;
    drop(listener);
    let _ = events.send(NetEvent::Connected(from.to_string()));
    let result = tcp::link_over(&stream)
        .map_err(SessionError::Connection)
        .and_then(|mut link| session::host_for(&mut link, game, &mut person, timeouts));
    match result {
        Ok(tally) => Ok((tally, stream)),
        Err(error) => Err((error.into(), Some(stream))),
    }
}

/// The joiner's session thread: the connection, then the host's games.
fn join_session(
    address: &str,
    games: &[&'static NetworkGame],
    timeouts: Timeouts,
    mut person: ScreenPerson,
    events: Sender<NetEvent>,
) -> SessionEnd {
    let stream = tcp::connect(address).map_err(|source| {
        let error = NetError::Connect {
            address: address.to_owned(),
            source,
        };
        (error, None)
    })?;
    let peer = stream
        .peer_addr()
        .map_or_else(|_| address.to_owned(), |a| a.to_string());
    let _ = events.send(NetEvent::Connected(peer));
    let result = tcp::link_over(&stream)
        .map_err(SessionError::Connection)
        .and_then(|mut link| session::join_for(&mut link, games, &mut person, timeouts));
    match result {
        Ok((_, tally)) => Ok((tally, stream)),
        Err(error) => Err((error.into(), Some(stream))),
    }
}

/// Runs the session on its thread and the screen here, until the person
/// quits; then the session's end decides the exit: an error is returned
/// (exit status 1), the people done or the person leaving is `Ok`.
fn play(
    role: Role,
    games: &[&'static TuiGame],
    session: impl FnOnce(ScreenPerson, Sender<NetEvent>) -> SessionEnd + Send + 'static,
) -> Result<Option<i32>, NetError> {
    let (events_to, events) = mpsc::channel();
    let (intents_to, intents) = mpsc::channel();
    let (closed_to, closed) = mpsc::channel::<()>();
    let person = ScreenPerson::new(events_to.clone(), intents);
    let ends_to = events_to.clone();
    thread::spawn(move || {
        let (result, stream) = match session(person, events_to) {
            Ok((tally, stream)) => (Ok(tally), Some(stream)),
            Err((error, stream)) => (Err(error), stream),
        };
        // The screen hears of the end at once, before the close lingers
        // for the peer's last bytes. It may be gone: nobody to tell then.
        let _ = ends_to.send(NetEvent::Ended(result));
        if let Some(stream) = stream {
            tcp::close(&stream);
        }
        let _ = closed_to.send(());
    });
    let app = App::over_network(NetMatch::new(role, intents_to, games.to_vec()));
    let stopped = super::terminal::run_with_events(app, Some(&events)).map_err(NetError::Output)?;
    let mut app = stopped.app;
    let mut end = app.network_end();
    if end.is_none() {
        // The person left mid-session: the session thread tells the
        // opponent (its screen is gone), given a moment.
        drop(app);
        while let Ok(event) = events.recv_timeout(FAREWELL) {
            if let NetEvent::Ended(result) = event {
                end = Some(result);
                break;
            }
        }
        // Leaving is not a failure of this end.
        if matches!(end, Some(Err(NetError::Session(SessionError::Left))) | None) {
            end = Some(Ok(Tally::default()));
        }
    }
    // The last words reach the peer before the process ends with the
    // socket: the close reads what the peer still sends, for a moment.
    let _ = closed.recv_timeout(tcp::LINGER + FAREWELL);
    match end {
        Some(Err(error)) => Err(error),
        _ => Ok(stopped.signal),
    }
}
