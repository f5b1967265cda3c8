//! `boardkit tui` in a pseudo-terminal (SPEC 7, "Full screen"): the menu,
//! a few moves, a hint, undo, and the terminal given back whichever way the
//! program ends (`q`, Ctrl-C). Every wait has a timeout. rexpect reads each
//! byte as a character, so the needles are ASCII; the screens themselves
//! are the unit tests' snapshots (`src/tui/snapshots/`).

use std::process::Command;

use rexpect::session::{PtySession, spawn_command};

const TIMEOUT_MS: u64 = 20_000;

/// What a program that gives the terminal back prints last: the shell's
/// screen again, then the cursor.
const RESTORED: &str = "\x1b[?1049l\x1b[?25h";

const ENTER: &str = "\r";
const UP: &str = "\x1b[A";
const LEFT: &str = "\x1b[D";

/// `boardkit tui ARGS` in a pseudo-terminal of 100 x 30 (rexpect's has no
/// size until one is set).
fn tui(args: &str) -> PtySession {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("stty rows 30 cols 100 && exec \"$0\" tui {args}"));
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
    seen += &session.exp_string("undo").unwrap();
    // The cursor to A1, X there; the computer replies; a hint; undo.
    send(&mut session, UP);
    send(&mut session, LEFT);
    send(&mut session, ENTER);
    send(&mut session, "h");
    seen += &session.exp_string("Hint:").unwrap();
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
    session.exp_string("undo").unwrap();
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
