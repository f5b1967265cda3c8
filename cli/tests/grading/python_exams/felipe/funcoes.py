def extrai_linha(posicao):
    linha = posicao[0]
    if linha == 'A' or linha == 'a':
        return 0
    if linha == 'B' or linha == 'b':
        return 1
    return 2


def extrai_coluna(posicao):
    coluna = posicao[1]
    if coluna == '1':
        return '0'
    elif coluna == '2':
        return '1'
    else:
        return '2'


def verifica_vencedor(tabuleiro):
    t = tabuleiro
    possibilidades = [
        t[0], t[1], t[2],
        [t[0][0], t[1][0], t[2][0]],
        [t[0][1], t[1][1], t[2][1]],
        [t[0][2], t[1][2], t[2][2]],
        [t[0][0], t[1][1], t[2][2]],
        [t[0][2], t[1][1], t[2][0]],
    ]
    for p in possibilidades:
        if p == ['X', 'X', 'X']:
            return 'X'
        elif p == ['O', 'O', 'O']:
            return 'O'
    cheio = True
    for linha in t:
        for casa in linha:
            if casa == ' ':
                cheio = False
    if cheio:
        return 'E'
    else:
        return 'N'
