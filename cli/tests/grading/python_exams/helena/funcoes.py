def extrai_linha(posicao):
    letra = posicao.strip()[0].upper()
    return ['A', 'B', 'C'].index(letra)


def extrai_coluna(posicao):
    numero = posicao.strip()[-1]
    return int(numero) - 1


def ganhou(tab, p):
    for k in range(3):
        if tab[k][0] == tab[k][1] == tab[k][2] == p:
            return True
        if tab[0][k] == tab[1][k] == tab[2][k] == p:
            return True
    if tab[0][0] == tab[1][1] == tab[2][2] == p:
        return True
    if tab[0][2] == tab[1][1] == tab[2][0] == p:
        return True
    return False


def verifica_vencedor(tabuleiro):
    if ganhou(tabuleiro, 'X'):
        return 'X'
    if ganhou(tabuleiro, 'O'):
        return 'O'
    for linha in tabuleiro:
        if ' ' in linha:
            return 'N'
    return 'E'
