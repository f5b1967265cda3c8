"""Your own tests: yours, as funcoes.py is. pytest runs them with the kit's;
`boardkit test velha --language python --mine` runs them against correct
versions of funcoes.py and against buggy ones, and names the bugs they
miss. With `boardkit grade --test-points`, your course grades them by the
bugs they catch.

A test counts only if it passes on every correct version, every time: call
only the functions the statement names, and assert only what it promises.
A test that asserts nothing catches nothing.
"""

import funcoes


def test_a_diagonal_wins():
    tabuleiro = [["O", "O", "X"], [" ", "X", " "], ["X", " ", " "]]
    assert funcoes.verifica_vencedor(tabuleiro) == "X"


# Write more below: each `def test_...():` is one test.
