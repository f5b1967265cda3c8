"""A careful student's tests of funcoes.py, from the statement alone (only
the calls it promises: valid positions in upper case without spaces, boards
with one line at most, verifica_vencedor with one list, the form every
correct funcoes.py takes): `dev check` proves they catch every Python
mutant, public and hidden."""

import funcoes


def test_rows_and_columns_of_every_position():
    for i, letra in enumerate("ABC"):
        for j in range(3):
            posicao = f"{letra}{j + 1}"
            assert funcoes.extrai_linha(posicao) == i
            assert funcoes.extrai_coluna(posicao) == j


LINHAS = [
    [(0, 0), (0, 1), (0, 2)], [(1, 0), (1, 1), (1, 2)], [(2, 0), (2, 1), (2, 2)],
    [(0, 0), (1, 0), (2, 0)], [(0, 1), (1, 1), (2, 1)], [(0, 2), (1, 2), (2, 2)],
    [(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)],
]


def test_every_line_wins():
    for linha in LINHAS:
        for jogador in "XO":
            t = [[" "] * 3 for _ in range(3)]
            for r, c in linha:
                t[r][c] = jogador
            assert funcoes.verifica_vencedor(t) == jogador


def test_draws_and_games_in_progress():
    empate = [["X", "O", "X"], ["X", "O", "O"], ["O", "X", "X"]]
    assert funcoes.verifica_vencedor(empate) == "E"
    aberto = [["X", "O", " "], [" ", " ", " "], [" ", " ", " "]]
    assert funcoes.verifica_vencedor(aberto) == "N"
    ultimo = [["X", "O", "X"], ["O", "X", "O"], ["O", "X", "X"]]
    assert funcoes.verifica_vencedor(ultimo) == "X"


def test_the_best_move_wins_at_once_or_blocks():
    # X to move, with a row to finish: the fastest win is the only answer.
    assert funcoes.melhor_jogada([["X", "X", " "], ["O", "O", " "], [" ", " ", " "]]) == (0, 2)
    # O to move, X threatens row A: anything else loses.
    assert funcoes.melhor_jogada([["X", "X", " "], ["O", " ", " "], [" ", " ", " "]]) == (0, 2)
    # O's answer to a corner: only the centre draws.
    assert funcoes.melhor_jogada([["X", " ", " "], [" ", " ", " "], [" ", " ", " "]]) == (1, 1)
