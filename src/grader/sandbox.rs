//! Runs untrusted code with limits: the only way the grader runs student code.
//!
//! Each run gets a fresh temporary folder as its working directory, an
//! environment cleared down to `PATH`, `HOME` and `LANG`, stdin from the case,
//! and a process group of its own. Before the program starts, resource limits
//! are set (address space, CPU seconds, processes, file size, no core
//! dumps) and, when the grader runs as root, privileges are dropped to
//! `nobody` (the process limit does not bind root). stdout and stderr are
//! read by threads into buffers capped at `output_bytes`: a program that
//! writes more is killed and reported as [`Ending::OutputLimit`], in bounded
//! memory. A program still running at `timeout` is killed
//! ([`Ending::TimedOut`]). When the run ends, for any reason, the whole
//! process group is killed, so children it spawned die with it.
//!
//! What this cannot stop: a child that leaves the process group (`setsid`)
//! survives the group kill until its own limits (CPU time) end it; the
//! process limit bounds how many such children there can be.

use std::io::{Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Limits of one run.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub timeout: Duration,
    /// Most bytes kept of stdout, and of stderr; more ends the run.
    pub output_bytes: usize,
    pub memory_bytes: u64,
    pub cpu_seconds: u64,
    pub processes: u64,
    pub file_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: Duration::from_secs(5),
            output_bytes: 1 << 20,
            memory_bytes: 512 << 20,
            cpu_seconds: 10,
            processes: 64,
            file_bytes: 16 << 20,
        }
    }
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    Exited(i32),
    Signaled(i32),
    TimedOut,
    OutputLimit,
}

/// What a run produced.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub ending: Ending,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub elapsed: Duration,
}

/// The uid and gid of `nobody` on Debian and most Linux systems.
const NOBODY: u32 = 65534;

fn set_limit(resource: libc::__rlimit_resource_t, value: u64) -> std::io::Result<()> {
    let limit = libc::rlimit {
        rlim_cur: value,
        rlim_max: value,
    };
    // SAFETY: setrlimit reads a valid rlimit struct; no memory is shared.
    if unsafe { libc::setrlimit(resource, &limit) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Reads `from` into a buffer of at most `cap` bytes; raises `overflow`
/// (and stops) when there is more.
fn capped_reader(
    mut from: impl Read + Send + 'static,
    cap: usize,
    overflow: Arc<AtomicBool>,
) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut chunk = [0u8; 8192];
        loop {
            match from.read(&mut chunk) {
                Ok(0) | Err(_) => return kept,
                Ok(n) => {
                    if kept.len() + n > cap {
                        kept.extend_from_slice(&chunk[..cap - kept.len()]);
                        overflow.store(true, Ordering::SeqCst);
                        return kept;
                    }
                    kept.extend_from_slice(&chunk[..n]);
                }
            }
        }
    })
}

/// Runs `program` with `args` in a fresh folder holding a copy of `files_from`
/// (if given), feeding it `stdin`, under `limits`.
pub fn run(
    program: &Path,
    args: &[String],
    stdin: &[u8],
    files_from: Option<&Path>,
    limits: &Limits,
) -> std::io::Result<Outcome> {
    let dir = tempfile::Builder::new().prefix("boardkit-run-").tempdir()?;
    if let Some(source) = files_from {
        copy_tree(source, dir.path())?;
    }
    let as_root = unsafe { libc::geteuid() } == 0;
    if as_root {
        chown_tree(dir.path(), NOBODY)?;
    }
    let mut command = Command::new(program);
    command
        .args(args)
        .env_clear()
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env("HOME", dir.path())
        .env("LANG", "C.UTF-8")
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let limits_copy = *limits;
    // SAFETY: the closure runs in the child between fork and exec and only
    // calls async-signal-safe functions (setrlimit, setgroups, setgid, setuid).
    unsafe {
        command.pre_exec(move || {
            set_limit(libc::RLIMIT_AS, limits_copy.memory_bytes)?;
            set_limit(libc::RLIMIT_CPU, limits_copy.cpu_seconds)?;
            set_limit(libc::RLIMIT_FSIZE, limits_copy.file_bytes)?;
            set_limit(libc::RLIMIT_CORE, 0)?;
            if as_root
                && (libc::setgroups(0, std::ptr::null()) != 0
                    || libc::setgid(NOBODY) != 0
                    || libc::setuid(NOBODY) != 0)
            {
                return Err(std::io::Error::last_os_error());
            }
            set_limit(libc::RLIMIT_NPROC, limits_copy.processes)?;
            Ok(())
        });
    }
    let started = Instant::now();
    let mut child = command.spawn()?;
    let group = child.id() as libc::pid_t;
    let overflow = Arc::new(AtomicBool::new(false));
    let out = capped_reader(
        child.stdout.take().expect("piped"),
        limits.output_bytes,
        overflow.clone(),
    );
    let err = capped_reader(
        child.stderr.take().expect("piped"),
        limits.output_bytes,
        overflow.clone(),
    );
    let mut input = child.stdin.take().expect("piped");
    let stdin = stdin.to_vec();
    // A program that never reads must not block the grader: write from a thread.
    std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let kill_group = || {
        // SAFETY: sends a signal to the child's own process group.
        unsafe { libc::kill(-group, libc::SIGKILL) };
    };
    let mut ending = None;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if overflow.load(Ordering::SeqCst) {
            ending = Some(Ending::OutputLimit);
            kill_group();
        } else if started.elapsed() >= limits.timeout {
            ending = Some(Ending::TimedOut);
            kill_group();
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let elapsed = started.elapsed();
    // Children left behind die with the group, whatever the program did.
    kill_group();
    let (stdout, stderr) = (
        join_for(out, Duration::from_secs(2)),
        join_for(err, Duration::from_secs(2)),
    );
    if ending.is_none() && overflow.load(Ordering::SeqCst) {
        ending = Some(Ending::OutputLimit);
    }
    let ending = ending.unwrap_or(match (status.code(), status.signal()) {
        (Some(code), _) => Ending::Exited(code),
        (None, Some(signal)) => Ending::Signaled(signal),
        (None, None) => Ending::Signaled(0),
    });
    Ok(Outcome {
        ending,
        stdout,
        stderr,
        elapsed,
    })
}

/// A reader's buffer; empty if it does not finish in time (a pipe kept open
/// by a process that escaped the group).
fn join_for(handle: std::thread::JoinHandle<Vec<u8>>, wait: Duration) -> Vec<u8> {
    let deadline = Instant::now() + wait;
    while !handle.is_finished() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(2));
    }
    if handle.is_finished() {
        handle.join().unwrap_or_default()
    } else {
        Vec::new()
    }
}

/// Copies regular files and folders (never links) from `from` into `to`.
pub fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            std::fs::create_dir_all(&target)?;
            copy_tree(&entry.path(), &target)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

fn chown_tree(path: &Path, uid: u32) -> std::io::Result<()> {
    std::os::unix::fs::chown(path, Some(uid), Some(uid))?;
    if path.is_dir() {
        for entry in std::fs::read_dir(path)? {
            let entry = entry?;
            if !entry.file_type()?.is_symlink() {
                chown_tree(&entry.path(), uid)?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str, limits: Limits) -> Outcome {
        run(
            Path::new("/bin/sh"),
            &["-c".into(), script.into()],
            b"",
            None,
            &limits,
        )
        .unwrap()
    }

    fn quick() -> Limits {
        Limits {
            timeout: Duration::from_millis(800),
            output_bytes: 64 << 10,
            ..Limits::default()
        }
    }

    #[test]
    fn a_normal_run_keeps_output_and_status() {
        let o = run(Path::new("/bin/cat"), &[], b"hello", None, &quick()).unwrap();
        assert_eq!(
            (o.ending, o.stdout.as_slice()),
            (Ending::Exited(0), b"hello".as_slice())
        );
        assert_eq!(sh("exit 3", quick()).ending, Ending::Exited(3));
    }

    #[test]
    fn endless_loops_time_out_and_endless_output_is_cut() {
        let o = sh("while :; do :; done", quick());
        assert_eq!(o.ending, Ending::TimedOut);
        assert!(o.elapsed < Duration::from_secs(3));
        let o = sh("yes", quick());
        assert_eq!(o.ending, Ending::OutputLimit);
        assert!(o.stdout.len() <= 64 << 10);
    }

    #[test]
    fn the_environment_is_cleared_and_the_folder_is_fresh() {
        let o = sh("env | sort; ls -A", quick());
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(!text.contains("CARGO"), "{text}");
        assert!(text.contains("PATH=") && text.contains("HOME="));
    }

    #[test]
    fn sleeping_children_die_with_the_group() {
        // A duration no other process uses marks the children.
        let marker = format!("sleep 77.{}", std::process::id());
        let o = sh(
            &format!("for i in 1 2 3 4 5; do {marker} & done; pgrep -cf '{marker}'; exit 0"),
            quick(),
        );
        assert_eq!(o.ending, Ending::Exited(0));
        let started: u32 = String::from_utf8_lossy(&o.stdout)
            .trim()
            .parse()
            .unwrap_or(0);
        assert!(
            started >= 5,
            "the children started (the shell itself matches too): {started}"
        );
        std::thread::sleep(Duration::from_millis(200));
        let ps = std::process::Command::new("pgrep")
            .args(["-f", &marker])
            .output()
            .unwrap();
        assert!(
            ps.stdout.is_empty(),
            "children survived: {}",
            String::from_utf8_lossy(&ps.stdout)
        );
    }
}
