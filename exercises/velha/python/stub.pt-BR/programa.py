"""Jogo da velha: o jogo, dois jogadores num mesmo teclado (README.md,
níveis "Proficiente" e "Avançado").

Leia as jogadas com input(), imprima o tabuleiro e o resultado como o
README.md mostra.
"""

from funcoes import extrai_coluna, extrai_linha, verifica_vencedor

raise NotImplementedError("programa.py: README.md, níveis Proficiente e Avançado")
