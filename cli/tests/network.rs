//! Network play through the binary (SPEC 7, "Network"): two `boardkit`
//! processes on 127.0.0.1 playing whole games through their stdin and
//! stdout, and hostile peers (raw sockets in the test) against a real
//! `boardkit host` and a real `boardkit join`: each must end with exit
//! status 1 and a clear message, within seconds.
//!
//! Nothing here can hang: every process has a deadline after which it is
//! killed and the test fails, every socket read has a timeout, and every
//! wait for a line of output is a channel receive with a timeout.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The longest any process may run.
const DEADLINE: Duration = Duration::from_secs(30);
/// How soon a bad peer must be dealt with (timeouts in these tests are 1 s).
const PROMPTLY: Duration = Duration::from_secs(8);

/// A running `boardkit`: its stdout line by line as it comes, its stderr
/// gathered at the end.
struct Running {
    child: Child,
    started: Instant,
    lines: Receiver<String>,
    seen: Vec<String>,
    stderr: JoinHandle<String>,
}

/// How a process ended.
#[derive(Debug)]
struct Ended {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    took: Duration,
}

fn spawn(args: &[&str], input: &str) -> Running {
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardkit"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("boardkit starts");
    // Every move up front, then the end of input: each end reads its next
    // move only when its turn comes.
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    let (sender, lines) = channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    let mut stderr = child.stderr.take().unwrap();
    let stderr = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    Running {
        child,
        started: Instant::now(),
        lines,
        seen: Vec::new(),
        stderr,
    }
}

impl Running {
    /// Waits for a line of stdout starting with `prefix`; returns its rest.
    fn line_starting(&mut self, prefix: &str) -> String {
        loop {
            let left = DEADLINE.saturating_sub(self.started.elapsed());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if let Some(rest) = line.strip_prefix(prefix) {
                        return rest.to_owned();
                    }
                }
                Err(_) => {
                    let _ = self.child.kill();
                    panic!("no line {prefix:?} in {:#?}", self.seen);
                }
            }
        }
    }

    /// Waits for the process to end (killing it past the deadline: a
    /// failure).
    fn finish(mut self) -> Ended {
        let code = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status.code();
            }
            if self.started.elapsed() > DEADLINE {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!("boardkit still ran after {DEADLINE:?}: killed");
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let took = self.started.elapsed();
        let mut stdout = self.seen.join("\n");
        for line in self.lines.iter() {
            if !stdout.is_empty() {
                stdout.push('\n');
            }
            stdout.push_str(&line);
        }
        stdout.push('\n');
        Ended {
            code,
            stdout,
            stderr: self.stderr.join().unwrap(),
            took,
        }
    }
}

/// A host waiting for its opponent, and the address it printed.
fn host(args: &[&str], input: &str) -> (Running, String) {
    let mut all = vec!["host"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--port", "0"]);
    let mut host = spawn(&all, input);
    let address = host.line_starting("waiting for an opponent on ");
    assert!(address.starts_with("127.0.0.1:"), "{address}");
    (host, address)
}

#[test]
fn two_processes_play_a_whole_velha_game() {
    let (host, address) = host(&["velha"], "A1\nA2\nA3\n");
    // The joiner's second move: off the board, then taken, then B2.
    let joiner = spawn(&["join", &address], "B1\nZ9\nA1\nB2\n");
    let (host, joiner) = (host.finish(), joiner.finish());
    assert_eq!(host.code, Some(0), "{host:#?}");
    assert_eq!(joiner.code, Some(0), "{joiner:#?}");
    assert!(host.stdout.ends_with("Vencedor: X\n"), "{}", host.stdout);
    assert!(
        joiner.stdout.ends_with("Vencedor: X\n"),
        "{}",
        joiner.stdout
    );
    assert!(host.stdout.contains("Você joga com X e começa.\n"));
    assert!(
        host.stdout
            .contains("aguardando a jogada do adversário...\nO adversário jogou em B1.\n")
    );
    assert!(
        joiner
            .stdout
            .contains("Você joga com O; o adversário começa.\n")
    );
    assert!(joiner.stdout.contains("Posição inválida\n"));
    assert!(joiner.stdout.contains("Posição ocupada\n"));
    // Each side saw the final board: row A full of X, B1 and B2 O.
    for end in [&host, &joiner] {
        assert!(end.stdout.contains("A X | X | X \n"), "{}", end.stdout);
        assert!(end.stdout.contains("B O | O |   \n"), "{}", end.stdout);
    }
}

#[test]
fn two_processes_play_a_whole_connect_four_game() {
    let (host, address) = host(&["connect4"], "9\n1\n1\n1\n7\n");
    let joiner = spawn(&["join", &address], "2 2 2 2\n");
    let (host, joiner) = (host.finish(), joiner.finish());
    assert_eq!(host.code, Some(0), "{host:#?}");
    assert_eq!(joiner.code, Some(0), "{joiner:#?}");
    assert!(
        host.stdout.ends_with("Player two won!\n"),
        "{}",
        host.stdout
    );
    assert!(
        joiner.stdout.ends_with("Player two won!\n"),
        "{}",
        joiner.stdout
    );
    assert!(
        host.stdout
            .contains("Column 9 does not exist: choose 1 to 7.\n")
    );
    assert!(
        host.stdout
            .contains("waiting for the opponent's move...\nThe opponent played column 2.\n")
    );
    assert!(
        joiner
            .stdout
            .contains("You are player two (O); your opponent starts.\n")
    );
    assert!(
        joiner
            .stdout
            .contains("Your turn (O).\nColumn number? (starts at 1):\n")
    );
}

#[test]
fn a_person_whose_input_ends_mid_game_ends_both_sides() {
    let (host, address) = host(&["velha"], "A1\nA2\n");
    let joiner = spawn(&["join", &address], "B1\n");
    let (host, joiner) = (host.finish(), joiner.finish());
    assert_eq!(joiner.code, Some(1), "{joiner:#?}");
    assert!(
        joiner
            .stderr
            .contains("a entrada terminou antes do fim do jogo"),
        "{joiner:#?}"
    );
    assert_eq!(host.code, Some(1), "{host:#?}");
    assert!(
        host.stderr
            .contains("the opponent ended the game: their input ended before the game was over"),
        "{host:#?}"
    );
}

/// A raw client speaking (or not) the protocol to a real host.
struct Client {
    stream: TcpStream,
    reader: BufReader<TcpStream>,
}

impl Client {
    fn connect(address: &str) -> Client {
        let stream = TcpStream::connect(address).expect("the host listens");
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let reader = BufReader::new(stream.try_clone().unwrap());
        Client { stream, reader }
    }

    /// The next line from the host, or `None` once it closed.
    fn line(&mut self) -> Option<String> {
        let mut line = String::new();
        match self.reader.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line),
        }
    }

    /// Reads lines until one holds `needle`.
    fn until(&mut self, needle: &str) -> String {
        loop {
            let line = self
                .line()
                .unwrap_or_else(|| panic!("the host closed before sending {needle:?}"));
            if line.contains(needle) {
                return line;
            }
        }
    }

    fn send(&mut self, text: &str) {
        // A host that has already hung up is what some tests expect.
        let _ = self.stream.write_all(text.as_bytes());
    }

    /// The hello, answered, and the first game's start and empty state.
    fn greet(&mut self) {
        let hello = self.until("\"type\":\"hello\"");
        self.send(&hello);
        self.until("\"type\":\"start\"");
        self.until("\"type\":\"state\"");
    }

    /// The `error` message the host sends before closing.
    fn error(&mut self) -> String {
        let line = self.until("\"type\":\"error\"");
        let value: serde_json::Value = serde_json::from_str(&line).unwrap();
        value["message"].as_str().unwrap().to_owned()
    }
}

/// Runs a velha host against `client`, which gets the host's address; the
/// host must fail promptly with `stderr` in its message.
fn host_refuses(args: &[&str], input: &str, stderr: &str, client: impl FnOnce(&mut Running, &str)) {
    let mut all = vec!["velha"];
    all.extend_from_slice(args);
    let (mut host, address) = host(&all, input);
    client(&mut host, &address);
    let ended = host.finish();
    assert_eq!(ended.code, Some(1), "{ended:#?}");
    assert!(ended.stderr.contains(stderr), "{ended:#?}");
    assert!(ended.stderr.starts_with("boardkit: "), "{ended:#?}");
    assert!(ended.took < PROMPTLY, "{ended:#?}");
}

#[test]
fn garbage_is_refused() {
    host_refuses(
        &[],
        "",
        "the opponent sent a line that is not JSON",
        |_, address| {
            let mut client = Client::connect(address);
            client.until("hello");
            client.send("GET / HTTP/1.1\r\n\r\n");
            assert!(
                client
                    .error()
                    .starts_with("you sent a line that is not JSON")
            );
        },
    );
}

#[test]
fn a_megabyte_line_without_newline_is_refused_at_the_cap() {
    host_refuses(
        &[],
        "",
        "the opponent sent a line longer than 65536 bytes",
        |_, address| {
            let mut client = Client::connect(address);
            client.until("hello");
            let mut writer = client.stream.try_clone().unwrap();
            // Written on a thread: the host stops reading long before the end.
            std::thread::spawn(move || {
                let _ = writer.write_all(&vec![b'x'; 1 << 20]);
            });
        },
    );
}

#[test]
fn a_wrong_protocol_version_is_refused() {
    host_refuses(
        &[],
        "",
        "the opponent speaks protocol version 99",
        |_, address| {
            let mut client = Client::connect(address);
            client.until("hello");
            client.send(
                "{\"type\":\"hello\",\"version\":99,\"game\":\"velha\",\"options\":{\"size\":3}}\n",
            );
            assert_eq!(
                client.error(),
                "this boardkit speaks protocol version 1, not version 99"
            );
        },
    );
}

#[test]
fn an_illegal_move_is_refused() {
    host_refuses(
        &[],
        "B2\n",
        "the opponent played an illegal move \"B2\": position B2 is already taken",
        |_, address| {
            let mut client = Client::connect(address);
            client.greet();
            client.until("\"moves\":[\"B2\"]");
            client.send("{\"type\":\"move\",\"ply\":1,\"move\":\"B2\"}\n");
            assert_eq!(
                client.error(),
                "your move \"B2\" is illegal: position B2 is already taken"
            );
        },
    );
}

#[test]
fn a_move_off_the_board_is_refused() {
    host_refuses(
        &[],
        "B2\n",
        "the opponent played an illegal move \"Z9\"",
        |_, address| {
            let mut client = Client::connect(address);
            client.greet();
            client.until("\"moves\":[\"B2\"]");
            client.send("{\"type\":\"move\",\"ply\":1,\"move\":\"Z9\"}\n");
            assert!(client.error().starts_with("your move \"Z9\" is illegal"));
        },
    );
}

#[test]
fn an_out_of_turn_move_is_refused() {
    host_refuses(
        &[],
        "B2\n",
        "the opponent played out of turn",
        |_, address| {
            let mut client = Client::connect(address);
            client.greet();
            // X (the host) moves first: this move comes before its turn.
            client.send("{\"type\":\"move\",\"ply\":0,\"move\":\"A1\"}\n");
            assert!(client.error().starts_with("you played out of turn"));
        },
    );
}

#[test]
fn silence_past_the_timeout_ends_the_game() {
    host_refuses(
        &["--timeout", "1"],
        "B2\n",
        "the opponent sent nothing for 1 s",
        |_, address| {
            let mut client = Client::connect(address);
            client.greet();
            assert_eq!(client.error(), "you sent nothing for 1 s");
        },
    );
}

#[test]
fn silence_instead_of_the_hello_ends_the_wait() {
    host_refuses(
        &["--timeout", "1"],
        "",
        "the opponent sent nothing for 1 s",
        |_, address| {
            let mut client = Client::connect(address);
            assert_eq!(client.error(), "you sent nothing for 1 s");
        },
    );
}

#[test]
fn a_disconnection_mid_game_ends_the_host() {
    host_refuses(
        &[],
        "B2\n",
        "the opponent disconnected in the middle of the game",
        |_, address| {
            let mut client = Client::connect(address);
            client.greet();
            drop(client);
        },
    );
}

#[test]
fn a_second_opponent_is_refused_while_a_game_runs() {
    host_refuses(
        &[],
        "",
        "the opponent disconnected during the hello",
        |host, address| {
            let client = Client::connect(address);
            host.line_starting("opponent connected from ");
            assert!(
                TcpStream::connect(address).is_err(),
                "the host still listens"
            );
            drop(client);
        },
    );
}

/// A raw host in the test against a real `boardkit join`.
fn joiner_refuses(args: &[&str], stderr: &str, host: impl FnOnce(TcpStream)) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let mut all = vec!["join", address.as_str()];
    all.extend_from_slice(args);
    let joiner = spawn(&all, "B2\n");
    let (stream, _) = listener.accept().unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    host(stream);
    let ended = joiner.finish();
    assert_eq!(ended.code, Some(1), "{ended:#?}");
    assert!(ended.stderr.contains(stderr), "{ended:#?}");
    assert!(ended.took < PROMPTLY, "{ended:#?}");
}

/// The `error` a joiner sent before closing.
fn error_from(stream: TcpStream) -> String {
    let line = BufReader::new(stream)
        .lines()
        .map_while(Result::ok)
        .find(|line| line.contains("\"type\":\"error\""))
        .expect("an error message");
    let value: serde_json::Value = serde_json::from_str(&line).unwrap();
    value["message"].as_str().unwrap().to_owned()
}

#[test]
fn a_joiner_refuses_a_host_of_another_version() {
    joiner_refuses(
        &[],
        "the opponent speaks protocol version 2",
        |mut stream| {
            stream
                .write_all(b"{\"type\":\"hello\",\"version\":2,\"game\":\"go\",\"options\":{}}\n")
                .unwrap();
            assert_eq!(
                error_from(stream),
                "this boardkit speaks protocol version 1, not version 2"
            );
        },
    );
}

#[test]
fn a_joiner_refuses_garbage_and_a_silent_host() {
    joiner_refuses(
        &[],
        "the opponent sent a line that is not JSON",
        |mut stream| {
            stream.write_all(b"\x00\x01 hello\n").unwrap();
            assert!(error_from(stream).starts_with("you sent a line that is not JSON"));
        },
    );
    joiner_refuses(
        &["--timeout", "1"],
        "the opponent sent nothing for 1 s",
        |stream| {
            assert_eq!(error_from(stream), "you sent nothing for 1 s");
        },
    );
}

#[test]
fn a_joiner_refuses_a_host_that_cheats() {
    joiner_refuses(
        &[],
        "a state that does not follow the game",
        |mut stream| {
            stream
            .write_all(
                concat!(
                    "{\"type\":\"hello\",\"version\":1,\"game\":\"velha\",\"options\":{\"size\":3}}\n",
                    "{\"type\":\"start\",\"round\":1,\"joiner\":\"O\"}\n",
                    "{\"type\":\"state\",\"round\":1,\"moves\":[],\"turn\":\"X\",\"status\":\"playing\"}\n",
                    // Two moves at once: the second was the joiner's to play.
                    "{\"type\":\"state\",\"round\":1,\"moves\":[\"A1\",\"A2\"],\"turn\":\"X\",\"status\":\"playing\"}\n",
                )
                .as_bytes(),
            )
            .unwrap();
            // The joiner's hello comes first; then its error.
            assert!(error_from(stream).starts_with("your state does not follow the game"));
        },
    );
}

#[test]
fn a_joiner_cannot_reach_a_closed_port() {
    // A port just freed: nothing listens there.
    let address = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .to_string();
    let ended = spawn(&["join", &address], "").finish();
    assert_eq!(ended.code, Some(1), "{ended:#?}");
    assert!(
        ended
            .stderr
            .contains(&format!("cannot connect to {address}")),
        "{ended:#?}"
    );
}

#[test]
fn usage_errors_exit_with_status_2() {
    for args in [
        &["host", "mastermind"][..],
        &["host", "velha", "--rows", "6"],
        &["host", "connect4", "--size", "4"],
        &["host", "velha", "--timeout", "0"],
        &["join", "localhost"],
    ] {
        let ended = spawn(args, "").finish();
        assert_eq!(ended.code, Some(2), "{args:?}: {ended:#?}");
    }
    let ended = spawn(&["host", "mastermind"], "").finish();
    assert!(
        ended
            .stderr
            .contains(r#""mastermind" is not played over the network: host velha or connect4"#)
    );
}

/// The host in a pseudo-terminal (rexpect; every wait has its timeout):
/// colours, the score and "play again?", against a piped joiner playing
/// as on a terminal (`--interactive`) that declines a second game.
#[test]
fn on_a_terminal_the_host_is_coloured_and_asked_to_play_again() {
    let mut command = Command::new(env!("CARGO_BIN_EXE_boardkit"));
    command.args(["host", "velha", "--port", "0"]);
    command.env_remove("NO_COLOR");
    command.env_remove("CLICOLOR_FORCE");
    command.env("TERM", "xterm-256color");
    let mut host = rexpect::session::spawn_command(command, Some(20_000)).unwrap();
    // rexpect reads a byte as a character: needles stay ASCII.
    let (_, line) = host
        .exp_regex(r"waiting for an opponent on [0-9.:]+")
        .unwrap();
    let address = line.rsplit(' ').next().unwrap().to_owned();
    let joiner = spawn(&["join", &address, "--interactive"], "B1\nB2\nn\n");
    let mut seen = String::new();
    for position in ["A1", "A2", "A3"] {
        seen.push_str(&host.exp_string("(ex.: B2):").unwrap());
        host.send_line(position).unwrap();
    }
    seen.push_str(&host.exp_string("Jogar de novo? (s/n)").unwrap());
    host.send_line("s").unwrap();
    seen.push_str(&host.exp_string("quer jogar de novo.").unwrap());
    seen.push_str(&host.exp_eof().unwrap());
    let status = format!("{:?}", host.process().wait().unwrap());
    assert!(status.ends_with(", 0)"), "{status}: {seen}");
    // X in blue, O in red, the score after the game.
    assert!(seen.contains("34mX"), "{seen:?}");
    assert!(seen.contains("31mO"), "{seen:?}");
    assert!(seen.contains(" 1, advers"), "{seen}");
    let joiner = joiner.finish();
    assert_eq!(joiner.code, Some(0), "{joiner:#?}");
    // The piped joiner gets no escape codes.
    assert!(!joiner.stdout.contains('\x1b'), "{joiner:#?}");
    assert!(
        joiner
            .stdout
            .contains("Placar: você 0, adversário 1, empates 0\n")
    );
    assert!(joiner.stdout.contains("Jogar de novo? (s/n)\n"));
}

/// This machine's address on its network (not loopback), if it has one:
/// the one a datagram to another network would leave from (a UDP
/// `connect` only picks the route; nothing is sent).
fn network_address() -> Option<std::net::IpAddr> {
    let socket = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    socket.connect("203.0.113.1:9").ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_loopback() && !ip.is_unspecified()).then_some(ip)
}

#[test]
fn bound_to_every_address_a_host_takes_an_opponent_from_the_network() {
    let Some(ip) = network_address() else {
        eprintln!("skipped: this machine has no address besides loopback");
        return;
    };
    let mut host = spawn(
        &["host", "velha", "--bind", "0.0.0.0", "--port", "0"],
        "A1\nA2\nA3\n",
    );
    let listening = host.line_starting("waiting for an opponent on ");
    let port = listening.rsplit(':').next().unwrap();
    // The host says where another machine reaches it.
    let reachable = host.line_starting("from another machine: boardkit join ");
    assert_eq!(reachable, format!("{ip}:{port}"));
    let joiner = spawn(&["join", &reachable], "B1\nB2\n");
    let (host, joiner) = (host.finish(), joiner.finish());
    assert_eq!(host.code, Some(0), "{host:#?}");
    assert_eq!(joiner.code, Some(0), "{joiner:#?}");
    assert!(
        joiner.stdout.ends_with("Vencedor: X\n"),
        "{}",
        joiner.stdout
    );
    assert!(
        host.stdout
            .contains(&format!("opponent connected from {ip}:")),
        "{}",
        host.stdout
    );
}

#[test]
fn by_default_a_host_is_out_of_the_network_s_reach() {
    let Some(ip) = network_address() else {
        eprintln!("skipped: this machine has no address besides loopback");
        return;
    };
    let (mut host, address) = host(&["velha", "--timeout", "3"], "");
    let port: u16 = address.rsplit(':').next().unwrap().parse().unwrap();
    let from_the_network = TcpStream::connect_timeout(&(ip, port).into(), PROMPTLY);
    assert!(
        from_the_network.is_err(),
        "{ip}:{port} took a connection though the host listens on {address}"
    );
    let _ = host.child.kill();
    let _ = host.finish();
}
