//! The CPU time of a run's whole process tree.
//!
//! `RLIMIT_CPU` counts one process (all its threads): a program that
//! forks four workers gets four times the case's CPU limit, and a grade
//! that depends on how many cores the grading machine has. So the grader
//! also adds up the tree's time and stops the run once it passes the
//! limit. The kernel here has no `/proc/<pid>/task/<tid>/children`, and an
//! ordinary user no cgroup: the tree is read from `/proc/<pid>/stat`
//! (parent, own time, time of the children it waited for).
//!
//! A child nobody waits for (its parent ignores `SIGCHLD`) adds its time
//! to no one when it ends: [`TreeClock`] keeps each process's own time as
//! last seen, after it ends too, so a chain of such children cannot hide
//! its work.

use std::collections::HashMap;
use std::time::Duration;

/// One process's line of `/proc/<pid>/stat`: its parent, and its CPU
/// ticks with those of the children it reaped.
fn stat_of(pid: libc::pid_t) -> Option<(libc::pid_t, u64)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name, in parentheses, may hold spaces and parentheses.
    let rest = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let parent = fields.get(1)?.parse().ok()?;
    // utime, stime, cutime, cstime: fields 14 to 17 of the line.
    let ticks = fields
        .get(11..15)?
        .iter()
        .map(|field| field.parse::<u64>().ok())
        .sum::<Option<u64>>()?;
    Some((parent, ticks))
}

/// CPU time used so far by `root` and every process under it, living or
/// ended (an ended one counts in its parent's reaped time), or `None` when
/// `root` cannot be read.
pub(super) fn tree_cpu(root: libc::pid_t) -> Option<Duration> {
    let (_, root_ticks) = stat_of(root)?;
    let ticks = root_ticks
        + descendants(root)
            .into_iter()
            .filter_map(|pid| stat_of(pid).map(|(_, ticks)| ticks))
            .sum::<u64>();
    Some(from_ticks(ticks))
}

/// One process's line of `/proc/<pid>/stat` read once: its start (in
/// clock ticks since boot: with its pid, it names the process even once
/// the pid is used again), its own CPU ticks, and those with its reaped
/// children's.
fn times_of(pid: libc::pid_t) -> Option<(u64, u64, u64)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let tick = |i: usize| fields.get(i)?.parse::<u64>().ok();
    // utime, stime, cutime, cstime: fields 14 to 17; starttime: field 22.
    let own = tick(11)? + tick(12)?;
    Some((tick(19)?, own, own + tick(13)? + tick(14)?))
}

fn from_ticks(ticks: u64) -> Duration {
    // SAFETY: sysconf has no preconditions.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Duration::from_secs(ticks / per_second)
        + Duration::from_nanos(ticks % per_second * 1_000_000_000 / per_second)
}

/// A run's CPU time as watched over its life: the larger of what the
/// tree's living processes and the children they reaped used (as
/// [`tree_cpu`]) and the sum of every process's own time as last seen,
/// the ended ones kept. Never more than the tree used: each process is
/// counted once, by its pid and start.
#[derive(Debug, Default)]
pub(super) struct TreeClock {
    seen: HashMap<(libc::pid_t, u64), u64>,
}

impl TreeClock {
    /// The time used so far by `root`'s tree (one reading of `/proc`);
    /// `None` when `root` cannot be read.
    pub(super) fn used(&mut self, root: libc::pid_t) -> Option<Duration> {
        let (start, own, with_reaped) = times_of(root)?;
        let mut living = with_reaped;
        self.see(root, start, own);
        for pid in descendants(root) {
            if let Some((start, own, with_reaped)) = times_of(pid) {
                living += with_reaped;
                self.see(pid, start, own);
            }
        }
        let seen: u64 = self.seen.values().sum();
        Some(from_ticks(living.max(seen)))
    }

    fn see(&mut self, pid: libc::pid_t, start: u64, own: u64) {
        let last = self.seen.entry((pid, start)).or_default();
        *last = (*last).max(own);
    }
}

/// How long `root` and its living descendants have waited, runnable, for
/// a processor (`/proc/<pid>/schedstat`'s second field): the time a
/// loaded machine kept from a run that computes, which a run that sleeps
/// or reads does not accrue. `None` when `root`'s cannot be read.
pub(super) fn tree_waited(root: libc::pid_t) -> Option<Duration> {
    let waited = |pid: libc::pid_t| -> Option<u64> {
        let text = std::fs::read_to_string(format!("/proc/{pid}/schedstat")).ok()?;
        text.split_whitespace().nth(1)?.parse().ok()
    };
    let nanos = waited(root)?
        + descendants(root)
            .into_iter()
            .map(|pid| waited(pid).unwrap_or(0))
            .sum::<u64>();
    Some(Duration::from_nanos(nanos))
}

/// Whether `root` or a living descendant is running or runnable now
/// (`R` in `/proc/<pid>/stat`): a run a loaded machine starves is, one
/// that sleeps or reads is not. The kernel counts a wait for a processor
/// only once the wait ends, so a run kept off every processor for a
/// whole look shows it here alone.
pub(super) fn tree_runnable(root: libc::pid_t) -> bool {
    let running = |pid: libc::pid_t| {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|text| {
            text.rfind(')')
                .and_then(|at| text[at + 1..].split_whitespace().next())
                == Some("R")
        })
    };
    running(root) || descendants(root).into_iter().any(running)
}

/// Every living process under `root`.
fn descendants(root: libc::pid_t) -> Vec<libc::pid_t> {
    let mut parents: HashMap<libc::pid_t, Vec<libc::pid_t>> = HashMap::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        if let Some((parent, _)) = stat_of(pid).filter(|_| pid != root) {
            parents.entry(parent).or_default().push(pid);
        }
    }
    let mut found = Vec::new();
    let mut pending = vec![root];
    while let Some(parent) = pending.pop() {
        for &pid in parents.get(&parent).into_iter().flatten() {
            found.push(pid);
            pending.push(pid);
        }
    }
    found
}

/// Whether a tree that has run `elapsed` on the wall may have used
/// `limit` of CPU: it cannot have used more than every processor for all
/// that time, so a short case never pays for reading `/proc`.
pub(super) fn may_have_used(elapsed: Duration, limit: Duration) -> bool {
    // SAFETY: sysconf has no preconditions.
    let processors = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) }.max(1) as u32;
    elapsed * processors >= limit
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_of_children_nobody_waits_for_is_counted() {
        // Each worker computes, then hands over to a new one and ends;
        // SIGCHLD ignored, none is waited for.
        let script = "import os, signal, time\nsignal.signal(signal.SIGCHLD, signal.SIG_IGN)\nfor _ in range(12):\n    if os.fork() == 0:\n        end = time.process_time() + 0.15\n        while time.process_time() < end: pass\n        os._exit(0)\n    time.sleep(0.2)\ntime.sleep(5)\n";
        let Ok(mut child) = std::process::Command::new("python3")
            .args(["-c", script])
            .spawn()
        else {
            return;
        };
        let pid = child.id() as libc::pid_t;
        let mut clock = TreeClock::default();
        let mut used = Duration::ZERO;
        // 1.8 s of work in all, in 2.4 s or more. A worker's last
        // moments between two looks are lost (the grader looks every
        // 64 ms), more so on a loaded machine: part of it is enough.
        for _ in 0..80 {
            std::thread::sleep(Duration::from_millis(50));
            used = clock.used(pid).unwrap_or(used);
            if used >= Duration::from_millis(1200) {
                break;
            }
        }
        let waited_for = tree_cpu(pid).unwrap_or_default();
        let _ = child.kill();
        let _ = child.wait();
        assert!(used >= Duration::from_millis(400), "{used:?}");
        // The one look counts what the living and the reaped used; on a
        // loaded machine that may be half of it: the clock sees more.
        assert!(
            waited_for + Duration::from_millis(200) < used,
            "{waited_for:?} of {used:?}"
        );
    }

    #[test]
    fn a_tree_counts_its_living_children_and_those_it_reaped() {
        let mut child = std::process::Command::new("/bin/sh")
            .args([
                "-c",
                "(i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done) ; sleep 5",
            ])
            .spawn()
            .unwrap();
        let pid = child.id() as libc::pid_t;
        let mut used = Duration::ZERO;
        for _ in 0..100 {
            std::thread::sleep(Duration::from_millis(50));
            used = tree_cpu(pid).unwrap();
            if used >= Duration::from_millis(100) {
                break;
            }
        }
        let _ = child.kill();
        let _ = child.wait();
        assert!(used >= Duration::from_millis(100), "{used:?}");
        assert!(tree_cpu(pid).is_none());
    }

    #[test]
    fn busy_children_wait_for_a_processor_and_sleeping_ones_do_not() {
        // More busy loops than processors: each waits its turn, runnable.
        let processors = std::thread::available_parallelism().map_or(2, |n| n.get());
        let loops = "while :; do :; done & ".repeat(processors * 2);
        let group = |script: &str| {
            use std::os::unix::process::CommandExt;
            std::process::Command::new("/bin/sh")
                .args(["-c", script])
                .process_group(0)
                .spawn()
                .unwrap()
        };
        let mut busy = group(&format!("{loops} wait"));
        let mut sleeping = group("sleep 5 & wait");
        std::thread::sleep(Duration::from_millis(800));
        let waited = tree_waited(busy.id() as libc::pid_t).unwrap();
        let slept = tree_waited(sleeping.id() as libc::pid_t).unwrap();
        for child in [&mut busy, &mut sleeping] {
            // The whole group, the shell's loops with it.
            // SAFETY: kill has no memory preconditions.
            unsafe { libc::kill(-(child.id() as libc::pid_t), libc::SIGKILL) };
            let _ = child.wait();
        }
        assert!(waited >= Duration::from_millis(200), "{waited:?}");
        assert!(slept < Duration::from_millis(100), "{slept:?}");
    }
}
