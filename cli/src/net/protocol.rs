//! The wire protocol of network play: line-delimited JSON, one message a
//! line, each a JSON object whose `type` names it (docs/players.md, "Network
//! play", lists every message with an example).
//!
//! Everything read from the network is hostile until proven otherwise:
//! [`MessageReader`] reads one line at a time with a bounded buffer and
//! gives up as soon as a line passes [`MAX_LINE_BYTES`] (the rest is never
//! stored, nor even waited for), enforces a deadline on the whole line (a
//! peer dribbling a byte a minute cannot keep it waiting forever), and
//! turns whatever is wrong with a line into a [`Fault`] that says what the
//! peer did, for both ends of the connection.

use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// The protocol version this build speaks; a hello with another is refused.
pub(crate) const VERSION: u32 = 1;

/// The longest line accepted from a peer, in bytes, without its newline.
/// The longest honest message (the state of a full 20 x 20 connect-four
/// board) takes under 3 KiB.
pub(crate) const MAX_LINE_BYTES: usize = 64 * 1024;

/// At most this many characters of a peer's text are shown in a message.
const ECHO_CHARS: usize = 40;

/// A player's mark: `X` starts every game, `O` plays second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) enum Side {
    X,
    O,
}

impl Side {
    pub(crate) fn other(self) -> Side {
        match self {
            Side::X => Side::O,
            Side::O => Side::X,
        }
    }

    pub(crate) fn as_char(self) -> char {
        match self {
            Side::X => 'X',
            Side::O => 'O',
        }
    }
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.as_char())
    }
}

/// Where a game stands, as the host tells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Status {
    Playing,
    XWon,
    OWon,
    Draw,
}

impl Status {
    /// The winner of a won game.
    pub(crate) fn winner(self) -> Option<Side> {
        match self {
            Status::XWon => Some(Side::X),
            Status::OWon => Some(Side::O),
            Status::Playing | Status::Draw => None,
        }
    }

    /// The status of a game won by `side`.
    pub(crate) fn won_by(side: Side) -> Status {
        match side {
            Side::X => Status::XWon,
            Side::O => Status::OWon,
        }
    }
}

/// A game's options in the hello: a square board's `size`, or its `rows`
/// and `cols` (which a game takes is its own); absent fields are left out
/// of the JSON.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) struct Options {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cols: Option<u32>,
}

/// Every message of the protocol (docs/players.md, "Network play").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum Message {
    /// The host's first line, and the joiner's answer accepting it (the
    /// same game and options).
    Hello {
        version: u32,
        /// The game's name (`net::games::NetworkGame::id`): checked against
        /// the games this build plays by the joiner.
        game: String,
        options: Options,
    },
    /// Host: game number `round` (from 1) begins; the joiner plays `joiner`.
    Start { round: u32, joiner: Side },
    /// Host: the game after each move and at its start: every move so far,
    /// whose turn it is (none once over) and how it stands.
    State {
        round: u32,
        moves: Vec<String>,
        turn: Option<Side>,
        status: Status,
    },
    /// Joiner: its move, as the game writes it (`B2`, or a column from 1
    /// such as `4`); `ply` counts the moves played before it, so a move
    /// sent at the wrong time is seen as such.
    Move {
        ply: u32,
        #[serde(rename = "move")]
        notation: String,
    },
    /// After a game: whether this end wants another (the host answers
    /// first; the joiner answers only a yes).
    Again { answer: bool },
    /// Either end, just before it closes the connection: why.
    Error { message: String },
}

impl Message {
    /// The message's `type`, for errors.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Message::Hello { .. } => "hello",
            Message::Start { .. } => "start",
            Message::State { .. } => "state",
            Message::Move { .. } => "move",
            Message::Again { .. } => "again",
            Message::Error { .. } => "error",
        }
    }
}

/// What a peer did wrong. Displayed from this end ("the opponent sent...");
/// [`Fault::for_peer`] says it to the peer ("you sent...").
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Fault {
    #[error("the opponent sent a line longer than {MAX_LINE_BYTES} bytes")]
    TooLong,
    #[error("the opponent sent a line that is not UTF-8")]
    NotUtf8,
    #[error("the opponent sent a line that is not JSON ({0})")]
    NotJson(String),
    #[error("the opponent sent a line that is not a boardkit message ({0})")]
    NotAMessage(String),
    #[error("the opponent speaks protocol version {0}; this boardkit speaks version {VERSION}")]
    Version(String),
    #[error("the opponent offers the game {0:?}, which this boardkit cannot play over the network")]
    UnknownGame(String),
    #[error("the opponent offers {game} with options {options}, which this boardkit cannot play")]
    Options { game: &'static str, options: String },
    #[error("the opponent answered the hello with another game or options: {0}")]
    Mismatch(String),
    #[error("the opponent sent a {got} message where a {expected} message was expected")]
    Unexpected {
        expected: &'static str,
        got: &'static str,
    },
    #[error("the opponent played out of turn: a move for ply {got} while ply {expected} was next")]
    OutOfTurn { got: u32, expected: u32 },
    #[error("the opponent played an illegal move {notation:?}: {why}")]
    Illegal {
        notation: String,
        /// The game's reason, as it words it (the protocol knows no game's
        /// rules).
        why: String,
    },
    #[error("the opponent (the host) sent a state that does not follow the game: {0}")]
    Inconsistent(String),
    #[error("the opponent sent nothing for {} s", seconds(*.0))]
    Silent(Duration),
}

/// A duration in seconds, as people type them in `--timeout`.
fn seconds(duration: Duration) -> String {
    let s = duration.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0}")
    } else {
        format!("{s:.1}")
    }
}

impl Fault {
    /// The fault told to the peer that made it, for its `error` message.
    pub(crate) fn for_peer(&self) -> String {
        match self {
            Fault::TooLong => format!("you sent a line longer than {MAX_LINE_BYTES} bytes"),
            Fault::NotUtf8 => "you sent a line that is not UTF-8".to_owned(),
            Fault::NotJson(why) => format!("you sent a line that is not JSON ({why})"),
            Fault::NotAMessage(why) => {
                format!("you sent a line that is not a boardkit message ({why})")
            }
            Fault::Version(theirs) => {
                format!("this boardkit speaks protocol version {VERSION}, not version {theirs}")
            }
            Fault::UnknownGame(game) => {
                format!("this boardkit cannot play the game {game:?} over the network")
            }
            Fault::Options { game, options } => {
                format!("this boardkit cannot play {game} with options {options}")
            }
            Fault::Mismatch(why) => format!("your hello does not answer mine: {why}"),
            Fault::Unexpected { expected, got } => {
                format!("you sent a {got} message where a {expected} message was expected")
            }
            Fault::OutOfTurn { got, expected } => format!(
                "you played out of turn: a move for ply {got} while ply {expected} was next"
            ),
            Fault::Illegal { notation, why } => {
                format!("your move {notation:?} is illegal: {why}")
            }
            Fault::Inconsistent(why) => format!("your state does not follow the game: {why}"),
            Fault::Silent(waited) => format!("you sent nothing for {} s", seconds(*waited)),
        }
    }
}

/// A peer's text made safe to print: at most a few dozen characters, and
/// control characters (a terminal's escape sequences) escaped.
pub(crate) fn shown(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(ECHO_CHARS)
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect();
    if text.chars().count() > ECHO_CHARS {
        out.push_str("...");
    }
    out
}

/// A peer's longer text (an `error` message) made safe to print: up to
/// 500 characters, control characters escaped.
pub(crate) fn shown_long(text: &str) -> String {
    let limited: String = text.chars().take(500).collect();
    let mut out: String = limited.escape_debug().collect();
    if text.chars().count() > 500 {
        out.push_str("...");
    }
    out
}

/// One message as a line of JSON, newline included.
pub(crate) fn encode(message: &Message) -> String {
    let mut line = serde_json::to_string(message).expect("messages always serialize");
    line.push('\n');
    line
}

/// Writes one message and flushes it: the peer waits for it.
pub(crate) fn write_message(out: &mut dyn Write, message: &Message) -> io::Result<()> {
    out.write_all(encode(message).as_bytes())?;
    out.flush()
}

/// Reads one message from a line (without its newline). A hello of another
/// version is refused whatever else it holds, so that later versions can
/// change the rest of it and still be told apart.
pub(crate) fn decode(line: &str) -> Result<Message, Fault> {
    let message = match serde_json::from_str::<Message>(line) {
        Ok(message) => message,
        Err(error) => return Err(diagnose(line, error)),
    };
    if let Message::Hello { version, .. } = &message {
        if *version != VERSION {
            return Err(Fault::Version(version.to_string()));
        }
    }
    Ok(message)
}

/// Why a line is not a message: not JSON, a hello of another version or
/// game, or JSON of another shape.
fn diagnose(line: &str, error: serde_json::Error) -> Fault {
    let value: serde_json::Value = match serde_json::from_str(line) {
        Ok(value) => value,
        Err(error) => return Fault::NotJson(error.to_string()),
    };
    if value.get("type").and_then(|t| t.as_str()) == Some("hello") {
        match value.get("version") {
            Some(v) if v.as_u64() != Some(u64::from(VERSION)) => {
                return Fault::Version(shown(&v.to_string()));
            }
            _ => {}
        }
    }
    Fault::NotAMessage(error.to_string())
}

/// Changes the read timeout of the stream under a [`MessageReader`] (for a
/// socket, `TcpStream::set_read_timeout` on a clone of it).
pub(crate) type TimeoutControl = Box<dyn FnMut(Option<Duration>) -> io::Result<()> + Send>;

/// Why no message could be read.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ReadError {
    /// The stream ended (the peer closed the connection), perhaps in the
    /// middle of a line.
    #[error("the connection was closed")]
    Closed,
    #[error(transparent)]
    Fault(#[from] Fault),
    #[error("cannot read from the connection: {0}")]
    Io(io::Error),
}

/// Reads messages one line at a time in bounded memory; see the module
/// documentation.
pub(crate) struct MessageReader<R> {
    inner: R,
    line: Vec<u8>,
    timeout: Option<TimeoutControl>,
}

impl<R: BufRead> MessageReader<R> {
    /// A reader without deadlines (over a byte slice, a pipe).
    pub(crate) fn new(inner: R) -> Self {
        Self {
            inner,
            line: Vec::with_capacity(256),
            timeout: None,
        }
    }

    /// A reader that enforces each read's deadline through `control`.
    pub(crate) fn with_timeout(inner: R, control: TimeoutControl) -> Self {
        Self {
            timeout: Some(control),
            ..Self::new(inner)
        }
    }

    /// The next message, which must arrive whole within `within`.
    pub(crate) fn read_message(&mut self, within: Duration) -> Result<Message, ReadError> {
        let line = self.read_line(within)?;
        Ok(decode(line)?)
    }

    /// The next line, without its newline, within `within`: never more than
    /// [`MAX_LINE_BYTES`] of it is stored.
    pub(crate) fn read_line(&mut self, within: Duration) -> Result<&str, ReadError> {
        self.line.clear();
        let deadline = Instant::now().checked_add(within);
        loop {
            if let Some(deadline) = deadline {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(Fault::Silent(within).into());
                }
                if let Some(control) = &mut self.timeout {
                    control(Some(left)).map_err(ReadError::Io)?;
                }
            }
            let available = match self.inner.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                // The socket's timeout: the loop's deadline check decides.
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) && self.timeout.is_some() =>
                {
                    continue;
                }
                Err(e) => return Err(ReadError::Io(e)),
            };
            if available.is_empty() {
                return Err(ReadError::Closed);
            }
            let (chunk, used, ended) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (&available[..i], i + 1, true),
                None => (available, available.len(), false),
            };
            if self.line.len() + chunk.len() > MAX_LINE_BYTES {
                // Stop here: the rest of the line is neither stored nor awaited.
                return Err(Fault::TooLong.into());
            }
            self.line.extend_from_slice(chunk);
            self.inner.consume(used);
            if ended {
                break;
            }
        }
        if self.line.last() == Some(&b'\r') {
            self.line.pop();
        }
        std::str::from_utf8(&self.line).map_err(|_| Fault::NotUtf8.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hello offering `game` with these options.
    fn hello(game: &str, size: Option<u32>, rows: Option<u32>, cols: Option<u32>) -> Message {
        Message::Hello {
            version: VERSION,
            game: game.to_owned(),
            options: Options { size, rows, cols },
        }
    }

    const LONG: Duration = Duration::from_secs(60);

    fn read_all(input: &[u8]) -> Vec<Result<Message, String>> {
        let mut reader = MessageReader::new(input);
        let mut found = Vec::new();
        loop {
            match reader.read_message(LONG) {
                Ok(message) => found.push(Ok(message)),
                Err(ReadError::Closed) => return found,
                Err(ReadError::Fault(fault)) => {
                    found.push(Err(fault.to_string()));
                    // A fault ends a connection: reading on is only for tests.
                    if fault == Fault::TooLong {
                        return found;
                    }
                }
                Err(ReadError::Io(e)) => panic!("no I/O error from a slice: {e}"),
            }
        }
    }

    #[test]
    fn every_message_round_trips_as_one_line_with_a_type_tag() {
        let messages = [
            hello("velha", Some(3), None, None),
            hello("connect4", None, Some(6), Some(7)),
            Message::Start {
                round: 1,
                joiner: Side::O,
            },
            Message::State {
                round: 2,
                moves: vec!["B2".into(), "A1".into()],
                turn: Some(Side::X),
                status: Status::Playing,
            },
            Message::State {
                round: 1,
                moves: vec![],
                turn: None,
                status: Status::XWon,
            },
            Message::Move {
                ply: 1,
                notation: "4".into(),
            },
            Message::Again { answer: true },
            Message::Error {
                message: "bye".into(),
            },
        ];
        for message in messages {
            let line = encode(&message);
            assert_eq!(line.matches('\n').count(), 1);
            assert!(line.starts_with(&format!("{{\"type\":\"{}\"", message.kind())));
            assert_eq!(decode(line.trim_end()), Ok(message));
        }
        assert_eq!(
            encode(&hello("velha", Some(3), None, None)),
            "{\"type\":\"hello\",\"version\":1,\"game\":\"velha\",\"options\":{\"size\":3}}\n"
        );
        assert_eq!(
            encode(&Message::Move {
                ply: 1,
                notation: "B2".into()
            }),
            "{\"type\":\"move\",\"ply\":1,\"move\":\"B2\"}\n"
        );
    }

    #[test]
    fn bad_lines_are_told_apart() {
        assert!(matches!(decode("hello"), Err(Fault::NotJson(_))));
        assert!(matches!(decode(""), Err(Fault::NotJson(_))));
        assert!(matches!(decode("[1,2]"), Err(Fault::NotAMessage(_))));
        assert!(matches!(
            decode(r#"{"type":"dance"}"#),
            Err(Fault::NotAMessage(_))
        ));
        assert!(matches!(
            decode(r#"{"type":"move","ply":-1,"move":"B2"}"#),
            Err(Fault::NotAMessage(_))
        ));
        assert_eq!(
            decode(r#"{"type":"hello","version":2,"game":"velha","options":{"size":3}}"#),
            Err(Fault::Version("2".into()))
        );
        // Another version may change the rest of the hello: still a version error.
        assert_eq!(
            decode(r#"{"type":"hello","version":"two","game":{"id":7}}"#),
            Err(Fault::Version("\"two\"".into()))
        );
        // A game this build does not play is the joiner's to refuse
        // (`Game::from_hello`): the wire takes any name.
        assert!(decode(r#"{"type":"hello","version":1,"game":"mastermind","options":{}}"#).is_ok());
        // Deeply nested JSON is an error, not a stack overflow.
        let deep = "[".repeat(100_000);
        assert!(matches!(decode(&deep), Err(Fault::NotJson(_))));
    }

    #[test]
    fn lines_are_bounded_and_a_long_one_is_refused_before_its_end() {
        let mut input = b"{\"type\":\"again\",\"answer\":true}\r\n".to_vec();
        input.extend(vec![b'x'; 1 << 20]);
        let found = read_all(&input);
        assert_eq!(found[0], Ok(Message::Again { answer: true }));
        assert_eq!(found[1], Err(Fault::TooLong.to_string()));

        // Exactly the limit is a line (of garbage here), one more is not.
        let mut exact = vec![b' '; MAX_LINE_BYTES - 2];
        exact.extend_from_slice(b"{}\n");
        assert!(matches!(
            MessageReader::new(&exact[..]).read_message(LONG),
            Err(ReadError::Fault(Fault::NotAMessage(_)))
        ));
        let mut over = vec![b' '; MAX_LINE_BYTES - 1];
        over.extend_from_slice(b"{}\n");
        assert!(matches!(
            MessageReader::new(&over[..]).read_message(LONG),
            Err(ReadError::Fault(Fault::TooLong))
        ));
    }

    #[test]
    fn a_reader_stops_at_the_limit_without_waiting_for_the_newline() {
        // A reader that never ends: a line of endless 'x'.
        let endless = io::BufReader::new(io::repeat(b'x'));
        let mut reader = MessageReader::new(endless);
        assert!(matches!(
            reader.read_message(LONG),
            Err(ReadError::Fault(Fault::TooLong))
        ));
    }

    #[test]
    fn the_end_of_the_stream_mid_line_is_a_closed_connection() {
        assert!(matches!(
            MessageReader::new(&b"{\"type\":"[..]).read_message(LONG),
            Err(ReadError::Closed)
        ));
        assert!(matches!(
            MessageReader::new(&b"\xff\xfe\n"[..]).read_message(LONG),
            Err(ReadError::Fault(Fault::NotUtf8))
        ));
    }

    #[test]
    fn a_peer_dribbling_bytes_still_meets_the_deadline() {
        /// Gives one byte per read, slowly, like a peer stalling.
        struct Dribble;
        impl io::Read for Dribble {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                std::thread::sleep(Duration::from_millis(20));
                buf[0] = b' ';
                Ok(1)
            }
        }
        let control: TimeoutControl = Box::new(|_| Ok(()));
        let mut reader =
            MessageReader::with_timeout(io::BufReader::with_capacity(1, Dribble), control);
        let started = Instant::now();
        assert!(matches!(
            reader.read_message(Duration::from_millis(200)),
            Err(ReadError::Fault(Fault::Silent(_)))
        ));
        assert!(started.elapsed() < Duration::from_secs(2));
    }

    #[test]
    fn text_from_a_peer_is_shortened_and_its_escapes_defused() {
        assert_eq!(shown("B2"), "B2");
        assert_eq!(shown("\x1b[2J"), "\\u{1b}[2J");
        assert_eq!(shown(&"a".repeat(100)), format!("{}...", "a".repeat(40)));
        assert_eq!(shown_long("bad\x1b[31m"), "bad\\u{1b}[31m");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        /// Whatever bytes arrive, reading them ends in messages and errors,
        /// never a panic.
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..4096)) {
            let _ = read_all(&bytes);
        }

        /// Lines that look almost like messages (JSON fragments of the
        /// protocol's words) never panic either.
        #[test]
        fn protocol_shaped_lines_never_panic(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "{", "}", "[", "]", ",", ":", "\"type\"", "\"hello\"", "\"move\"",
                    "\"state\"", "\"version\"", "1", "-1", "1e999", "18446744073709551616",
                    "null", "true", "\"X\"", "\"moves\"", "\"ply\"", "\"\\u0000\"", "\n",
                ]),
                0..64,
            )
        ) {
            let _ = read_all(parts.concat().as_bytes());
        }
    }
}
