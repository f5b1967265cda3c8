"""Jogo da velha: the functions (README.md, "basic" and "expert").

A position is a row letter and a column digit, such as 'B1'. A board is a
list of three lists, one a row from A to C, of 'X', 'O' or ' ' (empty).
"""


def extrai_linha(posicao):
    """The row of `posicao` as an index: 'B1' gives 1 (0 to 2)."""
    raise NotImplementedError("extrai_linha: README.md, level basic")


def extrai_coluna(posicao):
    """The column of `posicao` as an index: 'B1' gives 0 (0 to 2)."""
    raise NotImplementedError("extrai_coluna: README.md, level basic")


def verifica_vencedor(tabuleiro):
    """'X' or 'O' when that player has a line, 'E' for a full board with
    none (a draw), 'N' while the game goes on.

    The basic level also takes the form with nine strings, one per cell
    from A1 to C3: verifica_vencedor(a, b, c, d, e, f, g, h, i). The
    advanced level asks for this one, a list of three lists.
    """
    raise NotImplementedError("verifica_vencedor: README.md, level basic")


def melhor_jogada(tabuleiro):
    """A best move for the player whose turn it is, as (linha, coluna):
    never a loss it could avoid, the fastest win it can force. Optional:
    the expert level, beyond the exam."""
    raise NotImplementedError("melhor_jogada: README.md, level expert")
