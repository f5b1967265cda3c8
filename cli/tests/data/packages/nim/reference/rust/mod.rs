//! The reference: the student's folder, as it should be written.

use std::io::{BufRead, Write};

/// Whether the game is over: every heap is empty, or there are none.
pub fn is_over(heaps: &[i64]) -> bool {
    heaps.iter().all(|&h| h == 0)
}

/// The heaps after taking `count` counters from heap `heap`, or an error for an illegal move.
pub fn apply_move(heaps: &[i64], heap: i64, count: i64) -> Result<Vec<i64>, String> {
    let index = usize::try_from(heap).map_err(|_| format!("no heap {heap}"))?;
    let size = *heaps.get(index).ok_or_else(|| format!("no heap {heap}"))?;
    if count < 1 || count > size {
        return Err(format!("cannot take {count} from a heap of {size}"));
    }
    let mut after = heaps.to_vec();
    after[index] -= count;
    Ok(after)
}

/// The xor of all the heap sizes (0 for no heaps).
pub fn nim_sum(heaps: &[i64]) -> i64 {
    heaps.iter().fold(0, |s, &h| s ^ h)
}

/// A move (heap, count) after which the nim-sum is 0, or None when there is none.
pub fn winning_move(heaps: &[i64]) -> Option<(i64, i64)> {
    let s = nim_sum(heaps);
    if s == 0 {
        return None;
    }
    heaps
        .iter()
        .enumerate()
        .find(|&(_, &h)| h ^ s < h)
        .map(|(i, &h)| (i as i64, h - (h ^ s)))
}

/// Two whole numbers (digits only) separated by spaces, or None.
fn parse_move(line: &str) -> Option<(i64, i64)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let number = |word: &str| -> Option<i64> {
        if word.bytes().all(|b| b.is_ascii_digit()) {
            word.parse().ok()
        } else {
            None
        }
    };
    match words[..] {
        [heap, count] => Some((number(heap)?, number(count)?)),
        _ => None,
    }
}

fn show(heaps: &[i64]) -> String {
    let sizes: Vec<String> = heaps.iter().map(|h| h.to_string()).collect();
    format!("Heaps: {}", sizes.join(" "))
}

/// Referees a game: the starting heaps on the first line, then one move a line.
pub fn play(input: &mut dyn BufRead, output: &mut dyn Write) -> std::io::Result<()> {
    let mut lines = input.lines();
    writeln!(output, "Nim: type the heaps, then one move a line (heap count).")?;
    let first = match lines.next() {
        Some(line) => line?,
        None => return writeln!(output, "Unfinished"),
    };
    let mut heaps: Vec<i64> = first
        .split_whitespace()
        .filter_map(|word| word.parse().ok())
        .collect();
    writeln!(output, "{}", show(&heaps))?;
    if is_over(&heaps) {
        return writeln!(output, "Player 2 wins");
    }
    let mut player = 1;
    loop {
        writeln!(output, "Player {player}, your move:")?;
        let line = match lines.next() {
            Some(line) => line?,
            None => return writeln!(output, "Unfinished"),
        };
        let after = match parse_move(&line) {
            Some((heap, count)) => apply_move(&heaps, heap, count).ok(),
            None => None,
        };
        match after {
            None => writeln!(output, "Illegal move: {line}")?,
            Some(after) => {
                heaps = after;
                writeln!(output, "{}", show(&heaps))?;
                if is_over(&heaps) {
                    return writeln!(output, "Player {player} wins");
                }
                player = 3 - player;
            }
        }
    }
}
