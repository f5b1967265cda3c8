//! Whether the `python3` a Python starter's tests run with has pytest, and
//! if not, the commands that install it for that very interpreter.
//!
//! `python3 -m pytest` runs whichever `python3` comes first on the PATH: a
//! pyenv shim, an activated virtual environment, the system's. Each has its
//! own packages, so `sudo apt install python3-pytest` reaches only
//! `/usr/bin/python3`, and a student told "install pytest" may install it
//! for another Python than the one that fails. The check asks that
//! `python3` itself what it has, and whether its pip may install into it
//! (PEP 668's `EXTERNALLY-MANAGED`, Debian's and Ubuntu's own Python).

use std::path::Path;
use std::process::Command;

use boardkit::catalogue::Catalogue;

/// What the probe asks `python3`: its path, then whether it has pytest,
/// pip and ensurepip (what `venv` needs), whether it is a virtual
/// environment, and whether its installation is externally managed.
/// Python 3.8's syntax, the oldest the wheel installs on.
const PROBE: &str = r#"
import importlib.util, os, sys, sysconfig
def has(name):
    try:
        return importlib.util.find_spec(name) is not None
    except Exception:
        return False
venv = sys.prefix != getattr(sys, "base_prefix", sys.prefix)
marker = os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")
managed = not venv and os.path.exists(marker)
print(sys.executable)
print(" ".join(str(int(b)) for b in (has("pytest"), has("pip"), has("ensurepip"), venv, managed)))
"#;

/// What `python3` said of itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Interpreter {
    /// `sys.executable`: the file `python3` resolved to.
    pub path: String,
    pub pytest: bool,
    pub pip: bool,
    pub ensurepip: bool,
    pub venv: bool,
    /// PEP 668: pip refuses to install into it.
    pub managed: bool,
}

/// How to get pytest for the `python3` on the PATH.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Advice {
    /// It has pytest.
    Ready,
    /// No `python3` answered (not installed, or not on the PATH).
    NoPython,
    /// It lacks pytest: these commands, in order, install it.
    Install {
        interpreter: Interpreter,
        commands: Vec<&'static str>,
        /// The commands make a virtual environment, to activate again in
        /// each new terminal.
        venv: bool,
    },
}

/// The `python3` of the PATH, asked in `folder` (where the tests run).
pub(crate) fn check(folder: &Path) -> Advice {
    let output = Command::new("python3")
        .args(["-c", PROBE])
        .current_dir(folder)
        .env_remove("PYTHONPATH")
        .output();
    match output {
        Ok(o) if o.status.success() => {
            parse(&String::from_utf8_lossy(&o.stdout)).map_or(Advice::NoPython, advice)
        }
        _ => Advice::NoPython,
    }
}

/// The probe's two lines, read.
fn parse(text: &str) -> Option<Interpreter> {
    let mut lines = text.lines();
    let path = lines.next()?.trim().to_owned();
    let flags: Vec<bool> = lines.next()?.split_whitespace().map(|f| f == "1").collect();
    let [pytest, pip, ensurepip, venv, managed] = flags[..] else {
        return None;
    };
    Some(Interpreter {
        path,
        pytest,
        pip,
        ensurepip,
        venv,
        managed,
    })
}

/// The one way to pytest for `interpreter`: its own pip; a virtual
/// environment where pip may not install (PEP 668); pip first where it has
/// none; Debian's package where it can make neither (its `python3` without
/// `python3-venv`), as that package is for `/usr/bin/python3` exactly.
pub(crate) fn advice(interpreter: Interpreter) -> Advice {
    if interpreter.pytest {
        return Advice::Ready;
    }
    let system = interpreter.path.starts_with("/usr/bin/");
    let (commands, venv) = match interpreter {
        Interpreter {
            managed: false,
            pip: true,
            ..
        } => (vec![PIP], false),
        Interpreter {
            managed: true,
            ensurepip: true,
            ..
        } => (VENV.to_vec(), true),
        Interpreter {
            managed: false,
            ensurepip: true,
            ..
        } => (vec!["python3 -m ensurepip", PIP], false),
        _ if system => (vec!["sudo apt install python3-pytest"], false),
        // Neither pip nor a way to it: still the command that installs
        // pytest for this interpreter once it has pip.
        _ => (vec![PIP], false),
    };
    Advice::Install {
        interpreter,
        commands,
        venv,
    }
}

const PIP: &str = "python3 -m pip install pytest";
// In the home folder: one for every exercise, made before any starter
// (the wheel goes there too), out of the student's repository.
const VENV: [&str; 3] = [
    "python3 -m venv ~/.venv",
    ". ~/.venv/bin/activate",
    "python3 -m pip install pytest",
];

/// What to tell the student, in `catalogue`'s words; `None` when pytest
/// is there.
pub(crate) fn message(advice: &Advice, catalogue: &Catalogue) -> Option<String> {
    let (interpreter, commands, venv) = match advice {
        Advice::Ready => return None,
        Advice::NoPython => {
            return Some(format!(
                "{}\n",
                catalogue.text("python3 is not installed, or not on the PATH: install Python 3 (python.org), then pytest with `python3 -m pip install pytest`.")
            ));
        }
        Advice::Install {
            interpreter,
            commands,
            venv,
        } => (interpreter, commands, *venv),
    };
    let mut out = catalogue.fill(
        "pytest is missing: the python3 that runs the tests ({path}) does not have it.",
        &[("path", &interpreter.path)],
    );
    out.push('\n');
    out.push_str(if venv {
        catalogue.text("Its pip refuses to install into it (\"externally-managed-environment\": the system's own Python), so make a virtual environment with pytest.")
    } else {
        catalogue.text("Install it for this very python3:")
    });
    out.push('\n');
    for command in commands {
        out.push_str(&format!("    {command}\n"));
    }
    if venv {
        out.push_str(
            catalogue.text("In each new terminal, type `. ~/.venv/bin/activate` before testing."),
        );
        out.push('\n');
    }
    Some(out)
}

/// What `boardkit test --language python` adds for the starter in
/// `folder`, in its language, when its `python3` lacks pytest. Nothing when
/// pytest runs it (its `python3` is then another question than the one
/// this run answers).
pub(crate) fn for_starter(folder: &Path) -> Option<String> {
    if std::env::var_os("PYTEST_CURRENT_TEST").is_some() {
        return None;
    }
    message(&check(folder), &Catalogue::of_folder(folder))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn interpreter(path: &str, flags: [bool; 5]) -> Interpreter {
        let [pytest, pip, ensurepip, venv, managed] = flags;
        Interpreter {
            path: path.into(),
            pytest,
            pip,
            ensurepip,
            venv,
            managed,
        }
    }

    fn commands(advice: &Advice) -> Vec<&'static str> {
        match advice {
            Advice::Install { commands, .. } => commands.clone(),
            _ => Vec::new(),
        }
    }

    #[test]
    fn the_probe_reads_what_python_says_of_itself() {
        let read = parse("/home/ana/.pyenv/versions/3.12.1/bin/python3\n0 1 1 0 0\n").unwrap();
        assert_eq!(
            read,
            interpreter(
                "/home/ana/.pyenv/versions/3.12.1/bin/python3",
                [false, true, true, false, false]
            )
        );
        assert_eq!(parse("/usr/bin/python3\n1 1\n"), None);
    }

    #[test]
    fn each_python_gets_the_command_that_reaches_it() {
        // pyenv, or a virtual environment: its own pip.
        let pyenv = interpreter(
            "/home/ana/.pyenv/shims/python3",
            [false, true, true, false, false],
        );
        assert_eq!(commands(&advice(pyenv)), [PIP]);
        let venv = interpreter("/tmp/x/bin/python3", [false, true, true, true, false]);
        assert_eq!(commands(&advice(venv)), [PIP]);
        // Debian's or Ubuntu's own (PEP 668): a virtual environment.
        let debian = interpreter("/usr/bin/python3", [false, true, true, false, true]);
        assert_eq!(commands(&advice(debian)), VENV);
        // ... without python3-venv: the package made for it.
        let bare = interpreter("/usr/bin/python3", [false, false, false, false, true]);
        assert_eq!(commands(&advice(bare)), ["sudo apt install python3-pytest"]);
        // A virtual environment made without pip.
        let no_pip = interpreter("/tmp/y/bin/python3", [false, false, true, true, false]);
        assert_eq!(commands(&advice(no_pip)), ["python3 -m ensurepip", PIP]);
        let ready = interpreter("/usr/bin/python3", [true, true, true, false, true]);
        assert_eq!(advice(ready), Advice::Ready);
    }

    #[test]
    fn the_message_names_the_interpreter_in_the_starters_language() {
        let debian = advice(interpreter(
            "/usr/bin/python3",
            [false, true, true, false, true],
        ));
        let text = message(&debian, &crate::exercise_data::catalogue_of("pt-BR")).unwrap();
        assert!(
            text.starts_with("falta o pytest: o python3 que roda os testes (/usr/bin/python3)"),
            "{text}"
        );
        assert!(
            text.contains("\n    python3 -m venv ~/.venv\n    . ~/.venv/bin/activate\n"),
            "{text}"
        );
        assert!(text.contains("Em cada terminal novo"), "{text}");
        let pyenv = advice(interpreter(
            "/p/bin/python3",
            [false, true, true, false, false],
        ));
        let text = message(&pyenv, &Catalogue::default()).unwrap();
        assert_eq!(
            text,
            "pytest is missing: the python3 that runs the tests (/p/bin/python3) does not have it.\n\
             Install it for this very python3:\n    python3 -m pip install pytest\n"
        );
        assert_eq!(
            message(&Advice::Ready, &crate::exercise_data::catalogue_of("fr")),
            None
        );
    }
}
