//! `boardkit new NAME DIR`: a package that `boardkit verify` passes as it
//! stands, to start an exercise from: one function (`total`) and one
//! program session, a reference in Rust and in Python, one wrong
//! submission, a hidden case, and a statement skeleton with its rules.

use std::path::Path;

/// The package's files, `{name}` and `{title}` filled in.
const FILES: &[(&str, &str)] = &[
    (
        "exercise.toml",
        r#"# The exercise's one definition (docs/authors.md explains every key).
format = 1
name = "{name}"
title = "{title}"
levels = ["basic", "proficient"]

[statement]
en = "statement/en.md"

# The lines the program prints that are graded; `{}` stands for any text.
# Any other line (a prompt, a greeting) is the student's own.
[messages.en]
total = "Total: {}"
not_a_number = "Not a number: {}"

[[function]]
name = "total"
doc = "The sum of `numbers` (0 for none)."
args = [{ name = "numbers", type = "list<int>" }]
returns = "int"

[program]
function = "play"
doc = "Reads one number a line until the input ends, then prints the total."

[reference]
rust = "reference/rust"
python = "reference/python"

[hints]
# A hint is its text (for the first level), or says its level, the
# words of the cases it helps with, and the one language it is for.
en = [
  { level = "basic", language = "rust", text = "Start with `total`: a loop, or an iterator's `sum()`." },
  { level = "basic", language = "python", text = "Start with `total`: a loop, or Python's `sum`." },
  { level = "proficient", about = ["session"], text = "The program reads lines until there are none left." },
]
"#,
    ),
    (
        "statement/en.md",
        r#"# {title}

Write the functions below in your folder. Each numbered rule is graded by
the cases that cite it.

## Basic

<a id="rule-1"></a>**Rule 1.** `total(numbers)` returns the sum of the
list of integers `numbers`, and 0 for an empty list.

## Proficient

<a id="rule-2"></a>**Rule 2.** The program reads one line at a time until
its input ends. A line holding an integer adds it to the total; any other
line prints `Not a number: <the line>`. At the end it prints
`Total: <the total>`.
"#,
    ),
    (
        "cases/total_small.toml",
        r#"level = "basic"
rule = 1
description = "the sum of a few numbers, and of none"
function = "total"

[[call]]
args = [[1, 2, 3]]
expect = 6

[[call]]
args = [[]]
expect = 0
"#,
    ),
    (
        "cases/three_numbers.toml",
        r#"level = "proficient"
points = 2
rule = 2
description = "three numbers and a word, then the total"
input = ["3", "4", "x", "5"]
expect = [
  "Not a number: x",
  "Total: 12",
]
"#,
    ),
    (
        "hidden/cases/total_negative.toml",
        r#"level = "basic"
rule = 1
description = "negative numbers count too"
varies = "total_small"
function = "total"

[[call]]
args = [[-4, 10, -1]]
expect = 5
"#,
    ),
    (
        "reference/rust/mod.rs",
        r#"//! The reference: the student's folder, as it should be written.

use std::io::{BufRead, Write};

/// The sum of `numbers` (0 for none).
pub fn total(numbers: &[i64]) -> i64 {
    numbers.iter().sum()
}

/// Reads one number a line until the input ends, then prints the total.
pub fn play(input: &mut dyn BufRead, output: &mut dyn Write) -> std::io::Result<()> {
    let mut numbers = Vec::new();
    for line in input.lines() {
        let line = line?;
        match line.trim().parse::<i64>() {
            Ok(n) => numbers.push(n),
            Err(_) => writeln!(output, "Not a number: {line}")?,
        }
    }
    writeln!(output, "Total: {}", total(&numbers))
}
"#,
    ),
    (
        "reference/python/{name}.py",
        r#""""The reference: the student's module, as it should be written."""


def total(numbers: list[int]) -> int:
    """The sum of `numbers` (0 for none)."""
    return sum(numbers)


def play() -> None:
    """Reads one number a line until the input ends, then prints the total."""
    numbers = []
    while True:
        try:
            line = input()
        except EOFError:
            break
        try:
            numbers.append(int(line.strip()))
        except ValueError:
            print("Not a number: " + line)
    print("Total: " + str(total(numbers)))


if __name__ == "__main__":
    play()
"#,
    ),
    (
        "submissions/says_sum/submission.toml",
        r#"language = "python"
reaches = "basic"
description = "prints `Sum:` where the statement says `Total:`"
"#,
    ),
    (
        "submissions/says_sum/{name}.py",
        r#"def total(numbers):
    return sum(numbers)


def play():
    numbers = []
    while True:
        try:
            line = input()
        except EOFError:
            break
        try:
            numbers.append(int(line))
        except ValueError:
            print("Not a number: " + line)
    print("Sum: " + str(total(numbers)))


if __name__ == "__main__":
    play()
"#,
    ),
];

/// Writes the package `name` into `dir` (new, or empty); returns the
/// files written.
pub(crate) fn write(name: &str, dir: &Path) -> Result<Vec<String>, String> {
    super::manifest::identifier(&toml::Spanned::new(0..0, name.to_owned()))?;
    if std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_some()) {
        return Err(format!(
            "{} is not empty: a new package goes into a new or empty folder",
            dir.display()
        ));
    }
    let title: String = name
        .split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
        })
        .collect::<Vec<_>>()
        .join(" ");
    let mut written = Vec::new();
    for (file, text) in FILES {
        let file = file.replace("{name}", name);
        let text = text.replace("{name}", name).replace("{title}", &title);
        let path = dir.join(&file);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        written.push(file);
    }
    Ok(written)
}
