//! A careful student's tests of jogo da velha, written from EXERCISE.md
//! alone: `dev check` proves they catch every mutant, public and hidden.

use boardkit::velha::*;

fn board(rows: [&str; 3]) -> [[char; 3]; 3] {
    rows.map(|r| {
        let c: Vec<char> = r.chars().collect();
        [c[0], c[1], c[2]]
    })
}

fn flat(b: &[[char; 3]; 3]) -> char {
    verifica_vencedor_9(
        b[0][0], b[0][1], b[0][2], b[1][0], b[1][1], b[1][2], b[2][0], b[2][1], b[2][2],
    )
}

fn play(input: &str) -> (String, std::io::Result<()>) {
    let mut out = Vec::new();
    let result = jogar(&mut input.as_bytes(), &mut out);
    (String::from_utf8_lossy(&out).into_owned(), result)
}

#[test]
fn positions_give_their_row_and_column() {
    for (i, letter) in ["A", "B", "C"].iter().enumerate() {
        for j in 0..3 {
            let position = format!("{letter}{}", j + 1);
            assert_eq!(extrai_linha(&position), i, "{position}");
            assert_eq!(extrai_coluna(&position), j, "{position}");
        }
    }
}

#[test]
fn lower_case_and_spaces_are_positions_too() {
    assert_eq!(extrai_linha(" b 1 "), 1);
    assert_eq!(extrai_coluna(" b 1 "), 0);
    assert_eq!(extrai_linha("c3"), 2);
    assert_eq!(extrai_coluna("c3"), 2);
    assert_eq!(extrai_linha(" a 2"), 0);
    assert_eq!(extrai_coluna(" a 2"), 1);
}

#[test]
fn every_line_wins_for_either_player() {
    let lines: [[(usize, usize); 3]; 8] = [
        [(0, 0), (0, 1), (0, 2)],
        [(1, 0), (1, 1), (1, 2)],
        [(2, 0), (2, 1), (2, 2)],
        [(0, 0), (1, 0), (2, 0)],
        [(0, 1), (1, 1), (2, 1)],
        [(0, 2), (1, 2), (2, 2)],
        [(0, 0), (1, 1), (2, 2)],
        [(0, 2), (1, 1), (2, 0)],
    ];
    for line in lines {
        for mark in ['X', 'O'] {
            let mut b = [[' '; 3]; 3];
            for (r, c) in line {
                b[r][c] = mark;
            }
            assert_eq!(verifica_vencedor(&b), mark, "{b:?}");
            assert_eq!(flat(&b), mark, "{b:?}");
        }
    }
}

#[test]
fn full_boards_and_games_in_progress() {
    let draw = board(["XOX", "XOO", "OXX"]);
    assert_eq!(verifica_vencedor(&draw), 'E');
    assert_eq!(flat(&draw), 'E');
    let draw = board(["XXO", "OOX", "XOX"]);
    assert_eq!(verifica_vencedor(&draw), 'E');
    assert_eq!(flat(&draw), 'E');
    let open = board(["XO ", "   ", "   "]);
    assert_eq!(verifica_vencedor(&open), 'N');
    assert_eq!(flat(&open), 'N');
    let empty = [[' '; 3]; 3];
    assert_eq!(verifica_vencedor(&empty), 'N');
    // A win by the last move is a win.
    let last = board(["XOX", "OXO", "OXX"]);
    assert_eq!(verifica_vencedor(&last), 'X');
    assert_eq!(flat(&last), 'X');
    // O wins with four marks against X's four.
    let o_wins = board(["OXX", "XOX", "  O"]);
    assert_eq!(verifica_vencedor(&o_wins), 'O');
    let o_column = board(["XXO", " XO", "  O"]);
    assert_eq!(flat(&o_column), 'O');
}

#[test]
fn the_nine_argument_form_reads_every_cell() {
    for cell in 0..9 {
        let mut cells = [' '; 9];
        // A line through `cell` along its row.
        let row = cell / 3;
        for c in 0..3 {
            cells[row * 3 + c] = 'O';
        }
        let b = [
            [cells[0], cells[1], cells[2]],
            [cells[3], cells[4], cells[5]],
            [cells[6], cells[7], cells[8]],
        ];
        assert_eq!(flat(&b), 'O');
        let mut column = [' '; 9];
        for r in 0..3 {
            column[r * 3 + cell % 3] = 'X';
        }
        let b = [
            [column[0], column[1], column[2]],
            [column[3], column[4], column[5]],
            [column[6], column[7], column[8]],
        ];
        assert_eq!(flat(&b), 'X');
    }
}

#[test]
fn a_game_won_along_row_a() {
    let (out, result) = play("A1\nB1\nA2\nB2\nA3\n");
    assert!(result.is_ok());
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "Jogo da Velha");
    assert_eq!(lines.last(), Some(&"Vencedor: X"));
    assert!(out.contains("A X | X | X "), "{out}");
}

#[test]
fn o_wins_and_its_mark_is_drawn() {
    let (out, _) = play("A1\nB1\nA2\nB2\nC3\nB3\n");
    assert_eq!(out.lines().last(), Some("Vencedor: O"));
    assert!(out.contains("B O | O | O "), "{out}");
}

#[test]
fn a_full_board_is_a_draw() {
    let (out, result) = play("A1\nA2\nA3\nB2\nB1\nB3\nC2\nC1\nC3\n");
    assert!(result.is_ok());
    assert_eq!(out.lines().last(), Some("Empate"));
}

#[test]
fn taken_and_invalid_positions_ask_again() {
    let (out, result) = play("A1\nA1\nZ9\nB1\nA2\nB2\nA3\n");
    assert!(result.is_ok(), "{out}");
    assert!(out.contains("Posição ocupada"), "{out}");
    assert!(out.contains("Posição inválida"), "{out}");
    assert_eq!(out.matches("Posição ocupada").count(), 1, "{out}");
    assert_eq!(out.matches("Posição inválida").count(), 1, "{out}");
    assert_eq!(out.lines().last(), Some("Vencedor: X"));
}

#[test]
fn input_that_ends_early_is_an_error() {
    let (_, result) = play("A1\n");
    assert!(result.is_err());
}

#[test]
fn the_best_move_blocks_and_wins() {
    // O to move must block A3.
    assert_eq!(melhor_jogada(&board(["XX ", "O  ", "   "])), (0, 2));
    // X to move wins at once at C3.
    assert_eq!(melhor_jogada(&board(["XO ", "OX ", "   "])), (2, 2));
}
