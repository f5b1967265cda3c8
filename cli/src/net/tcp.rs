//! The TCP glue of `boardkit host` and `boardkit join`: their options,
//! listening for one opponent (then no more), connecting, the socket's
//! timeouts, and a clean close, around the sessions of [`super::session`].

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{IpAddr, Ipv4Addr, Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use super::games::{BoardFlags, Game, NetworkGame};
use super::protocol::MessageReader;
use super::session::{self, Link, SessionError, Tally, Timeouts};
use crate::play::session::{ColorWhen, Terminal};
use boardkit::console::Console;

/// The port `host` listens on unless `--port` says otherwise.
pub(crate) const DEFAULT_PORT: u16 = 4774;
/// The longest wait for the hello, whatever `--timeout` says: both ends
/// send it at once, without a person.
pub(crate) const HELLO_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest wait for the connection to a host.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// A write may block this long when the peer stops reading.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// At the end, how long the peer's last bytes are read and dropped, so the
/// close does not reset the connection before the peer has read ours.
pub(crate) const LINGER: Duration = Duration::from_secs(1);

/// The options both ends share.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct PeerArgs {
    /// Seconds to wait for the opponent's move or answer (the host: also
    /// for an opponent to connect) before giving up; the hello waits at
    /// most 10 s.
    #[arg(long, value_name = "SECONDS", default_value = "300", value_parser = parse_seconds)]
    pub timeout: Duration,
    /// Play as on a terminal even when stdout is not one: the score and
    /// "play again?" after each game.
    #[arg(long)]
    pub interactive: bool,
    /// Colours: auto (on a terminal, unless NO_COLOR is set), always, never.
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto)]
    pub color: ColorWhen,
    /// Play full screen, as in `boardkit tui`: arrow keys and Enter, the
    /// last move and the winning line highlighted, hints (needs a terminal).
    #[arg(long, conflicts_with = "interactive")]
    pub tui: bool,
}

impl PeerArgs {
    /// Sets anstream's colour choice from `--color`; call before stdout is
    /// opened.
    pub(crate) fn apply_color_choice(&self) {
        let choice = match self.color {
            ColorWhen::Auto => return,
            ColorWhen::Always => anstream::ColorChoice::Always,
            ColorWhen::Never => anstream::ColorChoice::Never,
        };
        choice.write_global();
    }

    /// The waits these options set.
    pub(crate) fn timeouts(&self) -> Timeouts {
        Timeouts {
            hello: HELLO_TIMEOUT.min(self.timeout),
            turn: self.timeout,
        }
    }

    fn terminal(&self, color: bool) -> Terminal {
        Terminal {
            color,
            interactive: self.interactive || std::io::IsTerminal::is_terminal(&std::io::stdout()),
        }
    }
}

/// `boardkit host`'s options.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct HostArgs {
    /// A two-player game: velha or connect4 (Mastermind cannot be played
    /// over the network).
    // The games are the registry's: the command sets this parser
    // (`game_parser`); this one takes none.
    #[arg(value_parser = game_parser(Vec::new()))]
    pub game: &'static NetworkGame,
    /// The port to listen on; 0 picks a free one (printed).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// The address to listen on. The default takes opponents on this
    /// machine only; 0.0.0.0 takes them from any network this machine is
    /// on (nothing is encrypted or authenticated: a trusted network only).
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub bind: IpAddr,
    /// velha's board side (3 to 9; default 3).
    #[arg(long, value_parser = clap::value_parser!(u8).range(3..=9))]
    pub size: Option<u8>,
    /// connect4's rows (4 to 20; default 6).
    #[arg(long, value_parser = clap::value_parser!(u8).range(4..=20))]
    pub rows: Option<u8>,
    /// connect4's columns (4 to 20; default 7).
    #[arg(long, value_parser = clap::value_parser!(u8).range(4..=20))]
    pub cols: Option<u8>,
    #[command(flatten)]
    pub peer: PeerArgs,
}

impl HostArgs {
    /// The game and board the options ask for.
    pub(crate) fn game(&self) -> Result<Game, NetError> {
        let flags = BoardFlags {
            size: self.size,
            rows: self.rows,
            cols: self.cols,
        };
        Game::from_flags(self.game, flags).map_err(NetError::Usage)
    }
}

/// `boardkit join`'s options.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct JoinArgs {
    /// The host's address, as it printed it, such as 127.0.0.1:4774.
    #[arg(value_name = "HOST:PORT", value_parser = parse_address)]
    pub address: String,
    #[command(flatten)]
    pub peer: PeerArgs,
}

/// An option value `host` or `join` cannot take.
#[derive(Debug, thiserror::Error)]
enum BadValue {
    #[error("{0:?} is not played over the network: host {1}")]
    NotNetworked(String, String),
    #[error("{0:?} is not a number of seconds")]
    NotSeconds(String),
    #[error("the timeout must be above 0 and at most 86400 seconds")]
    TimeoutRange,
    #[error("{0:?} is not HOST:PORT, such as 127.0.0.1:{DEFAULT_PORT}")]
    NotAnAddress(String),
}

/// The parser of `host`'s game: one of `games` (the registry's), by name.
pub(crate) fn game_parser(
    games: Vec<&'static NetworkGame>,
) -> impl clap::builder::TypedValueParser<Value = &'static NetworkGame> {
    move |text: &str| {
        games
            .iter()
            .copied()
            .find(|game| game.id == text)
            .ok_or_else(|| {
                let names: Vec<&str> = games.iter().map(|g| g.id).collect();
                BadValue::NotNetworked(text.to_owned(), names.join(" or "))
            })
    }
}

fn parse_seconds(text: &str) -> Result<Duration, BadValue> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| BadValue::NotSeconds(text.to_owned()))?;
    if !(seconds > 0.0 && seconds <= 86_400.0) {
        return Err(BadValue::TimeoutRange);
    }
    Ok(Duration::from_secs_f64(seconds))
}

fn parse_address(text: &str) -> Result<String, BadValue> {
    match text.rsplit_once(':') {
        Some((host, port)) if !host.is_empty() && port.parse::<u16>().is_ok() => {
            Ok(text.to_owned())
        }
        _ => Err(BadValue::NotAnAddress(text.to_owned())),
    }
}

/// Why `host` or `join` ended early.
#[derive(Debug, thiserror::Error)]
pub(crate) enum NetError {
    /// The options do not make a game (exit status 2).
    #[error("{0}")]
    Usage(String),
    #[error("cannot listen on {address}: {source}")]
    Listen { address: String, source: io::Error },
    #[error("no opponent connected within {0} s")]
    NoOpponent(u64),
    #[error("cannot connect to {address}: {source}")]
    Connect { address: String, source: io::Error },
    #[error(transparent)]
    Session(#[from] SessionError),
    #[error("cannot write output: {0}")]
    Output(io::Error),
}

/// `boardkit host`: listens, takes the first opponent, stops listening,
/// plays. Prints `waiting for an opponent on <address>` first.
pub(crate) fn host(
    args: &HostArgs,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    color: bool,
) -> Result<Tally, NetError> {
    let game = args.game()?;
    let timeouts = args.peer.timeouts();
    let address = SocketAddr::new(args.bind, args.port);
    let listen_error = |source| NetError::Listen {
        address: address.to_string(),
        source,
    };
    let listener = TcpListener::bind(address).map_err(listen_error)?;
    let local = listener.local_addr().map_err(listen_error)?;
    writeln!(output, "waiting for an opponent on {local}").map_err(NetError::Output)?;
    if let Some(reachable) = reachable_at(local) {
        writeln!(output, "from another machine: boardkit join {reachable}")
            .map_err(NetError::Output)?;
    }
    output.flush().map_err(NetError::Output)?;
    let (stream, from) = accept_within(&listener, timeouts.turn).map_err(|e| match e {
        None => NetError::NoOpponent(timeouts.turn.as_secs()),
        Some(source) => listen_error(source),
    })?;
    // One opponent a game: a second one is refused from now on.
    drop(listener);
    writeln!(output, "opponent connected from {from}").map_err(NetError::Output)?;
    let mut link = link_over(&stream).map_err(SessionError::Connection)?;
    let mut console = Console::new(input, output);
    let terminal = args.peer.terminal(color);
    let result = session::host(&mut link, game, &mut console, terminal, timeouts);
    close(&stream);
    Ok(result?)
}

/// `boardkit join`: connects to the host and plays what it offers.
pub(crate) fn join(
    args: &JoinArgs,
    games: &[&'static NetworkGame],
    input: &mut dyn BufRead,
    output: &mut dyn Write,
    color: bool,
) -> Result<Tally, NetError> {
    let timeouts = args.peer.timeouts();
    let stream = connect(&args.address).map_err(|source| NetError::Connect {
        address: args.address.clone(),
        source,
    })?;
    let peer = stream
        .peer_addr()
        .map_or_else(|_| args.address.clone(), |a| a.to_string());
    writeln!(output, "connected to {peer}").map_err(NetError::Output)?;
    let mut link = link_over(&stream).map_err(SessionError::Connection)?;
    let mut console = Console::new(input, output);
    let terminal = args.peer.terminal(color);
    let result = session::join(&mut link, games, &mut console, terminal, timeouts);
    close(&stream);
    Ok(result?.1)
}

/// Where another machine reaches a host listening on every address
/// (`--bind 0.0.0.0`): this machine's address on its network, the one a
/// datagram to another network would leave from (a UDP `connect` only
/// picks the route; nothing is sent). `None` for a host on one address,
/// or a machine without a network.
pub(crate) fn reachable_at(local: SocketAddr) -> Option<SocketAddr> {
    if !local.ip().is_unspecified() {
        return None;
    }
    let socket = std::net::UdpSocket::bind((local.ip(), 0)).ok()?;
    let outside: SocketAddr = if local.is_ipv4() {
        ([203, 0, 113, 1], 9).into()
    } else {
        (std::net::Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 1), 9).into()
    };
    socket.connect(outside).ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_loopback() && !ip.is_unspecified()).then_some(SocketAddr::new(ip, local.port()))
}

/// The first connection within `within`: `Err(None)` when none came.
pub(crate) fn accept_within(
    listener: &TcpListener,
    within: Duration,
) -> Result<(TcpStream, SocketAddr), Option<io::Error>> {
    // std has no accept with a timeout: poll a non-blocking listener.
    listener.set_nonblocking(true).map_err(Some)?;
    let deadline = Instant::now() + within;
    loop {
        match listener.accept() {
            Ok((stream, from)) => {
                // Whether the socket inherits the listener's mode depends
                // on the platform: say it.
                stream.set_nonblocking(false).map_err(Some)?;
                return Ok((stream, from));
            }
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock
                        | io::ErrorKind::Interrupted
                        | io::ErrorKind::ConnectionAborted
                ) =>
            {
                if Instant::now() >= deadline {
                    return Err(None);
                }
                std::thread::sleep(Duration::from_millis(25));
            }
            Err(e) => return Err(Some(e)),
        }
    }
}

/// Connects to the first address of `address` (`HOST:PORT`) that answers,
/// each within a few seconds.
pub(crate) fn connect(address: &str) -> io::Result<TcpStream> {
    let mut last = io::Error::new(io::ErrorKind::NotFound, "the name has no address");
    for candidate in address.to_socket_addrs()? {
        match TcpStream::connect_timeout(&candidate, CONNECT_TIMEOUT) {
            Ok(stream) => return Ok(stream),
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// A link over a connected socket: reads with the reader's deadlines (the
/// socket's read timeout, set before each read), writes that give up when
/// the peer stops reading.
pub(crate) fn link_over(stream: &TcpStream) -> io::Result<Link<BufReader<TcpStream>, TcpStream>> {
    // Moves are small and a person waits for each: no Nagle delay.
    stream.set_nodelay(true)?;
    stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
    let timeouts = stream.try_clone()?;
    let reader = MessageReader::with_timeout(
        BufReader::new(stream.try_clone()?),
        Box::new(move |timeout| timeouts.set_read_timeout(timeout)),
    );
    Ok(Link::new(reader, stream.try_clone()?))
}

/// Closes cleanly: no more writes, then the peer's last bytes read and
/// dropped for a moment (bounded in time and size), so that closing with
/// unread data does not reset the connection under the peer's last read.
pub(crate) fn close(stream: &TcpStream) {
    let _ = stream.shutdown(Shutdown::Write);
    let deadline = Instant::now() + LINGER;
    let mut buffer = [0u8; 4096];
    let mut drained = 0;
    let mut reader: &TcpStream = stream;
    while drained < super::protocol::MAX_LINE_BYTES {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            break;
        }
        match reader.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(n) => drained += n,
        }
    }
}
