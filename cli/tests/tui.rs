//! `boardkit tui` in a pseudo-terminal (SPEC 7, "Full screen"): the menu,
//! a few moves, a hint, undo, and the terminal given back whichever way the
//! program ends (`q`, Ctrl-C). Every wait has a timeout. rexpect reads each
//! byte as a character, so the needles are ASCII; the screens themselves
//! are the unit tests' snapshots (`src/tui/snapshots/`).

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rexpect::session::{PtySession, spawn_command};

const TIMEOUT_MS: u64 = 20_000;

/// What a program that gives the terminal back prints last: the shell's
/// screen again, then the cursor.
const RESTORED: &str = "\x1b[?1049l\x1b[?25h";

const ENTER: &str = "\r";
const UP: &str = "\x1b[A";
const LEFT: &str = "\x1b[D";
const RIGHT: &str = "\x1b[C";

/// `boardkit tui ARGS` in a pseudo-terminal of 100 x 30 (rexpect's has no
/// size until one is set).
fn tui(args: &str) -> PtySession {
    boardkit_in_a_terminal(&format!("tui {args}"))
}

/// `boardkit ARGS` in a pseudo-terminal of 100 x 30, with a data folder
/// of its own (the scoreboard's default place), so no test writes the
/// person's.
fn boardkit_in_a_terminal(args: &str) -> PtySession {
    let data = std::env::temp_dir().join(format!("boardkit-tui-test-{}", std::process::id()));
    let mut command = Command::new("sh");
    command.env("XDG_DATA_HOME", &data);
    command
        .arg("-c")
        .arg(format!("stty rows 30 cols 100 && exec \"$0\" {args}"));
    command.arg(env!("CARGO_BIN_EXE_boardkit"));
    command.env("TERM", "xterm-256color");
    spawn_command(command, Some(TIMEOUT_MS)).unwrap()
}

fn send(session: &mut PtySession, keys: &str) {
    session.send(keys).unwrap();
    session.flush().unwrap();
}

/// The exit code (rexpect does not re-export nix's `WaitStatus`: read as
/// `Exited(Pid(..), code)`).
fn exited(session: &mut PtySession) -> i32 {
    let status = format!("{:?}", session.process().wait().expect("the program ends"));
    status
        .strip_prefix("Exited(")
        .and_then(|s| s.rsplit(", ").next())
        .and_then(|s| s.trim_end_matches(')').parse().ok())
        .unwrap_or_else(|| panic!("not an exit: {status}"))
}

#[test]
fn velha_plays_hints_undoes_and_quits_with_q_giving_the_terminal_back() {
    let mut session = tui("velha --seed 3");
    let mut seen = session.exp_string("Start").unwrap();
    assert!(
        seen.contains("\x1b[?1049h"),
        "the alternate screen: {seen:?}"
    );
    send(&mut session, ENTER);
    // Velha speaks Portuguese here too, as `boardkit play velha` does.
    seen += &session.exp_string("u desfaz").unwrap();
    // The cursor to A1, X there; the computer replies; a hint; undo.
    send(&mut session, UP);
    send(&mut session, LEFT);
    send(&mut session, ENTER);
    send(&mut session, "h");
    seen += &session.exp_string("Dica:").unwrap();
    send(&mut session, "u");
    // q: the game for the menu, then the menu for the shell.
    send(&mut session, "q");
    send(&mut session, "q");
    let rest = session.exp_eof().unwrap();
    assert_eq!(exited(&mut session), 0, "{seen:?}{rest:?}");
    assert!(rest.ends_with(RESTORED), "{rest:?}");
}

#[test]
fn ctrl_c_quits_at_once_and_gives_the_terminal_back() {
    let mut session = tui("--seed 1");
    session.exp_string("Start").unwrap();
    send(&mut session, ENTER);
    session.exp_string("q menu").unwrap();
    send(&mut session, "\x03");
    let rest = session.exp_eof().unwrap();
    assert_eq!(exited(&mut session), 0, "{rest:?}");
    assert!(rest.ends_with(RESTORED), "{rest:?}");
}

#[test]
fn without_a_terminal_it_says_so() {
    let output = Command::new(env!("CARGO_BIN_EXE_boardkit"))
        .args(["tui", "velha"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("needs a terminal"), "{stderr}");
    assert!(output.stdout.is_empty(), "no escape codes into a pipe");
}

#[test]
fn sigterm_gives_the_terminal_back_and_exits_128_plus_15() {
    let mut session = tui("--seed 1");
    session.exp_string("Start").unwrap();
    session
        .process_mut()
        .signal(rexpect::process::Signal::SIGTERM)
        .unwrap();
    let rest = session.exp_eof().unwrap();
    assert_eq!(exited(&mut session), 143, "{rest:?}");
    assert!(rest.ends_with(RESTORED), "{rest:?}");
}

/// A plain joiner (pipes), its moves typed ahead, its lines as they come.
struct PlainJoiner {
    child: std::process::Child,
    lines: mpsc::Receiver<String>,
    seen: String,
}

impl PlainJoiner {
    fn spawn(address: &str, moves: &str) -> PlainJoiner {
        let mut child = Command::new(env!("CARGO_BIN_EXE_boardkit"))
            .args(["join", address])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(moves.as_bytes())
            .unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (to, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                if to.send(line).is_err() {
                    break;
                }
            }
        });
        PlainJoiner {
            child,
            lines,
            seen: String::new(),
        }
    }

    /// Waits for a line holding `needle`; every second without it, `nudge`
    /// runs again (a key the screen may have taken before its turn came).
    fn until(&mut self, needle: &str, mut nudge: impl FnMut()) {
        let deadline = Instant::now() + Duration::from_millis(TIMEOUT_MS);
        while Instant::now() < deadline {
            match self.lines.recv_timeout(Duration::from_secs(1)) {
                Ok(line) => {
                    self.seen.push_str(&line);
                    self.seen.push('\n');
                    if line.contains(needle) {
                        return;
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => nudge(),
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        panic!("the joiner never printed {needle:?}:\n{}", self.seen);
    }
}

#[test]
fn a_host_full_screen_plays_a_whole_game_against_a_plain_joiner() {
    let mut host = boardkit_in_a_terminal("host velha --port 0 --tui");
    let (_, address) = host
        .exp_regex(r"waiting for an opponent on (127\.0\.0\.1:\d+)")
        .unwrap();
    let address = address
        .trim_start_matches("waiting for an opponent on ")
        .to_owned();
    // The joiner (O) answers A1 then A2; the host (X) plays row B with the
    // arrow keys: B2 (the cursor starts there), B1, B3.
    let mut joiner = PlainJoiner::spawn(&address, "A1\nA2\n");
    joiner.until("Você joga com O", || {});
    // An Enter taken before the screen's turn is lost; sent again, it
    // lands on the cell just played, which is taken: nothing happens.
    let mut press = |keys: &str, needle: &str, joiner: &mut PlainJoiner| {
        send(&mut host, keys);
        joiner.until(needle, || send(&mut host, ENTER));
    };
    press(ENTER, "O adversário jogou em B2.", &mut joiner);
    joiner.until("aguardando a jogada do adversário...", || {});
    press(
        &format!("{LEFT}{ENTER}"),
        "O adversário jogou em B1.",
        &mut joiner,
    );
    joiner.until("aguardando a jogada do adversário...", || {});
    press(
        &format!("{RIGHT}{RIGHT}{ENTER}"),
        "O adversário jogou em B3.",
        &mut joiner,
    );
    joiner.until("Vencedor: X", || {});
    // The screen asks to play again; no. The joiner is told and ends.
    host.exp_string("(s/n)").unwrap();
    send(&mut host, "n");
    let status = joiner.child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{}", joiner.seen);
    send(&mut host, "q");
    let rest = host.exp_eof().unwrap();
    assert_eq!(exited(&mut host), 0, "{rest:?}");
    assert!(rest.contains(RESTORED), "{rest:?}");
}

#[test]
fn a_joiner_full_screen_shows_a_bad_host_s_fault_and_exits_1() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let mut joiner = boardkit_in_a_terminal(&format!("join {address} --tui"));
    let (stream, _) = listener.accept().unwrap();
    stream
        .set_read_timeout(Some(Duration::from_millis(TIMEOUT_MS)))
        .unwrap();
    (&stream).write_all(b"this is not json\n").unwrap();
    let mut told = String::new();
    BufReader::new(&stream).read_line(&mut told).unwrap();
    assert!(told.contains(r#""type":"error""#), "{told}");
    send(&mut joiner, "q");
    let rest = joiner.exp_eof().unwrap();
    assert_eq!(exited(&mut joiner), 1, "{rest:?}");
    let restored = rest.find(RESTORED).expect("the terminal given back");
    assert!(
        rest[restored..].contains("boardkit: "),
        "the error after the screen: {rest:?}"
    );
}

#[test]
fn network_play_full_screen_without_a_terminal_is_a_usage_error() {
    for args in [
        &["host", "velha", "--port", "0", "--tui"][..],
        &["join", "127.0.0.1:9", "--tui"],
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_boardkit"))
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.contains("--tui needs a terminal"), "{stderr}");
        assert!(output.stdout.is_empty(), "nothing listened: {args:?}");
    }
}

#[test]
fn a_finished_game_is_recorded_on_the_scoreboard() {
    let folder = tempfile::tempdir().unwrap();
    let scores = folder.path().join("scores.json");
    let mut session = tui(&format!(
        "connect4 --name ana --scoreboard {}",
        scores.display()
    ));
    session.exp_string("Start").unwrap();
    // Two players; X (ana) fills column 1 while O plays column 2.
    send(&mut session, LEFT);
    send(&mut session, ENTER);
    session.exp_string("undo").unwrap();
    send(&mut session, "1\r2\r1\r2\r1\r2\r1\r");
    session.exp_string("wins!").unwrap();
    send(&mut session, "q");
    send(&mut session, "q");
    let rest = session.exp_eof().unwrap();
    assert_eq!(exited(&mut session), 0, "{rest:?}");
    let board: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&scores).unwrap()).unwrap();
    let entries = board["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 1, "{board}");
    assert_eq!(entries[0]["game"], "connect4");
    assert_eq!(entries[0]["mode"], "7x6 two players");
    assert_eq!(entries[0]["player"], "ana");
    assert_eq!(entries[0]["wins"], 1);
}
