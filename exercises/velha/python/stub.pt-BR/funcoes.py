"""Jogo da velha: as funções (README.md, níveis "Básico" e "Especialista").

Uma posição é uma letra de linha e um dígito de coluna, como 'B1'. Um
tabuleiro é uma lista de três listas, uma por linha de A a C, de 'X', 'O'
ou ' ' (vazia).
"""


def extrai_linha(posicao):
    """A linha de `posicao` como índice: 'B1' dá 1 (de 0 a 2)."""
    raise NotImplementedError("extrai_linha: README.md, nível Básico")


def extrai_coluna(posicao):
    """A coluna de `posicao` como índice: 'B1' dá 0 (de 0 a 2)."""
    raise NotImplementedError("extrai_coluna: README.md, nível Básico")


def verifica_vencedor(tabuleiro):
    """'X' ou 'O' quando esse jogador tem uma linha, 'E' para um tabuleiro
    cheio sem nenhuma (empate), 'N' enquanto o jogo continua.

    O nível básico também aceita a forma com nove strings, uma por casa de
    A1 a C3: verifica_vencedor(a, b, c, d, e, f, g, h, i). O nível avançado
    pede esta, uma lista de três listas.
    """
    raise NotImplementedError("verifica_vencedor: README.md, nível Básico")


def melhor_jogada(tabuleiro):
    """Uma melhor jogada para quem tem a vez, como (linha, coluna): nunca
    uma derrota que poderia evitar, a vitória mais rápida que pode forçar.
    Opcional: o nível especialista, além da prova."""
    raise NotImplementedError("melhor_jogada: README.md, nível Especialista")
