"""Seus próprios testes: são seus, como funcoes.py. O pytest os roda junto
com os do kit; `boardkit test velha --language python --mine` os roda contra versões
corretas de funcoes.py e contra versões com defeitos, e diz quais defeitos
eles deixam passar. Com `boardkit grade --test-points`, sua disciplina os
avalia pelos defeitos que pegam.

Um teste só conta se passa em toda versão correta, sempre: chame só as
funções que o enunciado nomeia e verifique só o que ele promete. Um teste
que não verifica nada não pega nada.
"""

import funcoes


def test_uma_diagonal_vence():
    tabuleiro = [["O", "O", "X"], [" ", "X", " "], ["X", " ", " "]]
    assert funcoes.verifica_vencedor(tabuleiro) == "X"


# Escreva outros abaixo: cada `def test_...():` é um teste.
