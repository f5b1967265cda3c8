//! A test that calls the statement's functions and asserts nothing.

#[test]
fn calls_without_asserting() {
    let _ = boardkit::velha::verifica_vencedor(&[[' '; 3]; 3]);
    let mut out = Vec::new();
    let _ = boardkit::velha::jogar(&mut "A1\nB1\nA2\nB2\nA3\n".as_bytes(), &mut out);
}
