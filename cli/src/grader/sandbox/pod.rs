//! A pod: one bubblewrap sandbox kept for every run of one submission.
//!
//! Starting bubblewrap costs about 5 ms, a third of what a small Python
//! case takes; a class would pay it thousands of times. So bubblewrap
//! builds a submission's sandbox once (its read-only mounts, host name, and
//! user namespace as an ordinary user), held by a `cat`
//! that waits on a pipe. Each run joins those namespaces from the grader
//! and takes fresh ones of its own for whatever could outlive a case or
//! reach the next: mounts (its own bounded `/tmp`, `/dev/shm` and, without
//! a program folder, [`WORK`]), processes (its program is pid 1 of a pid
//! namespace of its own, so everything it starts dies with it), network
//! (sockets a case closes linger in theirs), System V IPC and its cgroup
//! view. A run never sees the pod's `cat`, nor any other
//! run: what one case leaves behind, the next cannot find.
//!
//! The run's process tree: the grader forks a monitor, which joins the
//! pod, unshares, mounts the run's folders and forks the program; the
//! monitor waits for it and ends the same way (exit status or signal), so
//! the grader sees the program's own ending. Both the monitor and the
//! program die with their parent (`PR_SET_PDEATHSIG`).

use std::ffi::CString;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};

use super::{Job, Limits, WORK, bwrap_command, join_cgroup, run_env, set_limit};

/// What a pod is built from: runs with the same mounts share one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Layout {
    work_from: Option<PathBuf>,
    read_only: Vec<(PathBuf, String)>,
}

impl Layout {
    pub(super) fn of(job: &Job<'_>) -> Layout {
        Layout {
            work_from: job.work_from.map(Path::to_owned),
            read_only: job.read_only.clone(),
        }
    }
}

/// A running pod; see the module documentation.
pub(super) struct Pod {
    pub(super) layout: Layout,
    bwrap: Child,
    /// `cat`'s input: the pod lives until it is closed.
    keep_alive: Option<ChildStdin>,
    /// The namespaces a run's monitor joins, in the order it joins them.
    namespaces: Vec<(OwnedFd, libc::c_int)>,
    /// As an ordinary user, the user namespace the program itself joins:
    /// bwrap maps the user to root in the namespace that owns the mounts
    /// (to mount `/dev/pts`) and runs its program in a nested one that maps
    /// the user to itself, with no power over those mounts.
    program_user: Option<OwnedFd>,
    user_namespace: bool,
}

impl Pod {
    /// Builds the pod for `job`'s mounts with `bwrap`.
    pub(super) fn start(bwrap: &Path, job: &Job<'_>, user_namespace: bool) -> std::io::Result<Pod> {
        let mut holder = Job::new("/usr/bin/cat", &[]);
        holder.work_from = job.work_from;
        holder.read_only = job.read_only.clone();
        let mut command = bwrap_command(bwrap, &holder, &Limits::default(), None, user_namespace);
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut bwrap = command.spawn()?;
        let mut pod = Pod {
            layout: Layout::of(job),
            keep_alive: bwrap.stdin.take(),
            bwrap,
            namespaces: Vec::new(),
            program_user: None,
            user_namespace,
        };
        // `cat` echoes once everything is mounted: the pod is ready.
        let mut echo = [0u8; 6];
        let ready = pod
            .keep_alive
            .as_mut()
            .expect("piped")
            .write_all(b"ready\n")
            .and_then(|()| {
                pod.bwrap
                    .stdout
                    .as_mut()
                    .expect("piped")
                    .read_exact(&mut echo)
            });
        if ready.is_err() || &echo != b"ready\n" {
            pod.stop();
            let mut why = String::new();
            if let Some(mut stderr) = pod.bwrap.stderr.take() {
                let _ = stderr.read_to_string(&mut why);
            }
            return Err(std::io::Error::other(format!(
                "the sandbox did not start: {}",
                why.trim()
            )));
        }
        // The pod's first process holds its namespaces: `cat` itself as an
        // ordinary user (pid 1), bwrap's reaper as root.
        let pid = pod.bwrap.id();
        let children = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children"))?;
        let holder = children
            .split_whitespace()
            .next()
            .ok_or_else(|| std::io::Error::other("the sandbox has no process"))?;
        let open = |name: &str| -> std::io::Result<OwnedFd> {
            Ok(std::fs::File::open(format!("/proc/{holder}/ns/{name}"))?.into())
        };
        let mounts = open("mnt")?;
        if user_namespace {
            // The monitor joins the namespace that owns the mounts, to make
            // the run's own; the program, bwrap's program's.
            // SAFETY: an ioctl on a namespace descriptor this function owns;
            // the new descriptor (close-on-exec) is owned from here on.
            let owner = unsafe { libc::ioctl(mounts.as_raw_fd(), libc::NS_GET_USERNS) };
            check(owner)?;
            // SAFETY: `owner` is a fresh descriptor no one else owns.
            let owner = unsafe { <OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(owner) };
            let program = open("user")?;
            if !same_namespace(&owner, &program)? {
                pod.program_user = Some(program);
            }
            pod.namespaces.push((owner, libc::CLONE_NEWUSER));
        }
        pod.namespaces.push((mounts, libc::CLONE_NEWNS));
        // Not the network's: a network namespace keeps what a case leaves
        // (sockets in TIME_WAIT a minute long, counters), which the next
        // case could read; each case has one of its own.
        pod.namespaces.push((open("uts")?, libc::CLONE_NEWUTS));
        Ok(pod)
    }

    /// The command that runs `job` in this pod as user `uid` (root's slot
    /// user; `None` as an ordinary user), in the cgroups whose
    /// `cgroup.procs` files are `cgroups` (none when the calling thread's
    /// own cgroup already is the run's).
    pub(super) fn command(
        &self,
        job: &Job<'_>,
        limits: &Limits,
        uid: Option<u32>,
        cgroups: Vec<CString>,
    ) -> std::io::Result<Command> {
        let c = |text: &str| CString::new(text).map_err(std::io::Error::other);
        let mut folders = vec![c("/tmp")?, c("/dev/shm")?];
        if self.layout.work_from.is_none() {
            folders.push(c(WORK)?);
        }
        let entry = Entry {
            namespaces: self
                .namespaces
                .iter()
                .map(|(fd, kind)| (fd.as_raw_fd(), *kind))
                .collect(),
            folders,
            program_user: self.program_user.as_ref().map(AsRawFd::as_raw_fd),
            folder_options: c(&format!("size={},mode=1777", limits.disk_bytes))?,
            cwd: c(job.cwd.as_deref().unwrap_or(WORK))?,
            uid,
            user_namespace: self.user_namespace,
            limits: *limits,
            cgroups,
        };
        let mut command = Command::new(&job.program);
        command
            .args(&job.args)
            .env_clear()
            .envs(run_env(job))
            .process_group(0);
        // SAFETY: the closure runs in the child between fork and exec. It
        // makes only system calls on memory prepared before the fork (no
        // allocation, no lock), and the descriptors it joins stay open:
        // this pod outlives the spawn.
        unsafe {
            command.pre_exec(move || entry.enter());
        }
        Ok(command)
    }

    fn stop(&mut self) {
        drop(self.keep_alive.take());
        // SAFETY: signals bwrap, which leads its own session.
        unsafe {
            libc::kill(-(self.bwrap.id() as libc::pid_t), libc::SIGKILL);
        }
        let _ = self.bwrap.kill();
        let _ = self.bwrap.wait();
    }
}

impl Drop for Pod {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Everything a run's monitor needs between fork and exec, made before.
struct Entry {
    namespaces: Vec<(libc::c_int, libc::c_int)>,
    program_user: Option<libc::c_int>,
    /// The run's own writable folders: fresh tmpfs of a bounded size.
    folders: Vec<CString>,
    folder_options: CString,
    cwd: CString,
    uid: Option<u32>,
    user_namespace: bool,
    limits: Limits,
    cgroups: Vec<CString>,
}

fn check(result: libc::c_int) -> std::io::Result<()> {
    if result < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

impl Entry {
    /// The monitor's part: join the pod, take the run's own namespaces and
    /// folders, fork the program (which returns to exec) and wait for it.
    fn enter(&self) -> std::io::Result<()> {
        for procs in &self.cgroups {
            join_cgroup(procs)?;
        }
        // SAFETY: system calls on integers and on C strings made before
        // the fork; see `Pod::command`.
        unsafe {
            check(libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL))?;
            for &(fd, kind) in &self.namespaces {
                check(libc::setns(fd, kind))?;
            }
            check(libc::unshare(
                libc::CLONE_NEWNS
                    | libc::CLONE_NEWPID
                    | libc::CLONE_NEWIPC
                    | libc::CLONE_NEWNET
                    | libc::CLONE_NEWCGROUP,
            ))?;
            // The run's mounts stay its own.
            check(libc::mount(
                std::ptr::null(),
                c"/".as_ptr(),
                std::ptr::null(),
                libc::MS_REC | libc::MS_PRIVATE,
                std::ptr::null(),
            ))?;
            for folder in &self.folders {
                check(libc::mount(
                    c"tmpfs".as_ptr(),
                    folder.as_ptr(),
                    c"tmpfs".as_ptr(),
                    libc::MS_NOSUID | libc::MS_NODEV,
                    self.folder_options.as_ptr().cast(),
                ))?;
            }
            match libc::fork() {
                -1 => Err(std::io::Error::last_os_error()),
                0 => self.become_program(),
                program => self.monitor(program),
            }
        }
    }

    /// The program's part, as pid 1 of its own pid namespace: its `/proc`,
    /// limits and user, then back to exec.
    fn become_program(&self) -> std::io::Result<()> {
        // SAFETY: as in `enter`.
        unsafe {
            check(libc::mount(
                c"proc".as_ptr(),
                c"/proc".as_ptr(),
                c"proc".as_ptr(),
                libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                std::ptr::null(),
            ))?;
            // Read-only, as bwrap leaves them: what could change the machine.
            for cover in [
                c"/proc/sys",
                c"/proc/sysrq-trigger",
                c"/proc/irq",
                c"/proc/bus",
            ] {
                let bound = libc::mount(
                    cover.as_ptr(),
                    cover.as_ptr(),
                    std::ptr::null(),
                    libc::MS_BIND | libc::MS_REC,
                    std::ptr::null(),
                );
                if bound == 0 {
                    check(libc::mount(
                        std::ptr::null(),
                        cover.as_ptr(),
                        std::ptr::null(),
                        libc::MS_BIND
                            | libc::MS_REMOUNT
                            | libc::MS_RDONLY
                            | libc::MS_NOSUID
                            | libc::MS_NODEV
                            | libc::MS_NOEXEC,
                        std::ptr::null(),
                    ))?;
                }
            }
            if let Some(user) = self.program_user {
                check(libc::setns(user, libc::CLONE_NEWUSER))?;
            }
            // No terminal to reach (TIOCSTI), and out of the monitor's group.
            check(libc::setsid())?;
            set_limit(libc::RLIMIT_AS, self.limits.memory_bytes)?;
            super::set_cpu_limit(self.limits.cpu_seconds)?;
            set_limit(libc::RLIMIT_FSIZE, self.limits.file_bytes)?;
            set_limit(libc::RLIMIT_CORE, 0)?;
            // No capability, now or after any exec.
            for cap in 0..64 {
                libc::prctl(libc::PR_CAPBSET_DROP, cap);
            }
            check(libc::prctl(
                libc::PR_CAP_AMBIENT,
                libc::PR_CAP_AMBIENT_CLEAR_ALL,
                0,
                0,
                0,
            ))?;
            if let Some(uid) = self.uid {
                // Counted per user id: the slot's own.
                set_limit(libc::RLIMIT_NPROC, self.limits.processes)?;
                // Leaving root clears every capability.
                check(libc::setgroups(0, std::ptr::null()))?;
                check(libc::setresgid(uid, uid, uid))?;
                check(libc::setresuid(uid, uid, uid))?;
            } else if self.user_namespace {
                // The kernel counts processes per user and user namespace
                // (Linux 5.14+): the case's own, and the pod's `cat`.
                set_limit(libc::RLIMIT_NPROC, self.limits.processes + 1)?;
                clear_capabilities()?;
            }
            check(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))?;
            // Set after the user changes, which would clear it.
            check(libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL))?;
            check(libc::chdir(self.cwd.as_ptr()))?;
            // Nothing of the grader's but the three streams reaches the program.
            libc::close_range(
                3,
                libc::c_uint::MAX,
                libc::CLOSE_RANGE_CLOEXEC as libc::c_int,
            );
        }
        Ok(())
    }

    /// The monitor's part: wait for the program, then end as it ended.
    fn monitor(&self, program: libc::pid_t) -> ! {
        // SAFETY: as in `enter`; the monitor never returns to Rust code.
        unsafe {
            // The streams, and the pipe through which the grader learns the
            // exec happened, are the program's alone.
            libc::close_range(0, libc::c_uint::MAX, 0);
            let mut status = 0;
            loop {
                let waited = libc::waitpid(program, &mut status, 0);
                if waited == program {
                    break;
                }
                if waited < 0 && *libc::__errno_location() != libc::EINTR {
                    libc::_exit(127);
                }
            }
            if libc::WIFEXITED(status) {
                libc::_exit(libc::WEXITSTATUS(status));
            }
            let signal = libc::WTERMSIG(status);
            libc::signal(signal, libc::SIG_DFL);
            libc::kill(libc::getpid(), signal);
            libc::_exit(128 + signal)
        }
    }
}

/// Whether two namespace descriptors are the same namespace.
fn same_namespace(a: &OwnedFd, b: &OwnedFd) -> std::io::Result<bool> {
    let (a, b) = (
        std::fs::File::from(a.try_clone()?).metadata()?,
        std::fs::File::from(b.try_clone()?).metadata()?,
    );
    use std::os::unix::fs::MetadataExt;
    Ok((a.dev(), a.ino()) == (b.dev(), b.ino()))
}

/// Drops every capability of the calling process (those a user namespace
/// gave it on joining).
fn clear_capabilities() -> std::io::Result<()> {
    #[repr(C)]
    struct Header {
        version: u32,
        pid: libc::c_int,
    }
    #[repr(C)]
    struct Data {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    const VERSION_3: u32 = 0x2008_0522;
    let header = Header {
        version: VERSION_3,
        pid: 0,
    };
    let data = [
        Data {
            effective: 0,
            permitted: 0,
            inheritable: 0,
        },
        Data {
            effective: 0,
            permitted: 0,
            inheritable: 0,
        },
    ];
    // SAFETY: capset reads a valid header and two data structs.
    check(unsafe { libc::syscall(libc::SYS_capset, &header, data.as_ptr()) } as libc::c_int)
}

/// `procs` files as C strings for [`Pod::command`].
pub(super) fn c_paths(paths: &[PathBuf]) -> Vec<CString> {
    paths
        .iter()
        .filter_map(|p| CString::new(p.as_os_str().as_encoded_bytes()).ok())
        .collect()
}
