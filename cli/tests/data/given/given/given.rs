//! The type the statement gives: a code, its pegs' colours.

/// A code: each peg's colour, from 0 to 5.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Code(Vec<usize>);

impl Code {
    /// The code of these colours.
    pub fn from_colors(colors: Vec<usize>) -> Code {
        Code(colors)
    }

    /// Its pegs' colours, in order.
    pub fn colors(&self) -> &[usize] {
        &self.0
    }
}
