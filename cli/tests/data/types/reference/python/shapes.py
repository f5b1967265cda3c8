"""The reference."""


def corner(grid):
    return grid[1][2]


def swap(pair):
    assert isinstance(pair, tuple)
    return (pair[1], pair[0])


def or_zero(value, flag):
    v = 0 if value is None else value
    return -v if flag else v


def products(pairs):
    assert all(isinstance(p, tuple) for p in pairs)
    return sum(a * b for a, b in pairs)


def echo(text, letters):
    return text + "".join(letters)


def firsts(rows):
    assert all(r is None or isinstance(r, tuple) for r in rows)
    return [r[0] for r in rows if r is not None and r[1]]
