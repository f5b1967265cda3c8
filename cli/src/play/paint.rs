//! The terminal's palette (SPEC 7, "Terminal", the tutorial's colours): X
//! blue, O red, coordinates grey, the winning line in reverse video, the
//! last move underlined. Plain text when colours are off, so a painted
//! board without its escape codes is the exercise's board.

use anstyle::{AnsiColor, Style};

/// Paints text when colours are on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Palette {
    pub color: bool,
}

/// How a cell is shown besides its mark's colour.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Emphasis {
    /// Part of the winning line.
    pub winning: bool,
    /// The last move played.
    pub last: bool,
}

impl Palette {
    pub(crate) fn paint(&self, text: &str, style: Style) -> String {
        if self.color && !text.is_empty() {
            format!("{style}{text}{style:#}")
        } else {
            text.to_owned()
        }
    }

    /// A mark or disc: `X` blue, `O` red, anything else as it is.
    pub(crate) fn mark(&self, mark: char, emphasis: Emphasis) -> String {
        let mut style = match mark {
            'X' => Style::new().fg_color(Some(AnsiColor::Blue.into())).bold(),
            'O' => Style::new().fg_color(Some(AnsiColor::Red.into())).bold(),
            _ => Style::new(),
        };
        if emphasis.winning {
            style = style.invert();
        }
        if emphasis.last {
            style = style.underline();
        }
        self.paint(&mark.to_string(), style)
    }

    /// Row letters and column numbers.
    pub(crate) fn coordinate(&self, text: &str) -> String {
        self.paint(
            text,
            Style::new().fg_color(Some(AnsiColor::BrightBlack.into())),
        )
    }

    /// Titles and results.
    pub(crate) fn strong(&self, text: &str) -> String {
        self.paint(text, Style::new().bold())
    }

    /// What the computer did.
    pub(crate) fn note(&self, text: &str) -> String {
        self.paint(text, Style::new().italic())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_without_colours_and_styled_with() {
        let off = Palette { color: false };
        assert_eq!(
            off.mark(
                'X',
                Emphasis {
                    winning: true,
                    last: true
                }
            ),
            "X"
        );
        let on = Palette { color: true };
        let x = on.mark('X', Emphasis::default());
        assert!(x.starts_with('\x1b') && x.contains('X') && x.ends_with('m'));
        assert_ne!(x, on.mark('O', Emphasis::default()));
        assert_ne!(
            x,
            on.mark(
                'X',
                Emphasis {
                    winning: true,
                    last: false
                }
            )
        );
    }
}
