"""Jogo da velha as its Python exam sets it: the game between two people,
the exam package's reference. It reads each move with `input()`."""

from funcoes import extrai_linha, extrai_coluna, verifica_vencedor

LETRAS = "ABC"


def imprime(tabuleiro):
    print("  1   2   3")
    for i, linha in enumerate(tabuleiro):
        print("    |   |   ")
        print(f"{LETRAS[i]} {linha[0]} | {linha[1]} | {linha[2]} ")
        print(" ___|___|___" if i < 2 else "    |   |   ")


def le_jogada(tabuleiro, vez):
    while True:
        posicao = "".join(input(f"Jogador {vez}, sua jogada: ").split()).upper()
        if len(posicao) != 2 or posicao[0] not in LETRAS or posicao[1] not in "123":
            print("Posição inválida")
        elif tabuleiro[extrai_linha(posicao)][extrai_coluna(posicao)] != " ":
            print("Posição ocupada")
        else:
            return extrai_linha(posicao), extrai_coluna(posicao)


def main():
    tabuleiro = [[" "] * 3 for _ in range(3)]
    print("Jogo da Velha")
    imprime(tabuleiro)
    vez = "X"
    while True:
        linha, coluna = le_jogada(tabuleiro, vez)
        tabuleiro[linha][coluna] = vez
        imprime(tabuleiro)
        resultado = verifica_vencedor(tabuleiro)
        if resultado == "E":
            print("Empate")
            return
        if resultado in ("X", "O"):
            print(f"Vencedor: {resultado}")
            return
        vez = "O" if vez == "X" else "X"


if __name__ == "__main__":
    main()
