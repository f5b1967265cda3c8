#!/usr/bin/env python3
"""Jogo da velha para duas pessoas num mesmo teclado.

Lê uma posição por linha da entrada padrão (por exemplo A1, b 3, " C 2 ")
e escreve o tabuleiro na saída padrão. Os prompts são impressos sem quebra
de linha, como faz input() do Python.
"""

import sys
import unicodedata

# A linha mais longa aceita, em bytes, sem o fim de linha.
MAX_LINE_BYTES = 4096

LINHAS = "ABC"
COLUNAS = "123"


class FimDaEntrada(Exception):
    """A entrada acabou antes do fim do jogo."""


class LeitorDeLinhas:
    """Lê linhas de bytes com memória limitada.

    read_line() devolve o texto da linha (sem '\\n' nem '\\r' final) ou None
    quando a linha não pode ser uma jogada: longa demais, não UTF-8 ou com um
    caractere de controle (a tabulação não conta como controle aqui, mas
    também não é uma posição válida). Lança FimDaEntrada no fim da entrada.
    """

    def __init__(self, fluxo):
        self.fluxo = fluxo

    def read_line(self):
        buf = bytearray()
        longa_demais = False
        leu_algo = False
        while True:
            pedaco = self.fluxo.readline(65536)
            if not pedaco:
                if not leu_algo:
                    raise FimDaEntrada()
                break
            leu_algo = True
            terminou = pedaco.endswith(b"\n")
            if terminou:
                pedaco = pedaco[:-1]
            espaco = MAX_LINE_BYTES + 1 - len(buf)
            if len(pedaco) > espaco:
                longa_demais = True
            if espaco > 0:
                buf += pedaco[:espaco]
            if terminou:
                break
        if buf.endswith(b"\r"):
            del buf[-1]
        if longa_demais or len(buf) > MAX_LINE_BYTES:
            return None
        try:
            texto = buf.decode("utf-8")
        except UnicodeDecodeError:
            return None
        if any(c != "\t" and unicodedata.category(c) == "Cc" for c in texto):
            return None
        return texto


def escreve(texto):
    sys.stdout.buffer.write(texto.encode("utf-8"))


def prompt(texto):
    """Como input(texto): o prompt sem quebra de linha."""
    escreve(texto)
    sys.stdout.buffer.flush()


def le_posicao(texto):
    """(linha, coluna) de uma posição válida, ou None."""
    if texto is None:
        return None
    sem_espacos = texto.replace(" ", "")
    if len(sem_espacos) != 2:
        return None
    letra, digito = sem_espacos[0].upper(), sem_espacos[1]
    if letra not in LINHAS or digito not in COLUNAS:
        return None
    return LINHAS.index(letra), COLUNAS.index(digito)


def tabuleiro_em_texto(tab):
    linhas = ["  1   2   3"]
    for i, nome in enumerate(LINHAS):
        linhas.append("    |   |   ")
        linhas.append(nome + " " + " | ".join(tab[i]) + " ")
        linhas.append(" ___|___|___" if i < 2 else "    |   |   ")
    return "\n".join(linhas) + "\n"


def verifica_vencedor(tab):
    """'X' ou 'O' se alguém fez uma linha, 'E' se empate, 'N' se não acabou."""
    trincas = []
    for i in range(3):
        trincas.append([(i, 0), (i, 1), (i, 2)])
        trincas.append([(0, i), (1, i), (2, i)])
    trincas.append([(0, 0), (1, 1), (2, 2)])
    trincas.append([(0, 2), (1, 1), (2, 0)])
    for jogador in "XO":
        for trinca in trincas:
            if all(tab[r][c] == jogador for r, c in trinca):
                return jogador
    if all(tab[r][c] != " " for r in range(3) for c in range(3)):
        return "E"
    return "N"


def jogar(leitor):
    tab = [[" "] * 3 for _ in range(3)]
    escreve("Jogo da Velha\n")
    escreve(tabuleiro_em_texto(tab))
    jogador = "X"
    while True:
        prompt(f"Jogador {jogador}, sua jogada: ")
        posicao = le_posicao(leitor.read_line())
        if posicao is None:
            escreve("Posição inválida\n")
            continue
        r, c = posicao
        if tab[r][c] != " ":
            escreve("Posição ocupada\n")
            continue
        tab[r][c] = jogador
        escreve(tabuleiro_em_texto(tab))
        resultado = verifica_vencedor(tab)
        if resultado in "XO":
            escreve(f"Vencedor: {resultado}\n")
            return
        if resultado == "E":
            escreve("Empate\n")
            return
        jogador = "O" if jogador == "X" else "X"


def main():
    try:
        jogar(LeitorDeLinhas(sys.stdin.buffer))
    except FimDaEntrada:
        escreve("\n")
        sys.stdout.buffer.flush()
        sys.stderr.write("erro: a entrada acabou antes do fim do jogo\n")
        return 1
    except BrokenPipeError:
        return 1
    sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
