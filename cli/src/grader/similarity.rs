//! Which submissions look copied from one another, or from the example
//! solution: the similarity report, for the instructor only.
//!
//! Each file is parsed with tree-sitter (Rust and Python grammars) into its
//! leaves; comments are dropped, every identifier becomes `ID` and every
//! literal `LIT`, so renaming, comments and formatting change nothing.
//! A submission is the set of hashes of its runs of [`K`] such tokens: a
//! reordering of functions only loses the few runs across their borders.
//! Runs the starter's stub already holds (what every student starts from)
//! never count. Two submissions score `2 |A ∩ B| / (|A| + |B|)`, from 0 to
//! 1. It flags; it never changes a grade.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Tokens in a run: long enough that independent solutions of one small
/// exercise share few runs, short enough that a copied function shares many.
pub(crate) const K: usize = 12;

/// The pairs the report shows in full.
const SHOWN: usize = 10;

/// The name the example solution goes by in the report.
pub(crate) const EXAMPLE: &str = "(example solution)";

/// A source file as tokens.
#[derive(Debug, Clone)]
struct File {
    path: String,
    /// Each token: its normalized kind, and its bytes in `text`.
    tokens: Vec<(u64, std::ops::Range<usize>)>,
}

/// The most bytes of source read of one submission: a solution is a few
/// dozen KiB; padding past this is not read (nor held in memory).
const SOURCE_BUDGET: usize = 512 << 10;

/// The most bytes of one shared fragment the report shows.
const FRAGMENT_SHOWN: usize = 4 << 10;

/// One submission (or the example) as the report sees it.
#[derive(Debug, Clone)]
pub(crate) struct Work {
    pub name: String,
    /// Its sources (path, text), within [`SOURCE_BUDGET`]: tokenized again
    /// only for the pairs the report shows.
    sources: Vec<(String, String)>,
    /// The hashes of its runs, the stub's taken out.
    runs: BTreeSet<u64>,
}

/// A pair and its score.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Pair {
    pub a: String,
    pub b: String,
    pub score: f64,
}

/// The report: every pair, highest first, and what it needs to show the
/// top ones' fragments.
#[derive(Debug, Clone, Default)]
pub(crate) struct Similarity {
    pub pairs: Vec<Pair>,
    /// Each student against each work of the corpus (earlier terms, known
    /// solutions), highest first: a section of its own.
    pub corpus_pairs: Vec<Pair>,
    works: BTreeMap<String, Work>,
    /// `similarity.csv`'s most rows (`--similarity-top`).
    top: Option<usize>,
}

/// How a class is compared (`--similarity-common`, `--similarity-corpus`,
/// `--similarity-top`), kept in `run.json` so a merge compares alike.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Options {
    /// Fragments found in more than this share of the class are left out
    /// (MOSS's `-m`): code most of the class shares (a lecture's snippet)
    /// says nothing of a pair. Applied to classes of [`COMMON_MIN_CLASS`]
    /// or more.
    pub common: f64,
    /// A folder of earlier terms' submissions and known solutions, one
    /// folder each: compared with every student, never with each other.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corpus: Option<std::path::PathBuf>,
    /// `similarity.csv` keeps this many pairs, the highest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top: Option<usize>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            common: DEFAULT_COMMON,
            corpus: None,
            top: None,
        }
    }
}

/// `--similarity-common`'s default: what more than half the class shares.
pub(crate) const DEFAULT_COMMON: f64 = 0.5;

/// The smallest class whose shared fragments are left out: in a smaller
/// one, "most of the class" is a pair or two.
pub(crate) const COMMON_MIN_CLASS: usize = 10;

/// The corpus's works' names start so.
pub(crate) const CORPUS: &str = "corpus:";

fn language(path: &str) -> Option<tree_sitter::Language> {
    match Path::new(path).extension()?.to_str()? {
        "rs" => Some(tree_sitter_rust::LANGUAGE.into()),
        "py" => Some(tree_sitter_python::LANGUAGE.into()),
        _ => None,
    }
}

fn hash(bytes: &[u8]) -> u64 {
    // FNV-1a: stable across runs and machines, as a report must be.
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The normalized kind of a leaf, `None` for what never counts.
fn normalized(kind: &str) -> Option<&str> {
    if kind.contains("comment") {
        return None;
    }
    if kind.ends_with("identifier") || kind == "self" || kind == "metavariable" {
        return Some("ID");
    }
    let literal = kind.ends_with("literal")
        || matches!(
            kind,
            "string" | "integer" | "float" | "true" | "false" | "none" | "concatenated_string"
        );
    Some(if literal { "LIT" } else { kind })
}

/// Whether a node is one token whatever it holds (a string and its parts).
fn atomic(kind: &str) -> bool {
    matches!(
        kind,
        "string" | "string_literal" | "raw_string_literal" | "char_literal" | "concatenated_string"
    )
}

fn tokenize(path: &str, text: &str) -> Option<File> {
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&language(path)?).ok()?;
    let tree = parser.parse(text, None)?;
    let mut tokens = Vec::new();
    let mut cursor = tree.walk();
    loop {
        let node = cursor.node();
        let kind = node.kind();
        // A comment is skipped whole, its markers and text with it.
        let leaf = node.child_count() == 0 || atomic(kind) || kind.contains("comment");
        if leaf {
            if let Some(kind) = normalized(kind) {
                tokens.push((hash(kind.as_bytes()), node.start_byte()..node.end_byte()));
            }
        }
        if !leaf && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return Some(File {
                    path: path.to_owned(),
                    tokens,
                });
            }
        }
    }
}

/// The hashes of a file's runs of [`K`] tokens, with where each starts.
fn runs(file: &File) -> impl Iterator<Item = (u64, usize)> + '_ {
    file.tokens.windows(K).enumerate().map(|(at, window)| {
        let bytes: Vec<u8> = window.iter().flat_map(|(h, _)| h.to_le_bytes()).collect();
        (hash(&bytes), at)
    })
}

/// The Rust and Python files below `dir`, as (path inside, text), sorted.
pub(crate) fn sources(dir: &Path) -> Vec<(String, String)> {
    super::submission::files_below(dir)
        .into_iter()
        .filter_map(|path| {
            let inside = path.strip_prefix(dir).ok()?.to_string_lossy().into_owned();
            language(&inside)?;
            Some((inside, std::fs::read_to_string(&path).ok()?))
        })
        .collect()
}

impl Work {
    /// `files` (path, text) of `name`, less the runs in `base`.
    pub(crate) fn new(name: &str, files: &[(String, String)], base: &BTreeSet<u64>) -> Work {
        let mut left = SOURCE_BUDGET;
        let sources: Vec<(String, String)> = files
            .iter()
            .filter(|(_, text)| {
                let fits = text.len() <= left;
                if fits {
                    left -= text.len();
                }
                fits
            })
            .cloned()
            .collect();
        let mut hashes = BTreeSet::new();
        for (path, text) in &sources {
            if let Some(file) = tokenize(path, text) {
                hashes.extend(runs(&file).map(|(h, _)| h));
            }
        }
        hashes.retain(|h| !base.contains(h));
        Work {
            name: name.to_owned(),
            sources,
            runs: hashes,
        }
    }

    fn files(&self) -> Vec<File> {
        self.sources
            .iter()
            .filter_map(|(path, text)| tokenize(path, text))
            .collect()
    }

    fn score(&self, other: &Work) -> f64 {
        let total = self.runs.len() + other.runs.len();
        if total == 0 {
            return 0.0;
        }
        let shared = self.runs.intersection(&other.runs).count();
        2.0 * shared as f64 / total as f64
    }

    /// The parts of each file made of runs `other` holds too: (path, byte
    /// ranges, merged), the longest first.
    fn shared_parts(&self, other: &Work) -> Vec<(String, std::ops::Range<usize>)> {
        let mut parts = Vec::new();
        for file in &self.files() {
            let mut spans: Vec<std::ops::Range<usize>> = Vec::new();
            for (h, at) in runs(file) {
                if !other.runs.contains(&h) || !self.runs.contains(&h) {
                    continue;
                }
                let span = file.tokens[at].1.start..file.tokens[at + K - 1].1.end;
                match spans.last_mut() {
                    Some(last) if span.start <= last.end => last.end = last.end.max(span.end),
                    _ => spans.push(span),
                }
            }
            parts.extend(spans.into_iter().map(|s| (file.path.clone(), s)));
        }
        parts.sort_by_key(|(_, s)| std::cmp::Reverse(s.len()));
        parts
    }

    fn text(&self, path: &str, span: &std::ops::Range<usize>) -> &str {
        self.sources
            .iter()
            .find(|(p, _)| p == path)
            .and_then(|(_, text)| text.get(span.clone()))
            .unwrap_or_default()
    }
}

/// The base's runs: what every student is given (the starter's stub).
pub(crate) fn base_runs(files: &[(String, String)]) -> BTreeSet<u64> {
    Work::new("", files, &BTreeSet::new()).runs
}

/// Leaves out of every work the runs more than `share` of them hold.
fn leave_out_common(works: &mut [Work], share: f64) {
    if works.len() < COMMON_MIN_CLASS {
        return;
    }
    let mut holders: BTreeMap<u64, usize> = BTreeMap::new();
    for work in works.iter() {
        for run in &work.runs {
            *holders.entry(*run).or_default() += 1;
        }
    }
    let most = (share * works.len() as f64).floor() as usize;
    let common: BTreeSet<u64> = holders
        .into_iter()
        .filter(|(_, n)| *n > most)
        .map(|(run, _)| run)
        .collect();
    for work in works.iter_mut() {
        work.runs.retain(|run| !common.contains(run));
    }
}

/// Sorts pairs highest first, then by names.
fn sort(pairs: &mut [Pair]) {
    pairs.sort_by(|x, y| {
        y.score
            .total_cmp(&x.score)
            .then_with(|| (&x.a, &x.b).cmp(&(&y.a, &y.b)))
    });
}

impl Similarity {
    /// [`Similarity::new`], with the class's shared fragments left out and
    /// each student also against each work of `corpus`.
    pub(crate) fn with(
        mut works: Vec<Work>,
        example: Option<Work>,
        corpus: Vec<Work>,
        options: &Options,
    ) -> Similarity {
        leave_out_common(&mut works, options.common);
        let mut corpus_pairs = Vec::new();
        for a in &works {
            for c in &corpus {
                corpus_pairs.push(Pair {
                    a: a.name.clone(),
                    b: c.name.clone(),
                    score: a.score(c),
                });
            }
        }
        sort(&mut corpus_pairs);
        let mut similarity = Similarity::new(works, example);
        similarity.corpus_pairs = corpus_pairs;
        similarity.top = options.top;
        for work in corpus {
            similarity.works.insert(work.name.clone(), work);
        }
        similarity
    }

    /// Every pair of `works`, and each against `example` if there is one,
    /// highest first (then by names).
    pub(crate) fn new(works: Vec<Work>, example: Option<Work>) -> Similarity {
        let mut pairs = Vec::new();
        for (i, a) in works.iter().enumerate() {
            for b in &works[i + 1..] {
                pairs.push(Pair {
                    a: a.name.clone(),
                    b: b.name.clone(),
                    score: a.score(b),
                });
            }
            if let Some(example) = &example {
                pairs.push(Pair {
                    a: a.name.clone(),
                    b: EXAMPLE.to_owned(),
                    score: a.score(example),
                });
            }
        }
        sort(&mut pairs);
        let works = works
            .into_iter()
            .chain(example)
            .map(|w| (w.name.clone(), w))
            .collect();
        Similarity {
            pairs,
            corpus_pairs: Vec::new(),
            works,
            top: None,
        }
    }

    /// `similarity.csv`: `a,b,score`, highest first.
    pub(crate) fn csv(&self) -> String {
        let mut out = String::from("a,b,score\n");
        let mut pairs: Vec<&Pair> = self.pairs.iter().chain(&self.corpus_pairs).collect();
        pairs.sort_by(|x, y| {
            y.score
                .total_cmp(&x.score)
                .then_with(|| (&x.a, &x.b).cmp(&(&y.a, &y.b)))
        });
        for pair in pairs.into_iter().take(self.top.unwrap_or(usize::MAX)) {
            out.push_str(&format!(
                "{},{},{:.3}\n",
                super::shown::csv_field(&pair.a),
                super::shown::csv_field(&pair.b),
                pair.score
            ));
        }
        out
    }

    /// The report's section: the top pairs, each with its longest shared
    /// fragments side by side.
    pub(crate) fn html(&self) -> String {
        let mut out = String::from(
            "<h2 id=\"similarity\">Similarity</h2>\n<p class=\"meta\">Pairs of submissions (and each against the example solution) \
             by how much of their code is the same once names, literals, comments and layout are set aside, \
             the starter's stub left out: from 0 (nothing) to 1 (all). A high score is a reason to look, not a verdict; \
             it changes no grade. Fragments found in more than a share of a class of ten or more are left out \
             (<code>--similarity-common</code>, half by default). The pairs are in <code>similarity.csv</code>.</p>\n",
        );
        if self.pairs.is_empty() {
            out.push_str("<p>No pair to compare.</p>\n");
            return out;
        }
        out.push_str(&self.pairs_html(&self.pairs));
        if !self.corpus_pairs.is_empty() {
            out.push_str(
                "<h3 id=\"similarity-corpus\">Against the corpus</h3>\n<p class=\"meta\">Each student against the \
                 earlier terms' submissions and the known solutions of <code>--similarity-corpus</code>.</p>\n",
            );
            out.push_str(&self.pairs_html(&self.corpus_pairs));
        }
        out
    }

    /// A table of the top `pairs`, then each one's longest shared fragments.
    fn pairs_html(&self, pairs: &[Pair]) -> String {
        let escape = super::shown::escape;
        let mut out = String::new();
        out.push_str("<table><tr><th>a</th><th>b</th><th class=\"num\">score</th></tr>\n");
        for pair in pairs.iter().take(SHOWN) {
            out.push_str(&format!(
                "<tr><td>{}</td><td>{}</td><td class=\"num\">{:.2}</td></tr>\n",
                escape(&pair.a),
                escape(&pair.b),
                pair.score
            ));
        }
        out.push_str("</table>\n");
        for pair in pairs.iter().take(SHOWN).filter(|p| p.score > 0.0) {
            let (Some(a), Some(b)) = (self.works.get(&pair.a), self.works.get(&pair.b)) else {
                continue;
            };
            let side = |work: &Work, other: &Work| {
                let mut html = String::new();
                for (path, span) in work.shared_parts(other).iter().take(3) {
                    html.push_str(&format!(
                        "<p class=\"meta\">{}</p><pre tabindex=\"0\">{}</pre>",
                        escape(path),
                        escape(&boardkit::judge::clip(
                            work.text(path, span),
                            FRAGMENT_SHOWN
                        ))
                    ));
                }
                html
            };
            out.push_str(&format!(
                "<details><summary>{} and {}: {:.2}</summary>\
                 <div class=\"pair\"><div><h3>{}</h3>{}</div><div><h3>{}</h3>{}</div></div></details>\n",
                escape(&pair.a),
                escape(&pair.b),
                pair.score,
                escape(&pair.a),
                side(a, b),
                escape(&pair.b),
                side(b, a)
            ));
        }
        out
    }
}

/// Reads `similarity.csv` back (for tests and merges).
#[cfg(test)]
pub(crate) fn read_csv(text: &str) -> Vec<(String, String, f64)> {
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let mut fields = line.rsplitn(3, ',');
            let score = fields.next()?.parse().ok()?;
            let b = fields.next()?.to_owned();
            let a = fields.next()?.to_owned();
            Some((a, b, score))
        })
        .collect()
}

/// The similarity of the submissions `names`, from their copies taken into
/// the first of `outs` that has each (`<out>/.work/taken/<name>`), less the
/// starter's stub; crates are also compared with the example solution.
pub(crate) fn of_class<'a>(
    game: &str,
    crates: bool,
    names: impl Iterator<Item = &'a String>,
    outs: &[&Path],
    options: &Options,
) -> Similarity {
    let manifest = crate::exercise_data::manifest(game).ok();
    let mut base = Vec::new();
    let mut example = None;
    if let (Some(manifest), true) = (&manifest, crates) {
        let solution = &manifest.files.solution;
        let text = |(path, bytes): (&str, &[u8])| {
            (
                format!("{solution}/{path}"),
                String::from_utf8_lossy(bytes).into_owned(),
            )
        };
        base = crate::exercise_data::folder(&manifest.files.stub)
            .into_iter()
            .map(text)
            .collect();
        let reference: Vec<_> = crate::exercise_data::folder(solution)
            .into_iter()
            .map(text)
            .collect();
        example = Some(reference);
    }
    let base_runs = base_runs(&base);
    let works = names
        .map(|name| {
            let taken = outs
                .iter()
                .map(|out| out.join(".work/taken").join(name))
                .find(|dir| dir.is_dir());
            let files = taken.map(|d| sources(&d)).unwrap_or_default();
            Work::new(name, &files, &base_runs)
        })
        .collect();
    let example = example.map(|files| Work::new(EXAMPLE, &files, &base_runs));
    // The corpus: each folder of `--similarity-corpus`, one work.
    let mut corpus = Vec::new();
    if let Some(dir) = &options.corpus {
        let mut folders: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        folders.sort();
        for folder in folders {
            let name = folder
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            corpus.push(Work::new(
                &format!("{CORPUS}{name}"),
                &sources(&folder),
                &base_runs,
            ));
        }
    }
    Similarity::with(works, example, corpus, options)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kit(path: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
    }

    const RUST_KEYWORDS: &[&str] = &[
        "as", "break", "const", "continue", "crate", "else", "enum", "false", "fn", "for", "if",
        "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self",
        "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
        "while", "dyn", "u8", "u16", "u32", "u64", "usize", "i32", "i64", "isize", "bool", "char",
        "str", "f64", "String", "Vec", "Option", "Some", "None", "Ok", "Err", "Result", "Box",
    ];
    const PYTHON_KEYWORDS: &[&str] = &[
        "False", "None", "True", "and", "as", "assert", "break", "class", "continue", "def", "del",
        "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is",
        "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with",
        "yield", "self", "print", "range", "len", "str", "int", "sys", "os",
    ];

    /// `text` disguised as a copier would: every name renamed, comments
    /// dropped and others added, top-level items in reverse order, lines
    /// re-indented and spread.
    fn disguise(path: &str, text: &str) -> String {
        let rust = path.ends_with(".rs");
        let keywords = if rust { RUST_KEYWORDS } else { PYTHON_KEYWORDS };
        let comment = if rust { "//" } else { "#" };
        // Comments out (whole-line ones: safe in both languages).
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| !l.trim_start().starts_with(comment))
            .collect();
        // Top-level items, reversed (a new item starts at a line with no
        // indentation that is not a closing brace or a decorator's target).
        let mut items: Vec<Vec<&str>> = Vec::new();
        for line in lines {
            let top = !line.starts_with([' ', '\t', '}', ')', ']']) && !line.is_empty();
            if top || items.is_empty() {
                items.push(Vec::new());
            }
            items.last_mut().expect("an item").push(line);
        }
        let header = if rust {
            0
        } else {
            items
                .iter()
                .take_while(|i| i[0].starts_with("import") || i[0].starts_with("from"))
                .count()
        };
        let (imports, rest) = items.split_at(header);
        let mut reordered: Vec<&Vec<&str>> = imports.iter().collect();
        reordered.extend(rest.iter().rev());
        let mut out = String::new();
        for item in reordered {
            out.push_str(&format!("{comment} part\n"));
            for line in item {
                out.push_str(line);
                out.push('\n');
            }
            out.push('\n');
        }
        // Every identifier renamed, the same way everywhere.
        let mut renamed = String::new();
        let mut word = String::new();
        let mut in_string = None;
        for c in out.chars().chain(std::iter::once('\n')) {
            if in_string.is_none() && (c.is_alphanumeric() || c == '_') {
                word.push(c);
                continue;
            }
            if !word.is_empty() {
                let keep = keywords.contains(&word.as_str())
                    || word.chars().next().is_some_and(|c| c.is_ascii_digit())
                    || word.len() == 1 && word.chars().all(char::is_uppercase);
                if keep {
                    renamed.push_str(&word);
                } else {
                    renamed.push_str(&format!("q{}", hash(word.as_bytes()) % 100_000));
                }
                word.clear();
            }
            match (in_string, c) {
                (None, '"') => in_string = Some('"'),
                (Some('"'), '"') => in_string = None,
                _ => {}
            }
            renamed.push(c);
        }
        renamed
    }

    fn solutions(prefix: &str) -> Vec<(String, Vec<(String, String)>)> {
        let dir = kit("exercises/velha/solutions");
        let mut found: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with(prefix))
            .map(|e| {
                (
                    e.file_name().to_string_lossy().into_owned(),
                    sources(&e.path()),
                )
            })
            .collect();
        found.sort();
        found
    }

    #[test]
    fn renaming_comments_and_layout_change_no_token() {
        let a = tokenize("a.rs", "fn f(x: u8) -> u8 { x + 1 } // one").unwrap();
        let b = tokenize("b.rs", "// two\nfn   g(\n  y: u8\n) -> u8 {\n y + 7\n}").unwrap();
        let kinds = |f: &File| f.tokens.iter().map(|t| t.0).collect::<Vec<_>>();
        assert_eq!(kinds(&a), kinds(&b));
        let p = tokenize("p.py", "def f(x):\n    return x + 'a'  # c\n").unwrap();
        let q = tokenize("q.py", "def g(y):\n    return y + \"bcd\"\n").unwrap();
        assert_eq!(kinds(&p), kinds(&q));
        assert!(tokenize("notes.txt", "x").is_none());
    }

    #[test]
    fn what_most_of_the_class_shares_is_left_out_and_the_corpus_is_its_own_section() {
        // A lecture's snippet every student pasted, and code of their own;
        // two students also share a function no one else wrote.
        let snippet = "def ler_posicao(texto):\n    texto = texto.strip().upper()\n    if len(texto) != 2:\n        return None\n    linha = ord(texto[0]) - ord('A')\n    coluna = int(texto[1]) - 1\n    return (linha, coluna)\n";
        let own = |i: usize| {
            let mut body = String::new();
            for k in 0..6 {
                body.push_str(&format!(
                    "def f{i}_{k}(x):\n    y = x * {i} + {k}\n    while y > {k}:\n        y = y - {i} - 1\n    return [y] * {k}\n"
                ));
            }
            body
        };
        let shared = "def vencedor(t):\n    for l in t:\n        if l[0] == l[1] == l[2] != ' ':\n            return l[0]\n    return 'N'\n";
        let works: Vec<Work> = (0..12)
            .map(|i| {
                let extra = if i < 2 { shared } else { "" };
                let text = format!("{snippet}{}{extra}", own(i));
                Work::new(
                    &format!("s{i:02}"),
                    &[("funcoes.py".to_owned(), text)],
                    &BTreeSet::new(),
                )
            })
            .collect();
        let corpus = vec![Work::new(
            "corpus:2025-ana",
            &[("funcoes.py".to_owned(), format!("{}{shared}", own(40)))],
            &BTreeSet::new(),
        )];
        let options = Options {
            top: Some(5),
            ..Options::default()
        };
        let left_out = Similarity::with(works.clone(), None, corpus.clone(), &options);
        let kept = Similarity::with(
            works,
            None,
            corpus,
            &Options {
                common: 1.0,
                ..Options::default()
            },
        );
        let score = |s: &Similarity, a: &str, b: &str| {
            s.pairs.iter().find(|p| p.a == a && p.b == b).unwrap().score
        };
        // The snippet left out, two independent students share nothing.
        assert!(score(&kept, "s03", "s04") > 0.1);
        assert_eq!(score(&left_out, "s03", "s04"), 0.0);
        assert_eq!(left_out.pairs[0].a, "s00");
        assert_eq!(left_out.pairs[0].b, "s01");
        // The corpus: students against it, never among its works.
        assert_eq!(left_out.corpus_pairs.len(), 12);
        assert!(left_out.corpus_pairs[0].score > 0.0);
        assert!(left_out.corpus_pairs[0].b.starts_with(CORPUS));
        assert!(left_out.html().contains("Against the corpus"));
        // --similarity-top: the highest pairs alone.
        assert_eq!(left_out.csv().lines().count(), 1 + 5);
    }

    #[test]
    fn disguised_copies_rank_above_every_independent_pair() {
        let stub = sources(&kit("exercises/velha/stub"));
        let stub: Vec<_> = stub
            .into_iter()
            .map(|(p, t)| (format!("src/velha/{p}"), t))
            .collect();
        for (prefix, base) in [("rust_", base_runs(&stub)), ("python_", BTreeSet::new())] {
            let originals = solutions(prefix);
            assert!(originals.len() >= 3, "{prefix}: {}", originals.len());
            let mut works: Vec<Work> = originals
                .iter()
                .map(|(name, files)| Work::new(name, files, &base))
                .collect();
            for (name, files) in &originals {
                let disguised: Vec<(String, String)> = files
                    .iter()
                    .map(|(p, t)| (p.clone(), disguise(p, t)))
                    .collect();
                assert_ne!(&disguised, files);
                works.push(Work::new(&format!("{name}~copy"), &disguised, &base));
            }
            let similarity = Similarity::new(works, None);
            let copied = |p: &Pair| p.a.trim_end_matches("~copy") == p.b.trim_end_matches("~copy");
            let lowest_copy = similarity
                .pairs
                .iter()
                .filter(|p| copied(p))
                .map(|p| p.score)
                .fold(f64::INFINITY, f64::min);
            let highest_independent = similarity
                .pairs
                .iter()
                .filter(|p| !copied(p))
                .map(|p| p.score)
                .fold(0.0, f64::max);
            assert!(
                lowest_copy > highest_independent,
                "{prefix}: a disguised copy at {lowest_copy:.3}, an independent pair at \
                 {highest_independent:.3}\n{}",
                similarity.csv()
            );
            assert!(lowest_copy > 0.6, "{prefix}: {lowest_copy:.3}");
            // Seen with --nocapture: the margin, for the record.
            eprintln!("{prefix}{}", similarity.csv());
        }
    }

    #[test]
    fn the_stub_is_shared_by_everyone_and_counts_for_no_one() {
        let stub = vec![(
            "mod.rs".to_owned(),
            "pub fn f() -> u8 { todo!() }\npub fn g(a: u8, b: u8) -> u8 { todo!() }".repeat(3),
        )];
        let base = base_runs(&stub);
        let one = Work::new("one", &stub, &base);
        let two = Work::new("two", &stub, &base);
        assert_eq!(one.score(&two), 0.0);
        let similarity = Similarity::new(vec![one, two], None);
        assert_eq!(
            read_csv(&similarity.csv()),
            [("one".into(), "two".into(), 0.0)]
        );
    }
}
