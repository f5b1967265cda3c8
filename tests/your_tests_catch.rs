//! The last thing `cargo test` prints in a starter: which of the kit's
//! public bugs your own tests (`tests/mine.rs`) catch. Cargo runs test
//! targets by name: this one comes after the kit's tests and yours (when a
//! binary before it fails, Cargo stops there, and the kit's tests print the
//! line instead). Nothing when a filter picks tests (`cargo test basic`).

fn main() {
    let Some(game) = env!("CARGO_PKG_NAME").strip_suffix("-exercise") else {
        return;
    };
    if std::env::args().skip(1).any(|a| !a.starts_with('-')) {
        return;
    }
    let line = boardkit::watch::own_tests_line(game, env!("CARGO_MANIFEST_DIR").as_ref());
    if !line.is_empty() {
        println!("\n{line}");
    }
}
