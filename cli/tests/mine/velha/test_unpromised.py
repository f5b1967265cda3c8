"""Tests of what the Python statement does not promise: a position in lower
case, a board on which both players have a line, verifica_vencedor called
with nine strings (a correct funcoes.py may take one list only). Each passes
on the reference; `dev check` proves each is reported as testing what the
statement does not promise, and counts for nothing."""

import funcoes


def test_a_lower_case_position():
    assert funcoes.extrai_linha("b1") == 1


def test_a_board_with_two_lines():
    assert funcoes.verifica_vencedor([["X", "X", "X"], ["O", "O", "O"], [" ", " ", " "]]) == "X"


def test_nine_strings():
    assert funcoes.verifica_vencedor("X", "X", "X", "O", "O", " ", " ", " ", " ") == "X"
