//! Starts the real `boardkit serve` for a test: on a free port (`--port 0`),
//! reading the address it prints; killed when dropped.

// Each test file uses its own part of this module.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// How long the server may take to say where it listens.
const START: Duration = Duration::from_secs(30);

pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT` (no trailing slash).
    pub url: String,
}

impl Server {
    /// `boardkit serve --port 0` with `extra` options.
    pub fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_boardkit"))
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("boardkit serve starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (lines, first) = mpsc::channel();
        // Reads every line the server prints, so it never blocks on a full pipe.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if lines.send(line).is_err() {
                    break;
                }
            }
        });
        let line = match first.recv_timeout(START) {
            Ok(line) => line,
            Err(e) => {
                let _ = child.kill();
                panic!("boardkit serve printed no address within {START:?}: {e}");
            }
        };
        let url = line
            .strip_prefix("boardkit: serving on ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .trim_end_matches('/')
            .to_owned();
        assert!(url.starts_with("http://127.0.0.1:"), "{url}");
        Server { child, url }
    }

    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
