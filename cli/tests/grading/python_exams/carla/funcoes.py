def extrai_linha(posicao):
    letras = {'A': 0, 'B': 1, 'C': 2}
    return letras[posicao[0]]

def extrai_coluna(posicao):
    colunas = {'1': 0, '2': 1, '3': 2}
    return colunas[posicao[1]]

def verifica_vencedor(tab):
    combinacoes = [
        [(0, 0), (0, 1), (0, 2)],
        [(1, 0), (1, 1), (1, 2)],
        [(2, 0), (2, 1), (2, 2)],
        [(0, 0), (1, 0), (2, 0)],
        [(0, 1), (1, 1), (2, 1)],
        [(0, 2), (1, 2), (2, 2)],
        [(0, 0), (1, 1), (2, 2)],
        [(0, 2), (1, 1), (2, 0)],
    ]
    for comb in combinacoes:
        valores = [tab[l][c] for l, c in comb]
        if valores == ['X', 'X', 'X']:
            return 'X'
        if valores == ['O', 'O', 'O']:
            return 'O'
    vazios = 0
    for linha in tab:
        vazios += linha.count(' ')
    if vazios == 0:
        return 'E'
    return 'N'

print('testando...')
print(extrai_linha('C3'), extrai_coluna('C3'))
print(verifica_vencedor([[' ', ' ', 'O'], [' ', 'O', ' '], ['O', 'X', 'X']]))
