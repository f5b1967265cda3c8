"""The type the statement gives: a code, its pegs' colours."""


class Code:
    """A code: each peg's colour, from 0 to 5."""

    def __init__(self, colors):
        self.colors = list(colors)

    def __eq__(self, other):
        return isinstance(other, Code) and self.colors == other.colors

    def __repr__(self):
        return "Code(%r)" % (self.colors,)
