# Jogo da velha as a student of the exam would write it in Python: prompts
# through input("..."), which prints no newline, so the next output lands on
# the prompt's line; lines without trailing spaces.
import sys


def extrai_linha(p):
    return "ABC".index(p[0])


def extrai_coluna(p):
    return int(p[1]) - 1


def verifica_vencedor(t):
    linhas = [t[0], t[1], t[2], [t[0][0], t[1][0], t[2][0]], [t[0][1], t[1][1], t[2][1]],
              [t[0][2], t[1][2], t[2][2]], [t[0][0], t[1][1], t[2][2]], [t[0][2], t[1][1], t[2][0]]]
    for jogador in "XO":
        if [jogador] * 3 in linhas:
            return jogador
    return "E" if all(c != " " for linha in t for c in linha) else "N"


def mostra(t):
    print("  1   2   3")
    for i, letra in enumerate("ABC"):
        print("    |   |")
        print(letra + " " + " | ".join(t[i]).rstrip())
        print(" ___|___|___" if i < 2 else "    |   |")


def main():
    t = [[" "] * 3 for _ in range(3)]
    print("Jogo da Velha")
    mostra(t)
    jogador = "X"
    while True:
        try:
            entrada = input("Jogador " + jogador + ", sua jogada: ")
        except EOFError:
            sys.exit(1)
        # A line of more than 4,096 bytes (its line ending aside) is invalid.
        longa = len(entrada.removesuffix("\r").encode("utf-8", "surrogateescape")) > 4096
        p = entrada.replace(" ", "").replace("\r", "").upper()
        if longa or len(p) != 2 or p[0] not in "ABC" or p[1] not in "123":
            print("Posição inválida")
            continue
        l, c = extrai_linha(p), extrai_coluna(p)
        if t[l][c] != " ":
            print("Posição ocupada")
            continue
        t[l][c] = jogador
        mostra(t)
        v = verifica_vencedor(t)
        if v in "XO":
            print("Vencedor: " + v)
            return
        if v == "E":
            print("Empate")
            return
        jogador = "O" if jogador == "X" else "X"


main()
