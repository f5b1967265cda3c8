//! Puissance 4 : votre code. Tout ce dossier est à vous ; écrivez les
//! éléments ci-dessous (EXERCISE.md, « Puissance 4 ») et ajoutez les
//! fonctions auxiliaires, les types et les modules que vous voulez.

use std::io::{self, BufRead, Write};

pub use crate::given::connect4::{Disc, DropError, MAX_SIDE, MIN_SIDE, SizeError};
use crate::player::Strategy;

/// Une grille de toute taille, de 4 x 4 à 20 x 20. Ses champs sont à vous.
#[derive(Debug, Clone)]
pub struct Board {}

impl Board {
    /// Une grille vide de `rows` x `cols` ; un côté hors de 4..=20 est une erreur.
    pub fn new(rows: usize, cols: usize) -> Result<Board, SizeError> {
        todo!("Board::new({rows}, {cols}) : voir EXERCISE.md, Puissance 4, Basique")
    }

    /// Lâche `disc` dans la colonne `col` (numérotée à partir de 0) ; renvoie la
    /// ligne où il s'arrête.
    pub fn drop_piece(&mut self, col: usize, disc: Disc) -> Result<usize, DropError> {
        todo!("Board::drop_piece({col}, {disc}) : voir EXERCISE.md, Puissance 4, Basique")
    }

    /// Indique si le jeton de la case (`row`, `col`) fait partie d'un alignement
    /// de quatre.
    pub fn connects_four(&self, row: usize, col: usize) -> bool {
        todo!("Board::connects_four({row}, {col}) : voir EXERCISE.md, Puissance 4, Basique")
    }

    /// Indique si toutes les cases sont occupées.
    pub fn is_full(&self) -> bool {
        todo!("Board::is_full : voir EXERCISE.md, Puissance 4, Basique")
    }
}

/// Une partie sur une grille de `rows` x `cols` : les colonnes du premier
/// joueur sont lues dans `input`, celles du second aussi, à moins que
/// `computer` soit donné. Tout est affiché dans `output`. Renvoie une erreur
/// si l'entrée s'arrête avant la fin de la partie.
pub fn play(
    rows: usize,
    cols: usize,
    computer: Option<&mut dyn Strategy<Board, usize>>,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> io::Result<()> {
    let _ = (computer, input, output);
    todo!("play({rows}, {cols}, ..) : voir EXERCISE.md, Puissance 4, Confirmé")
}

/// Joue une colonne jouable tirée uniformément au hasard, par un générateur
/// initialisé avec la graine donnée à sa création.
#[derive(Debug)]
pub struct RandomPlayer {}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        todo!("RandomPlayer::new({seed}) : voir EXERCISE.md, Puissance 4, Avancé")
    }
}

impl Strategy<Board, usize> for RandomPlayer {
    fn choose(&mut self, board: &Board) -> usize {
        let _ = board;
        todo!("RandomPlayer::choose : voir EXERCISE.md, Puissance 4, Avancé")
    }
}

/// Gagne tout de suite s'il le peut, sinon bloque la victoire adverse,
/// sinon joue au hasard.
#[derive(Debug)]
pub struct SmartPlayer {}

impl SmartPlayer {
    pub fn new(seed: u64) -> SmartPlayer {
        todo!("SmartPlayer::new({seed}) : voir EXERCISE.md, Puissance 4, Avancé")
    }
}

impl Strategy<Board, usize> for SmartPlayer {
    fn choose(&mut self, board: &Board) -> usize {
        let _ = board;
        todo!("SmartPlayer::choose : voir EXERCISE.md, Puissance 4, Avancé")
    }
}

/// Une colonne (numérotée à partir de 0) de meilleur score exact pour le
/// joueur dont c'est le tour, sur la grille standard de 6 x 7.
pub fn best_move(board: &Board) -> usize {
    let _ = board;
    todo!("best_move : voir EXERCISE.md, Puissance 4, Expert")
}
