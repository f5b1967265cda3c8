//! The reference: the student's folder, as it should be written.

use crate::given::Code;

/// How many places hold the same colour in both codes.
pub fn blacks(secret: &Code, guess: &Code) -> usize {
    let pairs = secret.colors().iter().zip(guess.colors());
    pairs.filter(|(a, b)| a == b).count()
}

/// Each code, every colour one more, 5 becoming 0.
pub fn shifted(codes: &[Code]) -> Vec<Code> {
    let shift = |c: &Code| Code::from_colors(c.colors().iter().map(|p| (p + 1) % 6).collect());
    codes.iter().map(shift).collect()
}

/// Four letters from A to F, and nothing else.
pub fn parse(text: &str) -> Option<Code> {
    let colors = text
        .chars()
        .map(|c| ('A'..='F').contains(&c).then(|| c as usize - 'A' as usize))
        .collect::<Option<Vec<usize>>>()?;
    (colors.len() == 4).then(|| Code::from_colors(colors))
}
