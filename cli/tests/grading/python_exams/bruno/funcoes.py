LINHAS = {'A': 0, 'B': 1, 'C': 2}


def extrai_linha(posicao):
    return LINHAS[posicao[0].upper()]


def extrai_coluna(posicao):
    return int(posicao[1]) - 1


def verifica_vencedor(tabuleiro):
    t = tabuleiro
    for k in range(3):
        # linha k
        if t[k][0] != ' ' and t[k][0] == t[k][1] == t[k][2]:
            return t[k][0]
        # coluna k
        if t[0][k] != ' ' and t[0][k] == t[1][k] == t[2][k]:
            return t[0][k]
    if t[1][1] != ' ':
        if t[0][0] == t[1][1] == t[2][2]:
            return t[1][1]
        if t[0][2] == t[1][1] == t[2][0]:
            return t[1][1]
    for linha in t:
        if ' ' in linha:
            return 'N'
    return 'E'


# testes
print(extrai_linha('B1'))
print(extrai_coluna('B1'))
print(verifica_vencedor([['X', ' ', 'O'], [' ', 'X', 'O'], [' ', ' ', 'X']]))
print(verifica_vencedor([['X', 'O', 'X'], ['X', 'O', 'O'], ['O', 'X', 'X']]))
