//! Marks and the flat nine-cell board.

/// One of the two players' marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Peca {
    Xis,
    Bola,
}

impl Peca {
    pub fn oponente(self) -> Peca {
        match self {
            Peca::Xis => Peca::Bola,
            Peca::Bola => Peca::Xis,
        }
    }

    pub fn simbolo(self) -> char {
        match self {
            Peca::Xis => 'X',
            Peca::Bola => 'O',
        }
    }

    pub fn de_simbolo(c: char) -> Option<Peca> {
        match c {
            'X' => Some(Peca::Xis),
            'O' => Some(Peca::Bola),
            _ => None,
        }
    }
}

/// The board, cell `3 * linha + coluna`; `None` is an empty cell.
pub type Grade = [Option<Peca>; 9];

/// The eight lines of three cells.
pub const TRINCAS: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// Converts the statement's `[[char; 3]; 3]` into a flat board.
pub fn achatar(tabuleiro: &[[char; 3]; 3]) -> Grade {
    let mut grade: Grade = [None; 9];
    tabuleiro
        .iter()
        .flatten()
        .zip(grade.iter_mut())
        .for_each(|(&c, casa)| *casa = Peca::de_simbolo(c));
    grade
}

/// Whose turn it is: `X` when both have as many marks.
pub fn quem_joga(grade: &Grade) -> Peca {
    let contar = |p: Peca| grade.iter().filter(|&&c| c == Some(p)).count();
    if contar(Peca::Xis) == contar(Peca::Bola) {
        Peca::Xis
    } else {
        Peca::Bola
    }
}
