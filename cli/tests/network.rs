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

/// The address the tests' own network namespace gives its one network
/// interface (TEST-NET-1: never routed anywhere).
const NAMESPACE_ADDRESS: &str = "192.0.2.1";

/// Runs `script` (sh) in a network namespace of its own, made here, with
/// loopback and one interface at [`NAMESPACE_ADDRESS`] as its default route
/// (a veth pair whose other end is in the same namespace): the binary sees
/// an address besides loopback, and nothing leaves the namespace. `$0` is
/// the binary. `None` when this machine cannot make one (`unshare` missing
/// or user namespaces not allowed).
fn in_a_network_namespace(script: &str) -> Option<Ended> {
    let setup = format!(
        "set -e; ip link add v0 type veth peer name v1; \
         ip addr add {NAMESPACE_ADDRESS}/24 dev v0; \
         ip link set v0 up; ip link set v1 up; ip link set lo up; \
         ip route add default dev v0; set +e\n{script}"
    );
    let started = Instant::now();
    let output = Command::new("unshare")
        .args([
            "--map-root-user",
            "--net",
            "--",
            "timeout",
            "30",
            "sh",
            "-c",
            &setup,
        ])
        .arg(env!("CARGO_BIN_EXE_boardkit"))
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .ok()?;
    let ended = Ended {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        took: started.elapsed(),
    };
    if ended.stderr.contains("unshare:") || ended.stderr.contains("RTNETLINK") {
        // No namespace to be had here: said, not failed (CI has one).
        assert!(std::env::var_os("CI").is_none(), "{ended:#?}");
        eprintln!("skipped: no network namespace here: {}", ended.stderr);
        return None;
    }
    Some(ended)
}

#[test]
fn bound_to_every_address_a_host_takes_an_opponent_from_the_network() {
    // The host and the joiner in one namespace: the joiner uses the address
    // the host prints for another machine.
    let script = r#"
printf 'A1\nA2\nA3\n' | "$0" host velha --bind 0.0.0.0 --port 0 > host.out 2>&1 &
host=$!
for _ in $(seq 200); do grep -q 'from another machine' host.out && break; sleep 0.05; done
address=$(sed -n 's/.*from another machine: boardkit join //p' host.out)
echo "address $address"
printf 'B1\nB2\n' | "$0" join "$address" > join.out 2>&1
echo "join exit $?"
wait $host
echo "host exit $?"
echo '--- host'; cat host.out; echo '--- join'; cat join.out
"#;
    let dir = tempfile::tempdir().unwrap();
    let script = format!("cd '{}'\n{script}", dir.path().display());
    let Some(ended) = in_a_network_namespace(&script) else {
        return;
    };
    let out = &ended.stdout;
    assert!(
        out.contains(&format!("address {NAMESPACE_ADDRESS}:")),
        "{ended:#?}"
    );
    assert!(out.contains("join exit 0\nhost exit 0\n"), "{ended:#?}");
    let joined = out.split("--- join\n").nth(1).unwrap_or_default();
    assert!(joined.ends_with("Vencedor: X\n"), "{ended:#?}");
    assert!(
        out.contains(&format!("opponent connected from {NAMESPACE_ADDRESS}:")),
        "{ended:#?}"
    );
}

#[test]
fn by_default_a_host_is_out_of_the_network_s_reach() {
    // A connection to the namespace's network address is refused, and one
    // to loopback, the control, is taken.
    let script = format!(
        r#"
"$0" host velha --port 0 --timeout 3 > host.out 2>&1 < /dev/null &
host=$!
for _ in $(seq 200); do grep -q 'waiting for an opponent on' host.out && break; sleep 0.05; done
port=$(sed -n 's/.*waiting for an opponent on .*:\([0-9]*\).*/\1/p' host.out | head -n 1)
echo "port $port"
if timeout 3 bash -c "exec 3<>/dev/tcp/{NAMESPACE_ADDRESS}/$port" 2>/dev/null; then
  echo 'network: connected'
else
  echo 'network: refused'
fi
if timeout 3 bash -c "exec 3<>/dev/tcp/127.0.0.1/$port" 2>/dev/null; then
  echo 'loopback: connected'
else
  echo 'loopback: refused'
fi
kill $host 2>/dev/null; wait $host
cat host.out
"#
    );
    let dir = tempfile::tempdir().unwrap();
    let script = format!("cd '{}'\n{script}", dir.path().display());
    let Some(ended) = in_a_network_namespace(&script) else {
        return;
    };
    assert!(ended.stdout.starts_with("port "), "{ended:#?}");
    assert!(ended.stdout.contains("network: refused"), "{ended:#?}");
    assert!(ended.stdout.contains("loopback: connected"), "{ended:#?}");
}
