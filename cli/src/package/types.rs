//! The types of a package's API (`list<int>`, `grid<char, 3, 3>`,
//! `option<tuple<int, int>>`, ...): read from their names, checked against
//! the values a case file gives, and spelt as Rust and Python write them.
//!
//! A value in a case file is TOML. Two types have no TOML of their own:
//! an `option` is its value, or `{}` for none; a `result` is its value, or
//! `{ error = true }` for an error (any error: its message is the
//! student's). Answers travel as JSON, in one canonical form that both
//! languages' callers print and [`Type::canonical`] gives a case's value.

use serde_json::Value as Json;
use toml::Value;

/// One type of the API.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Type {
    Bool,
    Int,
    /// A whole number of 0 or more: `usize` in Rust (an index, a count).
    Uint,
    Char,
    Str,
    List(Box<Type>),
    /// Rows, then columns.
    Grid(Box<Type>, usize, usize),
    Tuple(Vec<Type>),
    Option(Box<Type>),
    /// A value, or an error: `Result<T, String>` in Rust, an exception
    /// raised in Python.
    Result(Box<Type>),
    /// A type the statement gives (`[[type]]`, such as a `Code`).
    Named(Box<NamedType>),
    /// An object of a class the student writes (`[[class]]`), as an
    /// argument: a case writes how it is made, `{ new = [...], steps =
    /// [["method", ...], ...] }`.
    Object(Box<ObjectType>),
}

/// A class as an argument's type: what making one from a case's value
/// takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ObjectType {
    pub name: String,
    /// The student's module (`scoreboard`): Python's `scoreboard.Board`.
    pub module: String,
    /// The constructor's arguments.
    pub new: Vec<(String, Type)>,
    /// Whether the constructor may refuse its arguments.
    pub fails: bool,
    pub methods: Vec<ObjectMethod>,
}

/// A method, as making an object calls it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ObjectMethod {
    pub name: String,
    pub args: Vec<(String, Type)>,
    /// Whether it answers (its answer is dropped while making).
    pub answers: bool,
    /// Whether it changes the object.
    pub mutates: bool,
    /// Whether it may answer an error (dropped while making, as any
    /// answer).
    pub fails: bool,
}

impl ObjectType {
    /// The constructor's and the steps' values of an object's value
    /// (`{ new = [...], steps = [...] }`), checked against the class.
    pub(crate) fn parts<'a>(
        &self,
        value: &'a Value,
    ) -> Result<(&'a [Value], Vec<Step<'a>>), String> {
        let Value::Table(table) = value else {
            return Err(format!(
                "{} is not a `{}`: expected `{{ new = [...], steps = [[\"method\", ...], ...] }}`",
                short(value),
                self.name
            ));
        };
        if let Some(key) = table.keys().find(|k| *k != "new" && *k != "steps") {
            return Err(format!(
                "`{}`'s value has `{key}`: expected `new` and `steps`",
                self.name
            ));
        }
        let list = |key: &str| match table.get(key) {
            None => Ok(&[][..]),
            Some(Value::Array(items)) => Ok(items.as_slice()),
            Some(other) => Err(format!("`{key}` is {}: expected a list", short(other))),
        };
        let new = list("new")?;
        if new.len() != self.new.len() {
            return Err(format!(
                "`new`: `{}` is made from {}, not {}",
                self.name,
                counted(self.new.len(), "argument"),
                new.len()
            ));
        }
        for ((name, t), v) in self.new.iter().zip(new) {
            t.check(v)
                .map_err(|m| format!("`new`, argument `{name}`: {m}"))?;
        }
        let mut steps = Vec::new();
        for step in list("steps")? {
            steps.push(self.step(step)?);
        }
        Ok((new, steps))
    }

    fn step<'a>(&self, step: &'a Value) -> Result<Step<'a>, String> {
        let wrong = || {
            let names: Vec<String> = self
                .methods
                .iter()
                .map(|m| format!("`{}`", m.name))
                .collect();
            format!(
                "`steps`: {} is not a method called: expected `[\"method\", arguments...]`, a method of {}",
                short(step),
                names.join(", ")
            )
        };
        let Value::Array(items) = step else {
            return Err(wrong());
        };
        let Some((Value::String(name), args)) = items.split_first() else {
            return Err(wrong());
        };
        let index = self
            .methods
            .iter()
            .position(|m| &m.name == name)
            .ok_or_else(wrong)?;
        let types = &self.methods[index].args;
        if args.len() != types.len() {
            return Err(format!(
                "`steps`: `{name}` takes {}, not {}",
                counted(types.len(), "argument"),
                args.len()
            ));
        }
        for ((arg, t), v) in types.iter().zip(args) {
            t.check(v)
                .map_err(|m| format!("`steps`, `{name}`'s argument `{arg}`: {m}"))?;
        }
        Ok(Step {
            method: index,
            args,
        })
    }
}

/// One step of an object's making: its method (an index) and arguments.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Step<'a> {
    pub method: usize,
    pub args: &'a [Value],
}

/// A type the statement gives (`[[type]]`, a `Code`): its name, the type
/// a case writes its values as (`list<uint>`), and each language's codec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NamedType {
    pub name: String,
    pub of: Type,
    pub rust: Codec,
    pub python: Codec,
}

/// How a language makes a given type's value from its written form, and
/// reads one back: expressions in which `{}` stands for the other
/// (`Code::from_colors({})`, `{}.colors().to_vec()`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Codec {
    pub make: String,
    pub read: String,
}

impl Codec {
    /// `template` with `value` where its `{}` is.
    pub(crate) fn fill(template: &str, value: &str) -> String {
        template.replacen("{}", value, 1)
    }
}

impl std::fmt::Display for Type {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Type::Bool => f.write_str("bool"),
            Type::Int => f.write_str("int"),
            Type::Uint => f.write_str("uint"),
            Type::Char => f.write_str("char"),
            Type::Str => f.write_str("string"),
            Type::List(t) => write!(f, "list<{t}>"),
            Type::Grid(t, r, c) => write!(f, "grid<{t}, {r}, {c}>"),
            Type::Tuple(ts) => {
                let inner: Vec<String> = ts.iter().map(ToString::to_string).collect();
                write!(f, "tuple<{}>", inner.join(", "))
            }
            Type::Option(t) => write!(f, "option<{t}>"),
            Type::Result(t) => write!(f, "result<{t}>"),
            Type::Named(named) => f.write_str(&named.name),
            Type::Object(object) => f.write_str(&object.name),
        }
    }
}

/// What the type names are, for errors.
pub(crate) const EXPECTED: &str = "bool, int, uint, char, string, list<T>, grid<T, ROWS, COLUMNS>, tuple<T, ...>, option<T>, result<T> or a type of the package's `[[type]]`";

impl std::str::FromStr for Type {
    type Err = String;

    fn from_str(text: &str) -> Result<Type, String> {
        Type::read(text, &Names::default())
    }
}

/// The package's own type names: the types the statement gives, and the
/// classes the student writes (an argument's type only).
#[derive(Debug, Clone, Default)]
pub(crate) struct Names {
    pub given: std::collections::BTreeMap<String, NamedType>,
    pub objects: std::collections::BTreeMap<String, ObjectType>,
}

impl Names {
    /// Whether `name` is one of them.
    pub(crate) fn has(&self, name: &str) -> bool {
        self.given.contains_key(name) || self.objects.contains_key(name)
    }
}

impl Type {
    /// The type `text` names, among the kit's and the package's own
    /// (`names`).
    pub(crate) fn read(text: &str, names: &Names) -> Result<Type, String> {
        let mut reader = Reader { text, at: 0, names };
        let parsed = reader.parse()?;
        reader.skip_spaces();
        if reader.at != text.len() {
            return Err(format!(
                "`{text}` has more after a type: expected {EXPECTED}"
            ));
        }
        Ok(parsed)
    }
}

/// A type's name, read left to right.
struct Reader<'a> {
    text: &'a str,
    at: usize,
    names: &'a Names,
}

impl Reader<'_> {
    fn skip_spaces(&mut self) {
        let rest = &self.text[self.at..];
        self.at += rest.len() - rest.trim_start().len();
    }

    fn word(&mut self) -> &str {
        self.skip_spaces();
        let rest = &self.text[self.at..];
        let len = rest
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .unwrap_or(rest.len());
        self.at += len;
        &rest[..len]
    }

    fn expect(&mut self, symbol: char) -> Result<(), String> {
        self.skip_spaces();
        if self.text[self.at..].starts_with(symbol) {
            self.at += 1;
            Ok(())
        } else {
            Err(format!(
                "`{}`: expected `{symbol}` at column {}",
                self.text,
                self.at + 1
            ))
        }
    }

    fn peek(&mut self, symbol: char) -> bool {
        self.skip_spaces();
        self.text[self.at..].starts_with(symbol)
    }

    fn size(&mut self) -> Result<usize, String> {
        let word = self.word().to_owned();
        match word.parse::<usize>() {
            Ok(n) if (1..=64).contains(&n) => Ok(n),
            _ => Err(format!(
                "`{}`: a grid's size is a number from 1 to 64, not `{word}`",
                self.text
            )),
        }
    }

    fn parse(&mut self) -> Result<Type, String> {
        let word = self.word().to_owned();
        let simple = match word.as_str() {
            "bool" => Some(Type::Bool),
            "int" => Some(Type::Int),
            "uint" => Some(Type::Uint),
            "char" => Some(Type::Char),
            "string" => Some(Type::Str),
            _ => None,
        };
        if let Some(simple) = simple {
            return Ok(simple);
        }
        if let Some(named) = self.names.given.get(&word) {
            return Ok(Type::Named(Box::new(named.clone())));
        }
        if let Some(object) = self.names.objects.get(&word) {
            return Ok(Type::Object(Box::new(object.clone())));
        }
        self.expect('<').map_err(|_| unknown(self.text, &word))?;
        let made = match word.as_str() {
            "list" => Type::List(Box::new(self.parse()?)),
            "option" => Type::Option(Box::new(self.parse()?)),
            "result" => Type::Result(Box::new(self.parse()?)),
            "grid" => {
                let cell = self.parse()?;
                self.expect(',')?;
                let rows = self.size()?;
                self.expect(',')?;
                Type::Grid(Box::new(cell), rows, self.size()?)
            }
            "tuple" => {
                let mut members = vec![self.parse()?];
                while self.peek(',') {
                    self.expect(',')?;
                    members.push(self.parse()?);
                }
                if members.len() > 6 {
                    return Err(format!("`{}`: a tuple has 6 members at most", self.text));
                }
                Type::Tuple(members)
            }
            _ => return Err(unknown(self.text, &word)),
        };
        self.expect('>')?;
        Ok(made)
    }
}

fn unknown(text: &str, word: &str) -> String {
    format!("`{text}`: unknown type `{word}`: expected {EXPECTED}")
}

impl Type {
    /// Whether `self` may be an argument (a result is only returned).
    pub(crate) fn holds_result(&self) -> bool {
        match self {
            Type::Result(_) => true,
            Type::List(t) | Type::Grid(t, _, _) | Type::Option(t) => t.holds_result(),
            Type::Named(named) => named.of.holds_result(),
            Type::Tuple(ts) => ts.iter().any(Type::holds_result),
            Type::Object(_) => false,
            _ => false,
        }
    }

    /// `self` as a failure shows a call's arguments: each given type's
    /// value as its name and its written value (`Fraction((1, 2))`), not
    /// its codec's code.
    pub(crate) fn shown(&self) -> Type {
        let each = |t: &Type| Box::new(t.shown());
        match self {
            Type::Named(named) => {
                let plain = Codec {
                    make: format!("{}({{}})", named.name),
                    read: "{}".into(),
                };
                Type::Named(Box::new(NamedType {
                    rust: plain.clone(),
                    python: plain,
                    ..(**named).clone()
                }))
            }
            Type::List(t) => Type::List(each(t)),
            Type::Grid(t, r, c) => Type::Grid(each(t), *r, *c),
            Type::Option(t) => Type::Option(each(t)),
            Type::Result(t) => Type::Result(each(t)),
            Type::Tuple(ts) => Type::Tuple(ts.iter().map(Type::shown).collect()),
            other => other.clone(),
        }
    }

    /// Whether an object is in `self`: a type no answer can have.
    pub(crate) fn holds_object(&self) -> bool {
        match self {
            Type::Object(_) => true,
            Type::List(t) | Type::Grid(t, _, _) | Type::Option(t) | Type::Result(t) => {
                t.holds_object()
            }
            Type::Tuple(ts) => ts.iter().any(Type::holds_object),
            _ => false,
        }
    }

    /// Whether the given type `name` is in `self`.
    pub(crate) fn mentions(&self, name: &str) -> bool {
        match self {
            Type::Named(named) => named.name == name,
            Type::Object(object) => object
                .new
                .iter()
                .chain(object.methods.iter().flat_map(|m| &m.args))
                .any(|(_, t)| t.mentions(name)),
            Type::List(t) | Type::Grid(t, _, _) | Type::Option(t) | Type::Result(t) => {
                t.mentions(name)
            }
            Type::Tuple(ts) => ts.iter().any(|t| t.mentions(name)),
            _ => false,
        }
    }

    /// Whether a given type (`[[type]]`) or an object is in `self`: a
    /// value made by code, not written as a literal.
    pub(crate) fn holds_named(&self) -> bool {
        match self {
            Type::Named(_) | Type::Object(_) => true,
            Type::List(t) | Type::Grid(t, _, _) | Type::Option(t) | Type::Result(t) => {
                t.holds_named()
            }
            Type::Tuple(ts) => ts.iter().any(Type::holds_named),
            _ => false,
        }
    }

    /// Checks `value` is a value of this type, as a case file writes it.
    pub(crate) fn check(&self, value: &Value) -> Result<(), String> {
        let wrong = || Err(format!("{} is not of type {self}", short(value)));
        match (self, value) {
            (Type::Bool, Value::Boolean(_)) | (Type::Int, Value::Integer(_)) => Ok(()),
            (Type::Str, Value::String(_)) => Ok(()),
            (Type::Uint, Value::Integer(i)) if *i >= 0 => Ok(()),
            (Type::Char, Value::String(s)) if s.chars().count() == 1 => Ok(()),
            (Type::List(t), Value::Array(items)) => items.iter().try_for_each(|v| t.check(v)),
            (Type::Grid(t, rows, columns), Value::Array(items)) => {
                if items.len() != *rows {
                    return Err(format!(
                        "{} has {} rows, not {rows}",
                        short(value),
                        items.len()
                    ));
                }
                items.iter().try_for_each(|row| match row {
                    Value::Array(cells) if cells.len() == *columns => {
                        cells.iter().try_for_each(|c| t.check(c))
                    }
                    _ => Err(format!("{} is not a row of {columns} cells", short(row))),
                })
            }
            (Type::Tuple(ts), Value::Array(items)) if items.len() == ts.len() => {
                ts.iter().zip(items).try_for_each(|(t, v)| t.check(v))
            }
            (Type::Option(_), Value::Table(t)) if t.is_empty() => Ok(()),
            (Type::Option(t), v) => t.check(v),
            (Type::Result(_), Value::Table(t)) if is_error(t) => Ok(()),
            (Type::Result(t), v) => t.check(v),
            (Type::Named(named), v) => named.of.check(v),
            (Type::Object(object), v) => object.parts(v).map(|_| ()),
            _ => wrong(),
        }
    }

    /// The canonical JSON of a checked `value`: what a caller prints for
    /// the answer it stands for.
    pub(crate) fn canonical(&self, value: &Value) -> Json {
        match (self, value) {
            (Type::Option(_), Value::Table(t)) if t.is_empty() => Json::Null,
            (Type::Option(t), v) => t.canonical(v),
            (Type::Result(_), Value::Table(t)) if is_error(t) => error_json(),
            (Type::Result(t), v) => t.canonical(v),
            (Type::Named(named), v) => named.of.canonical(v),
            (Type::Object(object), v) => object.canonical(v),
            (Type::List(t), Value::Array(items)) => {
                Json::Array(items.iter().map(|v| t.canonical(v)).collect())
            }
            (Type::Grid(t, _, _), Value::Array(rows)) => {
                let row = Type::List(t.clone());
                Json::Array(rows.iter().map(|r| row.canonical(r)).collect())
            }
            (Type::Tuple(ts), Value::Array(items)) => {
                Json::Array(ts.iter().zip(items).map(|(t, v)| t.canonical(v)).collect())
            }
            (_, Value::Boolean(b)) => Json::Bool(*b),
            (_, Value::Integer(i)) => Json::from(*i),
            (_, Value::String(s)) => Json::String(s.clone()),
            (_, other) => Json::String(other.to_string()),
        }
    }

    /// The TOML value of a canonical answer, if it is one of this type:
    /// what `bless` writes.
    pub(crate) fn value_of_answer(&self, json: &Json) -> Option<Value> {
        match (self, json) {
            (Type::Option(_), Json::Null) => Some(Value::Table(toml::Table::new())),
            (Type::Option(t), v) => t.value_of_answer(v),
            (Type::Result(_), v) if *v == error_json() => {
                let mut table = toml::Table::new();
                table.insert("error".into(), Value::Boolean(true));
                Some(Value::Table(table))
            }
            (Type::Result(t), v) => t.value_of_answer(v),
            (Type::Named(named), v) => named.of.value_of_answer(v),
            (Type::Bool, Json::Bool(b)) => Some(Value::Boolean(*b)),
            (Type::Int, Json::Number(n)) => n.as_i64().map(Value::Integer),
            (Type::Uint, Json::Number(n)) => n.as_i64().filter(|i| *i >= 0).map(Value::Integer),
            (Type::Str, Json::String(s)) => Some(Value::String(s.clone())),
            (Type::Char, Json::String(s)) if s.chars().count() == 1 => {
                Some(Value::String(s.clone()))
            }
            (Type::List(t), Json::Array(items)) => items
                .iter()
                .map(|v| t.value_of_answer(v))
                .collect::<Option<Vec<_>>>()
                .map(Value::Array),
            (Type::Grid(t, rows, columns), Json::Array(items)) if items.len() == *rows => items
                .iter()
                .map(|row| match row {
                    Json::Array(cells) if cells.len() == *columns => cells
                        .iter()
                        .map(|c| t.value_of_answer(c))
                        .collect::<Option<Vec<_>>>()
                        .map(Value::Array),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()
                .map(Value::Array),
            (Type::Tuple(ts), Json::Array(items)) if items.len() == ts.len() => ts
                .iter()
                .zip(items)
                .map(|(t, v)| t.value_of_answer(v))
                .collect::<Option<Vec<_>>>()
                .map(Value::Array),
            _ => None,
        }
    }
}

impl ObjectType {
    /// A checked object's value as the callers read it: `[[new...],
    /// [["method", args...], ...]]`.
    fn canonical(&self, value: &Value) -> Json {
        let Ok((new, steps)) = self.parts(value) else {
            return Json::Null;
        };
        let new = self
            .new
            .iter()
            .zip(new)
            .map(|((_, t), v)| t.canonical(v))
            .collect();
        let steps = steps
            .iter()
            .map(|step| {
                let method = &self.methods[step.method];
                let mut items = vec![Json::String(method.name.clone())];
                items.extend(
                    method
                        .args
                        .iter()
                        .zip(step.args)
                        .map(|((_, t), v)| t.canonical(v)),
                );
                Json::Array(items)
            })
            .collect();
        Json::Array(vec![Json::Array(new), Json::Array(steps)])
    }
}

/// `n` things: "1 argument", "2 arguments".
pub(crate) fn counted(n: usize, thing: &str) -> String {
    match n {
        1 => format!("1 {thing}"),
        _ => format!("{n} {thing}s"),
    }
}

/// An answer as the student's language would print it: `None` (Rust and
/// Python), `True` (Python), an error in the active catalogue's words.
pub(crate) fn shown_answer(answer: &Json, language: super::Language) -> String {
    let error = match language {
        super::Language::Rust => boardkit::catalogue::t("an Err(..)"),
        super::Language::Python => boardkit::catalogue::t("an exception"),
    };
    shown_answer_saying(answer, language, error)
}

/// An answer of type `t` as the student's language writes such a value:
/// in Rust `Some('X')`, `Ok(3)`, `(1, 2)`; in Python `"X"`, `3`, `True`;
/// a given type's in its written form; an error in the active
/// catalogue's words. An answer not of the type is shown untyped.
pub(crate) fn shown_typed(t: &Type, answer: &Json, language: super::Language) -> String {
    let rust = language == super::Language::Rust;
    let each = |t: &Type, items: &[Json]| -> Vec<String> {
        items.iter().map(|v| shown_typed(t, v, language)).collect()
    };
    match (t, answer) {
        (Type::Result(_), v) if *v == error_json() => shown_answer(v, language),
        (Type::Result(inner), v) if rust => format!("Ok({})", shown_typed(inner, v, language)),
        (Type::Result(inner), v) => shown_typed(inner, v, language),
        (Type::Option(_), Json::Null) => "None".into(),
        (Type::Option(inner), v) if rust => format!("Some({})", shown_typed(inner, v, language)),
        (Type::Option(inner), v) => shown_typed(inner, v, language),
        (Type::Char, Json::String(c)) if rust => format!("{:?}", c.chars().next().unwrap_or(' ')),
        (Type::List(inner), Json::Array(items)) => format!("[{}]", each(inner, items).join(", ")),
        (Type::Grid(cell, ..), Json::Array(rows)) => {
            let row = Type::List(cell.clone());
            format!("[{}]", each(&row, rows).join(", "))
        }
        (Type::Tuple(ts), Json::Array(items)) if ts.len() == items.len() => {
            let members: Vec<String> = ts
                .iter()
                .zip(items)
                .map(|(t, v)| shown_typed(t, v, language))
                .collect();
            let comma = if members.len() == 1 { "," } else { "" };
            format!("({}{comma})", members.join(", "))
        }
        // In its written form, as the statement's cases write it.
        (Type::Named(named), v) => shown_typed(&named.of, v, language),
        (_, v) => shown_answer(v, language),
    }
}

/// [`shown_answer`], an error said as `error` (a starter's locale's
/// words, where no catalogue is active).
pub(crate) fn shown_answer_saying(answer: &Json, language: super::Language, error: &str) -> String {
    match (answer, language) {
        _ if *answer == error_json() => error.to_owned(),
        (Json::Null, _) => "None".into(),
        (Json::Bool(b), super::Language::Python) => if *b { "True" } else { "False" }.into(),
        (Json::Array(items), _) => {
            let items: Vec<String> = items
                .iter()
                .map(|i| shown_answer_saying(i, language, error))
                .collect();
            format!("[{}]", items.join(", "))
        }
        (other, _) => other.to_string(),
    }
}

/// An error's canonical answer: which error is the student's to word.
pub(crate) fn error_json() -> Json {
    serde_json::json!({ "error": true })
}

fn is_error(table: &toml::Table) -> bool {
    table.len() == 1 && table.get("error") == Some(&Value::Boolean(true))
}

/// A value as an error quotes it: its first 60 characters.
pub(crate) fn short(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(60) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(text: &str) -> Value {
        toml::from_str::<toml::Table>(&format!("v = {text}")).unwrap()["v"].clone()
    }

    #[test]
    fn names_read_back_as_written() {
        for name in [
            "bool",
            "list<int>",
            "grid<char, 3, 3>",
            "option<tuple<int, int>>",
            "result<list<string>>",
        ] {
            assert_eq!(name.parse::<Type>().unwrap().to_string(), name);
        }
        assert_eq!(
            " list < int > ".parse::<Type>().unwrap(),
            Type::List(Box::new(Type::Int))
        );
    }

    #[test]
    fn a_bad_name_says_what_was_expected() {
        for bad in [
            "integer",
            "list<int",
            "grid<int, 0, 3>",
            "list<int>>",
            "tuple<>",
        ] {
            let error = bad.parse::<Type>().unwrap_err();
            assert!(error.contains(bad), "{error}");
        }
        assert!("float".parse::<Type>().unwrap_err().contains(EXPECTED));
    }

    #[test]
    fn values_are_checked_against_their_type() {
        let t: Type = "option<tuple<int, char>>".parse().unwrap();
        assert!(t.check(&value("[1, 'x']")).is_ok());
        assert!(t.check(&value("{}")).is_ok());
        assert!(t.check(&value("[1, 'xy']")).is_err());
        assert!(t.check(&value("[1]")).is_err());
        let index: Type = "tuple<uint, uint>".parse().unwrap();
        assert!(index.check(&value("[0, 2]")).is_ok());
        assert!(index.check(&value("[0, -1]")).is_err());
        let grid: Type = "grid<int, 2, 2>".parse().unwrap();
        assert!(grid.check(&value("[[1, 2], [3, 4]]")).is_ok());
        assert!(grid.check(&value("[[1, 2], [3]]")).is_err());
        let result: Type = "result<int>".parse().unwrap();
        assert!(result.check(&value("{ error = true }")).is_ok());
        assert!(result.check(&value("{ error = 1 }")).is_err());
    }

    #[test]
    fn canonical_answers_read_back_as_their_values() {
        for (t, v) in [
            ("option<tuple<int, int>>", "[0, 2]"),
            ("tuple<uint, uint>", "[1, 2]"),
            ("option<int>", "{}"),
            ("result<list<bool>>", "[true, false]"),
            ("result<int>", "{ error = true }"),
            ("grid<char, 1, 2>", "[['a', 'b']]"),
        ] {
            let t: Type = t.parse().unwrap();
            let v = value(v);
            assert_eq!(t.value_of_answer(&t.canonical(&v)), Some(v));
        }
    }
}
