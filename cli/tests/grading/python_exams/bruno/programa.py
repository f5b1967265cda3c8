from funcoes import *


def mostra(tab):
    print("  1   2   3")
    nomes = ["A", "B", "C"]
    for i in range(3):
        print("    |   |   ")
        print("{0} {1} | {2} | {3} ".format(nomes[i], tab[i][0], tab[i][1], tab[i][2]))
        if i != 2:
            print(" ___|___|___")
    print("    |   |   ")


def posicao_valida(p):
    return len(p) == 2 and p[0] in "ABC" and p[1] in "123"


tabuleiro = [[" "] * 3 for _ in range(3)]
vez = "X"

print("Jogo da Velha")
mostra(tabuleiro)

while True:
    try:
        entrada = input()
    except EOFError:
        break
    p = "".join(entrada.split()).upper()
    if not posicao_valida(p):
        print("Posição inválida")
        continue
    lin = extrai_linha(p)
    col = extrai_coluna(p)
    if tabuleiro[lin][col] != " ":
        print("Posição ocupada")
        continue
    tabuleiro[lin][col] = vez
    mostra(tabuleiro)
    r = verifica_vencedor(tabuleiro)
    if r == "X" or r == "O":
        print("Vencedor: " + r)
        break
    if r == "E":
        print("Empate")
        break
    vez = "O" if vez == "X" else "X"
