//! Typed positions: a letter `A`-`C` (any case) then a digit `1`-`3`, with
//! spaces allowed anywhere.

/// The significant characters of a position, spaces dropped.
fn sem_espacos(posicao: &str) -> impl Iterator<Item = char> + '_ {
    posicao.chars().filter(|&c| c != ' ')
}

fn indice_letra(c: char) -> Option<usize> {
    "ABC".find(c.to_ascii_uppercase()).filter(|_| c.is_ascii())
}

fn indice_digito(c: char) -> Option<usize> {
    "123".find(c).filter(|_| c.is_ascii())
}

/// `(linha, coluna)` of a typed position, or `None` when it is not one.
pub fn interpreta(texto: &str) -> Option<(usize, usize)> {
    let mut it = sem_espacos(texto);
    let linha = it.next().and_then(indice_letra)?;
    let coluna = it.next().and_then(indice_digito)?;
    match it.next() {
        None => Some((linha, coluna)),
        Some(_) => None,
    }
}

/// The row index 0..=2 of a position: `"B1"` -> 1. The letter may be lower
/// case and spaces may stand anywhere (`" b 1 "` -> 1).
pub fn extrai_linha(posicao: &str) -> usize {
    sem_espacos(posicao)
        .next()
        .and_then(indice_letra)
        .unwrap_or(0)
}

/// The column index 0..=2 of a position: `"B1"` -> 0.
pub fn extrai_coluna(posicao: &str) -> usize {
    sem_espacos(posicao)
        .nth(1)
        .and_then(indice_digito)
        .unwrap_or(0)
}
