//! `--shard`: which slice of a class one grading run takes. Given as K/N,
//! or read from an array job's environment (`auto`, `auto/N`): Slurm's
//! array tasks, Kubernetes Indexed Jobs, AWS Batch array jobs. Reading the
//! environment is a lookup passed in, so every engine is tested without
//! setting variables in the test process.

/// A `--shard` value as given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ShardSpec {
    /// K/N: the K-th (from 1) of N slices.
    Fixed(usize, usize),
    /// `auto`: the slice and the count from a Slurm array task.
    Auto,
    /// `auto/N`: N slices, this one's 0-based index from Kubernetes
    /// (`JOB_COMPLETION_INDEX`) or AWS Batch (`AWS_BATCH_JOB_ARRAY_INDEX`),
    /// or a Slurm array task of N tasks.
    AutoOf(usize),
}

/// Why a `--shard` value cannot be read.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ShardError {
    #[error("expected K/N (such as 1/4), auto or auto/N")]
    NotAFraction,
    #[error("{0}: K and N must be numbers")]
    NotNumbers(String),
    #[error("{0}: K must be between 1 and N")]
    Range(String),
    #[error(
        "--shard auto: no array job here: set by Slurm (SLURM_ARRAY_TASK_ID, \
         SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_COUNT); for Kubernetes Indexed Jobs \
         (JOB_COMPLETION_INDEX) or AWS Batch array jobs (AWS_BATCH_JOB_ARRAY_INDEX), \
         give the count: --shard auto/N"
    )]
    NoArrayJob,
    #[error("--shard auto: {0}={1:?} is not a number")]
    NotANumber(&'static str, String),
    #[error(
        "--shard auto: a Slurm array with a step or a list of indices \
         (SLURM_ARRAY_TASK_MIN={min}, SLURM_ARRAY_TASK_MAX={max}, \
         SLURM_ARRAY_TASK_COUNT={count}) does not cut a class in slices: \
         use --array={min}-{} (consecutive indices)",
        .min + .count - 1
    )]
    Stepped {
        min: usize,
        max: usize,
        count: usize,
    },
    #[error("--shard auto: task {index} is outside the array's {count} tasks")]
    Outside { index: usize, count: usize },
    #[error("--shard auto/{given}: the Slurm array has {count} tasks")]
    CountDiffers { given: usize, count: usize },
}

/// Reads a `--shard` value (clap's parser).
pub(crate) fn parse(text: &str) -> Result<ShardSpec, ShardError> {
    if text == "auto" {
        return Ok(ShardSpec::Auto);
    }
    let (k, n) = text.split_once('/').ok_or(ShardError::NotAFraction)?;
    let n: usize = n
        .parse()
        .map_err(|_| ShardError::NotNumbers(text.to_owned()))?;
    if k == "auto" {
        if n == 0 {
            return Err(ShardError::Range(text.to_owned()));
        }
        return Ok(ShardSpec::AutoOf(n));
    }
    let k: usize = k
        .parse()
        .map_err(|_| ShardError::NotNumbers(text.to_owned()))?;
    if n == 0 || k == 0 || k > n {
        return Err(ShardError::Range(text.to_owned()));
    }
    Ok(ShardSpec::Fixed(k, n))
}

/// The slice (K from 1, N) `spec` names, reading an array job's variables
/// through `env`; with where it came from, for the terminal.
pub(crate) fn resolve(
    spec: ShardSpec,
    env: impl Fn(&str) -> Option<String>,
) -> Result<((usize, usize), String), ShardError> {
    let number = |name: &'static str| -> Result<Option<usize>, ShardError> {
        env(name)
            .map(|v| {
                v.trim()
                    .parse()
                    .map_err(|_| ShardError::NotANumber(name, v.clone()))
            })
            .transpose()
    };
    let slurm = || -> Result<Option<(usize, usize)>, ShardError> {
        let Some(id) = number("SLURM_ARRAY_TASK_ID")? else {
            return Ok(None);
        };
        let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        let count = number("SLURM_ARRAY_TASK_COUNT")?.unwrap_or(1);
        let max = number("SLURM_ARRAY_TASK_MAX")?.unwrap_or(min + count - 1);
        let step = number("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1);
        if step != 1 || max + 1 != min + count {
            return Err(ShardError::Stepped { min, max, count });
        }
        if id < min || id > max {
            return Err(ShardError::Outside { index: id, count });
        }
        Ok(Some((id - min + 1, count)))
    };
    match spec {
        ShardSpec::Fixed(k, n) => Ok(((k, n), format!("{k}/{n}"))),
        ShardSpec::Auto => match slurm()? {
            Some((k, n)) => Ok(((k, n), format!("{k}/{n}, from Slurm's array task"))),
            None => Err(ShardError::NoArrayJob),
        },
        ShardSpec::AutoOf(n) => {
            for name in ["JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"] {
                if let Some(index) = number(name)? {
                    if index >= n {
                        return Err(ShardError::Outside { index, count: n });
                    }
                    let k = index + 1;
                    return Ok(((k, n), format!("{k}/{n}, from {name}={index}")));
                }
            }
            match slurm()? {
                Some((k, count)) if count == n => {
                    Ok(((k, n), format!("{k}/{n}, from Slurm's array task")))
                }
                Some((_, count)) => Err(ShardError::CountDiffers { given: n, count }),
                None => Err(ShardError::NoArrayJob),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        move |name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
    }

    fn slice(spec: &str, vars: &[(&str, &str)]) -> Result<(usize, usize), ShardError> {
        resolve(parse(spec)?, with(vars)).map(|(slice, _)| slice)
    }

    #[test]
    fn a_fixed_slice_reads_as_given() {
        assert_eq!(slice("2/4", &[]), Ok((2, 4)));
        assert!(matches!(parse("0/4"), Err(ShardError::Range(_))));
        assert!(matches!(parse("5/4"), Err(ShardError::Range(_))));
        assert!(matches!(parse("a/4"), Err(ShardError::NotNumbers(_))));
        assert_eq!(parse("four"), Err(ShardError::NotAFraction));
        assert!(matches!(parse("auto/0"), Err(ShardError::Range(_))));
    }

    #[test]
    fn slurm_array_tasks_take_their_slice_from_the_arrays_minimum() {
        // sbatch --array=1-3, and --array=0-2: the same three slices.
        for (min, max) in [("1", "3"), ("0", "2"), ("5", "7")] {
            let first: usize = min.parse().unwrap();
            let slices: Vec<_> = (first..first + 3)
                .map(|id| {
                    let id = id.to_string();
                    let vars = [
                        ("SLURM_ARRAY_TASK_ID", id.as_str()),
                        ("SLURM_ARRAY_TASK_MIN", min),
                        ("SLURM_ARRAY_TASK_MAX", max),
                        ("SLURM_ARRAY_TASK_COUNT", "3"),
                        ("SLURM_ARRAY_TASK_STEP", "1"),
                    ];
                    slice("auto", &vars).unwrap()
                })
                .collect();
            assert_eq!(slices, [(1, 3), (2, 3), (3, 3)]);
        }
        let task = [
            ("SLURM_ARRAY_TASK_ID", "2"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "4"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(slice("auto/4", &task), Ok((2, 4)));
        assert_eq!(
            slice("auto/3", &task),
            Err(ShardError::CountDiffers { given: 3, count: 4 })
        );
    }

    #[test]
    fn a_stepped_or_listed_slurm_array_is_refused() {
        // --array=1-7:2: tasks 1, 3, 5, 7.
        let stepped = [
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "7"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
        ];
        let refused = slice("auto", &stepped).unwrap_err();
        assert!(matches!(refused, ShardError::Stepped { .. }));
        assert!(refused.to_string().contains("--array=1-4"), "{refused}");
        // --array=1,2,9: no step, but not consecutive.
        let listed = [
            ("SLURM_ARRAY_TASK_ID", "9"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "9"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ];
        assert!(matches!(
            slice("auto", &listed),
            Err(ShardError::Stepped { .. })
        ));
    }

    #[test]
    fn kubernetes_and_aws_batch_give_a_0_based_index_of_n() {
        assert_eq!(
            slice("auto/4", &[("JOB_COMPLETION_INDEX", "0")]),
            Ok((1, 4))
        );
        assert_eq!(
            slice("auto/4", &[("JOB_COMPLETION_INDEX", "3")]),
            Ok((4, 4))
        );
        assert_eq!(
            slice("auto/4", &[("AWS_BATCH_JOB_ARRAY_INDEX", "2")]),
            Ok((3, 4))
        );
        assert_eq!(
            slice("auto/4", &[("AWS_BATCH_JOB_ARRAY_INDEX", "4")]),
            Err(ShardError::Outside { index: 4, count: 4 })
        );
        assert_eq!(
            slice("auto/4", &[("JOB_COMPLETION_INDEX", "x")]),
            Err(ShardError::NotANumber("JOB_COMPLETION_INDEX", "x".into()))
        );
        // Without a count, an index alone does not say how many slices.
        assert_eq!(
            slice("auto", &[("JOB_COMPLETION_INDEX", "1")]),
            Err(ShardError::NoArrayJob)
        );
    }

    #[test]
    fn with_no_array_job_the_error_names_every_engines_variables() {
        let error = slice("auto", &[]).unwrap_err().to_string();
        for name in [
            "SLURM_ARRAY_TASK_ID",
            "JOB_COMPLETION_INDEX",
            "AWS_BATCH_JOB_ARRAY_INDEX",
            "auto/N",
        ] {
            assert!(error.contains(name), "{error}");
        }
        assert_eq!(slice("auto/2", &[]), Err(ShardError::NoArrayJob));
    }
}
