//! Students' own tests, graded by the bugs they catch: a student's tests
//! must pass on every correct version (the reference, its harmless
//! changes, the independent solutions) to be valid, and the valid ones
//! then run against each mutant, public and hidden. Not the cases of the
//! grader's other steps ([`super::run`], [`super::judge`]), which test the
//! student's code: here the student's tests are what is graded.
//!
//! [`verdict`] judges runs (pure); [`schemata`] makes the example and its
//! mutants one Rust library; [`rust`] and [`python`] build and run a
//! student's tests in the sandbox; [`proof`] is `dev check`'s proof of
//! the built-in crates', and [`public_cases`] its proof that a mutant
//! differs from the reference on input the statement promises. A package's
//! own tests are proved by `boardkit verify` and the kit's long tests.

pub(crate) mod proof;
pub(crate) mod public_cases;
pub(crate) mod python;
pub(crate) mod rust;
pub(crate) mod schemata;
pub(crate) mod verdict;
