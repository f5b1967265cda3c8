//! `boardkit grade merge` and `boardkit grade remove`: the shards of one
//! run joined into one output folder, exactly as one run writes it (shards
//! of different runs refused before anything is written); submissions
//! taken out of an output folder, its reports written again.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::GradeError;
use super::report::{self, Results};

/// Joins the outputs of shards into `out`: exactly what one run writes.
pub(crate) fn merge(
    shards: &[PathBuf],
    out: &Path,
) -> Result<BTreeMap<String, Results>, GradeError> {
    let out_error = |e| GradeError::Out(out.to_owned(), e);
    // Checked before anything is written: a typo, an empty folder or a
    // class's folder merged would give an empty or a mixed grade book.
    let infos = shard_runs(shards, out)?;
    graded_twice(shards)?;
    std::fs::create_dir_all(out).map_err(out_error)?;
    for shard in shards {
        for (name, results) in report::read_results(shard).map_err(out_error)? {
            report::save_results(out, &name, &results).map_err(out_error)?;
        }
    }
    // The shards' header, the latest of them (`graded_at` sorts as time),
    // as one run over the whole class writes it.
    let mut latest: Vec<String> = infos.iter().flat_map(|r| r.latest.clone()).collect();
    latest.sort();
    latest.dedup();
    let run = infos
        .into_iter()
        .max_by(|a, b| a.graded_at.cmp(&b.graded_at))
        .map(|run| report::RunInfo {
            latest,
            shard: None,
            ..run
        });
    let all = report::read_results(out).map_err(out_error)?;
    // The download's unmapped names, as one run lists them: every shard's.
    let mut unmapped: Vec<String> = shards
        .iter()
        .flat_map(|s| report::read_unmapped(s))
        .collect();
    unmapped.sort();
    unmapped.dedup();
    report::forget_class_files(out).map_err(out_error)?;
    report::write_unmapped(out, &unmapped).map_err(out_error)?;
    let similar = run.as_ref().map(|run| {
        let shards: Vec<&Path> = shards.iter().map(PathBuf::as_path).collect();
        super::similarity::of_class(
            &run.game,
            run.submissions == super::plan::CRATES,
            all.keys(),
            &shards,
            &run.similarity,
        )
    });
    report::write_reports(out, &all, run.as_ref(), similar.as_ref()).map_err(out_error)?;
    super::feedback::write_pages(out, &all, run.as_ref()).map_err(out_error)?;
    Ok(all)
}

/// Each shard's header, once the folders are known to be the shards of
/// one run: each the output of `boardkit grade --shard K/N`, all of one
/// game, mode, set of options and kit, of one N, each slice once. A
/// missing slice is said, not refused (a merge may be done as they come).
fn shard_runs(shards: &[PathBuf], out: &Path) -> Result<Vec<report::RunInfo>, GradeError> {
    let mut runs: Vec<report::RunInfo> = Vec::new();
    let mut slices: BTreeMap<usize, &Path> = BTreeMap::new();
    let mut count = None;
    for shard in shards {
        let refuse = |why: String| GradeError::NotShards(format!("{}: {why}", shard.display()));
        if !shard.is_dir() {
            return Err(refuse("no such folder".into()));
        }
        if shard.canonicalize().ok() == out.canonicalize().ok() {
            return Err(refuse("it is the --out folder itself".into()));
        }
        let Some(run) = report::read_run_info(shard) else {
            return Err(refuse(
                "not the output of a grading run (it has no run.json): give the folders                  each `boardkit grade --shard K/N --out DIR` wrote"
                    .into(),
            ));
        };
        let Some((k, n)) = run
            .shard
            .as_deref()
            .and_then(|s| s.split_once('/'))
            .and_then(|(k, n)| Some((k.parse::<usize>().ok()?, n.parse::<usize>().ok()?)))
        else {
            return Err(refuse(format!(
                "graded as a whole class (without --shard), on {}: there is nothing to merge it with",
                run.graded_at
            )));
        };
        if let Some(first) = runs.first() {
            if let Some(differs) = differs(&run, first, &shards[0].display().to_string()) {
                return Err(refuse(format!("not a shard of the same run: it {differs}")));
            }
        }
        if count.is_some_and(|c| c != n) {
            return Err(refuse(format!(
                "shard {k}/{n}, where the others are of {}",
                count.unwrap_or_default()
            )));
        }
        count = Some(n);
        if let Some(other) = slices.insert(k, shard) {
            return Err(refuse(format!(
                "shard {k}/{n}, and so is {}",
                other.display()
            )));
        }
        runs.push(run);
    }
    if let Some(n) = count {
        let missing: Vec<String> = (1..=n)
            .filter(|k| !slices.contains_key(k))
            .map(|k| format!("{k}/{n}"))
            .collect();
        if !missing.is_empty() {
            eprintln!(
                "boardkit: warning: no shard {} given: their submissions are not in the merge",
                missing.join(", ")
            );
        }
    }
    Ok(runs)
}

/// How the shard `run` differs from `first`, the header of `theirs`: its
/// game, mode, options and kit, its download, its class.
fn differs(run: &report::RunInfo, first: &report::RunInfo, theirs: &str) -> Option<String> {
    if run.game != first.game {
        Some(format!(
            "grades {}, where {theirs} grades {}",
            run.title, first.title
        ))
    } else if run.submissions != first.submissions {
        Some(format!(
            "grades {}, where {theirs} grades {}",
            run.submissions, first.submissions
        ))
    } else if run.grading != first.grading {
        Some(format!(
            "graded with other options ({}) or another kit than {theirs} ({})",
            run.limits, first.limits
        ))
    } else if run.download != first.download {
        let said = |d: &Option<String>| d.clone().unwrap_or_else(|| "no download".into());
        Some(format!(
            "grades {}, where {theirs} grades {}",
            said(&run.download),
            said(&first.download)
        ))
    } else if run.latest != first.latest {
        Some(other_class(&run.latest, &first.latest, theirs))
    } else {
        None
    }
}

/// How a shard given `given` differs from `theirs`, given `others`: the
/// shards of one run are each given the whole class, and grade a slice.
fn other_class(given: &[String], others: &[String], theirs: &str) -> String {
    let only = |a: &[String], b: &[String]| {
        a.iter()
            .filter(|n| !b.contains(n))
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "was given other submissions than {theirs} ({} and {}; only here: {}; only there: {})",
        given.len(),
        others.len(),
        only(given, others),
        only(others, given)
    )
}

/// The submissions two shards both hold results of: each is graded by one
/// shard of a run, so a name in two is two runs' (the later would
/// silently replace the earlier).
fn graded_twice(shards: &[PathBuf]) -> Result<(), GradeError> {
    let mut seen: BTreeMap<String, &Path> = BTreeMap::new();
    for shard in shards {
        let names = report::read_results(shard)
            .map_err(|e| GradeError::Out(shard.clone(), e))?
            .into_keys();
        for name in names {
            if let Some(other) = seen.insert(name.clone(), shard) {
                return Err(GradeError::NotShards(format!(
                    "{name} is graded in both {} and {}: the shards of one run grade each submission once (take it out of one with `boardkit grade remove`)",
                    other.display(),
                    shard.display()
                )));
            }
        }
    }
    Ok(())
}

/// Takes the submissions `names` out of the output folder `out` (their
/// results, their copies), then writes its reports again without them
/// (every class file is deleted first: the LMS's files are written again
/// only with a roster).
pub(crate) fn remove(
    out: &Path,
    names: &[String],
) -> Result<BTreeMap<String, Results>, GradeError> {
    let out_error = |e| GradeError::Out(out.to_owned(), e);
    let before = report::read_results(out).map_err(out_error)?;
    for name in names {
        if !before.contains_key(name) {
            let known: Vec<&str> = before.keys().map(String::as_str).collect();
            return Err(GradeError::NoSubmission(format!(
                "{} holds no submission {name:?}; it has: {}",
                out.display(),
                if known.is_empty() {
                    "none".to_owned()
                } else {
                    known.join(", ")
                }
            )));
        }
    }
    for name in names {
        std::fs::remove_dir_all(report::student_dir(out, name)).map_err(out_error)?;
        let instructor = report::instructor_dir(out, name);
        if instructor.is_dir() {
            std::fs::remove_dir_all(instructor).map_err(out_error)?;
        }
        let taken = out.join(".work/taken").join(name);
        if taken.is_dir() {
            std::fs::remove_dir_all(taken).map_err(out_error)?;
        }
    }
    let mut run = report::read_run_info(out);
    if let Some(run) = &mut run {
        run.latest.retain(|n| !names.contains(n));
    }
    let all = report::read_results(out).map_err(out_error)?;
    // Every class file is written again without them; unmapped.txt keeps
    // the others' lines.
    let unmapped: Vec<String> = report::read_unmapped(out)
        .into_iter()
        .filter(|line| {
            !names
                .iter()
                .any(|n| line.ends_with(&format!("graded as {n}")))
        })
        .collect();
    report::forget_class_files(out).map_err(out_error)?;
    report::write_unmapped(out, &unmapped).map_err(out_error)?;
    let similar = run.as_ref().map(|run| {
        super::similarity::of_class(
            &run.game,
            run.submissions == super::plan::CRATES,
            all.keys(),
            &[out],
            &run.similarity,
        )
    });
    report::write_reports(out, &all, run.as_ref(), similar.as_ref()).map_err(out_error)?;
    super::feedback::write_pages(out, &all, run.as_ref()).map_err(out_error)?;
    Ok(all)
}
