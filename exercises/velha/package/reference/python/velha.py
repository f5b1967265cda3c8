"""Jogo da velha: the package's reference in Python. Its program prints
its lines in the locale the kit grades (BOARDKIT_LANGUAGE), Portuguese or
English."""

import os
import sys

# The longest line read as input, its line ending aside.
MAX_LINE = 4096

WORDS = {
    "en": {
        "title": "Tic-Tac-Toe",
        "invalid": "Invalid position",
        "taken": "Position taken",
        "winner": "Winner: ",
        "draw": "Draw",
        "prompt": "type a position (e.g. B2)",
        "early_end": "The input ended before the game did",
    },
    "pt-BR": {
        "title": "Jogo da Velha",
        "invalid": "Posição inválida",
        "taken": "Posição ocupada",
        "winner": "Vencedor: ",
        "draw": "Empate",
        "prompt": "digite a posição (ex.: B2)",
        "early_end": "A entrada terminou antes do fim da partida",
    },
}

LINES = [
    [(0, 0), (0, 1), (0, 2)], [(1, 0), (1, 1), (1, 2)], [(2, 0), (2, 1), (2, 2)],
    [(0, 0), (1, 0), (2, 0)], [(0, 1), (1, 1), (2, 1)], [(0, 2), (1, 2), (2, 2)],
    [(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)],
]


def _cells(posicao: str) -> str:
    return posicao.replace(" ", "")


def valida(posicao: str) -> bool:
    """Whether a line is a position: a letter A-C (any case) and a digit
    1-3, spaces anywhere."""
    cells = _cells(posicao)
    return len(cells) == 2 and cells[0] in "ABCabc" and cells[1] in "123"


def extrai_linha(posicao: str) -> int:
    return "ABC".index(_cells(posicao)[0].upper())


def extrai_coluna(posicao: str) -> int:
    return int(_cells(posicao)[1]) - 1


def verifica_vencedor(tabuleiro: list[list[str]]) -> str:
    for mark in "XO":
        if any(all(tabuleiro[r][c] == mark for r, c in line) for line in LINES):
            return mark
    if all(cell in "XO" for row in tabuleiro for cell in row):
        return "E"
    return "N"


def verifica_vencedor_9(a1, a2, a3, b1, b2, b3, c1, c2, c3) -> str:
    return verifica_vencedor([[a1, a2, a3], [b1, b2, b3], [c1, c2, c3]])


def _score(tabuleiro, vez, memo):
    """The score of the position for the player to move, `vez`: a win
    counts more the sooner it comes, a loss less the later it comes."""
    key = (tuple(map(tuple, tabuleiro)), vez)
    if key in memo:
        return memo[key]
    outro = "O" if vez == "X" else "X"
    empty = [(r, c) for r in range(3) for c in range(3) if tabuleiro[r][c] not in "XO"]
    best = None
    for r, c in empty:
        tabuleiro[r][c] = vez
        result = verifica_vencedor(tabuleiro)
        if result == vez:
            value = 10 - (9 - len(empty) + 1)
        elif result == "E":
            value = 0
        else:
            value = -_score(tabuleiro, outro, memo)
        tabuleiro[r][c] = " "
        best = value if best is None else max(best, value)
    memo[key] = best if best is not None else 0
    return memo[key]


def melhor_jogada(tabuleiro: list[list[str]]) -> tuple[int, int]:
    board = [[cell if cell in "XO" else " " for cell in row] for row in tabuleiro]
    xs = sum(row.count("X") for row in board)
    os_ = sum(row.count("O") for row in board)
    vez = "X" if xs == os_ else "O"
    outro = "O" if vez == "X" else "X"
    memo = {}
    best, move = None, (0, 0)
    marks = xs + os_
    for r in range(3):
        for c in range(3):
            if board[r][c] != " ":
                continue
            board[r][c] = vez
            result = verifica_vencedor(board)
            if result == vez:
                value = 10 - (marks + 1)
            elif result == "E":
                value = 0
            else:
                value = -_score(board, outro, memo)
            board[r][c] = " "
            if best is None or value > best:
                best, move = value, (r, c)
    return move


def le_linha():
    """The next line typed, without its line ending (LF or CR LF); None at
    the end of input; "" for a line that is no input at all: longer than
    MAX_LINE bytes, not UTF-8, or holding a control character other than
    a tab. Memory stays bounded, however long the line."""
    raw = sys.stdin.buffer.readline(MAX_LINE + 2)
    if not raw:
        return None
    line, too_long = raw, False
    while not line.endswith(b"\n"):
        more = sys.stdin.buffer.readline(MAX_LINE + 2)
        if not more:
            break
        too_long = True
        line = more
    raw = raw if not too_long else b"x" * (MAX_LINE + 1)
    raw = raw[:-1] if raw.endswith(b"\n") else raw
    raw = raw[:-1] if raw.endswith(b"\r") else raw
    if len(raw) > MAX_LINE:
        return ""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return ""
    if any(ord(c) < 32 and c != "\t" or ord(c) == 127 for c in text):
        return ""
    return text


def desenha(tabuleiro) -> None:
    print("  1   2   3")
    for i, letter in enumerate("ABC"):
        print("    |   |   ")
        print(f"{letter} {tabuleiro[i][0]} | {tabuleiro[i][1]} | {tabuleiro[i][2]} ")
        print(" ___|___|___" if i < 2 else "    |   |   ")


def jogar() -> None:
    words = WORDS.get(os.environ.get("BOARDKIT_LANGUAGE", ""), WORDS["pt-BR"])
    tabuleiro = [[" "] * 3 for _ in range(3)]
    jogador = "X"
    print(words["title"])
    desenha(tabuleiro)
    while True:
        print(f"{jogador}, {words['prompt']}:", flush=True)
        linha = le_linha()
        if linha is None:
            print(words["early_end"], file=sys.stderr)
            sys.exit(1)
        if not valida(linha):
            print(words["invalid"])
            continue
        r, c = extrai_linha(linha), extrai_coluna(linha)
        if tabuleiro[r][c] != " ":
            print(words["taken"])
            continue
        tabuleiro[r][c] = jogador
        desenha(tabuleiro)
        result = verifica_vencedor(tabuleiro)
        if result in "XO":
            print(words["winner"] + result)
            return
        if result == "E":
            print(words["draw"])
            return
        jogador = "O" if jogador == "X" else "X"


if __name__ == "__main__":
    jogar()
