//! The kit's own files, embedded in the binary at build time (see
//! `build.rs`): sources, tests, fixtures, snapshots, the statement and the
//! exercises' data. `boardkit starter` makes a student crate from them and
//! `boardkit grade` takes its cases from them wherever the binary runs, never
//! from anything a submission holds.

include!(concat!(env!("OUT_DIR"), "/kit_files.rs"));

/// The bytes of the kit's file at `path` (relative to the repository).
pub(crate) fn file(path: &str) -> Option<&'static [u8]> {
    KIT_FILES.iter().find(|(p, _)| *p == path).map(|(_, b)| *b)
}

/// Every embedded file whose path starts with `prefix`, in path order.
pub(crate) fn under(prefix: &str) -> impl Iterator<Item = (&'static str, &'static [u8])> + '_ {
    KIT_FILES
        .iter()
        .filter(move |(p, _)| p.starts_with(prefix))
        .map(|(p, b)| (*p, *b))
}
