//! The grading sandbox against a hostile class (SPEC 5.3), each attack with
//! the outcome it must get, and correct controls in the same class that must
//! keep full marks. Kit-only.
//!
//! Categories: copying and proxying (the grader's binary, a classmate's
//! program or crate), secrets (a root-only file, the instructor's
//! environment, at run time and at compile time), hidden inputs through
//! `/tmp`, interference (killing others, holding processes, daemons that
//! outlive the run), the network, one crate stalling or breaking the
//! class, and names that would break the reports. The program class runs
//! as root and as an ordinary user.

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

fn boardkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_boardkit"))
}

/// A file of the kit, from the workspace's root.
fn kit(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// Whether bubblewrap is here. CI installs it, and there these tests must
/// run; elsewhere they say how to install it and pass without checking.
fn has_bwrap() -> bool {
    let here = Command::new("bwrap").arg("--version").output().is_ok();
    if !here {
        assert!(
            std::env::var_os("CI").is_none(),
            "bubblewrap is not installed: apt-get install bubblewrap"
        );
        eprintln!("skipped: bubblewrap is not installed (apt-get install bubblewrap)");
    }
    here
}

/// A correct Python program for jogo da velha (from the grading corpus).
fn correct_python() -> String {
    std::fs::read_to_string(kit("cli/tests/grading/python/python_ok/programa.py")).unwrap()
}

/// `dir/name/programa.py`: `prefix` (the attack), then, unless it stops
/// first, a correct game.
fn program(dir: &Path, name: &str, prefix: &str) -> PathBuf {
    let folder = dir.join(name);
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(
        folder.join("programa.py"),
        format!("{prefix}\n{}", correct_python()),
    )
    .unwrap();
    folder
}

fn grades(out: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(out.join("grades.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let level = header.iter().position(|h| *h == "level").unwrap();
    lines
        .map(|l| {
            let fields: Vec<&str> = l.split(',').collect();
            (fields[0].to_owned(), fields[level].to_owned())
        })
        .collect()
}

fn everything_written(out: &Path) -> String {
    let mut all = String::new();
    let mut stack = vec![out.to_owned()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.ends_with(".work") {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
            } else {
                all.push_str(&String::from_utf8_lossy(&std::fs::read(&path).unwrap()));
            }
        }
    }
    all
}

fn survivors(marker: &str) -> String {
    let ps = Command::new("pgrep")
        .args(["-af", marker])
        .output()
        .unwrap();
    String::from_utf8_lossy(&ps.stdout)
        .lines()
        .filter(|l| !l.contains("pgrep"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Grades the hostile class of programs in `class` into `out`, running the
/// grader as `uid` (`None`: as this process).
fn grade_programs(class: &Path, out: &Path, uid: Option<u32>, secret: &str) -> String {
    let mut submissions: Vec<PathBuf> = std::fs::read_dir(class)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    submissions.sort();
    let mut command = match uid {
        Some(uid) => {
            let mut c = Command::new("setpriv");
            c.args([
                &format!("--reuid={uid}"),
                &format!("--regid={uid}"),
                "--clear-groups",
                "--",
            ])
            .arg(env!("CARGO_BIN_EXE_boardkit"));
            c
        }
        None => boardkit(),
    };
    let run = command
        .args(["grade", "velha"])
        .args(&submissions)
        .args([
            "--program",
            "python3 programa.py",
            "--timeout",
            "5",
            "--out",
        ])
        .arg(out)
        .env("BOARDKIT_TEST_SECRET", secret)
        .env("TMPDIR", out)
        .output()
        .unwrap();
    // Each submission's runs share one sandbox (a pod), as root and not:
    // a bubblewrap a case would cost more than the case.
    assert!(
        !String::from_utf8_lossy(&run.stderr).contains("a sandbox of its own"),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        run.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    String::from_utf8_lossy(&run.stdout).into_owned()
}

#[allow(
    clippy::too_many_lines,
    reason = "a class of hostile programs: data, one attack a file"
)]
fn hostile_program_class(root: &Path, port: u16, secret_file: &Path, marker: &str) -> PathBuf {
    let class = root.join("class");
    std::fs::create_dir_all(&class).unwrap();
    for control in ["control_a", "control_b"] {
        program(&class, control, "");
    }
    program(
        &class,
        "correct_with_children",
        "import os, subprocess\nos.system('clear > /dev/null 2>&1')\nfor _ in range(5):\n    subprocess.run(['true'])",
    );
    program(
        &class,
        "proxy_grader",
        "import os, subprocess, sys\n\
         for pid in os.listdir('/proc'):\n\
         \x20   try:\n\
         \x20       cmd = open('/proc/%s/cmdline' % pid, 'rb').read().split(b'\\0')\n\
         \x20   except Exception:\n\
         \x20       continue\n\
         \x20   if cmd and cmd[0].endswith(b'boardkit') and b'grade' in cmd:\n\
         \x20       sys.exit(subprocess.run([cmd[0], 'play', 'velha'], stdin=sys.stdin).returncode)\n\
         sys.exit(3)",
    );
    program(
        &class,
        "copy_classmate",
        "import os, sys\n\
         me = os.path.abspath(__file__)\n\
         for top in ['/tmp', '/home', '/root', '/work', '/srv', '/var']:\n\
         \x20   for root, dirs, files in os.walk(top):\n\
         \x20       if 'programa.py' in files and os.path.join(root, 'programa.py') != me:\n\
         \x20           os.execvp('python3', ['python3', os.path.join(root, 'programa.py')])\n\
         sys.exit(3)",
    );
    program(
        &class,
        "tmp_spy",
        "import sys\n\
         data = sys.stdin.buffer.read()\n\
         try:\n\
         \x20   old = open('/tmp/boardkit-spy.log', 'rb').read()\n\
         except Exception:\n\
         \x20   old = b''\n\
         open('/tmp/boardkit-spy.log', 'ab').write(data + b'<end of a case>')\n\
         sys.stdout.write(old.decode('utf-8', 'replace'))\n\
         sys.exit(0)",
    );
    program(
        &class,
        "killer",
        "import os, signal\n\
         try:\n\
         \x20   os.kill(-1, signal.SIGKILL)\n\
         except Exception:\n\
         \x20   pass",
    );
    program(
        &class,
        "process_holder",
        "import subprocess\n\
         for _ in range(200):\n\
         \x20   try:\n\
         \x20       subprocess.Popen(['sleep', '30'])\n\
         \x20   except Exception:\n\
         \x20       break",
    );
    // As many processes as it can: bounded as root and as a user.
    program(
        &class,
        "fork_counter",
        "import subprocess, sys\n\
         started = []\n\
         for _ in range(300):\n\
         \x20   try:\n\
         \x20       started.append(subprocess.Popen(['sleep', '5']))\n\
         \x20   except Exception:\n\
         \x20       break\n\
         sys.stderr.write('FORKED-%d\\n' % len(started))\n\
         sys.exit(1)",
    );
    program(
        &class,
        "daemon",
        &format!(
            "import os, subprocess\n\
             subprocess.Popen(['setsid', 'sh', '-c', '{marker} & {marker} &'], start_new_session=True)"
        ),
    );
    program(
        &class,
        "secrets",
        &format!(
            "import os, socket\n\
             leaks = [os.environ.get('BOARDKIT_TEST_SECRET', '')]\n\
             try:\n\
             \x20   leaks.append(open('{}').read())\n\
             except Exception:\n\
             \x20   pass\n\
             try:\n\
             \x20   s = socket.create_connection(('127.0.0.1', {port}), timeout=1)\n\
             \x20   s.sendall(b'leak')\n\
             except Exception:\n\
             \x20   pass\n\
             print('LEAK:' + '|'.join(leaks))",
            secret_file.display()
        ),
    );
    // Links: a submission that is one, a folder whose only entry is one,
    // a program file that is one. Each would be a classmate's work.
    std::os::unix::fs::symlink("control_a", class.join("link_as_submission")).unwrap();
    std::fs::create_dir_all(class.join("link_inside")).unwrap();
    std::os::unix::fs::symlink("../control_a", class.join("link_inside/projeto")).unwrap();
    std::fs::create_dir_all(class.join("link_program")).unwrap();
    std::os::unix::fs::symlink(
        "../control_b/programa.py",
        class.join("link_program/programa.py"),
    )
    .unwrap();
    // The sandbox's pid 1 (bwrap): its environment and memory.
    program(
        &class,
        "pid1_spy",
        "leaks = []\n\
         for name in ['/proc/1/environ', '/proc/1/mem', '/proc/1/cmdline']:\n\
         \x20   try:\n\
         \x20       leaks.append(open(name, 'rb').read(1 << 16).decode('utf-8', 'replace'))\n\
         \x20   except Exception as e:\n\
         \x20       leaks.append(str(e))\n\
         print('LEAK:' + '|'.join(leaks))",
    );
    // Disk: 1 GiB into /tmp, then into its own folder; a control that
    // writes a little and plays.
    program(
        &class,
        "disk_filler",
        "import os\n\
         chunk = b'x' * (1 << 20)\n\
         for folder in ['/tmp', '.']:\n\
         \x20   try:\n\
         \x20       with open(os.path.join(folder, 'fill'), 'wb') as f:\n\
         \x20           for _ in range(1024):\n\
         \x20               f.write(chunk)\n\
         \x20               f.flush()\n\
         \x20   except OSError:\n\
         \x20       pass\n\
         import time\n\
         time.sleep(30)",
    );
    // As an ordinary user the sandbox's root, /etc and /dev are its user's
    // own tmpfs: no more room there than in its bounded folders.
    program(
        &class,
        "writes_everywhere",
        "import os, sys\n\
         for folder in ['/', '/etc', '/dev', '/usr']:\n\
         \x20   try:\n\
         \x20       with open(os.path.join(folder, 'fill'), 'wb') as f:\n\
         \x20           f.write(b'x' * (17 << 20))\n\
         \x20       sys.exit(3)\n\
         \x20   except OSError:\n\
         \x20       pass\n\
         open('/dev/shm/a', 'wb').write(b'x' * (1 << 20))",
    );
    program(
        &class,
        "writes_a_little",
        "open('/tmp/notes', 'wb').write(b'x' * (1 << 20))",
    );
    program(
        &class,
        "segfault",
        "import ctypes\n\
         ctypes.string_at(0)",
    );
    // Reports: 1 MiB (just under the output cap) of stderr in every case.
    program(
        &class,
        "noisy",
        "import sys\n\
         sys.stderr.write('e' * ((1 << 20) - 4096))\n\
         sys.exit(1)",
    );
    // Two names that read alike: both graded, told apart.
    program(&class, "bob", "");
    program(&class, ".bob", "");
    // Names a spreadsheet or a report would take for something else.
    program(&class, "=HYPERLINK(1)", "");
    program(&class, "Lúcia", "");
    program(&class, "Lécia", "");
    class
}

#[test]
#[allow(
    clippy::too_many_lines,
    reason = "one hostile class graded once per user, then each attack's containment checked"
)]
fn a_hostile_class_of_programs_is_contained_as_root_and_as_an_ordinary_user() {
    if !has_bwrap() {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    std::fs::set_permissions(root.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let secret = format!("secret-{}", std::process::id());
    let secret_file = root.path().join("instructor-only.txt");
    std::fs::write(&secret_file, &secret).unwrap();
    std::fs::set_permissions(&secret_file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let marker = format!("sleep 303.{}", std::process::id());
    let class = hostile_program_class(root.path(), port, &secret_file, &marker);

    let mut runs = vec![("root", None)];
    if is_root() {
        runs.push(("an ordinary user", Some(4242u32)));
        // The ordinary user reads the class and writes its own output.
        Command::new("chmod")
            .args(["-R", "a+rX"])
            .arg(&class)
            .status()
            .unwrap();
    }
    for (who, uid) in runs {
        let out = root.path().join(format!("out-{}", uid.unwrap_or(0)));
        std::fs::create_dir_all(&out).unwrap();
        if let Some(uid) = uid {
            std::os::unix::fs::chown(&out, Some(uid), Some(uid)).unwrap();
        }
        let table = grade_programs(&class, &out, uid, &secret);
        let levels = grades(&out);
        let level = |name: &str| levels.get(name).cloned().unwrap_or_default();
        // The killer ends its own runs (its shell among them): its grade is
        // its own business; what matters is that nobody else's changes.
        for control in [
            "control_a",
            "control_b",
            "correct_with_children",
            "process_holder",
            "daemon",
            "Lúcia",
            "Lécia",
            "_HYPERLINK_1_",
            "writes_a_little",
            "writes_everywhere",
            "bob",
            "bob-2",
        ] {
            assert_eq!(level(control), "advanced", "as {who}: {control}\n{table}");
        }
        for contained in [
            "proxy_grader",
            "copy_classmate",
            "tmp_spy",
            "link_as_submission",
            "link_inside",
            "link_program",
            "disk_filler",
            "segfault",
            "noisy",
        ] {
            assert_eq!(level(contained), "none", "as {who}: {contained}\n{table}");
        }
        let results = |name: &str| {
            std::fs::read_to_string(out.join("students").join(name).join("results.json"))
                .unwrap_or_default()
        };
        assert!(
            results("disk_filler").contains("disk limit"),
            "as {who}: {}",
            results("disk_filler")
        );
        assert!(
            results("segfault").contains("killed by SIGSEGV"),
            "as {who}: {}",
            results("segfault")
        );
        // A case's processes are bounded (64), as a user too: the kernel
        // counts them per user namespace.
        let forked: Vec<usize> = results("fork_counter")
            .split("FORKED-")
            .skip(1)
            .filter_map(|rest| {
                rest.split(|c: char| !c.is_ascii_digit())
                    .next()?
                    .parse()
                    .ok()
            })
            .collect();
        assert!(
            !forked.is_empty() && forked.iter().all(|&n| n < 64),
            "as {who}: {forked:?}"
        );
        let noisy = results("noisy").len();
        assert!(noisy < 300 << 10, "as {who}: results.json of {noisy} bytes");
        assert!(results("noisy").contains("bytes cut"), "as {who}");
        assert!(
            results("link_as_submission").contains("is a link"),
            "as {who}: {}",
            results("link_as_submission")
        );
        let written = everything_written(&out);
        assert!(!written.contains(&secret), "as {who}: the secret leaked");
        assert!(
            !written.contains("<end of a case>"),
            "as {who}: an earlier case's input reached a later case through /tmp"
        );
        assert!(!Path::new("/tmp/boardkit-spy.log").exists());
        assert!(
            listener.accept().is_err(),
            "as {who}: a run reached the network"
        );
        assert_eq!(
            survivors(&marker),
            "",
            "as {who}: a daemon outlived the run"
        );
        // Names stay apart and harmless: a formula is not a formula.
        let csv = std::fs::read_to_string(out.join("grades.csv")).unwrap();
        assert!(!csv.lines().any(|l| l.starts_with('=')), "{csv}");
    }
}

/// A jogo da velha crate at `dir`: the reference folder, with `change`
/// applied to its `mod.rs`.
fn crate_with(dir: &Path, extra: &str) {
    let folder = dir.join("src/velha");
    std::fs::create_dir_all(&folder).unwrap();
    for entry in std::fs::read_dir(kit("src/velha")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, folder.join(path.file_name().unwrap())).unwrap();
    }
    let mod_rs = folder.join("mod.rs");
    let text = std::fs::read_to_string(&mod_rs).unwrap();
    std::fs::write(&mod_rs, format!("{text}\n{extra}\n")).unwrap();
}

#[test]
#[allow(
    clippy::too_many_lines,
    reason = "one class of hostile crates compiled once, then each attack's containment checked"
)]
fn hostile_crates_are_contained_at_compile_time() {
    if !has_bwrap() {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let class = root.path().join("class");
    let secret = format!("compile-secret-{}", std::process::id());
    let secret_file = root.path().join("instructor-only.txt");
    std::fs::write(&secret_file, &secret).unwrap();
    std::fs::set_permissions(&secret_file, std::fs::Permissions::from_mode(0o600)).unwrap();
    crate_with(&class.join("control"), "");
    // A folder name with a dot: one crate per submission, names in no manifest.
    crate_with(&class.join("ana.maria"), "");
    crate_with(
        &class.join("include_secret"),
        &format!(
            "pub const LEAK: &str = include_str!({:?});",
            secret_file.display()
        ),
    );
    crate_with(
        &class.join("env_secret"),
        "pub const LEAK: Option<&str> = option_env!(\"BOARDKIT_TEST_SECRET\");\n\
         pub fn leak() -> &'static str { match LEAK { Some(s) => s, None => \"none\" } }",
    );
    crate_with(
        &class.join("path_to_classmate"),
        &format!(
            "#[path = {:?}]\nmod classmate;",
            class.join("control/src/velha/exam.rs").display()
        ),
    );
    crate_with(
        &class.join("endless_const"),
        "#[allow(long_running_const_eval)]\n\
         const NEVER: u64 = { let mut i = 0u64; loop { i = i.wrapping_add(1); if i == 0 { break i; } } };\n\
         pub fn never() -> u64 { NEVER }",
    );
    // A link to a classmate's folder is not the student's folder.
    std::fs::create_dir_all(class.join("symlinked/src")).unwrap();
    std::os::unix::fs::symlink(
        class.join("control/src/velha"),
        class.join("symlinked/src/velha"),
    )
    .unwrap();
    // A folder whose only entry links to the kit's checkout (the reference
    // in src/velha), and a submission that is a link to a classmate's.
    std::fs::create_dir_all(class.join("link_to_kit")).unwrap();
    std::os::unix::fs::symlink(kit(""), class.join("link_to_kit/projeto")).unwrap();
    std::os::unix::fs::symlink(class.join("control"), class.join("link_to_classmate")).unwrap();
    let mut submissions: Vec<PathBuf> = std::fs::read_dir(&class)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    submissions.sort();
    let out = root.path().join("out");
    let grade = || {
        boardkit()
            .args(["grade", "velha"])
            .args(&submissions)
            .args(["--compile-timeout", "40", "--out"])
            .arg(&out)
            .env("BOARDKIT_TEST_SECRET", &secret)
            .output()
            .unwrap()
    };
    let run = grade();
    let table = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(
        run.status.success(),
        "{table}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let mut levels = grades(&out);
    // On a loaded machine (CI's long tests side by side) a build may run
    // out of its 40 s of wall time: such a result is never final, and the
    // next run builds it again.
    for _ in 0..2 {
        let starved: Vec<&str> = ["control", "ana.maria", "env_secret"]
            .into_iter()
            .filter(|full| levels[*full] != "expert")
            .collect();
        if starved.is_empty() {
            break;
        }
        for name in starved {
            let path = out.join("students").join(name).join("results.json");
            let results = std::fs::read_to_string(path).unwrap();
            assert!(
                results.contains("\"incomplete\": true"),
                "{name}: {results}"
            );
        }
        assert!(grade().status.success());
        levels = grades(&out);
    }
    for full in ["control", "ana.maria", "env_secret"] {
        assert_eq!(levels[full], "expert", "{full}\n{table}");
    }
    for refused in [
        "include_secret",
        "path_to_classmate",
        "endless_const",
        "symlinked",
        "link_to_kit",
        "link_to_classmate",
    ] {
        assert_eq!(levels[refused], "none", "{refused}\n{table}");
    }
    // The kit's dependencies, which every build links: read-only, and
    // (as root) nobody's but root's.
    // (in the build folder CI shares between grading runs, if given).
    let build = std::env::var_os("BOARDKIT_BUILD_DIR")
        .map_or_else(|| out.join(".work/build"), PathBuf::from);
    // Those built: another run sharing the folder (the grading tests run
    // side by side) may be building its own.
    let mut stack: Vec<PathBuf> = std::fs::read_dir(build.join("deps"))
        .unwrap()
        .flatten()
        .filter(|key| key.path().join("built").is_file())
        .map(|key| key.path().join("target"))
        .collect();
    let mut sealed = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let meta = std::fs::symlink_metadata(entry.path()).unwrap();
            if meta.is_dir() {
                stack.push(entry.path());
            } else if meta.is_file() {
                use std::os::unix::fs::MetadataExt;
                assert_eq!(
                    meta.mode() & 0o222,
                    0,
                    "{} is writable",
                    entry.path().display()
                );
                if is_root() {
                    assert_eq!(meta.uid(), 0, "{}", entry.path().display());
                }
                sealed += 1;
            }
        }
    }
    assert!(sealed > 100, "{sealed} dependency files");
    let written = everything_written(&out);
    assert!(!written.contains(&secret), "a secret reached the reports");
    let endless = std::fs::read_to_string(out.join("students/endless_const/results.json")).unwrap();
    assert!(endless.contains("timed out"), "{endless}");
    assert!(endless.contains("\"incomplete\": true"), "{endless}");
    let rustc = Command::new("pgrep")
        .args(["-af", "rustc.*submission"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&rustc.stdout).trim(),
        "",
        "a compiler outlived its build"
    );
    // A build that timed out is never a finished result: the next run
    // builds it again, and only it.
    let written = |name: &str| {
        std::fs::metadata(out.join("students").join(name).join("results.json"))
            .unwrap()
            .modified()
            .unwrap()
    };
    let (endless_before, control_before) = (written("endless_const"), written("control"));
    let again = grade();
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_ne!(written("endless_const"), endless_before, "not graded again");
    let endless_again =
        std::fs::read_to_string(out.join("students/endless_const/results.json")).unwrap();
    assert!(endless_again.contains("timed out"), "{endless_again}");
    assert_eq!(
        written("control"),
        control_before,
        "a finished result was redone"
    );
}
