"""A thin suite: one board."""

import funcoes


def test_a_diagonal():
    assert funcoes.verifica_vencedor([["O", "O", "X"], [" ", "X", " "], ["X", " ", " "]]) == "X"
