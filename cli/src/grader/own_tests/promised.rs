//! `dev check`'s proof that each Python mutant differs from the reference
//! only where the statement lets a test look: on the public function cases
//! (fixtures/<game>/functions/), cut to the calls the exam promises (valid
//! positions in upper case without spaces; boards with one winner at
//! most), and in every form it allows. A function with two forms
//! (`verifica_vencedor`: one list, or nine strings) must be caught in each:
//! a student may test only the form they wrote. The correct versions differ
//! on none of those calls.

use std::process::{Command, Stdio};

use super::python::PythonVersions;
use super::verdict::Version;
use crate::exercise_data::{self, PythonFunctions};

/// `python3 -c CHECKER`: reads a version's source and the promised calls
/// (JSON, on stdin), prints each group's name whose calls it answers
/// otherwise than the cases accept, one a line.
const CHECKER: &str = r#"import json, sys, types
data = json.load(sys.stdin)
module = types.ModuleType("funcoes")
exec(compile(data["source"], "funcoes.py", "exec"), module.__dict__)
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def promised(group, arg):
    if group["valid_positions_only"] and not (len(arg) == 2 and arg[0] in "ABC" and arg[1] in "123"):
        return False
    if group["one_winner_at_most"]:
        winners = {arg[a] for a, b, c in LINES if arg[a] == arg[b] == arg[c] != "."}
        return len(winners) < 2
    return True


def answer(group, arg):
    function = getattr(module, group["function"], None)
    cells = [" " if c == "." else c for c in arg]
    rows = [cells[0:3], cells[3:6], cells[6:9]]
    try:
        if group["form"] == "nine":
            return str(function(*cells))
        if group["form"] == "list":
            return str(function(rows))
        if group["function"] == "melhor_jogada":
            return "%d %d" % tuple(function(rows))
        return str(function(arg))
    except Exception as error:
        return "error: %r" % error


for group in data["groups"]:
    calls = [c for c in group["calls"] if promised(group, c[0])]
    if any(answer(group, c[0]) not in c[1:] for c in calls):
        print(group["name"])
"#;

/// One group of promised calls: a function in one form.
#[derive(serde::Serialize)]
struct Group {
    name: String,
    function: String,
    /// `list` or `nine` for a function of two forms, else `plain`.
    form: &'static str,
    valid_positions_only: bool,
    one_winner_at_most: bool,
    calls: Vec<Vec<String>>,
}

/// The promised calls of game `game`'s Python function cases, grouped by
/// function and form.
fn groups(game: &str, functions: &[PythonFunctions]) -> Result<Vec<Group>, String> {
    let mut groups = Vec::new();
    for entry in functions {
        let path = format!("fixtures/{game}/functions/{}.toml", entry.cases);
        let text = crate::embedded::file(&path)
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .ok_or_else(|| format!("the kit has no {path}"))?;
        let cases: toml::Table = toml::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
        let function = cases
            .get("function")
            .and_then(|f| f.as_str())
            .ok_or_else(|| format!("{path} names no function"))?
            .to_owned();
        let calls: Vec<Vec<String>> = cases
            .get("calls")
            .cloned()
            .ok_or_else(|| format!("{path} has no calls"))?
            .try_into()
            .map_err(|e| format!("{path}: {e}"))?;
        // The exam's two forms of one function: each alone must do.
        let forms: &[&'static str] = match function.as_str() {
            "verifica_vencedor" => &["list", "nine"],
            _ => &["plain"],
        };
        for &form in forms {
            groups.push(Group {
                name: format!("{} ({form})", entry.cases),
                function: function.clone(),
                form,
                valid_positions_only: entry.valid_positions_only,
                one_winner_at_most: entry.one_winner_at_most,
                calls: calls.clone(),
            });
        }
    }
    Ok(groups)
}

/// The groups whose promised calls `source` answers otherwise.
fn differs(source: &str, groups: &[Group]) -> Result<Vec<String>, String> {
    let input = serde_json::json!({ "source": source, "groups": groups }).to_string();
    let mut child = Command::new("python3")
        .args(["-c", CHECKER])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run python3: {e}"))?;
    if let Some(mut stdin) = child.stdin.take() {
        use std::io::Write;
        stdin
            .write_all(input.as_bytes())
            .map_err(|e| format!("cannot feed python3: {e}"))?;
    }
    let output = child
        .wait_with_output()
        .map_err(|e| format!("python3: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "the checker failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_owned)
        .collect())
}

/// Whether the groups `found` catch a mutant in every form: a group of a
/// function with one form, or each form of a function with two.
fn caught_in_every_form(groups: &[Group], found: &[String]) -> bool {
    let hit = |g: &Group| found.contains(&g.name);
    let plain = groups.iter().any(|g| g.form == "plain" && hit(g));
    let every = |form: &str| groups.iter().any(|g| g.form == form && hit(g));
    plain || (every("list") && every("nine"))
}

/// The proof for game `game`'s Python versions: one check per version.
pub(crate) fn python(game: &str, versions: &PythonVersions) -> Result<Vec<(bool, String)>, String> {
    let manifest = exercise_data::manifest(game).map_err(|e| e.to_string())?;
    let functions = manifest.python.map(|p| p.functions).unwrap_or_default();
    let groups = groups(game, &functions)?;
    let mut checks = Vec::new();
    for (version, source) in versions.every_source() {
        let mut found = differs(source, &groups)?;
        // A correct version that takes one form of two answers that one.
        if let Some((_, forms)) = versions.forms_of.iter().find(|(v, _)| *v == version) {
            found.retain(|name| {
                groups.iter().any(|g| {
                    &g.name == name && (g.form == "plain" || forms.iter().any(|f| f == g.form))
                })
            });
        }
        let check = match &version {
            Version::Mutant(index) => {
                let breaks = &versions.versions.mutants[*index].breaks;
                (
                    caught_in_every_form(&groups, &found),
                    format!(
                        "{game} (Python): the mutant '{breaks}' differs on promised calls in every form (it differs on: {})",
                        found.join(", ")
                    ),
                )
            }
            _ => (
                found.is_empty(),
                format!(
                    "{game} (Python): {} answers every promised call as the cases do (differs on: {})",
                    describe(&version),
                    found.join(", ")
                ),
            ),
        };
        checks.push(check);
    }
    Ok(checks)
}

fn describe(version: &Version) -> String {
    match version {
        Version::Harmless(why) => format!("the harmless change '{why}'"),
        Version::Unpromised(what) => {
            format!("the correct version that answers no more than promised ('{what}')")
        }
        Version::Solution(name) => format!("the solution {name}"),
        _ => "the reference".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn velha() -> (PythonVersions, Vec<Group>) {
        let manifest = exercise_data::manifest("velha").unwrap();
        let python = manifest.python.unwrap();
        let versions = PythonVersions::of(python.own_tests.as_ref().unwrap(), true).unwrap();
        (versions, groups("velha", &python.functions).unwrap())
    }

    #[test]
    #[ignore = "long: every Python version on 4,520 expert calls (dev check proves it too)"]
    fn every_python_mutant_differs_on_promised_calls_in_every_form() {
        let (versions, _) = velha();
        for (ok, what) in python("velha", &versions).unwrap() {
            assert!(ok, "{what}");
        }
    }

    #[test]
    #[ignore = "long: four versions on 4,520 expert calls"]
    fn a_mutant_only_unpromised_input_or_one_form_reveals_fails_the_proof() {
        let (versions, groups) = velha();
        let reference = &versions.every_source()[0].1.to_owned();
        let mutant = |find: &str, replace: &str| {
            assert!(reference.contains(find), "{find}");
            let found = differs(&reference.replacen(find, replace, 1), &groups).unwrap();
            caught_in_every_form(&groups, &found)
        };
        // Lower case, and spaces inside a position: never asked.
        let upper = "texto = posicao.replace(\" \", \"\").upper()";
        assert!(!mutant(upper, "texto = posicao.replace(\" \", \"\")"));
        assert!(!mutant(upper, "texto = posicao.strip().upper()"));
        // The nine-argument form alone: a student may test only the list.
        let nine = "tabuleiro = [[a1, a2, a3], [b1, b2, b3], [c1, c2, c3]]";
        assert!(!mutant(
            nine,
            "tabuleiro = [[a1, a2, a3], [b1, b2, b3], [c1, c2, \" \"]]"
        ));
        // Both forms: caught.
        assert!(mutant(
            "    linhas = [t[0], t[1], t[2]]\n",
            "    linhas = [t[1], t[2]]\n"
        ));
    }
}
