def extrai_linha(posicao):
    return 'ABC'.index(posicao[0])


def extrai_coluna(posicao):
    return '123'.index(posicao[1])


def verifica_vencedor(tabuleiro):
    for jogador in ['X', 'O']:
        # linhas
        for i in range(3):
            if tabuleiro[i][0] == jogador and tabuleiro[i][1] == jogador and tabuleiro[i][2] == jogador:
                return jogador
        # colunas
        for j in range(3):
            if tabuleiro[0][j] == jogador and tabuleiro[1][j] == jogador and tabuleiro[2][j] == jogador:
                return jogador
        # diagonal
        if tabuleiro[0][0] == jogador and tabuleiro[1][1] == jogador and tabuleiro[2][2] == jogador:
            return jogador
    for i in range(3):
        for j in range(3):
            if tabuleiro[i][j] == ' ':
                return 'N'
    return 'E'
