//! Levels, and how each level of a game is graded (SPEC 2 and 5.1).
//!
//! Shipped with every starter: the starter's tests, the kit's tests and the
//! grader read the same [`LevelInfo`] of a game, so a transcript is compared
//! the same way everywhere.

use std::fmt;
use std::str::FromStr;

/// A proficiency level (SPEC 2). A submission reaches a level when it passes
/// every case of that level and of every level below it.
///
/// The kit's games have the four of [`Level::ALL`]; an exercise package
/// names its own, in order ([`Level::of_package`]). Levels compare by their
/// rank, the place in their exercise's list.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level {
    rank: u8,
    name: &'static str,
}

// The kit's four levels, spelt as the enum they were (`Level::Basic`), so
// that they read as values in patterns and tables alike.
#[allow(non_upper_case_globals)]
impl Level {
    pub const Basic: Level = Level::new(0, "basic");
    pub const Proficient: Level = Level::new(1, "proficient");
    pub const Advanced: Level = Level::new(2, "advanced");
    pub const Expert: Level = Level::new(3, "expert");
}

/// The levels exercise packages named in this process, looked up by
/// name when results are read back.
static PACKAGE_LEVELS: std::sync::Mutex<Vec<Level>> = std::sync::Mutex::new(Vec::new());

impl Level {
    pub const ALL: [Level; 4] = [
        Level::Basic,
        Level::Proficient,
        Level::Advanced,
        Level::Expert,
    ];

    const fn new(rank: u8, name: &'static str) -> Level {
        Level { rank, name }
    }

    pub fn name(self) -> &'static str {
        self.name
    }

    /// Its place in its exercise's list, the easiest 0.
    pub fn rank(self) -> usize {
        usize::from(self.rank)
    }

    /// An exercise package's levels, easiest first, by their names; read
    /// back by name ([`str::parse`]) for as long as the process runs.
    pub fn of_package(names: &[String]) -> Vec<Level> {
        let mut known = PACKAGE_LEVELS.lock().unwrap_or_else(|e| e.into_inner());
        names
            .iter()
            .enumerate()
            .map(|(rank, name)| {
                let rank = u8::try_from(rank).unwrap_or(u8::MAX);
                if let Some(level) = known.iter().find(|l| l.rank == rank && l.name == name) {
                    return *level;
                }
                // Named once per process: the name lives as long as it.
                let level = Level::new(rank, Box::leak(name.clone().into_boxed_str()));
                known.retain(|l| l.name != name);
                known.push(level);
                level
            })
            .collect()
    }
}

/// The kit's four as their constants are named (`Basic`): generated code
/// writes `Level::{:?}`. A package's, by its name.
impl fmt::Debug for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match Level::ALL.iter().find(|l| *l == self) {
            Some(known) => {
                let mut name = known.name.chars();
                let first = name.next().map(|c| c.to_ascii_uppercase());
                write!(f, "{}{}", first.unwrap_or_default(), name.as_str())
            }
            None => write!(f, "Level({:?})", self.name),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let known = PACKAGE_LEVELS.lock().unwrap_or_else(|e| e.into_inner());
        // A package's own first: its `basic` may stand second in its list.
        known
            .iter()
            .copied()
            .chain(Level::ALL)
            .find(|l| l.name() == s)
            .ok_or_else(|| {
                format!("unknown level {s:?}: expected basic, proficient, advanced or expert")
            })
    }
}

// Serde only for the kit's own crate (its reports): a starter compiles no
// derive macro. A level is its name.
#[cfg(feature = "kit")]
impl serde::Serialize for Level {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name)
    }
}

#[cfg(feature = "kit")]
impl<'de> serde::Deserialize<'de> for Level {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = <String as serde::Deserialize>::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// The words a test run's summary is printed in: a translated starter's
/// catalogue ([`crate::catalogue`]: its `[level_names]` and messages),
/// else English. Each level's English name stays beside its own (`Básico
/// (basic)`): it is what `cargo test basic` filters by.
#[derive(Debug, Clone, Default)]
pub struct Words {
    catalogue: crate::catalogue::Catalogue,
}

impl Words {
    /// Where a translated starter keeps its words.
    pub const FILE: &'static str = crate::catalogue::Catalogue::FILE;

    /// English.
    pub fn english() -> Words {
        Words::default()
    }

    /// The words of `catalogue`.
    pub fn of(catalogue: crate::catalogue::Catalogue) -> Words {
        Words { catalogue }
    }

    /// The words of the starter in `folder`: its catalogue, each word it
    /// lacks in English.
    pub fn load(folder: &std::path::Path) -> Words {
        Words {
            catalogue: crate::catalogue::Catalogue::of_folder(folder),
        }
    }

    /// A level's name: `Básico (basic)` in a translation, `basic` in English.
    pub fn name(&self, level: &str) -> String {
        match self.catalogue.level_name(level) {
            Some(own) if own != level => format!("{own} ({level})"),
            _ => level.to_owned(),
        }
    }

    /// The line a run's level table starts with (`levels:`), which watch
    /// mode and a Python starter's pytest look for.
    pub fn header(&self) -> &str {
        self.catalogue.text("levels:")
    }

    /// The lines a run ends with: each level's tests passed and run, the
    /// robustness part's, and the level reached when every test ran
    /// (`every_ran`): the highest that passed whole with every level below.
    pub fn summary(
        &self,
        levels: &std::collections::BTreeMap<Level, (u32, u32)>,
        robustness: (u32, u32),
        every_ran: bool,
    ) -> String {
        let c = &self.catalogue;
        let mut names: Vec<String> = levels.keys().map(|l| self.name(l.name())).collect();
        names.push(self.name("robustness"));
        let width = names
            .iter()
            .map(|n| n.chars().count())
            .max()
            .unwrap_or(0)
            .max(11);
        let pad = |name: String| {
            let fill = width - name.chars().count();
            format!("{name}{}", " ".repeat(fill))
        };
        let count = |passed: u32, run: u32| {
            c.fill(
                "{passed}/{run} passed",
                &[("passed", &format!("{passed:>3}")), ("run", &run)],
            )
        };
        let mut out = format!("{}\n", self.header());
        for (level, (run, passed)) in levels {
            let mark = if passed == run {
                String::new()
            } else {
                format!("  {}", c.text("<- not yet"))
            };
            let name = pad(self.name(level.name()));
            out.push_str(&format!("  {name} {}{mark}\n", count(*passed, *run)));
        }
        let (run, passed) = robustness;
        if run > 0 {
            let note = c.text("(in the score, in no level)");
            let name = pad(self.name("robustness"));
            out.push_str(&format!("  {name} {} {note}\n", count(passed, run)));
        }
        if every_ran {
            let reached = levels
                .iter()
                .take_while(|(_, (run, passed))| passed == run)
                .last();
            out.push_str(&match reached {
                Some((level, _)) => c.fill(
                    "level reached: {name} (every level up to it passed, as the grader counts)",
                    &[("name", &self.name(level.name()))],
                ),
                None => c.text("level reached: none yet (a level counts when it and every level below it pass)").to_owned(),
            });
            out.push('\n');
        }
        out
    }
}

/// The graded events of a transcript: what is compared, in order.
pub type EventsFn = fn(&str) -> Vec<String>;

/// What a level grades.
#[derive(Debug, Clone, Copy)]
pub enum Graded {
    /// Functions of the statement, called with the kit's cases.
    Functions(&'static [&'static str]),
    /// The game program, fed each fixture's stdin; its output is compared
    /// with the expected one by these graded events.
    Program(EventsFn),
}

/// One level of one game.
#[derive(Debug, Clone, Copy)]
pub struct LevelInfo {
    pub level: Level,
    pub graded: Graded,
    /// What the student must do at this level, in one line.
    pub summary: &'static str,
}

impl LevelInfo {
    /// The graded events of its program's transcripts; `None` for a level of
    /// functions.
    pub fn events(&self) -> Option<EventsFn> {
        match self.graded {
            Graded::Program(events) => Some(events),
            Graded::Functions(_) => None,
        }
    }
}

/// The level of `levels` that is `level`, if the game has it.
pub fn find(levels: &'static [LevelInfo], level: Level) -> Option<&'static LevelInfo> {
    levels.iter().find(|l| l.level == level)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A package's levels compare by their place in its list and read
    /// back by name; the kit's four keep the names code writes.
    #[test]
    fn a_packages_levels_keep_their_order_and_read_back() {
        let levels = Level::of_package(&["warm_up".into(), "main_course".into()]);
        assert!(levels[0] < levels[1]);
        assert_eq!(levels[1].rank(), 1);
        assert_eq!("main_course".parse::<Level>(), Ok(levels[1]));
        assert_eq!(Level::of_package(&["warm_up".into()]), [levels[0]]);
        assert_eq!(format!("{:?}", Level::Advanced), "Advanced");
        assert_eq!("expert".parse::<Level>(), Ok(Level::Expert));
    }
}
