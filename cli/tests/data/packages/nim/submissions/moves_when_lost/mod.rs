use std::io::{BufRead, Write};

pub fn is_over(heaps: &[i64]) -> bool {
    heaps.iter().all(|&h| h == 0)
}

pub fn apply_move(heaps: &[i64], heap: i64, count: i64) -> Result<Vec<i64>, String> {
    if heap < 0 || heap as usize >= heaps.len() {
        return Err("no such heap".to_string());
    }
    let i = heap as usize;
    if count < 1 || count > heaps[i] {
        return Err("wrong count".to_string());
    }
    let mut after = heaps.to_vec();
    after[i] -= count;
    Ok(after)
}

pub fn nim_sum(heaps: &[i64]) -> i64 {
    heaps.iter().fold(0, |s, &h| s ^ h)
}

pub fn winning_move(heaps: &[i64]) -> Option<(i64, i64)> {
    let s = nim_sum(heaps);
    for (i, &h) in heaps.iter().enumerate() {
        if h ^ s < h {
            return Some((i as i64, h - (h ^ s)));
        }
    }
    // Lost anyway: take one counter from the first heap that has one.
    heaps.iter().position(|&h| h > 0).map(|i| (i as i64, 1))
}

pub fn play(input: &mut dyn BufRead, output: &mut dyn Write) -> std::io::Result<()> {
    let mut lines = input.lines();
    let mut heaps: Vec<i64> = match lines.next() {
        Some(line) => line?.split_whitespace().filter_map(|w| w.parse().ok()).collect(),
        None => return writeln!(output, "Unfinished"),
    };
    let show = |heaps: &[i64]| {
        let sizes: Vec<String> = heaps.iter().map(|h| h.to_string()).collect();
        format!("Heaps: {}", sizes.join(" "))
    };
    writeln!(output, "{}", show(&heaps))?;
    if is_over(&heaps) {
        return writeln!(output, "Player 2 wins");
    }
    let mut player = 1;
    for line in lines {
        let line = line?;
        let numbers: Vec<i64> = line.split_whitespace().filter_map(|w| w.parse().ok()).collect();
        let words = line.split_whitespace().count();
        let after = if numbers.len() == 2 && words == 2 {
            apply_move(&heaps, numbers[0], numbers[1]).ok()
        } else {
            None
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
    writeln!(output, "Unfinished")
}
