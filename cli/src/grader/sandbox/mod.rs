//! Runs untrusted code: the only way the grader runs a student's program or
//! compiles a student's crate (SPEC 5.3).
//!
//! Every run happens in bubblewrap (`bwrap`, Debian's `bubblewrap`), an
//! existing, audited sandbox, with new pid, network, ipc and uts namespaces
//! (and a user namespace when the grader is not root). It sees only what the
//! language needs, read-only (`/usr` and the libraries, plus what the run
//! mounts: a built binary, a toolchain), its own fresh writable folder at
//! [`WORK`] and its own `/tmp`, and a cleared environment. It cannot see
//! the grader's binary, the kit, the fixtures, other submissions, the output
//! folder or the instructor's files. When the run ends, for any reason, its
//! pid namespace is torn down: every descendant dies, `setsid` or not.
//!
//! A build gets a bubblewrap of its own; the runs of one submission's
//! program share one, a [`pod`], each with fresh mounts, processes and IPC
//! of its own: bubblewrap costs more than a small case takes.
//!
//! Limits no other run shares: when the grader is root, each concurrent run
//! takes a slot with a user id of its own (so the process limit counts its
//! processes alone) and, where the machine has them (cgroups v1 or v2), a
//! cgroup of its own that bounds its processes and memory. Every run also
//! has CPU-time, file-size and address-space limits, an output cap and a
//! wall-clock timeout. As an ordinary user without cgroups, runs share the
//! user's process limit (see the threat model, docs/instructors.md).
//!
//! `--no-sandbox` ([`Isolation::None`]) runs programs directly, with the
//! same limits but none of the isolation: the grader warns about it.

mod pod;
mod tree_cpu;

use std::io::{Read, Write};
use std::marker::PhantomData;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Where a run's own writable folder is, inside the sandbox.
pub(crate) const WORK: &str = "/sandbox";

/// Limits of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
    pub timeout: Duration,
    /// Most bytes kept of stdout, and of stderr; more ends the run.
    pub output_bytes: usize,
    pub memory_bytes: u64,
    pub cpu_seconds: u64,
    /// Whether `cpu_seconds` bounds the run's whole process tree too, not
    /// each process alone ([`tree_cpu`]): a case's, so that forked workers
    /// share its limit. A build's parallel compilers are bounded by its
    /// wall clock instead.
    pub whole_tree: bool,
    pub processes: u64,
    pub file_bytes: u64,
    /// Most bytes each of the run's own writable folders holds (its
    /// [`WORK`], `/tmp` and scratch folders, each a tmpfs of this size in
    /// bubblewrap): filling one ends the run ([`Ending::DiskLimit`]).
    pub disk_bytes: u64,
}

impl Limits {
    /// These limits with a CPU limit of `cpu` (whole seconds, the system's
    /// granularity, at least one) and its wall-clock backstop.
    pub(crate) fn with_cpu(self, cpu: Duration) -> Limits {
        let cpu_seconds = cpu.as_secs_f64().ceil().max(1.0) as u64;
        Limits {
            cpu_seconds,
            timeout: boardkit::judge::case_wall(Duration::from_secs(cpu_seconds)),
            ..self
        }
    }
}

impl Default for Limits {
    /// A case's: the library's CPU limit and wall-clock backstop, the
    /// starter's tests' too.
    fn default() -> Self {
        Limits {
            timeout: boardkit::judge::case_wall(boardkit::judge::CASE_CPU),
            output_bytes: 1 << 20,
            memory_bytes: 512 << 20,
            cpu_seconds: boardkit::judge::CASE_CPU.as_secs(),
            whole_tree: true,
            processes: 64,
            file_bytes: 16 << 20,
            disk_bytes: 16 << 20,
        }
    }
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ending {
    Exited(i32),
    Signaled(i32),
    /// Stopped by its CPU limit (`cpu_seconds`, this long): SIGXCPU, or
    /// the hard limit's SIGKILL a second later.
    CpuLimit(Duration),
    /// Stopped by the wall-clock backstop (`timeout`).
    TimedOut,
    OutputLimit,
    /// One of its writable folders was full (`/tmp`, say): it was stopped.
    DiskLimit(&'static str),
}

/// What a run produced.
#[derive(Debug, Clone)]
pub(crate) struct Outcome {
    pub ending: Ending,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub elapsed: Duration,
    /// Stopped by the wall-clock backstop while computing (its process
    /// tree had used a tenth of its CPU limit, or a twentieth of the wall
    /// time it ran): a machine too
    /// loaded to give it its CPU time, not a program that waits.
    pub starved: bool,
    /// The CPU time the run used, as far as its ending lets the kernel
    /// count it (a program killed in a sandbox may leave some uncounted).
    pub cpu: Duration,
}

/// How runs are isolated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Isolation {
    /// In bubblewrap, this executable.
    Bubblewrap(PathBuf),
    /// Directly, with limits only (`--no-sandbox`).
    None,
}

/// Why the sandbox cannot be used.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SandboxError {
    #[error(
        "bubblewrap (bwrap) is not installed: install it (Debian, Ubuntu: `sudo apt-get install bubblewrap`), or pass --no-sandbox to grade without isolation"
    )]
    Missing,
    #[error(
        "bubblewrap does not work here ({0}): user namespaces may be disabled; run as root, enable them, or pass --no-sandbox to grade without isolation"
    )]
    Broken(String),
}

impl Isolation {
    /// bubblewrap from the PATH, checked by a trial run.
    pub(crate) fn bubblewrap() -> Result<Isolation, SandboxError> {
        let bwrap = std::env::var_os("PATH")
            .into_iter()
            .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
            .map(|dir| dir.join("bwrap"))
            .find(|path| path.is_file())
            .ok_or(SandboxError::Missing)?;
        let isolation = Isolation::Bubblewrap(bwrap);
        let sandbox =
            Sandbox::new(isolation.clone(), 1).map_err(|e| SandboxError::Broken(e.to_string()))?;
        let trial = sandbox
            .run(
                &Job::new("/bin/sh", &["-c".into(), "exit 7".into()]),
                &Limits::default(),
            )
            .map_err(|e| SandboxError::Broken(e.to_string()))?;
        if trial.ending != Ending::Exited(7) {
            return Err(SandboxError::Broken(
                String::from_utf8_lossy(&trial.stderr).trim().to_owned(),
            ));
        }
        Ok(isolation)
    }
}

/// What one run does and sees.
#[derive(Debug, Clone)]
pub(crate) struct Job<'a> {
    /// The program, as a path inside the sandbox.
    pub program: String,
    pub args: Vec<String>,
    pub stdin: &'a [u8],
    /// The run's working folder [`WORK`], read-only: a program's folder,
    /// taken once for every case. Otherwise a fresh empty writable one.
    pub work_from: Option<&'a Path>,
    /// Host paths mounted read-only: (host path, path inside).
    pub read_only: Vec<(PathBuf, String)>,
    /// Host folders mounted writable: (host path, path inside). The run's
    /// user owns them while it runs.
    pub writable: Vec<(PathBuf, String)>,
    /// Empty writable folders of the run's own (inside paths).
    pub scratch: Vec<String>,
    /// Variables beyond `PATH`, `HOME`, `LANG` and `TMPDIR`.
    pub env: Vec<(String, String)>,
    /// The working folder inside (default [`WORK`]).
    pub cwd: Option<String>,
    /// Without a sandbox, run as the grader's own user instead of a slot's:
    /// a build, which needs the grader's toolchain and Cargo home.
    pub as_grader_unsandboxed: bool,
    /// Called with each line of stdout as it comes (a build's progress).
    pub watch_stdout: Option<LineWatcher>,
    /// No `/proc` inside (an empty folder instead): a student's own tests,
    /// which must not read their own process's memory (bubblewrap only).
    pub hide_proc: bool,
}

/// A callback for each line a run prints, as it prints it.
#[derive(Clone)]
pub(crate) struct LineWatcher(pub Arc<WatchLine>);

/// What a [`LineWatcher`] calls.
pub(crate) type WatchLine = dyn Fn(&[u8]) + Send + Sync;

impl std::fmt::Debug for LineWatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LineWatcher")
    }
}

impl<'a> Job<'a> {
    pub(crate) fn new(program: &str, args: &[String]) -> Job<'a> {
        Job {
            program: program.to_owned(),
            args: args.to_vec(),
            stdin: b"",
            work_from: None,
            read_only: Vec::new(),
            writable: Vec::new(),
            scratch: Vec::new(),
            env: Vec::new(),
            cwd: None,
            as_grader_unsandboxed: false,
            watch_stdout: None,
            hide_proc: false,
        }
    }
}

/// The first user id of the slots: far above any real account.
const SLOT_UID_BASE: u32 = 1_900_000_000;
/// How many slot user ids there are to reserve from, machine-wide.
const SLOT_UIDS: u32 = 4096;
/// Where slot user ids are reserved: one locked file each.
const SLOT_LOCKS: &str = "/tmp/boardkit-slot-uids";

/// Reserves `count` slot user ids no other sandbox on this machine holds
/// (each a file locked for as long as this process keeps it).
fn reserve_uids(count: usize) -> std::io::Result<Vec<(u32, std::fs::File)>> {
    reserve_uids_in(Path::new(SLOT_LOCKS), count)
}

/// [`reserve_uids`] with the locks in `folder`, which must be root's own
/// folder: one somebody else made first (it is in `/tmp`) could hold links
/// that would have root create files elsewhere, or every lock.
fn reserve_uids_in(folder: &Path, count: usize) -> std::io::Result<Vec<(u32, std::fs::File)>> {
    std::fs::create_dir_all(folder)?;
    let meta = std::fs::symlink_metadata(folder)?;
    if !meta.is_dir() || meta.uid() != 0 {
        return Err(std::io::Error::other(format!(
            "{} is not root's own folder: remove it, it may be a trap",
            folder.display()
        )));
    }
    set_mode(folder, 0o755)?;
    let mut reserved = Vec::new();
    for uid in SLOT_UID_BASE..SLOT_UID_BASE + SLOT_UIDS {
        if reserved.len() == count {
            break;
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(folder.join(uid.to_string()))?;
        // SAFETY: flock on a descriptor this function owns; the lock lives
        // as long as the file stays open.
        let locked = unsafe {
            libc::flock(
                std::os::fd::AsRawFd::as_raw_fd(&file),
                libc::LOCK_EX | libc::LOCK_NB,
            )
        } == 0;
        if locked {
            reserved.push((uid, file));
        }
    }
    if reserved.len() < count {
        return Err(std::io::Error::other("no free slot user id"));
    }
    Ok(reserved)
}

/// Runs jobs, each in a sandbox of its own; see the module documentation.
pub(crate) struct Sandbox {
    isolation: Isolation,
    root: bool,
    /// Free slots: their user ids (reserved machine-wide when root).
    slots: Mutex<Vec<u32>>,
    /// The locks that reserve the slots' user ids.
    _reserved: Vec<std::fs::File>,
    freed: Condvar,
    cgroups: Option<Cgroups>,
    /// Where runs' folders are made (the grader's own, mode 0711).
    scratch: tempfile::TempDir,
    counter: AtomicU64,
    /// Why runs cannot share a pod here, if they cannot (each then gets a
    /// bubblewrap of its own: slower, as safe).
    pods_refused: Option<String>,
    /// Pods started so far.
    pods_started: AtomicU64,
    /// Without a sandbox, every run as this process's own user, root or
    /// not: a student's own code on their own machine (`boardkit test`).
    own_user: bool,
}

impl std::fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sandbox")
            .field("isolation", &self.isolation)
            .field("root", &self.root)
            .field("cgroups", &self.cgroups.is_some())
            .finish()
    }
}

impl Sandbox {
    /// A sandbox for up to `concurrent` runs at once.
    pub(crate) fn new(isolation: Isolation, concurrent: usize) -> std::io::Result<Sandbox> {
        // SAFETY: geteuid has no preconditions.
        let root = unsafe { libc::geteuid() } == 0;
        let scratch = tempfile::Builder::new()
            .prefix("boardkit-runs-")
            .tempdir()?;
        set_mode(scratch.path(), 0o711)?;
        let cgroups = if root && isolation != Isolation::None {
            Cgroups::new()
        } else {
            None
        };
        let (uids, reserved): (Vec<u32>, Vec<std::fs::File>) = if root {
            reserve_uids(concurrent.max(1))?.into_iter().unzip()
        } else {
            ((0..concurrent.max(1) as u32).collect(), Vec::new())
        };
        let mut sandbox = Sandbox {
            isolation,
            root,
            slots: Mutex::new(uids),
            _reserved: reserved,
            freed: Condvar::new(),
            cgroups,
            scratch,
            counter: AtomicU64::new(0),
            pods_refused: None,
            pods_started: AtomicU64::new(0),
            own_user: false,
        };
        if let Isolation::Bubblewrap(_) = sandbox.isolation {
            // A pod joins namespaces bubblewrap made: a kernel or a security
            // module may refuse that where bubblewrap itself works.
            let trial = sandbox.session().run(
                &Job::new("/bin/sh", &["-c".into(), "exit 7".into()]),
                &Limits::default(),
            );
            sandbox.pods_refused = match trial {
                Ok(outcome) if outcome.ending == Ending::Exited(7) => None,
                Ok(outcome) => Some(String::from_utf8_lossy(&outcome.stderr).trim().to_owned()),
                Err(e) => Some(e.to_string()),
            };
        }
        Ok(sandbox)
    }

    /// No sandbox, and every run as this process's own user.
    pub(crate) fn own_user() -> std::io::Result<Sandbox> {
        let mut sandbox = Sandbox::new(Isolation::None, 1)?;
        sandbox.own_user = true;
        Ok(sandbox)
    }

    /// Why runs cannot share a pod on this machine, if they cannot.
    pub(crate) fn pods_refused(&self) -> Option<&str> {
        self.pods_refused.as_deref()
    }

    /// Runs of one submission, one after another, in one slot.
    pub(crate) fn session(&self) -> Session<'_> {
        Session {
            sandbox: self,
            slot: self.take_slot(),
            pods: Vec::new(),
            cgroup: None,
            on_thread: PhantomData,
        }
    }

    pub(crate) fn isolation(&self) -> &Isolation {
        &self.isolation
    }

    fn take_slot(&self) -> u32 {
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(slot) = slots.pop() {
                return slot;
            }
            slots = self.freed.wait(slots).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn give_slot(&self, slot: u32) {
        self.slots
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(slot);
        self.freed.notify_one();
    }

    /// Runs `job` under `limits`, in a session of its own.
    pub(crate) fn run(&self, job: &Job<'_>, limits: &Limits) -> std::io::Result<Outcome> {
        self.session().run(job, limits)
    }

    fn run_in_slot(&self, job: &Job<'_>, limits: &Limits, slot: u32) -> std::io::Result<Outcome> {
        let id = self.counter.fetch_add(1, Ordering::Relaxed);
        let uid = (self.root && self.isolation != Isolation::None).then_some(slot);
        let folder = self.scratch.path().join(format!("run-{id}"));
        std::fs::create_dir(&folder)?;
        set_mode(&folder, 0o700)?;
        let cgroup = match &self.cgroups {
            Some(cgroups) => {
                Some(cgroups.make(&format!("run-{}-{id}", std::process::id()), limits, 0)?)
            }
            None => None,
        };
        let (mut command, disks) = match &self.isolation {
            Isolation::Bubblewrap(bwrap) => {
                let command = bwrap_command(bwrap, job, limits, uid, !self.root);
                (command, own_folders(job))
            }
            Isolation::None => (direct_command(job, &folder)?, Vec::new()),
        };
        let limits_copy = *limits;
        let procs: Vec<std::ffi::CString> = cgroup
            .iter()
            .flat_map(|c| c.procs_files())
            .filter_map(|p| std::ffi::CString::new(p.into_os_string().into_encoded_bytes()).ok())
            .collect();
        let direct_uid = match self.isolation {
            Isolation::None if self.root && !job.as_grader_unsandboxed && !self.own_user => {
                Some(slot)
            }
            _ => None,
        };
        if let Some(uid) = uid.or(direct_uid) {
            chown_tree(&folder, uid)?;
            for (host, _) in &job.writable {
                chown_tree(host, uid)?;
            }
        }
        // SAFETY: the closure runs in the child between fork and exec and
        // only calls async-signal-safe functions (open, write, close,
        // setrlimit, setgroups, setgid, setuid) on memory made before fork.
        unsafe {
            command.pre_exec(move || {
                for procs in &procs {
                    join_cgroup(procs)?;
                }
                set_limit(libc::RLIMIT_AS, limits_copy.memory_bytes)?;
                set_cpu_limit(limits_copy.cpu_seconds)?;
                set_limit(libc::RLIMIT_FSIZE, limits_copy.file_bytes)?;
                set_limit(libc::RLIMIT_CORE, 0)?;
                if let Some(uid) = direct_uid {
                    drop_to(uid)?;
                }
                if uid.is_some() || direct_uid.is_some() {
                    // Counted per user id: a slot's own.
                    set_limit(libc::RLIMIT_NPROC, limits_copy.processes)?;
                }
                Ok(())
            });
        }
        let grown: Vec<&Path> = job
            .writable
            .iter()
            .map(|(host, _)| host.as_path())
            .collect();
        let mut outcome = supervise(
            command,
            job.stdin,
            limits,
            job.watch_stdout.clone(),
            &disks,
            &grown,
        );
        if let Isolation::Bubblewrap(_) = &self.isolation {
            outcome = outcome.map(signal_from_shell);
        }
        let contained = cgroup.is_some();
        if let Some(cgroup) = cgroup {
            cgroup.remove();
        }
        if let Some(uid) = uid.or(direct_uid).filter(|_| !contained) {
            // Anything the run's user left running dies before its folder
            // goes (with a cgroup, its removal already saw to every one).
            kill_user(uid);
        }
        let _ = std::fs::remove_dir_all(&folder);
        outcome
    }
}

/// Runs of one submission, one after another, in one slot: a program's
/// runs share a pod ([`pod`]), a build gets a bubblewrap of its own. It
/// stays on the thread that made it (the thread may join its cgroup).
pub(crate) struct Session<'s> {
    sandbox: &'s Sandbox,
    slot: u32,
    /// At most two pods (a crate's binary and its function driver).
    pods: Vec<pod::Pod>,
    cgroup: Option<SessionCgroup>,
    on_thread: PhantomData<*const ()>,
}

/// The cgroup of a session's pod runs (root only).
struct SessionCgroup {
    cgroup: RunCgroup,
    limits: Limits,
    /// With cgroups v1 the session's thread itself is in it, so the runs it
    /// forks start inside: moving a process into a cgroup can wait for an
    /// RCU grace period (up to 15 ms, more than a small case takes). Here
    /// are the `tasks` files of the cgroups the thread came from.
    thread_from: Option<Vec<PathBuf>>,
}

/// Tasks a session's cgroup holds beside the run's own: the thread and the
/// three it starts for a run's streams (threads inherit its cgroups), the
/// pod's bwrap, reaper and `cat`, and the run's monitor.
const SESSION_TASKS: u64 = 8;

impl Session<'_> {
    /// Runs `job` under `limits`.
    pub(crate) fn run(&mut self, job: &Job<'_>, limits: &Limits) -> std::io::Result<Outcome> {
        let outcome = match &self.sandbox.isolation {
            Isolation::Bubblewrap(bwrap)
                if self.sandbox.pods_refused.is_none()
                    && job.writable.is_empty()
                    && job.scratch.is_empty()
                    && !job.hide_proc =>
            {
                let bwrap = bwrap.clone();
                self.run_in_pod(&bwrap, job, limits)
            }
            _ => self.sandbox.run_in_slot(job, limits, self.slot),
        };
        outcome.map(|outcome| cpu_limited(outcome, limits))
    }

    fn run_in_pod(
        &mut self,
        bwrap: &Path,
        job: &Job<'_>,
        limits: &Limits,
    ) -> std::io::Result<Outcome> {
        // Before the pod starts, so that it starts inside too.
        self.cgroup_for(limits)?;
        let layout = pod::Layout::of(job);
        let index = match self.pods.iter().position(|p| p.layout == layout) {
            Some(index) => index,
            None => {
                if self.pods.len() == 2 {
                    self.pods.remove(0);
                }
                self.pods
                    .push(pod::Pod::start(bwrap, job, !self.sandbox.root)?);
                self.sandbox.pods_started.fetch_add(1, Ordering::Relaxed);
                self.pods.len() - 1
            }
        };
        let procs = match &self.cgroup {
            Some(c) if c.thread_from.is_none() => pod::c_paths(&c.cgroup.procs_files()),
            _ => Vec::new(),
        };
        let uid = self.sandbox.root.then_some(self.slot);
        let command = self.pods[index].command(job, limits, uid, procs)?;
        let outcome = supervise(
            command,
            job.stdin,
            limits,
            job.watch_stdout.clone(),
            &own_folders(job),
            &[],
        )?;
        Ok(signal_from_shell(outcome))
    }

    /// The session's cgroup, made on first use, with `limits` in force.
    fn cgroup_for(&mut self, limits: &Limits) -> std::io::Result<()> {
        let Some(cgroups) = &self.sandbox.cgroups else {
            return Ok(());
        };
        match &mut self.cgroup {
            Some(current) if current.limits == *limits => return Ok(()),
            Some(current) => {
                current.cgroup.set(limits, SESSION_TASKS)?;
                current.limits = *limits;
                return Ok(());
            }
            None => {}
        }
        let id = self.sandbox.counter.fetch_add(1, Ordering::Relaxed);
        let cgroup = cgroups.make(
            &format!("session-{}-{id}", std::process::id()),
            limits,
            SESSION_TASKS,
        )?;
        // SAFETY: gettid and getpid have no preconditions.
        let (thread, process) = unsafe { (libc::gettid(), libc::getpid()) };
        // Never the main thread: its process would be the one the memory
        // controller's OOM killer could pick.
        let thread_from = if cgroup.is_v1() && thread != process {
            cgroup.take_thread(thread).ok()
        } else {
            None
        };
        self.cgroup = Some(SessionCgroup {
            cgroup,
            limits: *limits,
            thread_from,
        });
        Ok(())
    }
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        // The pods' processes leave the cgroup first, then the thread.
        self.pods.clear();
        if let Some(session) = self.cgroup.take() {
            if let Some(from) = &session.thread_from {
                // SAFETY: gettid has no preconditions.
                let thread = unsafe { libc::gettid() };
                for tasks in from {
                    let _ = std::fs::write(tasks, thread.to_string());
                }
            }
            session.cgroup.remove();
        }
        self.sandbox.give_slot(self.slot);
    }
}

/// bwrap, as the namespace's init, exits 128 + N when its child is killed
/// by signal N, and so does the shell that starts a program: no program of
/// these exercises exits with such a status on its own.
fn signal_from_shell(mut outcome: Outcome) -> Outcome {
    if let Ending::Exited(code @ 129..=192) = outcome.ending {
        outcome.ending = Ending::Signaled(code - 128);
    }
    outcome
}

/// The variables of a run: a few of its own, none of the grader's.
fn run_env(job: &Job<'_>) -> Vec<(String, String)> {
    let home = job.cwd.as_deref().unwrap_or(WORK);
    [
        ("PATH", "/usr/local/bin:/usr/bin:/bin"),
        ("HOME", home),
        ("LANG", "C.UTF-8"),
        ("TMPDIR", "/tmp"),
    ]
    .into_iter()
    .map(|(n, v)| (n.to_owned(), v.to_owned()))
    .chain(job.env.iter().cloned())
    .collect()
}

/// The system's read-only folders (`/usr` and what links into it, a few of
/// `/etc`), `/proc`, `/dev`, and a `/tmp` and `/dev/shm` of `size` bytes.
fn bind_the_system(command: &mut Command, size: &str, hide_proc: bool) {
    command.args(["--ro-bind", "/usr", "/usr"]);
    // The top-level folders that are links into /usr on merged systems, or
    // folders of their own elsewhere.
    for top in ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"] {
        match std::fs::read_link(top) {
            Ok(target) => {
                command.arg("--symlink").arg(target).arg(top);
            }
            Err(_) if Path::new(top).is_dir() => {
                command.args(["--ro-bind", top, top]);
            }
            Err(_) => {}
        }
    }
    command.args(["--perms", "0755", "--dir", "/etc"]);
    for etc in ["/etc/alternatives", "/etc/ld.so.cache", "/etc/localtime"] {
        command.args(["--ro-bind-try", etc, etc]);
    }
    if hide_proc {
        command.args(["--perms", "0555", "--dir", "/proc"]);
    } else {
        command.args(["--proc", "/proc"]);
    }
    command.args(["--dev", "/dev"]);
    for folder in ["/tmp", "/dev/shm"] {
        command.args(["--perms", "01777", "--size", size, "--tmpfs", folder]);
    }
}

/// The folders mounts land in, parents first, that no scratch folder
/// holds.
fn mount_parents<'j>(job: &'j Job<'_>) -> Vec<&'j str> {
    let mut parents: Vec<&str> = std::iter::once(WORK)
        .chain(job.scratch.iter().map(String::as_str))
        .chain(job.read_only.iter().map(|(_, i)| i.as_str()))
        .chain(job.writable.iter().map(|(_, i)| i.as_str()))
        .flat_map(|inside| {
            Path::new(inside)
                .ancestors()
                .skip(1)
                .filter_map(Path::to_str)
                .filter(|p| *p != "/")
                .collect::<Vec<_>>()
        })
        .filter(|p| !job.scratch.iter().any(|s| p.starts_with(s.as_str())))
        .collect();
    parents.sort_by_key(|p| (p.matches('/').count(), p.to_string()));
    parents.dedup();
    parents
}

/// The bubblewrap command line of a run.
fn bwrap_command(
    bwrap: &Path,
    job: &Job<'_>,
    limits: &Limits,
    uid: Option<u32>,
    user_namespace: bool,
) -> Command {
    let mut command = Command::new(bwrap);
    // bwrap itself holds nothing of the grader's environment either.
    command.env_clear();
    let size = limits.disk_bytes.to_string();
    let arg = |c: &mut Command, words: &[&str]| {
        c.args(words);
    };
    arg(
        &mut command,
        &[
            "--die-with-parent",
            "--new-session",
            "--unshare-pid",
            "--unshare-net",
            "--unshare-ipc",
            "--unshare-uts",
            "--unshare-cgroup-try",
            "--hostname",
            "sandbox",
            "--clearenv",
        ],
    );
    if user_namespace {
        // As an ordinary user the run has the grader's user id inside its
        // namespace, and could read the memory of a bwrap reaper as its
        // pid 1: the run's own program is pid 1 instead. (As root, bwrap
        // is root's and the run a slot's user: it cannot.)
        arg(&mut command, &["--unshare-user", "--as-pid-1"]);
    }
    for (name, value) in run_env(job) {
        command.args(["--setenv", &name, &value]);
    }
    bind_the_system(&mut command, &size, job.hide_proc);
    // The folders mounts land in, searchable by the run's user (bwrap makes
    // them 0700 otherwise).
    for parent in mount_parents(job) {
        arg(&mut command, &["--perms", "0755", "--dir", parent]);
    }
    match job.work_from {
        Some(folder) => {
            command.arg("--ro-bind").arg(folder).arg(WORK);
        }
        None => arg(
            &mut command,
            &["--perms", "01777", "--size", &size, "--tmpfs", WORK],
        ),
    }
    for inside in &job.scratch {
        arg(
            &mut command,
            &["--perms", "01777", "--size", &size, "--tmpfs", inside],
        );
    }
    for (host, inside) in &job.read_only {
        command.arg("--ro-bind").arg(host).arg(inside);
    }
    for (host, inside) in &job.writable {
        command.arg("--bind").arg(host).arg(inside);
    }
    // The sandbox's own root and /dev are tmpfs of no set size, which the
    // run's user owns as an ordinary user: read-only once everything is in
    // place, so its only writable folders are the bounded ones.
    arg(&mut command, &["--remount-ro", "/dev", "--remount-ro", "/"]);
    command.args(["--chdir", job.cwd.as_deref().unwrap_or(WORK)]);
    command.arg("--");
    if let Some(uid) = uid {
        // bwrap runs as root to mount what the run needs; the program runs
        // as the slot's user, with no capability and no way to gain one.
        command.arg("/usr/bin/setpriv").args([
            format!("--reuid={uid}"),
            format!("--regid={uid}"),
            "--clear-groups".into(),
            "--inh-caps=-all".into(),
            "--bounding-set=-all".into(),
            "--no-new-privs".into(),
            "--".into(),
        ]);
    }
    command.arg(&job.program).args(&job.args);
    command
}

/// `--no-sandbox`: the program itself, in the run's folder. The job's paths
/// inside the sandbox become host paths: mounted folders are used in place,
/// mounted files (a built binary) are copied into the folder, scratch
/// folders are made in it.
fn direct_command(job: &Job<'_>, folder: &Path) -> std::io::Result<Command> {
    let work = job.work_from.unwrap_or(folder);
    let mut table: Vec<(String, PathBuf)> = vec![(WORK.to_owned(), work.to_owned())];
    for (i, inside) in job.scratch.iter().enumerate() {
        let path = folder.join(format!(".scratch{i}"));
        std::fs::create_dir_all(&path)?;
        table.push((inside.clone(), path));
    }
    for (host, inside) in job.read_only.iter().chain(&job.writable) {
        if host.is_file() {
            let name = Path::new(inside).file_name().unwrap_or_default();
            let copy = folder.join(name);
            // A link, never opened for writing: a copy being written while
            // another thread forks makes its exec fail ("text file busy").
            if std::fs::hard_link(host, &copy).is_err() {
                std::fs::copy(host, &copy)?;
                set_mode(&copy, 0o755)?;
            }
            table.push((inside.clone(), copy));
        } else if let Some((below, rest)) = table.iter().find_map(|(prefix, path)| {
            let rest = inside.strip_prefix(prefix.as_str())?.strip_prefix('/')?;
            Some((path.clone(), rest.to_owned()))
        }) {
            // A mount inside a scratch folder: a link there.
            std::os::unix::fs::symlink(host, below.join(rest))?;
        } else {
            table.push((inside.clone(), host.clone()));
        }
    }
    let translate_one = |text: &str| -> String {
        table
            .iter()
            .filter(|(inside, _)| {
                text == inside
                    || text
                        .strip_prefix(inside.as_str())
                        .is_some_and(|r| r.starts_with('/'))
            })
            .max_by_key(|(inside, _)| inside.len())
            .map_or_else(
                || text.to_owned(),
                |(inside, host)| format!("{}{}", host.display(), &text[inside.len()..]),
            )
    };
    // `name=/path` (rustc's `--extern`, `-L`) too.
    let translate_one = |text: &str| -> String {
        match text.split_once('=') {
            Some((name, path)) if path.starts_with('/') => {
                format!("{name}={}", translate_one(path))
            }
            _ => translate_one(text),
        }
    };
    let translate = |text: &str| -> String {
        text.split(':')
            .map(translate_one)
            .collect::<Vec<_>>()
            .join(":")
    };
    let mut command = Command::new(translate(&job.program));
    command
        .args(job.args.iter().map(|a| translate(a)))
        .env_clear()
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env("HOME", folder)
        .env("LANG", "C.UTF-8")
        .envs(job.env.iter().map(|(n, v)| (n, translate(v))))
        .current_dir(translate(job.cwd.as_deref().unwrap_or(WORK)))
        .process_group(0);
    Ok(command)
}

/// Spawns `command`. A program file another thread still holds open for
/// writing (between its fork and exec) cannot be run yet: wait a moment
/// and try again.
fn spawn_when_free(command: &mut Command) -> std::io::Result<std::process::Child> {
    let mut attempts = 0;
    loop {
        match command.spawn() {
            Err(e) if e.raw_os_error() == Some(libc::ETXTBSY) && attempts < 50 => {
                attempts += 1;
                std::thread::sleep(Duration::from_millis(10));
            }
            other => return other,
        }
    }
}

/// Spawns `command`, feeds it `stdin`, keeps its output up to the cap, and
/// ends it at the timeout; the process group and its sandbox die with it.
fn supervise(
    mut command: Command,
    stdin: &[u8],
    limits: &Limits,
    watch_stdout: Option<LineWatcher>,
    disks: &[&'static str],
    grown: &[&Path],
) -> std::io::Result<Outcome> {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let started = Instant::now();
    let mut child = spawn_when_free(&mut command)?;
    let pid = child.id() as libc::pid_t;
    let overflow = Arc::new(AtomicBool::new(false));
    let out = capped_reader(
        child.stdout.take().expect("piped"),
        limits.output_bytes,
        overflow.clone(),
        watch_stdout,
    );
    let err = capped_reader(
        child.stderr.take().expect("piped"),
        limits.output_bytes,
        overflow.clone(),
        None,
    );
    let mut input = child.stdin.take().expect("piped");
    let stdin = stdin.to_vec();
    // A program that never reads must not block the grader: write from a thread.
    std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let watched = watch(pid, started, limits, &overflow, disks, grown)?;
    let elapsed = started.elapsed();
    kill_group(pid);
    let (stdout, stderr) = (
        join_for(out, Duration::from_secs(2)),
        join_for(err, Duration::from_secs(2)),
    );
    let mut ending = watched.ending;
    if overflow.load(Ordering::SeqCst) {
        ending.get_or_insert(Ending::OutputLimit);
    }
    Ok(Outcome {
        ending: ending.unwrap_or_else(|| ending_of(watched.status)),
        stdout,
        stderr,
        elapsed,
        starved: watched.starved,
        cpu: watched.cpu,
    })
}

/// How a watched run ended: the limit that stopped it (none when it ended
/// by itself), whether the backstop found it computing, its status and
/// CPU time.
struct Watched {
    ending: Option<Ending>,
    starved: bool,
    status: std::process::ExitStatus,
    cpu: Duration,
}

/// Signals the child and the process group it leads (bwrap's new session,
/// or the program's own group without a sandbox).
fn kill_group(pid: libc::pid_t) {
    // SAFETY: kill has no memory effects; a stale pid was reaped by us
    // only once the loop ended.
    unsafe {
        libc::kill(-pid, libc::SIGKILL);
        libc::kill(pid, libc::SIGKILL);
    }
}

/// Polls the run `pid` until it ends, stopping it at the first limit it
/// passes: its output, its wall-clock backstop (later while it computes:
/// [`backstop_after`]), its tree's CPU time, its folders.
fn watch(
    pid: libc::pid_t,
    started: Instant,
    limits: &Limits,
    overflow: &AtomicBool,
    disks: &[&'static str],
    grown: &[&Path],
) -> std::io::Result<Watched> {
    let kill = || kill_group(pid);
    let mut ending = None;
    let mut starved = false;
    let mut polls = 0u32;
    let mut backstop = limits.timeout;
    let mut probe = None;
    let mut clock = tree_cpu::TreeClock::default();
    let (status, cpu) = loop {
        if let Some(ended) = reap(pid)? {
            break ended;
        }
        polls += 1;
        if overflow.load(Ordering::SeqCst) {
            ending = Some(Ending::OutputLimit);
            kill();
        } else if started.elapsed() >= backstop {
            match at_backstop(pid, started.elapsed(), &mut probe, limits) {
                Ok(later) => backstop = later,
                Err(was_starved) => {
                    ending = Some(Ending::TimedOut);
                    starved = was_starved;
                    kill();
                }
            }
        } else if polls % 32 == 0 && tree_over_limit(pid, started.elapsed(), limits, &mut clock) {
            ending = Some(Ending::CpuLimit(Duration::from_secs(limits.cpu_seconds)));
            kill();
        } else if let Some(full) = (polls % 8 == 0).then(|| full_folder(pid, disks)).flatten() {
            ending.get_or_insert(Ending::DiskLimit(full));
            kill();
        } else if polls % 64 == 0
            && grown.iter().map(|folder| own_bytes(folder)).sum::<u64>() > limits.disk_bytes
        {
            ending.get_or_insert(Ending::DiskLimit("its writable folders"));
            kill();
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    Ok(Watched {
        ending,
        starved,
        status,
        cpu,
    })
}

/// The child's status and the CPU time it and the descendants it waited
/// for used, once it has ended (`wait4`: std's `try_wait` gives no usage).
fn reap(pid: libc::pid_t) -> std::io::Result<Option<(std::process::ExitStatus, Duration)>> {
    use std::os::unix::process::ExitStatusExt;
    let mut status = 0;
    // SAFETY: an all-zero rusage is valid, and wait4 writes only to the
    // two out-parameters it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let reaped = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
    match reaped {
        0 => Ok(None),
        -1 => Err(std::io::Error::last_os_error()),
        _ => {
            let time = |t: libc::timeval| {
                Duration::from_secs(t.tv_sec.max(0) as u64)
                    + Duration::from_micros(t.tv_usec.max(0) as u64)
            };
            let cpu = time(usage.ru_utime) + time(usage.ru_stime);
            Ok(Some((std::process::ExitStatus::from_raw(status), cpu)))
        }
    }
}

/// How many times its wall-clock backstop a run that computes may take on
/// a loaded machine: its CPU limit bounds it, and the backstop is there for
/// a program that waits.
const LOADED_WALL: u32 = 4;

/// A look at a run's tree: when (its wall time), and its CPU time and
/// time waited for a processor so far.
type Probe = (Duration, Duration, Duration);

/// How long the backstop watches a run before it judges it: long enough
/// to tell one that wants a processor from one that sleeps or reads.
const PROBE: Duration = Duration::from_millis(200);

/// A run at its backstop, `wall` after its start: `Ok(when)` to look
/// again then, or `Err(starved)` to stop it now, `starved` when it was
/// computing all the same (its case runs again). The first look only
/// starts a [`PROBE`]; each later one judges the tree by what it did since
/// the last ([`backstop_after`]).
fn at_backstop(
    pid: libc::pid_t,
    wall: Duration,
    probe: &mut Option<Probe>,
    limits: &Limits,
) -> Result<Duration, bool> {
    let Some(used) = tree_cpu::tree_cpu(pid) else {
        return Err(false);
    };
    let waited = tree_cpu::tree_waited(pid).unwrap_or_default();
    let Some((at, used_then, waited_then)) = probe.replace((wall, used, waited)) else {
        return Ok(wall + PROBE);
    };
    let span = wall.saturating_sub(at).as_secs_f64().max(1e-3);
    let rate = |now: Duration, then: Duration| now.saturating_sub(then).as_secs_f64() / span;
    // Runnable now counts as wanting a processor all along: the kernel
    // adds a wait to `waited` only once it ends.
    let demand = if tree_cpu::tree_runnable(pid) {
        1.0
    } else {
        rate(used + waited, used_then + waited_then)
    };
    // Stopped at the last backstop, it was computing at every look before.
    backstop_after(used, demand, wall, limits).ok_or_else(|| {
        wall >= limits.timeout * LOADED_WALL
            || used * 10 >= Duration::from_secs(limits.cpu_seconds)
            || used * 20 >= wall
            || demand >= 0.5
    })
}

/// When the backstop looks again at a run that reached it `wall` after its
/// start, having used `used` of CPU and wanted a processor at `demand`
/// since the last look (its CPU time and its time waiting for one, per
/// second on the wall): half a second on while it computes (a twentieth
/// of the wall in CPU time, or runnable half the time of late: a machine
/// too loaded to give it its CPU time, whose work the same run on an idle
/// machine does in time, even one that got almost none of it), up to
/// [`LOADED_WALL`] times the backstop; `None` to stop it now (it waits,
/// sleeps or reads). A build's compilers have no tree CPU limit to bound
/// them, so a build waits on only while starved, under half a core: an
/// idle machine gives even a const-eval bomb a whole one, and stops it at
/// its limit.
fn backstop_after(
    used: Duration,
    demand: f64,
    wall: Duration,
    limits: &Limits,
) -> Option<Duration> {
    let computing = (used * 20 >= wall || demand >= 0.5) && (limits.whole_tree || used * 2 < wall);
    (computing && wall < limits.timeout * LOADED_WALL).then(|| wall + Duration::from_millis(500))
}

/// Whether the run's process tree used more CPU than its limit (when it
/// counts the whole tree, and only once it may have).
fn tree_over_limit(
    pid: libc::pid_t,
    elapsed: Duration,
    limits: &Limits,
    clock: &mut tree_cpu::TreeClock,
) -> bool {
    let limit = Duration::from_secs(limits.cpu_seconds);
    limits.whole_tree
        && tree_cpu::may_have_used(elapsed, limit)
        && clock.used(pid).is_some_and(|used| used > limit)
}

/// How a process that ended by itself ended.
fn ending_of(status: std::process::ExitStatus) -> Ending {
    match (status.code(), status.signal()) {
        (Some(code), _) => Ending::Exited(code),
        (None, Some(signal)) => Ending::Signaled(signal),
        (None, None) => Ending::Signaled(0),
    }
}

/// The run's own writable folders in bubblewrap (tmpfs of a bounded size),
/// as paths inside.
fn own_folders(job: &Job<'_>) -> Vec<&'static str> {
    let mut folders = vec!["/tmp", "/dev/shm"];
    if job.work_from.is_none() {
        folders.push(WORK);
    }
    // Scratch folders are the build's Cargo home: bounded too, not watched.
    folders
}

/// The bytes of the files below `folder` that are the run's own: those with
/// no other link (a build's target shares the kit's dependencies as links).
fn own_bytes(folder: &Path) -> u64 {
    let mut total = 0;
    let mut stack = vec![folder.to_owned()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(meta) = entry.metadata() else {
                continue;
            };
            if meta.is_dir() {
                stack.push(entry.path());
            } else if meta.nlink() == 1 {
                total += meta.len();
            }
        }
    }
    total
}

/// Which of `folders` (inside the sandbox of bwrap `pid`) is full, if any:
/// seen from here through the namespace's init, `/proc/<init>/root`.
fn full_folder(pid: libc::pid_t, folders: &[&'static str]) -> Option<&'static str> {
    if folders.is_empty() {
        return None;
    }
    let children = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).ok()?;
    let init = children.split_whitespace().next()?;
    folders.iter().copied().find(|folder| {
        let path = format!("/proc/{init}/root{folder}");
        let Ok(path) = std::ffi::CString::new(path) else {
            return false;
        };
        // SAFETY: statvfs fills the zeroed struct from a valid C string path.
        unsafe {
            let mut stat: libc::statvfs = std::mem::zeroed();
            libc::statvfs(path.as_ptr(), &mut stat) == 0 && stat.f_blocks > 0 && stat.f_bavail == 0
        }
    })
}

/// A CPU limit of `seconds`: SIGXCPU then (soft), SIGKILL a second later
/// (hard) for a program that catches it. Async-signal-safe.
pub(super) fn set_cpu_limit(seconds: u64) -> std::io::Result<()> {
    let limit = libc::rlimit {
        rlim_cur: seconds,
        rlim_max: seconds + 1,
    };
    // SAFETY: setrlimit reads a valid rlimit struct; no memory is shared.
    if unsafe { libc::setrlimit(libc::RLIMIT_CPU, &limit) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// A run its CPU limit stopped told as such: SIGXCPU, or SIGKILL once it
/// ran at least that long (the hard limit; nothing else of the sandbox's
/// sends it before the wall-clock backstop).
fn cpu_limited(mut outcome: Outcome, limits: &Limits) -> Outcome {
    let limit = Duration::from_secs(limits.cpu_seconds);
    match outcome.ending {
        Ending::Signaled(libc::SIGXCPU) => outcome.ending = Ending::CpuLimit(limit),
        Ending::Signaled(libc::SIGKILL) if outcome.elapsed >= limit => {
            outcome.ending = Ending::CpuLimit(limit);
        }
        _ => {}
    }
    outcome
}

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

/// Becomes `uid` (and its own group), with no supplementary group.
fn drop_to(uid: u32) -> std::io::Result<()> {
    // SAFETY: plain system calls on integers.
    unsafe {
        if libc::setgroups(0, std::ptr::null()) != 0
            || libc::setgid(uid) != 0
            || libc::setuid(uid) != 0
        {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Moves the calling process into the cgroup whose `cgroup.procs` is `procs`.
/// Called between fork and exec: no allocation.
fn join_cgroup(procs: &std::ffi::CStr) -> std::io::Result<()> {
    // SAFETY: getpid, open, write and close are async-signal-safe; the
    // buffer lives on this stack frame.
    unsafe {
        let mut digits = [0u8; 20];
        let mut n = libc::getpid() as u64;
        let mut at = digits.len();
        loop {
            at -= 1;
            digits[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        let fd = libc::open(procs.as_ptr(), libc::O_WRONLY);
        if fd < 0 {
            return Err(std::io::Error::last_os_error());
        }
        let wrote = libc::write(fd, digits[at..].as_ptr().cast(), digits.len() - at);
        libc::close(fd);
        if wrote < 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Kills every process of `uid` (a slot's user: nothing else runs as it).
fn kill_user(uid: u32) {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return;
    };
    for entry in entries.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<libc::pid_t>() else {
            continue;
        };
        if entry.metadata().is_ok_and(|m| m.uid() == uid) {
            // SAFETY: signals one process of the slot's user.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
    }
}

/// The cgroups that bound each run's processes and memory: v2 (one
/// hierarchy) or v1 (`pids` and `memory` controllers), when writable.
#[derive(Debug)]
struct Cgroups {
    /// The parent folders runs' cgroups are made in, with the controller
    /// each is for (`None` for v2, which has both).
    parents: Vec<(PathBuf, Option<&'static str>)>,
}

/// One run's cgroups.
struct RunCgroup {
    dirs: Vec<(PathBuf, Option<&'static str>)>,
}

impl Cgroups {
    fn new() -> Option<Cgroups> {
        let root = Path::new("/sys/fs/cgroup");
        let name = format!("boardkit-{}", std::process::id());
        let parents: Vec<(PathBuf, Option<&'static str>)> =
            if root.join("cgroup.controllers").is_file() {
                let parent = root.join(&name);
                std::fs::create_dir(&parent).ok()?;
                // Enable the controllers for the runs below.
                std::fs::write(parent.join("cgroup.subtree_control"), "+pids +memory").ok()?;
                vec![(parent, None)]
            } else {
                let mut parents = Vec::new();
                for controller in ["pids", "memory"] {
                    let parent = root.join(controller).join(&name);
                    std::fs::create_dir(&parent).ok()?;
                    parents.push((parent, Some(controller)));
                }
                parents
            };
        Some(Cgroups { parents })
    }

    /// A cgroup for one run (or one session's), with room for `extra`
    /// tasks beside the run's own processes.
    fn make(&self, name: &str, limits: &Limits, extra: u64) -> std::io::Result<RunCgroup> {
        let mut dirs = Vec::new();
        for (parent, controller) in &self.parents {
            let dir = parent.join(name);
            std::fs::create_dir(&dir)?;
            dirs.push((dir, *controller));
        }
        let cgroup = RunCgroup { dirs };
        cgroup.set(limits, extra)?;
        Ok(cgroup)
    }
}

impl Drop for Cgroups {
    fn drop(&mut self) {
        for (parent, _) in &self.parents {
            let _ = std::fs::remove_dir(parent);
        }
    }
}

impl RunCgroup {
    fn set(&self, limits: &Limits, extra: u64) -> std::io::Result<()> {
        let processes = (limits.processes + extra).to_string();
        for (dir, controller) in &self.dirs {
            let settings: &[(&str, String)] = match controller {
                None => &[
                    ("pids.max", processes.clone()),
                    ("memory.max", limits.memory_bytes.to_string()),
                    ("memory.swap.max", "0".into()),
                ],
                Some("pids") => &[("pids.max", processes.clone())],
                Some(_) => &[("memory.limit_in_bytes", limits.memory_bytes.to_string())],
            };
            for (file, value) in settings {
                // memory.swap.max is absent without swap accounting.
                let written = std::fs::write(dir.join(file), value);
                if written.is_err() && *file != "memory.swap.max" {
                    written?;
                }
            }
        }
        Ok(())
    }

    fn is_v1(&self) -> bool {
        self.dirs.iter().all(|(_, controller)| controller.is_some())
    }

    /// Moves `thread` (of this process) into it (cgroups v1); returns the
    /// `tasks` files of the cgroups it was in.
    fn take_thread(&self, thread: libc::pid_t) -> std::io::Result<Vec<PathBuf>> {
        let current = std::fs::read_to_string("/proc/thread-self/cgroup")?;
        let mut from = Vec::new();
        for (_, controller) in &self.dirs {
            let controller = controller.unwrap_or_default();
            let path = current
                .lines()
                .filter_map(|line| {
                    let mut fields = line.splitn(3, ':').skip(1);
                    fields.next().zip(fields.next())
                })
                .find(|(list, _)| list.split(',').any(|c| c == controller))
                .map(|(_, path)| path.trim_start_matches('/'))
                .ok_or_else(|| std::io::Error::other("no such controller"))?;
            from.push(
                Path::new("/sys/fs/cgroup")
                    .join(controller)
                    .join(path)
                    .join("tasks"),
            );
        }
        for (dir, _) in &self.dirs {
            if let Err(e) = std::fs::write(dir.join("tasks"), thread.to_string()) {
                for tasks in &from {
                    let _ = std::fs::write(tasks, thread.to_string());
                }
                return Err(e);
            }
        }
        Ok(from)
    }

    fn procs_files(&self) -> Vec<PathBuf> {
        self.dirs
            .iter()
            .map(|(d, _)| d.join("cgroup.procs"))
            .collect()
    }

    /// Kills what is left in it, then removes it: at once when nothing is
    /// (the usual case), else within a few milliseconds.
    fn remove(self) {
        for (dir, _) in &self.dirs {
            for attempt in 0..500 {
                // rmdir fails while a process (a zombie too) is inside.
                if std::fs::remove_dir(dir).is_ok() {
                    break;
                }
                if attempt == 0 {
                    // cgroup v2 (Linux 5.14+): every process inside, at once.
                    let _ = std::fs::write(dir.join("cgroup.kill"), "1");
                }
                let procs = std::fs::read_to_string(dir.join("cgroup.procs")).unwrap_or_default();
                for pid in procs
                    .lines()
                    .filter_map(|l| l.trim().parse::<libc::pid_t>().ok())
                    .filter(|&pid| pid != std::process::id() as libc::pid_t)
                {
                    // SAFETY: signals a process of this run's cgroup.
                    unsafe { libc::kill(pid, libc::SIGKILL) };
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }
}

/// Reads `from` into a buffer of at most `cap` bytes; raises `overflow`
/// (and stops) when there is more. `watch` sees each whole line as it comes.
fn capped_reader(
    mut from: impl Read + Send + 'static,
    cap: usize,
    overflow: Arc<AtomicBool>,
    watch: Option<LineWatcher>,
) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut kept: Vec<u8> = Vec::new();
        let mut chunk = [0u8; 8192];
        let mut watched = 0;
        loop {
            if let Some(LineWatcher(watch)) = &watch {
                while let Some(end) = kept[watched..].iter().position(|&b| b == b'\n') {
                    watch(&kept[watched..watched + end]);
                    watched += end + 1;
                }
            }
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

/// A reader's buffer; empty if it does not finish in time.
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

fn set_mode(path: &Path, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

/// Gives `path` and the folders below it (not their files, which may be
/// shared hard links) to `uid`; files the run must write are its own copies.
fn chown_tree(path: &Path, uid: u32) -> std::io::Result<()> {
    std::os::unix::fs::chown(path, Some(uid), Some(uid))?;
    if path.is_dir() {
        for entry in std::fs::read_dir(path)? {
            let entry = entry?;
            let kind = entry.file_type()?;
            if kind.is_dir() {
                chown_tree(&entry.path(), uid)?;
            } else if kind.is_file() && std::fs::metadata(entry.path())?.nlink() == 1 {
                std::os::unix::fs::chown(entry.path(), Some(uid), Some(uid))?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sandbox() -> Sandbox {
        let isolation = Isolation::bubblewrap().unwrap_or(Isolation::None);
        Sandbox::new(isolation, 2).unwrap()
    }

    fn sh(sandbox: &Sandbox, script: &str, limits: Limits) -> Outcome {
        sandbox
            .run(&Job::new("/bin/sh", &["-c".into(), script.into()]), &limits)
            .unwrap()
    }

    fn quick() -> Limits {
        Limits {
            timeout: Duration::from_millis(1500),
            output_bytes: 64 << 10,
            ..Limits::default()
        }
    }

    #[test]
    fn a_normal_run_keeps_output_and_status() {
        let sandbox = sandbox();
        let mut job = Job::new("/bin/cat", &[]);
        job.stdin = b"hello";
        let o = sandbox.run(&job, &quick()).unwrap();
        assert_eq!(
            (o.ending, o.stdout.as_slice()),
            (Ending::Exited(0), b"hello".as_slice()),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(sh(&sandbox, "exit 3", quick()).ending, Ending::Exited(3));
    }

    #[test]
    #[ignore = "long: runs to its limits (6 s); .ci/run runs it"]
    fn endless_loops_time_out_and_endless_output_is_cut() {
        let sandbox = sandbox();
        let o = sh(&sandbox, "while :; do :; done", quick());
        assert_eq!(o.ending, Ending::TimedOut);
        // It computed all along: given up to four backstops, then starved
        // of CPU time, run again by a case.
        assert!(o.starved, "{o:?}");
        assert!(o.elapsed < Duration::from_secs(8), "{o:?}");
        let o = sh(&sandbox, "yes", quick());
        assert_eq!(o.ending, Ending::OutputLimit);
        assert!(o.stdout.len() <= 64 << 10);
    }

    /// The wall-clock backstop stops a program that waits, and not one
    /// that computes past it (a machine too loaded to give it its CPU
    /// time): that one ends as on an idle machine, its CPU limit bounding
    /// it.
    #[test]
    fn the_backstop_stops_a_waiting_run_and_waits_for_a_computing_one() {
        let sandbox = sandbox();
        let limits = Limits {
            timeout: Duration::from_millis(500),
            cpu_seconds: 5,
            output_bytes: 64 << 10,
            ..Limits::default()
        };
        let waiting = sh(&sandbox, "sleep 5", limits);
        assert_eq!(waiting.ending, Ending::TimedOut, "{waiting:?}");
        assert!(waiting.elapsed < Duration::from_secs(2), "{waiting:?}");
        assert!(!waiting.starved, "{waiting:?}");
        // More than a second of CPU on an idle machine of today (400,000
        // turns took 0.42 s, under the backstop, and proved nothing):
        // past the backstop, done in time.
        let script = "i=0; while [ $i -lt 1200000 ]; do i=$((i+1)); done; echo done";
        let computing = sh(&sandbox, script, limits);
        assert!(computing.elapsed > limits.timeout, "{computing:?}");
        match computing.ending {
            Ending::Exited(0) => assert_eq!(computing.stdout, b"done\n", "{computing:?}"),
            // A machine so loaded (CI's other tests, builds beside them)
            // that a quarter of a core was too much: stopped only after
            // every backstop it may wait, and told as starved (run again).
            _ => assert!(
                computing.ending == Ending::TimedOut
                    && computing.starved
                    && computing.elapsed >= limits.timeout * LOADED_WALL,
                "{computing:?}"
            ),
        }
    }

    /// A build (no tree CPU limit) waits on only while the machine starves
    /// it; a case while it computes at all; neither past four backstops.
    #[test]
    fn a_build_waits_on_only_while_starved() {
        let secs = Duration::from_secs;
        let build = Limits {
            timeout: secs(40),
            whole_tree: false,
            ..Limits::default()
        };
        let case = Limits {
            whole_tree: true,
            ..build
        };
        // A third of a core: a loaded machine.
        assert!(backstop_after(secs(14), 0.0, secs(41), &build).is_some());
        // A whole core (a const-eval bomb on an idle machine), or none.
        assert_eq!(backstop_after(secs(41), 1.0, secs(41), &build), None);
        assert_eq!(backstop_after(secs(1), 0.02, secs(41), &build), None);
        assert!(backstop_after(secs(41), 1.0, secs(41), &case).is_some());
        // Past four backstops, neither.
        assert_eq!(backstop_after(secs(50), 1.0, secs(160), &build), None);
        assert_eq!(backstop_after(secs(160), 1.0, secs(160), &case), None);
        // Almost no CPU time, but runnable all along: starved, not waiting.
        let ms = Duration::from_millis;
        assert!(backstop_after(ms(50), 0.99, secs(41), &case).is_some());
        assert!(backstop_after(ms(50), 0.99, secs(41), &build).is_some());
        // Neither computing nor runnable: it waits, and is stopped.
        assert_eq!(backstop_after(ms(50), 0.0, secs(41), &case), None);
    }

    /// A run's CPU time is counted, through the sandbox, for what its
    /// program computed, and not for what it waited: the own tests'
    /// budget is charged so, whatever the machine's load.
    #[test]
    fn a_runs_cpu_time_is_what_it_computed() {
        let sandbox = sandbox();
        let busy = sh(
            &sandbox,
            "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done",
            quick(),
        );
        assert_eq!(busy.ending, Ending::Exited(0), "{busy:?}");
        assert!(busy.cpu >= Duration::from_millis(100), "{busy:?}");
        assert!(
            busy.cpu <= busy.elapsed * 2 + Duration::from_millis(50),
            "{busy:?}"
        );
        let waiting = sh(&sandbox, "sleep 0.5", quick());
        assert!(waiting.elapsed >= Duration::from_millis(500), "{waiting:?}");
        assert!(waiting.cpu < Duration::from_millis(100), "{waiting:?}");
    }

    /// A computing loop is stopped by its CPU limit, told as such, well
    /// before the wall-clock backstop; a waiting one only by the backstop.
    #[test]
    #[ignore = "long: runs to its limits (4 s); .ci/run runs it"]
    fn a_computing_loop_meets_its_cpu_limit_and_a_waiting_one_the_wall_clock() {
        let sandbox = sandbox();
        let limits = Limits {
            output_bytes: 64 << 10,
            ..Limits::default()
        }
        .with_cpu(Duration::from_secs(1));
        assert_eq!(limits.timeout, Duration::from_secs(11));
        assert_eq!(
            Limits::default().with_cpu(Duration::from_secs(10)).timeout,
            Duration::from_secs(50)
        );
        // Told apart from the backstop even on a machine busy enough that
        // a second of CPU takes more than eleven on the wall.
        let generous = Limits {
            timeout: Duration::from_secs(60),
            ..limits
        };
        let o = sh(&sandbox, "while :; do :; done", generous);
        assert_eq!(o.ending, Ending::CpuLimit(Duration::from_secs(1)), "{o:?}");
        let o = sh(
            &sandbox,
            "sleep 10",
            Limits {
                timeout: Duration::from_secs(2),
                ..limits
            },
        );
        assert_eq!(o.ending, Ending::TimedOut, "{o:?}");
        assert!(!o.starved, "a waiting program is not starved: {o:?}");
    }

    /// Workers a case forks share its CPU limit: four busy children with
    /// a second each would run two on the wall on two processors, and
    /// their shell would then exit by itself.
    #[test]
    fn forked_workers_share_the_cases_cpu_limit() {
        let sandbox = sandbox();
        let limits = Limits {
            timeout: Duration::from_secs(60),
            ..Limits::default().with_cpu(Duration::from_secs(1))
        };
        let script = "for i in 1 2 3 4; do (while :; do :; done) & done; wait; echo done";
        let o = sh(&sandbox, script, limits);
        assert_eq!(o.ending, Ending::CpuLimit(Duration::from_secs(1)), "{o:?}");
        assert!(o.stdout.is_empty(), "{o:?}");
    }

    #[test]
    fn a_run_that_fills_its_writable_space_is_stopped_at_once() {
        let sandbox = sandbox();
        let limits = Limits {
            timeout: Duration::from_secs(10),
            disk_bytes: 1 << 20,
            ..quick()
        };
        if matches!(sandbox.isolation(), Isolation::Bubblewrap(_)) {
            for folder in ["/tmp", WORK] {
                let o = sh(
                    &sandbox,
                    &format!("head -c 4000000 /dev/zero > {folder}/f; sleep 8"),
                    limits,
                );
                assert_eq!(o.ending, Ending::DiskLimit(folder), "{o:?}");
                assert!(o.elapsed < Duration::from_secs(4), "{o:?}");
            }
        }
        // A folder of the machine's the run writes (a build's target).
        let target = tempfile::tempdir().unwrap();
        let script = "head -c 4000000 /dev/zero > /out/f; sleep 8";
        let mut job = Job::new("/bin/sh", &["-c".into(), script.into()]);
        job.writable = vec![(target.path().to_owned(), "/out".into())];
        let o = sandbox.run(&job, &limits).unwrap();
        assert_eq!(o.ending, Ending::DiskLimit("its writable folders"), "{o:?}");
        assert!(o.elapsed < Duration::from_secs(4), "{o:?}");
        // The control: a little is fine.
        let o = sh(&sandbox, "head -c 100000 /dev/zero > /tmp/f", limits);
        assert_eq!(o.ending, Ending::Exited(0), "{o:?}");
    }

    #[test]
    fn slot_locks_are_only_taken_in_roots_own_folder_and_never_through_a_link() {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let locks = dir.path().join("locks");
        assert_eq!(reserve_uids_in(&locks, 2).unwrap().len(), 2);
        // A link planted where a lock goes.
        let planted = dir.path().join("planted");
        std::fs::create_dir(&planted).unwrap();
        let first = SLOT_UID_BASE.to_string();
        std::fs::remove_file(locks.join(&first)).unwrap();
        std::os::unix::fs::symlink(dir.path().join("elsewhere"), locks.join(&first)).unwrap();
        assert!(reserve_uids_in(&locks, 1).is_err());
        assert!(!dir.path().join("elsewhere").exists());
        // A folder somebody else made first.
        std::os::unix::fs::chown(&planted, Some(4242), Some(4242)).unwrap();
        let error = reserve_uids_in(&planted, 1).unwrap_err();
        assert!(error.to_string().contains("not root's own"), "{error}");
    }

    #[test]
    fn a_signal_is_reported_as_one() {
        // A real fault: a signal sent to oneself is ignored by a pid 1.
        let o = sh(
            &sandbox(),
            "python3 -c 'import ctypes; ctypes.string_at(0)'",
            quick(),
        );
        assert_eq!(o.ending, Ending::Signaled(libc::SIGSEGV), "{o:?}");
    }

    #[test]
    fn the_environment_is_cleared_and_the_folder_is_fresh() {
        let o = sh(&sandbox(), "env | sort; ls -A", quick());
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(!text.contains("CARGO"), "{text}");
        assert!(text.contains("PATH=") && text.contains("HOME="));
    }

    #[test]
    fn a_sessions_runs_share_one_pod_and_nothing_else() {
        let sandbox = sandbox();
        if sandbox.isolation() == &Isolation::None {
            return;
        }
        assert_eq!(sandbox.pods_refused(), None);
        let before = sandbox.pods_started.load(Ordering::Relaxed);
        let marker = format!("sleep 78.{}", std::process::id());
        let leave = format!(
            "echo a > /tmp/left; echo b > /dev/shm/left; echo c > /sandbox/left; \
             ipcmk -Q >/dev/null; setsid {marker} & exit 0"
        );
        let look =
            "ls -A /tmp /dev/shm /sandbox; ipcs -q | grep -c 0x; ls /proc | grep -c '^[0-9]'";
        let mut session = sandbox.session();
        let run = |session: &mut Session<'_>, script: &str| {
            session
                .run(
                    &Job::new("/bin/sh", &["-c".into(), script.into()]),
                    &quick(),
                )
                .unwrap()
        };
        for _ in 0..3 {
            let left = run(&mut session, &leave);
            assert_eq!(left.ending, Ending::Exited(0), "{left:?}");
            let seen = run(&mut session, look);
            // Three empty folders, no message queue, and only the shell
            // and its `ls`/`grep` among the processes.
            let text = String::from_utf8_lossy(&seen.stdout);
            assert_eq!(
                text.lines().filter(|l| l.contains("left")).count(),
                0,
                "{text}"
            );
            assert!(text.contains("\n0\n"), "{text}");
        }
        // A network namespace of its own each time: one case's sockets
        // (a minute in TIME_WAIT) are not the next case's to read.
        let network = |session: &mut Session<'_>| run(session, "readlink /proc/self/ns/net").stdout;
        let first = network(&mut session);
        assert!(first.starts_with(b"net:"), "{first:?}");
        assert_ne!(first, network(&mut session));
        drop(session);
        assert_eq!(sandbox.pods_started.load(Ordering::Relaxed), before + 1);
        assert_eq!(survivors(&marker), "");
    }

    /// The processes whose command line holds `marker`.
    fn survivors(marker: &str) -> String {
        let ps = std::process::Command::new("pgrep")
            .args(["-f", marker])
            .output()
            .unwrap();
        String::from_utf8_lossy(&ps.stdout).into_owned()
    }

    #[test]
    fn sleeping_children_die_with_the_run_even_in_a_new_session() {
        // A duration no other process uses marks the children.
        let marker = format!("sleep 77.{}", std::process::id());
        let o = sh(
            &sandbox(),
            &format!("for i in 1 2 3 4 5; do setsid {marker} & done; sleep 0.2; exit 0"),
            quick(),
        );
        assert_eq!(
            o.ending,
            Ending::Exited(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(survivors(&marker), "", "children survived");
    }
}
