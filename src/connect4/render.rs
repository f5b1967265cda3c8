//! The connect-four board as the course's testbed prints it (SPEC 3.2): top
//! row first, ASCII `|` walls, box-drawing rules, a footer numbering columns.

use super::board::Board;

/// The board, each line ending in `\n`.
pub fn board_block(board: &Board) -> String {
    let cols = board.cols();
    let rule = |left: char, middle: char, right: char| {
        let mut line = String::with_capacity(cols * 6 + 4);
        line.push(left);
        line.push_str(&vec!["─"; cols].join(&middle.to_string()));
        line.push(right);
        line.push('\n');
        line
    };
    let mut out = rule('┌', '┬', '┐');
    for row in (0..board.rows()).rev() {
        out.push('|');
        for col in 0..cols {
            out.push(board.get(row, col).map_or(' ', |d| d.symbol()));
            out.push('|');
        }
        out.push('\n');
        out.push_str(&if row > 0 {
            rule('├', '┼', '┤')
        } else {
            rule('└', '┴', '┘')
        });
    }
    for col in 1..=cols {
        out.push_str(&format!(" {col}"));
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_spec_example_byte_for_byte() {
        let mut board = Board::standard();
        // Bottom row X O X O, then O X X O, then . . X O, then . . . X.
        for col in [0, 1, 2, 3, 1, 0, 2, 3, 2, 3, 3] {
            board.play(col).unwrap();
        }
        let expected = "\
┌─┬─┬─┬─┬─┬─┬─┐
| | | | | | | |
├─┼─┼─┼─┼─┼─┼─┤
| | | | | | | |
├─┼─┼─┼─┼─┼─┼─┤
| | | |X| | | |
├─┼─┼─┼─┼─┼─┼─┤
| | |X|O| | | |
├─┼─┼─┼─┼─┼─┼─┤
|O|X|X|O| | | |
├─┼─┼─┼─┼─┼─┼─┤
|X|O|X|O| | | |
└─┴─┴─┴─┴─┴─┴─┘
 1 2 3 4 5 6 7
";
        assert_eq!(board_block(&board), expected);
    }
}
