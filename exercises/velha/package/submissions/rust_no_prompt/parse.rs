//! Reading positions: `"B1"`, `" b 1 "`, ... -> flat cell index.

/// The flat index `3 * row + column` of a position, or `None` when the
/// bytes are not exactly one letter `A`-`C` (any case) and one digit `1`-`3`
/// (in that order) with nothing but ASCII spaces around or between them.
pub(crate) fn cell_of(bytes: &[u8]) -> Option<usize> {
    let mut significant = bytes.iter().copied().filter(|&b| b != b' ');
    let letter = significant.next()?;
    let digit = significant.next()?;
    if significant.next().is_some() {
        return None;
    }
    let row = match letter.to_ascii_uppercase() {
        b @ b'A'..=b'C' => usize::from(b - b'A'),
        _ => return None,
    };
    let col = match digit {
        b'1'..=b'3' => usize::from(digit - b'1'),
        _ => return None,
    };
    Some(row * 3 + col)
}

/// The row index 0..=2 of a valid position: `"B1"` -> 1.
pub fn extrai_linha(posicao: &str) -> usize {
    cell_of(posicao.as_bytes()).map_or_else(|| panic!("not a position: {posicao:?}"), |i| i / 3)
}

/// The column index 0..=2 of a valid position: `"B1"` -> 0.
pub fn extrai_coluna(posicao: &str) -> usize {
    cell_of(posicao.as_bytes()).map_or_else(|| panic!("not a position: {posicao:?}"), |i| i % 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings() {
        assert_eq!(cell_of(b"B1"), Some(3));
        assert_eq!(cell_of(b" c 3 "), Some(8));
        assert_eq!(cell_of(b"a3"), Some(2));
        for bad in [&b" D9 "[..], b"A4", b"AA", b"", b"\tA1", b"A11", b"1A", b"A\x071"] {
            assert_eq!(cell_of(bad), None, "{bad:?}");
        }
    }
}
