def extrai_linha(posicao):
    letra = posicao[0]
    if letra == 'A':
        return 0
    elif letra == 'B':
        return 1
    else:
        return 2


def extrai_coluna(posicao):
    return int(posicao[1]) - 1


def verifica_vencedor(a, b, c, d, e, f, g, h, i):
    trincas = [
        (a, b, c), (d, e, f), (g, h, i),   # linhas
        (a, d, g), (b, e, h), (c, f, i),   # colunas
        (a, e, i), (c, e, g),              # diagonais
    ]
    for t in trincas:
        if t[0] != ' ' and t[0] == t[1] and t[1] == t[2]:
            return t[0]
    for casa in (a, b, c, d, e, f, g, h, i):
        if casa == ' ':
            return 'N'
    return 'E'
