#!/usr/bin/env python3
# Jogo da velha para dois jogadores no mesmo teclado.
import sys

TAMANHO_MAXIMO = 4096
TRINCAS = [
    (0, 1, 2), (3, 4, 5), (6, 7, 8),   # linhas
    (0, 3, 6), (1, 4, 7), (2, 5, 8),   # colunas
    (0, 4, 8), (2, 4, 6),              # diagonais
]


def escreve(texto, fim="\n"):
    sys.stdout.write(texto + fim)
    sys.stdout.flush()


def desenha(tab):
    escreve("  1   2   3")
    for i, letra in enumerate("ABC"):
        a, b, c = tab[3 * i], tab[3 * i + 1], tab[3 * i + 2]
        escreve("    |   |   ")
        escreve(letra + " " + a + " | " + b + " | " + c + " ")
        if i < 2:
            escreve(" ___|___|___")
        else:
            escreve("    |   |   ")


def vencedor(tab):
    for a, b, c in TRINCAS:
        if tab[a] != " " and tab[a] == tab[b] == tab[c]:
            return tab[a]
    if " " not in tab:
        return "E"
    return "N"


def descarta_resto():
    # joga fora o resto de uma linha comprida demais, sem guardar tudo
    while True:
        pedaco = sys.stdin.buffer.readline(65536)
        if not pedaco or pedaco.endswith(b"\n"):
            return


def le_linha():
    """Devolve o texto da linha, ou None se a linha nao for texto valido.
    Lanca EOFError quando nao ha mais entrada."""
    bruto = sys.stdin.buffer.readline(TAMANHO_MAXIMO + 2)
    if bruto == b"":
        raise EOFError
    if not bruto.endswith(b"\n") and len(bruto) == TAMANHO_MAXIMO + 2:
        descarta_resto()
        return None
    if bruto.endswith(b"\n"):
        bruto = bruto[:-1]
    if bruto.endswith(b"\r"):
        bruto = bruto[:-1]
    if len(bruto) > TAMANHO_MAXIMO:
        return None
    try:
        return bruto.decode("utf-8")
    except UnicodeDecodeError:
        return None


def indice_da_posicao(texto):
    """Converte 'B1', ' b 1 ' etc. no indice 0..8; None se invalida."""
    if texto is None:
        return None
    limpo = texto.replace(" ", "")
    if len(limpo) != 2:
        return None
    letra, digito = limpo[0], limpo[1]
    if letra not in "ABCabc" or digito not in "123":
        return None
    linha = "abc".index(letra.lower())
    coluna = int(digito) - 1
    return 3 * linha + coluna


def main():
    if len(sys.argv) > 1:
        sys.stderr.write("uso: python3 programa.py (sem opcoes)\n")
        sys.exit(2)
    tabuleiro = [" "] * 9
    jogador = "X"
    escreve("Jogo da Velha")
    desenha(tabuleiro)
    try:
        while True:
            escreve("Vez do jogador " + jogador + ": ", fim="")
            casa = indice_da_posicao(le_linha())
            if casa is None:
                escreve("Posição inválida")
                continue
            if tabuleiro[casa] != " ":
                escreve("Posição ocupada")
                continue
            tabuleiro[casa] = jogador
            desenha(tabuleiro)
            resultado = vencedor(tabuleiro)
            if resultado == "E":
                escreve("Empate")
                break
            if resultado != "N":
                escreve("Vencedor: " + resultado)
                break
            jogador = "O" if jogador == "X" else "X"
    except EOFError:
        escreve("")
        sys.stderr.write("Erro: a entrada terminou antes do fim do jogo.\n")
        sys.exit(1)


if __name__ == "__main__":
    sys.stdout.reconfigure(encoding="utf-8")
    main()
