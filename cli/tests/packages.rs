//! Exercise packages (docs/authors.md), from the binary, the quick part
//! (the everyday `cargo test`): `new` writes one that `verify` passes; a
//! package that breaks the format (an unknown key, a bad type, code
//! planted in its title, a link out of it) is refused naming the file and
//! line; no Rust file of the kit names a package written outside it. The
//! rest (lies caught, bless, starters, classes graded, variants, the
//! package written from its statement alone) is `package_grading.rs`, in
//! the long tests.

use std::path::{Path, PathBuf};

use crate::package_support::*;

#[test]
#[ignore = "long: builds and runs two references, three submissions and both stubs (7 s)"]
fn a_new_package_verifies_as_it_stands() {
    let (_dir, package) = new_package();
    let output = checked("verify", &package);
    let text = said(&output);
    assert!(output.status.success(), "{text}");
    for check in [
        "the rust reference passes every case",
        "the python reference passes every case",
        "the generated rust stub fails every level",
        "the generated python stub fails every level",
        "the submission says_sum (python) reaches basic",
        "no starter holds a hidden case",
        "time limits",
    ] {
        assert!(text.contains(&format!("ok: {check}")), "{check}: {text}");
    }
}

/// Each slip: the file, the text changed, its change, what verify says.
const BROKEN: [(&str, &str, &str, &str); 25] = [
    // A title that would end a generated comment: code in a starter.
    (
        "exercise.toml",
        "title = \"Demo\"",
        "title = \"Demo\\n}\\nfn planted() {\"",
        "`title`: expected one line",
    ),
    (
        "exercise.toml",
        "title = ",
        "colour = \"red\"\ntitle = ",
        "exercise.toml:4: unknown field `colour`",
    ),
    (
        "exercise.toml",
        "type = \"list<int>\"",
        "type = \"list<float>\"",
        "unknown type `float`",
    ),
    (
        "exercise.toml",
        "format = 1",
        "format = 2",
        "exercise.toml:2: format 2 is not one this kit reads",
    ),
    (
        "exercise.toml",
        "level = \"proficient\"",
        "level = \"expert\"",
        "exercise.toml: [hints] en: a hint's level \"expert\" is not one of the levels",
    ),
    (
        "exercise.toml",
        "text = \"The program reads",
        "txt = \"The program reads",
        "unknown field `txt`, expected one of `text`, `level`, `about`",
    ),
    (
        "cases/total_small.toml",
        "function = \"total\"",
        "function = \"totl\"",
        "`totl` is not a function of the manifest: expected one of `total`",
    ),
    (
        "cases/total_small.toml",
        "args = [[1, 2, 3]]",
        "args = [[1, \"two\", 3]]",
        "total_small.toml:7: argument `numbers`",
    ),
    // A property's answers and a blessed one: which would count?
    (
        "cases/total_small.toml",
        "expect = 6",
        "expect = 6\naccept = [6, 7]",
        "`expect` (the reference's answer, which `bless` writes) or `accept`",
    ),
    // A session types lines or bytes, never both; it ends normally or
    // in an error, nothing else; a function case has no ending.
    (
        "cases/three_numbers.toml",
        "input = [",
        "stdin = \"3\\r\\n\"\ninput = [",
        "three_numbers.toml:5: a session has `input` (lines) or `stdin` (bytes), not both",
    ),
    (
        "cases/three_numbers.toml",
        "input = [",
        "ends = \"later\"\ninput = [",
        "three_numbers.toml:5: `ends` is \"later\": expected \"normally\" or \"error\"",
    ),
    (
        "cases/total_small.toml",
        "function = \"total\"",
        "function = \"total\"\nends = \"error\"",
        "a function case has `[[call]]`s, and no `input`, `stdin`, `expect` or `ends`",
    ),
    // An exam's script is a Python file of its own name.
    (
        "exercise.toml",
        "[reference]",
        "[python]\nprogram = \"demo.py\"\n\n[reference]",
        "`demo.py`: expected a file name such as `programa.py`",
    ),
    // A given type: its codec says where the value goes, and its code
    // is given.
    (
        "exercise.toml",
        "[reference]",
        "[[type]]\nname = \"Code\"\nof = \"list<int>\"\nrust = { make = \"Code\", read = \"{}.0\" }\npython = { make = \"Code({})\", read = \"{}.c\" }\n\n[reference]",
        "`Code`: a codec's `make` and `read` are one line, with `{}` once where the value goes",
    ),
    (
        "exercise.toml",
        "[reference]",
        "[[type]]\nname = \"Code\"\nof = \"list<int>\"\nrust = { make = \"Code({})\", read = \"{}.0\" }\npython = { make = \"Code({})\", read = \"{}.c\" }\n\n[reference]",
        "a `[[type]]` is given code: expected `[given]`",
    ),
    // The first line is one of the program's messages.
    (
        "exercise.toml",
        "function = \"play\"",
        "function = \"play\"\nfirst = \"title\"",
        "`[program] first = \"title\"`: expected one of the messages of [messages.en] (not_a_number, total)",
    ),
    // A description for a case there is not.
    (
        "exercise.toml",
        "[[function]]",
        "[descriptions]\nnope = \"a case\"\n\n[[function]]",
        "`[descriptions]` names `nope`, which is not a case",
    ),
    // `spread`: one list or grid argument, and a case's `spread = false`
    // for such a function only.
    (
        "exercise.toml",
        "[reference]",
        "[[function]]\nname = \"twice\"\nargs = [{ name = \"n\", type = \"int\" }]\nreturns = \"int\"\nspread = true\n\n[reference]",
        "`spread`: `twice` takes its argument's items one by one: expected one argument, a list or a grid",
    ),
    (
        "cases/total_small.toml",
        "function = \"total\"",
        "function = \"total\"\nspread = false",
        "`spread` is for a case of a function with `spread = true`",
    ),
    // Only a variant has a base's robustness part to keep or leave.
    (
        "exercise.toml",
        "levels = [",
        "robustness = false\nlevels = [",
        "`robustness` says whether a variant keeps its base's robustness part: only a variant (`extends`) has one",
    ),
    // Only a variant leaves its base's cases out.
    (
        "exercise.toml",
        "levels = [",
        "leaves_out = [\"total_small\"]\nlevels = [",
        "`leaves_out` names a base's cases: only a variant (`extends`) has one",
    ),
    // A level's name, for a level there is not.
    (
        "exercise.toml",
        "[hints]",
        "[level_names]\nfr = { expert = \"expert\" }\n\n[hints]",
        "[level_names] fr: `expert` is not one of the levels (basic, proficient)",
    ),
    (
        "cases/three_numbers.toml",
        "input = [\"3\", \"4\", \"x\", \"5\"]",
        "stdin = [{ bytes = [300] }]",
        "each part is text, { bytes = [...] } or { repeat = \"...\", times = N }",
    ),
    // A class: its name as both languages write a type's, and a case
    // that says it makes objects.
    (
        "exercise.toml",
        "[reference]",
        "[[class]]\nname = \"tally\"\n\n[[class.method]]\nname = \"count\"\nreturns = \"int\"\n\n[reference]",
        "`tally`: a class's name is a capital letter, then letters and digits",
    ),
    (
        "cases/total_small.toml",
        "function = \"total\"",
        "class = \"total\"",
        "`total` is a function: expected `function = \"total\"`",
    ),
];

/// A class's case: each object's steps name its methods, with their
/// arguments; its answers are the reference's alone.
#[test]
fn a_class_case_is_checked_step_by_step() {
    let (_dir, package) = new_package();
    edit(
        &package.join("exercise.toml"),
        "[reference]",
        "[[class]]\nname = \"Tally\"\nnew = { args = [{ name = \"start\", type = \"int\" }] }\n\n[[class.method]]\nname = \"add\"\nargs = [{ name = \"n\", type = \"int\" }]\nreturns = \"int\"\nmutates = true\n\n[reference]",
    );
    let case = package.join("cases/tally_counts.toml");
    let head =
        "level = \"basic\"\nrule = 1\ndescription = \"counts\"\nclass = \"Tally\"\n\n[[call]]\n";
    for (call, why) in [
        (
            "new = [1]\nsteps = [[\"ad\", 2]]\n",
            "tally_counts.toml:8: `steps`: [\"ad\", 2] is not a method called: expected `[\"method\", arguments...]`, a method of `add`",
        ),
        (
            "new = [1]\nsteps = [[\"add\", \"two\"]]\n",
            "`steps`, `add`'s argument `n`: \"two\" is not of type int",
        ),
        (
            "new = []\nsteps = []\n",
            "`new`: `Tally` is made from 1 argument, not 0",
        ),
        (
            "args = [1]\n",
            "`Tally` is a class: each `[[call]]` makes one with `new = [...]`",
        ),
        (
            "new = [1]\nsteps = [[\"add\", 2]]\naccept = [[3]]\n",
            "an object's call has no `accept`",
        ),
    ] {
        std::fs::write(&case, format!("{head}{call}")).unwrap();
        let output = checked("verify", &package);
        let text = said(&output);
        assert_eq!(output.status.code(), Some(1), "{why}: {text}");
        assert!(text.contains(why), "{why}: {text}");
    }
}

/// A blessed answer that no longer fits its call (the function's type
/// changed under it) is refused by verify, and written again by bless.
#[test]
fn bless_writes_again_an_answer_that_no_longer_fits() {
    let (_dir, package) = new_package();
    let case = package.join("cases/total_small.toml");
    edit(&case, "expect = 6", "expect = \"six\"");
    let output = checked("verify", &package);
    assert_eq!(output.status.code(), Some(1), "{}", said(&output));
    assert!(
        said(&output).contains("total_small.toml:8: `expect` no longer fits the call: \"six\" is not of type int; `boardkit bless` writes it again"),
        "{}",
        said(&output)
    );
    let blessed = checked("bless", &package);
    assert!(blessed.status.success(), "{}", said(&blessed));
    let text = std::fs::read_to_string(&case).unwrap();
    assert!(text.contains("expect = 6\n"), "{text}");
}

#[test]
fn a_broken_package_is_refused_naming_its_file_and_line() {
    for (file, from, to, why) in BROKEN {
        let (_dir, package) = new_package();
        edit(&package.join(file), from, to);
        let output = checked("verify", &package);
        let text = said(&output);
        assert_eq!(output.status.code(), Some(1), "{why}: {text}");
        assert!(text.contains(why), "{why}: {text}");
    }
}

/// A variant leaves out the base's cases its course does not ask, public
/// or hidden, by name, and describes those it takes in its own words; a
/// name that is no case of the base is refused at its line.
#[test]
fn a_variant_leaves_out_cases_of_its_base() {
    let (dir, _package) = new_package();
    let variant = dir.path().join("demo_lean");
    std::fs::create_dir_all(&variant).unwrap();
    let manifest = |leaves: &str| {
        std::fs::write(
            variant.join("exercise.toml"),
            format!(
                "format = 1\nname = \"demo\"\nextends = \"../demo\"\nleaves_out = [{leaves}]\n"
            ),
        )
        .unwrap();
        boardkit()
            .args(["grade", "--list-cases", "--exercise"])
            .arg(&variant)
            .output()
            .unwrap()
    };
    let listed = manifest(
        "\"three_numbers\", \"total_negative\"]\n\n[descriptions]\ntotal_small = \"la somme de quelques nombres\"\n#[",
    );
    assert!(listed.status.success(), "{}", said(&listed));
    let text = said(&listed);
    // Its own words for a case it takes.
    assert!(
        text.contains("basic::total_small  1 point, public, rule 1: la somme de quelques nombres"),
        "{text}"
    );
    assert!(
        !text.contains("three_numbers") && !text.contains("total_negative"),
        "{text}"
    );
    let wrong = manifest("\"three_number\"");
    assert!(!wrong.status.success(), "{}", said(&wrong));
    assert!(
        said(&wrong).contains(
            "exercise.toml:4: `leaves_out` names `three_number`, which is not a case of the base"
        ),
        "{}",
        said(&wrong)
    );
}

/// A package's own names of its levels (`[level_names]`, accents and
/// all) show beside their names, which commands take: in the starter's
/// README and in what `boardkit test` says.
#[test]
fn a_packages_levels_show_their_names_in_its_locale() {
    let (dir, package) = new_package();
    edit(
        &package.join("exercise.toml"),
        "[hints]",
        "[level_names]\nen = { basic = \"Échauffement\", proficient = \"The program\" }\n\n[hints]",
    );
    let starter = dir.path().join("starter");
    made_starter(&package, &starter, &["--language", "python"]);
    // What `boardkit test` below keeps stays out of the student's commits.
    let ignored = std::fs::read_to_string(starter.join(".gitignore")).unwrap();
    assert!(ignored.lines().any(|l| l == "/.boardkit/"), "{ignored}");
    let readme = std::fs::read_to_string(starter.join("README.md")).unwrap();
    assert!(
        readme.contains("| Échauffement (basic) | 1 | 1 |"),
        "{readme}"
    );
    let tested = boardkit()
        .args(["test", "--exercise"])
        .arg(&package)
        .arg(&starter)
        .output()
        .unwrap();
    let text = said(&tested);
    assert!(
        text.contains("Échauffement (basic)") && text.contains("The program (proficient)"),
        "{text}"
    );
    // The student's page names them so too.
    let out = dir.path().join("out");
    let graded = grade(&package, &out, &[starter], true);
    assert!(graded.status.success(), "{}", said(&graded));
    let page = std::fs::read_to_string(out.join("students/starter/feedback.md")).unwrap();
    assert!(
        page.contains("| Échauffement | 0 / 2 |") && page.contains("## The program"),
        "{page}"
    );
}

#[test]
fn a_package_never_reaches_outside_its_folder() {
    let (dir, package) = new_package();
    let outside = dir.path().join("secret.md");
    std::fs::write(&outside, "<a id=\"rule-1\"></a><a id=\"rule-2\"></a>").unwrap();
    std::fs::remove_file(package.join("statement/en.md")).unwrap();
    std::os::unix::fs::symlink(&outside, package.join("statement/en.md")).unwrap();
    let text = said(&checked("verify", &package));
    assert!(text.contains("is a link"), "{text}");
    let (_dir, package) = new_package();
    edit(
        &package.join("exercise.toml"),
        "statement/en.md",
        "../secret.md",
    );
    let text = said(&checked("verify", &package));
    assert!(text.contains("stay inside its folder"), "{text}");
}

#[test]
fn no_rust_file_of_the_kit_names_a_package_written_outside_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap();
    let mut files = Vec::new();
    let mut folders: Vec<PathBuf> = [
        "src",
        "tests",
        "benches",
        "cli/src",
        "cli/tests",
        "cli/build.rs",
    ]
    .iter()
    .map(|f| root.join(f))
    .collect();
    let packages_folder = root.join("cli/tests/data/packages");
    while let Some(path) = folders.pop() {
        // The packages' own files are theirs.
        if path.starts_with(&packages_folder) {
            continue;
        }
        if path.is_dir() {
            folders.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    let packages = written_packages();
    assert!(!packages.is_empty(), "a package written from its statement");
    for package in packages {
        let name = name_of(&package);
        for file in &files {
            let text = std::fs::read_to_string(file).unwrap_or_default();
            let named = text.match_indices(&name).any(|(at, _)| {
                let before = text[..at].chars().next_back();
                let after = text[at + name.len()..].chars().next();
                let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
                !word(before) && !word(after)
            });
            assert!(!named, "{} names the package {name}", file.display());
        }
    }
}

#[test]
fn an_authors_slips_are_named_where_they_are() {
    let slips: [(&str, &str, &str); 6] = [
        (
            "hidden/cases/total_small.toml",
            "varies = \"total_small\"\nlevel = \"basic\"\nrule = 1\ndescription = \"d\"\nfunction = \"total\"\n\n[[call]]\nargs = [[5]]\nexpect = 5\n",
            "a hidden case named `total_small`, as the public case",
        ),
        (
            "hidden/cases/other.toml",
            "varies = \"three_numbers\"\nlevel = \"basic\"\nrule = 1\ndescription = \"d\"\nfunction = \"total\"\n\n[[call]]\nargs = [[5]]\nexpect = 5\n",
            "other.toml:1: varies `three_numbers`: `three_numbers` is at level proficient, this case at basic",
        ),
        (
            "submissions/README",
            "notes\n",
            "submissions/README: a submission is a folder",
        ),
        // A patch of the reference: text found once, in one of its files.
        (
            "submissions/typo/submission.toml",
            "language = \"python\"\nreaches = \"none\"\n\n[[patch]]\nfile = \"demo.py\"\nfind = \"return sum(numbrs)\"\n",
            "typo/submission.toml:6: `find` is found 0 times in reference/python/demo.py: give text found exactly once",
        ),
        (
            "submissions/typo/submission.toml",
            "language = \"python\"\nreaches = \"none\"\n\n[[patch]]\nfile = \"other.py\"\nfind = \"x\"\n",
            "typo/submission.toml:5: `other.py` is not a file of the python reference",
        ),
        (
            "submissions/typo/submission.toml",
            "language = \"python\"\nreaches = \"none\"\n\n[[patch]]\nfile = \"../../exercise.toml\"\nfind = \"x\"\n",
            "stay inside its folder",
        ),
    ];
    for (file, text, why) in slips {
        let (_dir, package) = new_package();
        let path = package.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
        let output = checked("verify", &package);
        let said = said(&output);
        assert_eq!(output.status.code(), Some(1), "{why}: {said}");
        assert!(said.contains(why), "{why}: {said}");
        assert!(!said.contains("demo/demo/"), "a path named twice: {said}");
    }
}

/// A built-in package by its name, where no copy of the kit is: velha's
/// English variant makes an English starter and is graded by name; an
/// unknown name lists the built-in ones.
#[test]
fn a_built_in_package_is_taken_by_its_name() {
    let dir = tempfile::tempdir().unwrap();
    let output = boardkit()
        .current_dir(dir.path())
        .args(["starter", "--exercise", "velha-english", "tictactoe"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", said(&output));
    let statement = std::fs::read_to_string(dir.path().join("tictactoe/STATEMENT.md")).unwrap();
    assert!(statement.starts_with("# Tic-tac-toe"), "{statement}");
    let tests = std::fs::read_to_string(dir.path().join("tictactoe/tests/velha.rs")).unwrap();
    assert!(tests.contains("\"Winner: {}\""), "{tests}");
    assert!(
        !tests.contains("draw_hidden"),
        "a starter holds no hidden case"
    );
    // grade takes it by name too; the instructor's build lists its
    // hidden cases, level by level.
    let listed = boardkit()
        .current_dir(dir.path())
        .args(["grade", "--exercise", "velha-english", "--list-cases"])
        .output()
        .unwrap();
    let text = said(&listed);
    assert!(listed.status.success(), "{text}");
    assert!(
        text.contains("proficient::draw_hidden  1 point, hidden, rule 4"),
        "{text}"
    );
    let output = boardkit()
        .current_dir(dir.path())
        .args(["verify", "no_such_package"])
        .output()
        .unwrap();
    let text = said(&output);
    assert_eq!(output.status.code(), Some(2), "{text}");
    assert!(
        text.contains("nor a built-in one: ") && text.contains("velha-english"),
        "{text}"
    );
}

/// EXERCISE.md, the students' statement of the built-in games, is in step
/// with velha's package: each function the package's stub holds is
/// stated with the same signature, the program by its name and its
/// input and output, and each graded line's fixed text is written.
#[test]
fn exercise_md_states_velhas_package() {
    let dir = tempfile::tempdir().unwrap();
    let made = boardkit()
        .args(["starter", "--exercise", "velha"])
        .arg(dir.path().join("velha"))
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", said(&made));
    let stub = std::fs::read_to_string(dir.path().join("velha/src/velha/mod.rs")).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let statement = std::fs::read_to_string(root.join("EXERCISE.md")).unwrap();
    let signatures: Vec<&str> = stub
        .lines()
        .filter(|l| l.starts_with("pub fn "))
        .map(|l| l.trim_end_matches(" {"))
        .collect();
    assert_eq!(signatures.len(), 6, "{stub}");
    for signature in signatures {
        if signature.contains("BufRead") {
            let name = &signature[..signature.find('(').unwrap()];
            let stated = statement
                .lines()
                .find(|l| l.contains(&format!("`{name}(")))
                .unwrap_or_else(|| panic!("EXERCISE.md states no `{name}`"));
            assert!(
                stated.contains("&mut dyn BufRead") && stated.contains("&mut dyn Write"),
                "{stated}"
            );
        } else {
            assert!(
                statement.contains(&format!("`{signature}`")),
                "EXERCISE.md does not state `{signature}`"
            );
        }
    }
    let manifest =
        std::fs::read_to_string(root.join("exercises/velha/package/exercise.toml")).unwrap();
    let messages = manifest
        .split("[messages.pt-BR]")
        .nth(1)
        .and_then(|m| m.split("\n[").next())
        .unwrap();
    for line in messages.lines().filter_map(|l| l.split_once(" = ")) {
        let pattern = line.1.trim_matches('"');
        for part in pattern.split("{}").filter(|p| p.trim().len() >= 3) {
            assert!(
                statement.contains(&format!("`{part}")),
                "EXERCISE.md does not write {part:?} ({})",
                line.0
            );
        }
    }
}

/// A built-in package's manifest is in the students' build of the kit:
/// it names no hidden case (a variant leaves out its base's robustness
/// part with `robustness = false`, not by the hidden cases' names).
#[test]
fn no_built_in_manifest_names_a_hidden_case() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../exercises");
    let folders = |dir: &Path| -> Vec<std::path::PathBuf> {
        std::fs::read_dir(dir)
            .map(|d| {
                d.map(|e| e.unwrap().path())
                    .filter(|p| p.is_dir())
                    .collect()
            })
            .unwrap_or_default()
    };
    let packages: Vec<std::path::PathBuf> = folders(&root)
        .iter()
        .flat_map(|game| folders(game))
        .filter(|p| p.join("exercise.toml").is_file())
        .collect();
    assert!(!packages.is_empty());
    let hidden: Vec<String> = packages
        .iter()
        .flat_map(|p| {
            std::fs::read_dir(p.join("hidden/cases"))
                .into_iter()
                .flatten()
        })
        .map(|e| {
            e.unwrap()
                .path()
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    for package in &packages {
        let manifest = std::fs::read_to_string(package.join("exercise.toml")).unwrap();
        for name in &hidden {
            assert!(
                !manifest.contains(name.as_str()),
                "{}: names the hidden case {name}",
                package.display()
            );
        }
    }
}
