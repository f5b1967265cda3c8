def extrai_linha(posicao):
    return ord(posicao[0].upper()) - ord('A')


def extrai_coluna(posicao):
    return int(posicao[1]) - 1


def verifica_vencedor(tabuleiro):
    linhas = []
    for i in range(3):
        linhas.append(tabuleiro[i])
        linhas.append([tabuleiro[0][i], tabuleiro[1][i], tabuleiro[2][i]])
    linhas.append([tabuleiro[0][0], tabuleiro[1][1], tabuleiro[2][2]])
    linhas.append([tabuleiro[0][2], tabuleiro[1][1], tabuleiro[2][0]])
    for trio in linhas:
        if trio[0] != ' ' and trio.count(trio[0]) == 3:
            return trio[0]
    for linha in tabuleiro:
        for casa in linha:
            if casa == ' ':
                return 'N'
    return 'E'


# ---- extra: jogada perfeita (minimax sem memoria: lento, mas correto) ----

def _de_quem_e_a_vez(tabuleiro):
    nx = sum(linha.count('X') for linha in tabuleiro)
    no = sum(linha.count('O') for linha in tabuleiro)
    if nx == no:
        return 'X'
    return 'O'


def _valor(tabuleiro, vez, prof):
    """Valor do tabuleiro para quem vai jogar ('vez').
    Ganhar cedo vale mais, perder tarde custa menos."""
    # Sem memoria: a busca inteira a cada chamada (lenta, mas correta).
    r = verifica_vencedor(tabuleiro)
    if r == 'E':
        v = 0
    elif r != 'N':
        # quem jogou por ultimo ganhou, ou seja, o adversario de 'vez'
        v = -(10 - prof)
    else:
        outro = 'O' if vez == 'X' else 'X'
        v = None
        for i in range(3):
            for j in range(3):
                if tabuleiro[i][j] == ' ':
                    tabuleiro[i][j] = vez
                    s = -_valor(tabuleiro, outro, prof + 1)
                    tabuleiro[i][j] = ' '
                    if v is None or s > v:
                        v = s
    return v


def melhor_jogada(tabuleiro):
    tab = [list(l) for l in tabuleiro]
    if verifica_vencedor(tab) != 'N':
        return None
    vez = _de_quem_e_a_vez(tab)
    outro = 'O' if vez == 'X' else 'X'
    melhor = None
    melhor_valor = None
    for i in range(3):
        for j in range(3):
            if tab[i][j] == ' ':
                tab[i][j] = vez
                s = -_valor(tab, outro, 1)
                tab[i][j] = ' '
                if melhor_valor is None or s > melhor_valor:
                    melhor_valor = s
                    melhor = (i, j)
    return melhor
