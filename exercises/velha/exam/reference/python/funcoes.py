"""Jogo da velha as its Python exam sets it: the functions, the
exam package's reference. `verifica_vencedor` takes either of the exam's
forms: one list of three rows, or the nine cells from A1 to C3."""

LINHAS = "ABC"
COLUNAS = "123"


def _posicao(posicao):
    texto = posicao.replace(" ", "").upper()
    return texto[0], texto[1]


def extrai_linha(posicao):
    """The row of `posicao` as an index: 'B1' gives 1 (0 to 2)."""
    letra, _ = _posicao(posicao)
    return LINHAS.index(letra)


def extrai_coluna(posicao):
    """The column of `posicao` as an index: 'B1' gives 0 (0 to 2)."""
    _, digito = _posicao(posicao)
    return COLUNAS.index(digito)


def _linhas(t):
    linhas = [t[0], t[1], t[2]]
    linhas += [[t[0][0], t[1][0], t[2][0]], [t[0][1], t[1][1], t[2][1]], [t[0][2], t[1][2], t[2][2]]]
    linhas.append([t[0][0], t[1][1], t[2][2]])
    linhas.append([t[0][2], t[1][1], t[2][0]])
    return linhas


def verifica_vencedor(*celulas):
    """'X' or 'O' when that player has a line, 'E' for a full board with
    none (a draw), 'N' while the game goes on. Takes a list of three rows,
    or the nine cells from A1 to C3."""
    if len(celulas) == 9:
        a1, a2, a3, b1, b2, b3, c1, c2, c3 = celulas
        tabuleiro = [[a1, a2, a3], [b1, b2, b3], [c1, c2, c3]]
    else:
        tabuleiro = celulas[0]
    linhas = _linhas(tabuleiro)
    for jogador in ("X", "O"):
        if [jogador] * 3 in [list(linha) for linha in linhas]:
            return jogador
    if all(celula != " " for linha in tabuleiro for celula in linha):
        return "E"
    return "N"


def _vez(tabuleiro):
    marcas = [celula for linha in tabuleiro for celula in linha]
    return "X" if marcas.count("X") == marcas.count("O") else "O"


def _nota(tabuleiro, vez, raiz, jogadas, vistas):
    """The value of `tabuleiro` for `raiz`, `vez` to move, `jogadas` moves
    after the question's board: a win sooner is worth more, a loss later
    hurts less."""
    chave = (tuple(tuple(linha) for linha in tabuleiro), vez)
    if chave in vistas:
        return vistas[chave]
    vencedor = verifica_vencedor(tabuleiro)
    if vencedor in ("X", "O"):
        nota = 10 - jogadas if vencedor == raiz else jogadas - 10
    elif vencedor == "E":
        nota = 0
    else:
        outro = "O" if vez == "X" else "X"
        notas = []
        for i in range(3):
            for j in range(3):
                if tabuleiro[i][j] == " ":
                    tabuleiro[i][j] = vez
                    notas.append(_nota(tabuleiro, outro, raiz, jogadas + 1, vistas))
                    tabuleiro[i][j] = " "
        nota = max(notas) if vez == raiz else min(notas)
    vistas[chave] = nota
    return nota


def melhor_jogada(tabuleiro):
    """A best move `(linha, coluna)` for the player to move (X when both
    have as many marks): never a loss it could avoid, the fastest win it can
    force, the slowest loss when every move loses."""
    t = [list(linha) for linha in tabuleiro]
    raiz = _vez(t)
    outro = "O" if raiz == "X" else "X"
    casas = [(i, j) for i in range(3) for j in range(3) if t[i][j] == " "]
    vistas = {}
    melhor, jogada = None, None
    for i, j in casas:
        t[i][j] = raiz
        nota = _nota(t, outro, raiz, 1, vistas)
        t[i][j] = " "
        if melhor is None or nota > melhor:
            melhor, jogada = nota, (i, j)
    return jogada
