"""Jogo da velha: the game, two players at one keyboard (README.md,
"proficient" and "advanced").

Read moves with input(), print the board and the result as README.md shows.
"""

from funcoes import extrai_coluna, extrai_linha, verifica_vencedor

raise NotImplementedError("programa.py: README.md, levels proficient and advanced")
