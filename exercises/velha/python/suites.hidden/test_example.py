"""One test, the statement's plainest rule: X wins along row A. A suite this
plain catches the mutant that breaks it."""

import funcoes


def test_x_wins_along_row_a():
    assert funcoes.verifica_vencedor([["X", "X", "X"], ["O", "O", " "], [" ", " ", " "]]) == "X"
