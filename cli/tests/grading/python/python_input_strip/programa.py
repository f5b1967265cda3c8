# Jogo da velha as the exam's students write it: input(), strip() and the
# exam's rules, nothing more. No line bound, no care for the end of input or
# bytes that are not text: the kit's own robustness rules, which no course
# set. It reaches advanced; it loses robustness points only.


def mostra(t):
    print("  1   2   3")
    for i, letra in enumerate("ABC"):
        print("    |   |   ")
        print(letra + " " + " | ".join(t[i]) + " ")
        print(" ___|___|___" if i < 2 else "    |   |   ")


def vencedor(t):
    linhas = [t[0], t[1], t[2]]
    linhas += [[t[0][c], t[1][c], t[2][c]] for c in range(3)]
    linhas += [[t[0][0], t[1][1], t[2][2]], [t[0][2], t[1][1], t[2][0]]]
    for jogador in "XO":
        if [jogador] * 3 in linhas:
            return jogador
    return "E" if all(c != " " for linha in t for c in linha) else "N"


t = [[" "] * 3 for _ in range(3)]
print("Jogo da Velha")
mostra(t)
jogador = "X"
while True:
    p = input("Vez do " + jogador + ": ").strip().replace(" ", "").upper()
    if len(p) != 2 or p[0] not in "ABC" or p[1] not in "123":
        print("Posição inválida")
        continue
    linha, coluna = "ABC".index(p[0]), int(p[1]) - 1
    if t[linha][coluna] != " ":
        print("Posição ocupada")
        continue
    t[linha][coluna] = jogador
    mostra(t)
    v = vencedor(t)
    if v != "N":
        print("Empate" if v == "E" else "Vencedor: " + v)
        break
    jogador = "O" if jogador == "X" else "X"
