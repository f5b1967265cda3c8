//! `boardkit play` for a person at a terminal (SPEC 7, "Terminal"), driven
//! in a pseudo-terminal: colours, the computer's move announced, whose turn
//! it is, play again with the running score, the scoreboard and
//! `boardkit scores`. Every wait has a timeout, so a broken prompt fails
//! the test instead of hanging it. Piped transcripts are
//! `tests/transcripts.rs`'s.

use std::process::Command;

use rexpect::ReadUntil;
use rexpect::session::{PtySession, spawn_command};

const TIMEOUT_MS: u64 = 20_000;

fn boardkit(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_boardkit"));
    command.args(args);
    command.env_remove("NO_COLOR");
    command.env_remove("CLICOLOR_FORCE");
    command.env("TERM", "xterm-256color");
    command
}

/// The exit code (rexpect does not re-export nix's `WaitStatus`: read as
/// `Exited(Pid(..), code)`).
fn exited(session: &mut PtySession) -> i32 {
    let status = format!("{:?}", session.process().wait().expect("the game ends"));
    status
        .strip_prefix("Exited(")
        .and_then(|s| s.rsplit(", ").next())
        .and_then(|s| s.trim_end_matches(')').parse().ok())
        .unwrap_or_else(|| panic!("not an exit: {status}"))
}

/// rexpect reads a byte as a character: needles stay ASCII.
///
/// Plays velha games by taking the first free cell of a fixed order
/// (an occupied one is refused and the next one tried), answering the
/// play-again question with `answers`. Returns everything printed.
fn play_velha(session: &mut PtySession, answers: &[&str]) -> String {
    let order = ["B2", "A1", "A3", "C1", "C3", "A2", "B1", "B3", "C2"];
    let mut seen = String::new();
    let mut answers = answers.iter();
    let mut next = 0;
    loop {
        let (before, matched) = session
            .exp_any(vec![
                ReadUntil::String("(ex.: B2):".into()),
                ReadUntil::String("Jogar de novo? (s/n)".into()),
            ])
            .expect("a prompt or the question");
        seen.push_str(&before);
        seen.push_str(&matched);
        if matched.starts_with("Jogar") {
            next = 0;
            let answer = answers.next().expect("an answer for each question");
            session.send_line(answer).unwrap();
            if *answer == "n" {
                return seen;
            }
        } else {
            session.send_line(order[next % order.len()]).unwrap();
            next += 1;
        }
    }
}

#[test]
fn velha_on_a_terminal_is_coloured_announces_the_computer_and_plays_again() {
    let dir = tempfile::tempdir().unwrap();
    let scores = dir.path().join("scores.json");
    let scores_arg = scores.to_str().unwrap();
    let command = boardkit(&[
        "play",
        "velha",
        "--ai",
        "hard",
        "--seed",
        "7",
        "--name",
        "ana",
        "--scoreboard",
        scores_arg,
    ]);
    let mut session = spawn_command(command, Some(TIMEOUT_MS)).unwrap();
    let seen = play_velha(&mut session, &["s", "n"]);
    let rest = session.exp_eof().unwrap();
    assert_eq!(exited(&mut session), 0, "{seen}{rest}");
    let all = format!("{seen}{rest}");
    // Coloured marks and grey coordinates; the computer announced.
    assert!(
        all.contains("\x1b[34mX") || all.contains(";34mX"),
        "{all:?}"
    );
    assert!(
        all.contains("\x1b[31mO") || all.contains(";31mO"),
        "{all:?}"
    );
    assert!(all.contains("\x1b[90m"), "{all:?}");
    assert!(all.contains("Computador jogou em "), "{all}");
    // Two games: the title twice, the running score after each.
    assert_eq!(all.matches("Jogo da Velha").count(), 2, "{all}");
    let scores_seen: Vec<&str> = all.lines().filter(|l| l.starts_with("Placar: ")).collect();
    assert_eq!(scores_seen.len(), 2, "{all}");
    // Hard never loses: the computer won or drew each game.
    assert!(scores_seen[1].contains(" 0, computador "), "{all}");

    let table = Command::new(env!("CARGO_BIN_EXE_boardkit"))
        .args(["scores", "--scoreboard", scores_arg])
        .output()
        .unwrap();
    assert!(table.status.success());
    let table = String::from_utf8(table.stdout).unwrap();
    let row = table
        .lines()
        .find(|l| l.starts_with("velha"))
        .unwrap_or_else(|| panic!("{table}"));
    let cells: Vec<&str> = row.split_whitespace().collect();
    // game, mode (3 words), player, games, wins.
    assert_eq!(
        &cells[..6],
        ["velha", "3x3", "vs", "hard", "ana", "2"],
        "{table}"
    );
    assert_eq!(cells[6], "0", "{table}");
}

#[test]
fn no_color_on_a_terminal_keeps_the_extras_without_escape_codes() {
    let mut command = boardkit(&[
        "play",
        "velha",
        "--ai",
        "easy",
        "--seed",
        "3",
        "--no-scoreboard",
    ]);
    command.env("NO_COLOR", "1");
    let mut session = spawn_command(command, Some(TIMEOUT_MS)).unwrap();
    let seen = play_velha(&mut session, &["n"]);
    let rest = session.exp_eof().unwrap();
    assert_eq!(exited(&mut session), 0);
    let all = format!("{seen}{rest}");
    assert!(!all.contains('\x1b'), "{all:?}");
    assert!(all.contains("Computador jogou em "), "{all}");
    assert!(all.contains("Placar: voc"), "{all}");
}

#[test]
fn connect4_on_a_terminal_says_whose_turn_and_where_the_computer_played() {
    let command = boardkit(&[
        "play",
        "connect4",
        "--ai",
        "smart",
        "--seed",
        "5",
        "--cols",
        "12",
        "--no-scoreboard",
    ]);
    let mut session = spawn_command(command, Some(TIMEOUT_MS)).unwrap();
    let mut all = String::new();
    let mut column = 0;
    loop {
        let (before, matched) = session
            .exp_any(vec![
                ReadUntil::String("Column number? (starts at 1):".into()),
                ReadUntil::String("Play again? (y/n)".into()),
            ])
            .unwrap();
        all.push_str(&before);
        all.push_str(&matched);
        if matched.starts_with("Play again") {
            session.send_line("n").unwrap();
            break;
        }
        // Every column in turn; a full one is refused and the next tried.
        session.send_line(&(column % 12 + 1).to_string()).unwrap();
        column += 1;
    }
    all.push_str(&session.exp_eof().unwrap());
    assert_eq!(exited(&mut session), 0);
    assert!(all.contains("Player one ("), "{all}");
    assert!(all.contains(") to play."), "{all}");
    assert!(all.contains("Computer played column "), "{all}");
    assert!(all.contains("Score: you "), "{all}");
    // The footer's tens stand over columns 10 to 12.
    let plain = all.replace("\x1b[90m", "").replace("\x1b[0m", "");
    assert!(
        plain.contains("                   1 1 1\r\n 1 2 3 4 5 6 7 8 9 0 1 2"),
        "{all:?}"
    );
}

#[test]
fn the_end_of_input_is_reported_in_the_game_s_language() {
    let output = Command::new(env!("CARGO_BIN_EXE_boardkit"))
        .args(["play", "velha"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "boardkit: a entrada terminou antes do fim do jogo\n"
    );
}

#[test]
fn rounds_play_piped_games_in_a_row_with_the_score() {
    let output = Command::new(env!("CARGO_BIN_EXE_boardkit"))
        .args(["play", "mastermind", "--secret", "ABCD", "--rounds", "2"])
        .stdin(std::fs::File::open("/dev/null").unwrap())
        .output()
        .unwrap();
    // The end of input in the first game: exit 1, as a single game.
    assert_eq!(output.status.code(), Some(1));

    let mut child = Command::new(env!("CARGO_BIN_EXE_boardkit"))
        .args(["play", "mastermind", "--secret", "ABCD", "--rounds", "2"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"ABCD\nABCD\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(!text.contains('\x1b'));
    assert_eq!(text.matches("You win\nScore: won ").count(), 2, "{text}");
    assert!(text.ends_with("Score: won 2, lost 0\n"), "{text}");
}

#[test]
fn games_ending_at_once_in_many_processes_all_count() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let scores = dir.path().join("scores.json");
    let children: Vec<_> = (0..6)
        .map(|_| {
            let mut child = Command::new(env!("CARGO_BIN_EXE_boardkit"))
                .args(["play", "mastermind", "--secret", "ABCD", "--rounds", "1"])
                .args(["--name", "ana", "--scoreboard"])
                .arg(&scores)
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap();
            child.stdin.take().unwrap().write_all(b"ABCD\n").unwrap();
            child
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let table = Command::new(env!("CARGO_BIN_EXE_boardkit"))
        .args(["scores", "--game", "mastermind", "--scoreboard"])
        .arg(&scores)
        .output()
        .unwrap();
    let table = String::from_utf8(table.stdout).unwrap();
    let row: Vec<&str> = table.lines().nth(1).unwrap().split_whitespace().collect();
    // mastermind, "4 pegs, 6 colours, 10 turns", ana, games 6, wins 6.
    assert_eq!(row[0], "mastermind", "{table}");
    assert_eq!(&row[7..10], ["ana", "6", "6"], "{table}");
}

#[test]
fn scores_reports_an_unreadable_board_and_leaves_it() {
    let dir = tempfile::tempdir().unwrap();
    let scores = dir.path().join("scores.json");
    std::fs::write(&scores, b"{\"version\": 1, \"entr").unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_boardkit"))
        .args(["scores", "--scoreboard"])
        .arg(&scores)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("is not a scoreboard"), "{stderr}");
    assert_eq!(std::fs::read(&scores).unwrap(), b"{\"version\": 1, \"entr");
}

/// Watch mode through a pseudo-terminal, on a Python starter (the wheel's
/// `boardkit watch`): the first run shows each level, `h` opens the hint
/// about the first failure and records it, a save runs the tests again and
/// the next hint follows the new first failure, `q` quits.
#[test]
fn watch_reruns_on_a_save_gives_hints_one_at_a_time_and_quits() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("starter");
    let made = Command::new(env!("CARGO_BIN_EXE_boardkit"))
        .args([
            "starter",
            "velha",
            "--language",
            "python",
            "--locale",
            "pt-BR",
        ])
        .arg(&folder)
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    let mut command = boardkit(&["watch", "velha", "--language", "python"]);
    command.arg(&folder).env_remove("NO_COLOR");
    let mut session = spawn_command(command, Some(TIMEOUT_MS)).unwrap();
    let first = session.exp_string("q e Enter para sair").unwrap();
    assert!(
        first.contains("veis:\r\n") && first.contains("(basic)           [---"),
        "{first}"
    );
    // A screen a run, the level reached, and the next step, all in its
    // language.
    assert!(first.starts_with("\x1b[2J"), "{first:?}");
    assert!(first.contains("ainda nenhum"), "{first}");
    // (The session reads bytes as Latin-1: its accents are not compared.)
    assert!(
        first.contains("a `extrai_coluna` passar; h e Enter para ver uma dica"),
        "{first}"
    );
    assert!(first.contains("primeira falha: basic::"), "{first}");
    // extrai_coluna fails first: its hints first.
    session.send_line("h").unwrap();
    session
        .exp_string("`extrai_linha` e `extrai_coluna`: a posi")
        .unwrap();
    let opened = std::fs::read_to_string(folder.join(".boardkit/hints-opened.toml")).unwrap();
    assert!(opened.contains("basic = 1"), "{opened}");
    // A save that makes both pass: the file's time moves on (past a coarse
    // clock's tick), and verifica_vencedor fails first now.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let funcoes = folder.join("funcoes.py");
    let text = std::fs::read_to_string(&funcoes).unwrap();
    let text = text
        .replace(
            "raise NotImplementedError(\"extrai_linha: veja o STATEMENT.md\")",
            "return \"ABC\".index(posicao.replace(\" \", \"\").upper()[0])",
        )
        .replace(
            "raise NotImplementedError(\"extrai_coluna: veja o STATEMENT.md\")",
            "return int(posicao.replace(\" \", \"\")[-1]) - 1",
        );
    std::fs::write(&funcoes, text).unwrap();
    let again = session.exp_string("q e Enter para sair").unwrap();
    assert!(
        again.contains("\x1b[2J\x1b[3J\x1b[Htestando...") && again.contains("] 2/3"),
        "{again:?}"
    );
    assert!(again.contains("a `verifica_vencedor` passar"), "{again}");
    assert!(
        again.contains("primeira falha: basic::verifica_vencedor"),
        "{again}"
    );
    // The hint about what fails now, not the next in the file.
    session.send_line("h").unwrap();
    session.exp_string("`verifica_vencedor`: confira").unwrap();
    let opened = std::fs::read_to_string(folder.join(".boardkit/hints-opened.toml")).unwrap();
    assert!(opened.contains("basic = 2"), "{opened}");
    session.send_line("q").unwrap();
    assert_eq!(exited(&mut session), 0);
}
