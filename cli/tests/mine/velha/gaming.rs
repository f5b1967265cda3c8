//! Tests that try to earn points without testing: each must catch nothing.

use boardkit::velha::*;

/// Fails once the reference's source differs from what it read first.
#[test]
fn reads_the_source() {
    let text = std::fs::read_to_string("src/velha/board.rs").unwrap_or_default();
    let seen = std::env::temp_dir().join("seen");
    match std::fs::read_to_string(&seen) {
        Ok(first) => assert_eq!(first, text),
        Err(_) => std::fs::write(&seen, &text).unwrap(),
    }
    // Whatever stdin and the environment say.
    let mut line = String::new();
    let _ = std::io::stdin().read_line(&mut line);
    assert!(line.is_empty(), "stdin: {line:?}");
    let env: Vec<String> = std::env::vars().map(|(k, v)| format!("{k}={v}")).collect();
    assert!(!env.iter().any(|v| v.contains("MUTANT")), "{env:?}");
}

#[test]
fn sleeps() {
    std::thread::sleep(std::time::Duration::from_secs(600));
}

#[test]
fn asserts_nothing() {
    let _ = verifica_vencedor(&[['X'; 3], [' '; 3], [' '; 3]]);
    let _ = extrai_linha("A1");
}

#[test]
fn asserts_what_it_computed_itself() {
    let first = verifica_vencedor(&[['X'; 3], [' '; 3], [' '; 3]]);
    assert_eq!(first, verifica_vencedor(&[['X'; 3], [' '; 3], [' '; 3]]));
}

/// Fails from its fourth run on, counting in a file.
#[test]
fn fails_on_its_fourth_run() {
    let counter = std::path::Path::new("/tmp/boardkit-runs");
    let runs: u32 = std::fs::read_to_string(counter)
        .ok()
        .and_then(|t| t.trim().parse().ok())
        .unwrap_or(0);
    let _ = std::fs::write(counter, (runs + 1).to_string());
    assert!(runs < 3, "run {}", runs + 1);
}
