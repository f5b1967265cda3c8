//! Students' own tests, graded by the bugs they catch: a student's tests
//! must pass on every correct version (the reference, its harmless
//! changes, the independent solutions) to be valid, and the valid ones
//! then run against each mutant, public and hidden. Not the grader's cases
//! (`grader/`), which test the student's code.

pub(crate) mod proof;
pub(crate) mod python;
pub(crate) mod rust;
pub(crate) mod schemata;
pub(crate) mod verdict;
