//! A thin suite: one function, one position.

#[test]
fn b1_is_row_one() {
    assert_eq!(boardkit::velha::extrai_linha("B1"), 1);
}
