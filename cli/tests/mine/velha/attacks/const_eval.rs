//! Attack: cost. A constant that takes ~10 s of const evaluation (the
//! deny-by-default long_running_const_eval lint is capped to a warning by
//! the grader's --cap-lints=warn), compiled once per library (5x), and a
//! valid test that sleeps just under the 5 s run limit, run 27 times.
use boardkit::velha::*;
const fn spin(n: u64) -> u64 { let mut i = 0; let mut x = 0u64; while i < n { x = x.wrapping_mul(31).wrapping_add(i); i += 1; } x }
const SPIN: u64 = spin(5_000_000);

#[test]
fn a_diagonal_wins_slowly() {
    std::thread::sleep(std::time::Duration::from_millis(4300));
    let board = [['O', 'O', 'X'], [' ', 'X', ' '], ['X', ' ', ' ']];
    assert_eq!(verifica_vencedor(&board), 'X');
    assert!(SPIN != 1);
}
