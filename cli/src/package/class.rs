//! Classes a student writes (`[[class]]`): an object made by its
//! constructor, then its methods called in turn, each seeing what the
//! ones before did (a tally counted up, a board played move after move).
//!
//! A class case's call is one object: `new`, its constructor's arguments,
//! and `steps`, each `["method", arguments...]`; its answer is the list
//! of what each step that answers returned. The call is kept as a
//! function's is, its arguments `[new, steps]`, so that running, judging,
//! blessing and verifying are a function's. What each language writes of
//! it (stubs, tests, the callers) is `rust.rs`'s and `python.rs`'s.

use serde_json::Value as Json;
use toml::Value;

use super::types::{Names, ObjectMethod, ObjectType, Type};
use super::{Function, Package};

/// A class's constructor and methods.
#[derive(Debug, Clone)]
pub(crate) struct Class {
    /// The constructor's doc (its arguments are the class's `args`).
    pub new_doc: String,
    /// Whether the constructor may refuse its arguments (`new = { fails =
    /// true }`): a call's answer is then an error, or its steps' answers.
    pub fails: bool,
    pub methods: Vec<Method>,
}

/// One method.
#[derive(Debug, Clone)]
pub(crate) struct Method {
    pub name: String,
    pub doc: String,
    pub args: Vec<(String, Type)>,
    /// What it answers; none: a change only.
    pub returns: Option<Type>,
    /// `&mut self` in Rust.
    pub mutates: bool,
}

/// A `[[class]]` as a function of the API whose calls are objects: its
/// constructor's arguments as the function's.
pub(crate) fn read(
    spec: &super::manifest::ClassSpec,
    names: &Names,
) -> Result<Function, super::manifest::Spot> {
    let name = spec.name.get_ref().clone();
    let named_so = name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric())
        // Python's own words.
        && !["None", "True", "False", "Self"].contains(&name.as_str());
    if !named_so {
        return Err((
            spec.name.span(),
            format!(
                "`{name}`: a class's name is a capital letter, then letters and digits, as Rust and Python write it (not None, True, False or Self)"
            ),
        ));
    }
    let mut methods: Vec<Method> = Vec::new();
    for m in &spec.methods {
        let method = super::manifest::identifier(&m.name).map_err(|e| (m.name.span(), e))?;
        if method == "new" || methods.iter().any(|o| o.name == method) {
            return Err((
                m.name.span(),
                format!("`{method}` is named twice in `{name}` (`new` is its constructor)"),
            ));
        }
        let returns = match &m.returns {
            Some(r) => Some(super::manifest::answer_type(r, names)?),
            None => None,
        };
        methods.push(Method {
            name: method,
            doc: m.doc.clone(),
            args: super::manifest::arguments(&m.args, names)?,
            returns,
            mutates: m.mutates,
        });
    }
    if methods.is_empty() {
        return Err((
            spec.name.span(),
            format!("`{name}` has no `[[class.method]]`: its cases would call nothing"),
        ));
    }
    Ok(Function {
        name,
        doc: spec.doc.clone(),
        args: super::manifest::arguments(&spec.new.args, names)?,
        returns: Type::Tuple(Vec::new()),
        class: Some(Class {
            new_doc: spec.new.doc.clone(),
            fails: spec.new.fails,
            methods,
        }),
        spread: false,
    })
}

/// A class as an argument's type: how a case's value makes one.
pub(crate) fn object_type(class: &Function, module: &str) -> ObjectType {
    let methods = class
        .class
        .as_ref()
        .map_or(&[][..], |c| c.methods.as_slice());
    ObjectType {
        name: class.name.clone(),
        module: module.to_owned(),
        new: class.args.clone(),
        fails: class.class.as_ref().is_some_and(|c| c.fails),
        methods: methods
            .iter()
            .map(|m| ObjectMethod {
                name: m.name.clone(),
                args: m.args.clone(),
                answers: m.returns.is_some(),
                mutates: m.mutates,
                fails: matches!(m.returns, Some(Type::Result(_))),
            })
            .collect(),
    }
}

/// An object's call as a case file writes it: `new`'s arguments and the
/// steps, each checked against the class.
pub(crate) fn call_args(
    f: &Function,
    new: &[Value],
    steps: &[Value],
) -> Result<Vec<Value>, String> {
    let made = Value::Table(toml::Table::from_iter([
        ("new".to_owned(), Value::Array(new.to_vec())),
        ("steps".to_owned(), Value::Array(steps.to_vec())),
    ]));
    object_type(f, "").parts(&made)?;
    Ok(vec![
        Value::Array(new.to_vec()),
        Value::Array(steps.to_vec()),
    ])
}

impl Class {
    /// A step's method and its arguments, when the step names one.
    fn step<'a>(&'a self, step: &'a Value) -> Option<(&'a Method, &'a [Value])> {
        let Value::Array(items) = step else {
            return None;
        };
        let (Value::String(name), args) = items.split_first()? else {
            return None;
        };
        let method = self.methods.iter().find(|m| &m.name == name)?;
        Some((method, args))
    }

    /// A call's steps (`args[1]`), each method and its arguments.
    pub(crate) fn steps<'a>(&'a self, args: &'a [Value]) -> Vec<(&'a Method, &'a [Value])> {
        match args.get(1) {
            Some(Value::Array(steps)) => steps.iter().filter_map(|s| self.step(s)).collect(),
            _ => Vec::new(),
        }
    }

    /// A call's answer's type: each answering step's, in turn; or an
    /// error, when the constructor may refuse its arguments.
    pub(crate) fn answer_type(&self, args: &[Value]) -> Type {
        let answers = Type::Tuple(
            self.steps(args)
                .into_iter()
                .filter_map(|(m, _)| m.returns.clone())
                .collect(),
        );
        match self.fails {
            true => Type::Result(Box::new(answers)),
            false => answers,
        }
    }

    /// A call's arguments as the caller reads them: `[[new...], [[name,
    /// args...], ...]]`.
    pub(crate) fn canonical_args(&self, new: &[(String, Type)], args: &[Value]) -> Json {
        let made: Vec<Json> = match args.first() {
            Some(Value::Array(values)) => new
                .iter()
                .zip(values)
                .map(|((_, t), v)| t.canonical(v))
                .collect(),
            _ => Vec::new(),
        };
        let steps: Vec<Json> = self
            .steps(args)
            .into_iter()
            .map(|(m, values)| {
                let mut step = vec![Json::String(m.name.clone())];
                step.extend(m.args.iter().zip(values).map(|((_, t), v)| t.canonical(v)));
                Json::Array(step)
            })
            .collect();
        Json::Array(vec![Json::Array(made), Json::Array(steps)])
    }
}

/// The variable an object is held in, in the code a failure shows and a
/// starter's tests run: the class's name in snake case (`BankAccount`,
/// `bank_account`).
/// `a_` before it when that is the student's module's name, which the
/// object must not hide (`a_scoreboard = scoreboard.Scoreboard()`).
pub(crate) fn variable(package: &Package, class: &str) -> String {
    let mut out = String::new();
    for (i, c) in class.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.extend(c.to_lowercase());
    }
    if out == package.name || out == package.python.module {
        out.insert_str(0, "a_");
    }
    out
}

/// An object's call as a language writes it, its first `upto` steps
/// (all when none): the object `made` from `new`'s arguments (told
/// whether a step shown changes it), then each step's `called` on the
/// object's variable, `; ` between.
pub(crate) fn shown_with(
    package: &Package,
    f: &Function,
    args: &[Value],
    upto: Option<usize>,
    made: &dyn Fn(&str, &[Value], bool) -> String,
    called: &dyn Fn(&Method, &[Value]) -> String,
) -> String {
    let Some(class) = &f.class else {
        return String::new();
    };
    let object = variable(package, &f.name);
    let steps = class.steps(args);
    let steps = &steps[..upto.unwrap_or(steps.len()).min(steps.len())];
    let mutates = steps.iter().any(|(m, _)| m.mutates);
    let mut parts = vec![made(&object, &new_of(args), mutates)];
    for (method, values) in steps {
        parts.push(format!("{object}.{}", called(method, values)));
    }
    parts.join("; ")
}

/// An object made (`let mut tally = demo::Tally::new(3)`, `tally =
/// demo.Tally(3)`) as the constructor's call alone, without its binding.
pub(crate) fn unbound(made: &str) -> &str {
    made.split_once(" = ").map_or(made, |(_, call)| call)
}

/// Which step answered the `index`-th answer: its number among all the
/// call's steps, counted from 1.
pub(crate) fn step_of_answer(class: &Class, args: &[Value], index: usize) -> usize {
    class
        .steps(args)
        .iter()
        .enumerate()
        .filter(|(_, (m, _))| m.returns.is_some())
        .nth(index)
        .map_or(usize::MAX, |(at, _)| at + 1)
}

/// A call's constructor's arguments.
pub(crate) fn new_of(args: &[Value]) -> Vec<Value> {
    match args.first() {
        Some(Value::Array(values)) => values.clone(),
        _ => Vec::new(),
    }
}

/// Whether the reference refused to make `call`'s object (its blessed
/// answer is an error).
pub(crate) fn refused(call: &super::Call) -> bool {
    matches!(&call.expect, Some(Value::Table(t)) if t.get("error") == Some(&Value::Boolean(true)))
}

/// A call's blessed answers, one per answering step.
pub(crate) fn expected(call: &super::Call) -> Vec<Value> {
    match &call.expect {
        Some(Value::Array(values)) => values.clone(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_class_is_held_in_its_name_in_snake_case() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("tally");
        super::super::scaffold::write("tally", &root).expect("a new package");
        let package = super::super::load::load(&root).expect("it loads");
        assert_eq!(super::variable(&package, "Counter"), "counter");
        assert_eq!(super::variable(&package, "BankAccount"), "bank_account");
        // Not the module's name, which it would hide in Python.
        assert_eq!(super::variable(&package, "Tally"), "a_tally");
    }
}
