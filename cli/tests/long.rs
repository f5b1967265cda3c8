//! The long grading tests, in one binary: classes built and graded
//! (`grade.rs`), repositories at a deadline and LMS downloads graded
//! (`submissions.rs`), students' own tests graded (`own_tests.rs`),
//! exercise packages verified, blessed and graded (`package_grading.rs`),
//! the sandbox attacked (`sandbox.rs`). Minutes each, so not in the default `cargo
//! test`: `.ci/run` runs them with `cargo test --test long` (`cargo test
//! --test long sandbox::` for one file).

mod download_support;
mod grade;
mod own_tests;
mod package_grading;
mod package_support;
mod sandbox;
mod submissions;
