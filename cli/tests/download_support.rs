//! What the tests of LMS downloads share (`submissions.rs` in the long
//! tests, `guides.rs` in the kit's): a zip written from entries, and an
//! exam's files.
#![allow(dead_code)] // each binary uses its part

use std::path::Path;

/// A zip of `entries` (path in the archive, bytes).
pub(crate) fn zip_of(path: &Path, entries: &[(String, Vec<u8>)]) {
    let mut zip = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    for (name, bytes) in entries {
        zip.start_file(name.as_str(), zip::write::SimpleFileOptions::default())
            .unwrap();
        std::io::Write::write_all(&mut zip, bytes).unwrap();
    }
    zip.finish().unwrap();
}

/// An exam's two files.
pub(crate) fn exam(name: &str) -> Vec<(&'static str, Vec<u8>)> {
    let exams = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/grading/python_exams");
    ["funcoes.py", "programa.py"]
        .into_iter()
        .map(|file| (file, std::fs::read(exams.join(name).join(file)).unwrap()))
        .collect()
}
