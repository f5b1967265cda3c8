//! A careful student's tests of connect four, written from EXERCISE.md
//! alone: `dev check` proves they catch every mutant, public and hidden.

use boardkit::connect4::*;
use boardkit::player::Strategy;

/// Drops alternately (player one first) into `columns` (0-based).
fn after(rows: usize, cols: usize, columns: &[usize]) -> (Board, usize, usize) {
    let mut board = Board::new(rows, cols).unwrap();
    let mut disc = Disc::One;
    let mut last = (0, 0);
    for &col in columns {
        last = (board.drop_piece(col, disc).unwrap(), col);
        disc = disc.other();
    }
    (board, last.0, last.1)
}

fn game(input: &str, computer: Option<&mut dyn Strategy<Board, usize>>) -> String {
    let mut out = Vec::new();
    play(6, 7, computer, &mut input.as_bytes(), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn sizes_from_4_to_20() {
    assert!(Board::new(4, 4).is_ok());
    assert!(Board::new(20, 20).is_ok());
    assert!(Board::new(6, 7).is_ok());
    assert!(Board::new(3, 7).is_err());
    assert!(Board::new(6, 21).is_err());
}

#[test]
fn discs_stack_up_their_column() {
    let mut board = Board::new(4, 5).unwrap();
    for row in 0..4 {
        assert_eq!(board.drop_piece(2, Disc::One).unwrap(), row);
    }
    assert!(matches!(board.drop_piece(2, Disc::Two), Err(DropError::ColumnFull { col: 2 })));
    assert!(matches!(board.drop_piece(5, Disc::Two), Err(DropError::OutOfRange { col: 5, .. })));
    assert!(matches!(board.drop_piece(9, Disc::Two), Err(DropError::OutOfRange { .. })));
}

#[test]
fn full_only_when_every_cell_holds_a_disc() {
    let mut board = Board::new(4, 4).unwrap();
    let mut disc = Disc::One;
    for col in 0..4 {
        for _ in 0..4 {
            assert!(!board.is_full());
            board.drop_piece(col, disc).unwrap();
            disc = disc.other();
        }
    }
    assert!(board.is_full());
}

#[test]
fn every_disc_of_a_line_connects_four() {
    // Horizontal, along the bottom row.
    let (board, _, _) = after(6, 7, &[0, 0, 1, 1, 2, 2, 3]);
    for col in 0..4 {
        assert!(board.connects_four(0, col), "column {col}");
    }
    assert!(!board.connects_four(1, 0));
    // Vertical.
    let (board, row, col) = after(6, 7, &[0, 1, 0, 1, 0, 1, 0]);
    assert!(board.connects_four(row, col));
    assert!(board.connects_four(0, 0));
    // Rising diagonal.
    let (board, row, col) = after(6, 7, &[0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3]);
    assert!(board.connects_four(row, col));
    assert!(board.connects_four(0, 0));
    // Falling diagonal.
    let (board, row, col) = after(6, 7, &[6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3]);
    assert!(board.connects_four(row, col));
    assert!(board.connects_four(0, 6));
    // Three are not four.
    let (board, row, col) = after(6, 7, &[0, 0, 1, 1, 2]);
    assert!(!board.connects_four(row, col));
}

#[test]
fn columns_are_numbered_from_one() {
    let out = game("4 1 4 1 4 1 4\n", None);
    assert!(out.lines().any(|l| l == "|O| | |X| | | |"), "{out}");
    assert_eq!(out.lines().last(), Some("Player one won!"));
    assert!(out.lines().any(|l| l == "Column number? (starts at 1):"));
}

#[test]
fn player_two_can_win() {
    let out = game("1 2 1 2 1 2 3 2\n", None);
    assert_eq!(out.lines().last(), Some("Player two won!"));
}

struct Column(usize);

impl Strategy<Board, usize> for Column {
    fn choose(&mut self, _: &Board) -> usize {
        self.0
    }
}

#[test]
fn the_computers_win_is_its_own() {
    let out = game("1 2 1 2\n", Some(&mut Column(6)));
    assert_eq!(out.lines().last(), Some("Computer won!"));
}

/// Player two to move, with a win of its own in column 6 and player one
/// threatening column 3: it must win.
#[test]
fn the_smart_player_wins_before_it_blocks() {
    let (board, _, _) = after(6, 7, &[0, 6, 1, 6, 2, 6, 5]);
    for seed in 0..50 {
        assert_eq!(SmartPlayer::new(seed).choose(&board), 6);
    }
}

#[test]
fn the_smart_player_blocks() {
    let (board, _, _) = after(6, 7, &[0, 6, 1, 6, 2]);
    for seed in 0..50 {
        assert_eq!(SmartPlayer::new(seed).choose(&board), 3);
    }
}

/// Uniform over the legal columns, full ones never drawn: each of the four
/// open columns near a quarter of 4,000 draws.
#[test]
fn the_random_player_draws_each_legal_column_evenly() {
    let mut columns = Vec::new();
    for col in 0..3 {
        columns.extend([col; 6]);
    }
    let (board, _, _) = after(6, 7, &columns);
    let mut player = RandomPlayer::new(7);
    let mut counts = [0usize; 7];
    for _ in 0..4000 {
        counts[player.choose(&board)] += 1;
    }
    assert_eq!(counts[..3], [0, 0, 0]);
    for count in &counts[3..] {
        assert!((700..1300).contains(count), "{counts:?}");
    }
    let empty = Board::new(6, 7).unwrap();
    let seen: std::collections::BTreeSet<usize> =
        (0..200).map(|_| player.choose(&empty)).collect();
    assert_eq!(seen.len(), 7);
}
