"""A wrong answer, invalid, and a right test beside it: the statement's
row A win, which catches what it catches."""

import funcoes


def test_b1_is_column_one():
    assert funcoes.extrai_coluna("B1") == 1


def test_a_row_wins():
    assert funcoes.verifica_vencedor([["X", "X", "X"], ["O", "O", " "], [" ", " ", " "]]) == "X"
