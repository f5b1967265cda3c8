//! The reference.

pub fn corner(grid: &[[char; 3]; 2]) -> char {
    grid[1][2]
}

pub fn swap(pair: (i64, String)) -> (String, i64) {
    (pair.1, pair.0)
}

pub fn or_zero(value: Option<i64>, flag: bool) -> i64 {
    let v = value.unwrap_or(0);
    if flag { -v } else { v }
}

pub fn products(pairs: &[(i64, i64)]) -> i64 {
    pairs.iter().map(|(a, b)| a * b).sum()
}

pub fn echo(text: &str, letters: &[char]) -> String {
    let mut out = text.to_owned();
    out.extend(letters);
    out
}

pub fn firsts(rows: &[Option<(i64, bool)>]) -> Vec<i64> {
    rows.iter().flatten().filter(|(_, keep)| *keep).map(|(first, _)| *first).collect()
}
