//! Deadlines (`--deadline`, `--late-penalty`, `--late-max-days`,
//! `--extensions`): which commit of a repository is graded, and how late it
//! was. A submission's time is its graded commit's committer date, by its
//! Unix time (students set commit dates: the trust it deserves is the
//! course's call). A late
//! submission loses `--late-penalty` percent of the score it earned per day
//! started; its level stays what its code reached.

use std::collections::BTreeMap;
use std::path::Path;

use chrono::{DateTime, Duration, FixedOffset};

/// A class's deadline and its policy.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Deadlines {
    pub deadline: DateTime<FixedOffset>,
    /// Percent of the earned score lost per day started past the deadline.
    pub penalty_percent: f64,
    /// Days past the deadline a submission is still taken (late); none: no
    /// late submission is taken.
    pub max_days: Option<u32>,
    /// Submission -> its own deadline.
    pub extensions: BTreeMap<String, DateTime<FixedOffset>>,
}

/// Why the deadline options cannot be read.
#[derive(Debug, thiserror::Error)]
pub(crate) enum DeadlineError {
    #[error("{0:?} is not an RFC 3339 date and time (such as 2026-12-01T23:59:00-03:00)")]
    Date(String),
    #[error("cannot read the extensions {0}: {1}")]
    Read(String, std::io::Error),
    #[error("{0}, line {1}: expected `submission,deadline`, the deadline in RFC 3339")]
    Extension(String, usize),
}

/// An RFC 3339 date and time.
pub(crate) fn parse_date(text: &str) -> Result<DateTime<FixedOffset>, DeadlineError> {
    DateTime::parse_from_rfc3339(text.trim()).map_err(|_| DeadlineError::Date(text.to_owned()))
}

/// `--extensions FILE`: rows `submission,deadline` (a header row allowed).
pub(crate) fn read_extensions(
    path: &Path,
) -> Result<BTreeMap<String, DateTime<FixedOffset>>, DeadlineError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| DeadlineError::Read(shown.clone(), e))?;
    let mut extensions = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || (i == 0 && line.starts_with("submission,")) {
            continue;
        }
        let (name, date) = line
            .split_once(',')
            .ok_or_else(|| DeadlineError::Extension(shown.clone(), i + 1))?;
        let date = parse_date(date).map_err(|_| DeadlineError::Extension(shown.clone(), i + 1))?;
        extensions.insert(name.trim().to_owned(), date);
    }
    Ok(extensions)
}

/// How late a submission was, and what it costs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Lateness {
    /// Days started past its deadline (0: on time).
    pub days: u32,
    /// The fraction of the earned score it loses (at most 1).
    pub fraction: f64,
}

impl Deadlines {
    /// `name`'s deadline: its extension's, else the class's.
    pub(crate) fn of(&self, name: &str) -> DateTime<FixedOffset> {
        self.extensions.get(name).copied().unwrap_or(self.deadline)
    }

    /// The latest time a commit of `name` is taken: its deadline, plus the
    /// late days allowed.
    pub(crate) fn limit(&self, name: &str) -> DateTime<FixedOffset> {
        // Days past what a date can hold mean no limit (never a panic).
        let days = Duration::days(i64::from(self.max_days.unwrap_or(0)));
        self.of(name)
            .checked_add_signed(days)
            .unwrap_or(DateTime::<chrono::Utc>::MAX_UTC.fixed_offset())
    }

    /// How late `name`'s submission at `at` (Unix time: the instant,
    /// whatever zone it was written in) was.
    pub(crate) fn lateness(&self, name: &str, at: i64) -> Lateness {
        let late = at.saturating_sub(self.of(name).timestamp());
        if late <= 0 {
            return Lateness {
                days: 0,
                fraction: 0.0,
            };
        }
        // Each day started counts.
        let seconds = late;
        let days = u32::try_from((seconds + 86_399) / 86_400).unwrap_or(u32::MAX);
        Lateness {
            days,
            fraction: (self.penalty_percent * f64::from(days) / 100.0).min(1.0),
        }
    }

    /// What every grade depends on, for the run's digest.
    pub(crate) fn digest(&self) -> String {
        let mut out = format!(
            "deadline={};penalty={};max_days={:?}",
            self.deadline.to_rfc3339(),
            self.penalty_percent,
            self.max_days
        );
        for (name, date) in &self.extensions {
            out.push_str(&format!(";{name}={}", date.to_rfc3339()));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_day_started_counts_and_extensions_move_the_deadline() {
        let deadlines = Deadlines {
            deadline: parse_date("2026-12-01T23:59:00-03:00").unwrap(),
            penalty_percent: 10.0,
            max_days: Some(3),
            extensions: [(
                "bia".to_owned(),
                parse_date("2026-12-03T23:59:00-03:00").unwrap(),
            )]
            .into(),
        };
        let at = |s| parse_date(s).unwrap().timestamp();
        assert_eq!(
            deadlines
                .lateness("ana", at("2026-12-01T23:59:00-03:00"))
                .days,
            0
        );
        assert_eq!(
            deadlines
                .lateness("ana", at("2026-12-02T00:00:00-03:00"))
                .days,
            1
        );
        let two = deadlines.lateness("ana", at("2026-12-03T12:00:00-03:00"));
        assert_eq!((two.days, two.fraction), (2, 0.2));
        assert_eq!(
            deadlines
                .lateness("bia", at("2026-12-03T12:00:00-03:00"))
                .days,
            0
        );
        assert_eq!(
            deadlines.limit("ana"),
            parse_date("2026-12-04T23:59:00-03:00").unwrap()
        );
        assert!(parse_date("tomorrow").is_err());
    }
}
