#!/usr/bin/env python3
"""Connect four for two players at one keyboard.

Usage: python3 programa.py [--rows R] [--cols C]   (4 to 20 each; 6 x 7 by default)

Columns are read from standard input as whitespace-separated numbers starting
at 1, so a whole game may come on one line. Invalid input (a word, a column
that does not exist, a full column, a line that is not UTF-8, holds a control
character or is longer than 4096 bytes) prints one line and the prompt again.
"""

import argparse
import random
import sys
import unicodedata
from collections import deque

MIN_SIDE = 4
MAX_SIDE = 20
MAX_LINE_BYTES = 4096
PROMPT = "Column number? (starts at 1):"
SYMBOLS = {1: "X", 2: "O"}


class EndOfInput(Exception):
    """Input ended before the game was over."""


class LineReader:
    """Reads byte lines in bounded memory.

    read_line() returns the text of the next line (without '\\n' and one
    trailing '\\r'), or an error string for a line that cannot hold moves:
    longer than MAX_LINE_BYTES, not UTF-8, or holding a control character
    other than a tab. Raises EndOfInput once input is over.
    """

    def __init__(self, stream):
        self.stream = stream

    def read_line(self):
        buf = bytearray()
        too_long = False
        read_any = False
        while True:
            chunk = self.stream.readline(65536)
            if not chunk:
                if not read_any:
                    raise EndOfInput()
                break
            read_any = True
            ended = chunk.endswith(b"\n")
            if ended:
                chunk = chunk[:-1]
            room = MAX_LINE_BYTES + 1 - len(buf)
            if len(chunk) > room:
                too_long = True
            if room > 0:
                buf += chunk[:room]
            if ended:
                break
        if buf.endswith(b"\r"):
            del buf[-1]
        if too_long or len(buf) > MAX_LINE_BYTES:
            return None, f"the line is longer than {MAX_LINE_BYTES} bytes"
        try:
            text = buf.decode("utf-8")
        except UnicodeDecodeError:
            return None, "the line is not valid UTF-8"
        if any(c != "\t" and unicodedata.category(c) == "Cc" for c in text):
            return None, "the line holds a control character"
        return text, None


class TokenReader:
    """Whitespace-separated tokens across lines; an unusable line is one
    invalid token. Blank lines are skipped."""

    def __init__(self, stream):
        self.lines = LineReader(stream)
        self.pending = deque()

    def read_token(self):
        """(token, None) or (None, why the line is unusable)."""
        while True:
            if self.pending:
                return self.pending.popleft(), None
            text, error = self.lines.read_line()
            if error is not None:
                return None, error
            self.pending.extend(text.split())


def parse_column(token):
    """The column number a token names (from 1), or None if not a number.

    A number is ASCII digits, optionally after one '+'."""
    digits = token[1:] if token.startswith("+") else token
    if not digits or not all("0" <= c <= "9" for c in digits):
        return None
    value = int(digits)
    if value >= 2**64:  # too large to be any column
        return None
    return value


class Board:
    def __init__(self, rows, cols):
        self.rows = rows
        self.cols = cols
        # cells[row][col], row 0 at the bottom; 0 empty, 1 or 2 a disc
        self.cells = [[0] * cols for _ in range(rows)]
        self.heights = [0] * cols
        self.count = 0

    def drop(self, col, disc):
        row = self.heights[col]
        self.cells[row][col] = disc
        self.heights[col] += 1
        self.count += 1
        return row

    def undo(self, col):
        self.heights[col] -= 1
        self.cells[self.heights[col]][col] = 0
        self.count -= 1

    def is_column_full(self, col):
        return self.heights[col] >= self.rows

    def is_full(self):
        return self.count == self.rows * self.cols

    def connects_four(self, row, col):
        disc = self.cells[row][col]
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                r, c = row + sign * dr, col + sign * dc
                while 0 <= r < self.rows and 0 <= c < self.cols and self.cells[r][c] == disc:
                    run += 1
                    r += sign * dr
                    c += sign * dc
            if run >= 4:
                return True
        return False

    def render(self):
        n = self.cols
        lines = ["┌" + "─┬" * (n - 1) + "─┐"]
        for row in range(self.rows - 1, -1, -1):
            cells = (SYMBOLS.get(d, " ") for d in self.cells[row])
            lines.append("|" + "|".join(cells) + "|")
            if row > 0:
                lines.append("├" + "─┼" * (n - 1) + "─┤")
        lines.append("└" + "─┴" * (n - 1) + "─┘")
        lines.append("".join(f" {i}" for i in range(1, n + 1)))
        return "\n".join(lines) + "\n"


def write(text):
    sys.stdout.buffer.write(text.encode("utf-8"))


def ask_column(tokens, board):
    """Prompts until a playable column is given; returns it 0-based."""
    while True:
        write(PROMPT + "\n")
        sys.stdout.buffer.flush()
        token, error = tokens.read_token()
        if error is not None:
            write(f"Invalid input: {error}.\n")
            continue
        number = parse_column(token)
        if number is None:
            shown = token if len(token) <= 16 else token[:16] + "..."
            write(f"Invalid input '{shown}': expected a column number.\n")
        elif not 1 <= number <= board.cols:
            write(f"Column {number} does not exist: choose 1 to {board.cols}.\n")
        elif board.is_column_full(number - 1):
            write(f"Column {number} is full: choose another.\n")
        else:
            return number - 1


class Scripted:
    """The kit's test opponent (--computer-columns): plays the given columns
    (from 1) in turn, cycling; an unplayable one is replaced by the next
    playable column to its right (an assumption: the kit does not say)."""

    def __init__(self, columns):
        self.columns = columns
        self.next = 0

    def choose(self, board):
        col = max(self.columns[self.next % len(self.columns)] - 1, 0)
        self.next += 1
        for k in range(board.cols):
            c = (col + k) % board.cols
            if not board.is_column_full(c):
                return c
        raise AssertionError("asked on a full board")


class RandomPlayer:
    def __init__(self, seed):
        self.rng = random.Random(seed)

    def choose(self, board):
        legal = [c for c in range(board.cols) if not board.is_column_full(c)]
        return self.rng.choice(legal)


class SmartPlayer(RandomPlayer):
    def winning_column(self, board, disc):
        for c in range(board.cols):
            if board.is_column_full(c):
                continue
            row = board.drop(c, disc)
            wins = board.connects_four(row, c)
            board.undo(c)
            if wins:
                return c
        return None

    def choose(self, board):
        me = 1 if board.count % 2 == 0 else 2
        for disc in (me, 3 - me):
            c = self.winning_column(board, disc)
            if c is not None:
                return c
        return super().choose(board)


def play(rows, cols, tokens, computer=None):
    board = Board(rows, cols)
    write(board.render())
    disc = 1
    while True:
        if disc == 2 and computer is not None:
            col = computer.choose(board)
        else:
            col = ask_column(tokens, board)
        row = board.drop(col, disc)
        write(board.render())
        if board.connects_four(row, col):
            if disc == 1:
                write("Player one won!\n")
            elif computer is not None:
                write("Computer won!\n")
            else:
                write("Player two won!\n")
            return
        if board.is_full():
            write("It is a draw.\n")
            return
        disc = 3 - disc


def side(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number")
    if not MIN_SIDE <= value <= MAX_SIDE:
        raise argparse.ArgumentTypeError(f"{value} is not in {MIN_SIDE}..={MAX_SIDE}")
    return value


def columns_list(text):
    try:
        return [int(w) for w in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of columns")


def main():
    parser = argparse.ArgumentParser(description="Connect four for two players.")
    parser.add_argument("--rows", type=side, default=6, help="number of rows (4 to 20)")
    parser.add_argument("--cols", type=side, default=7, help="number of columns (4 to 20)")
    parser.add_argument("--ai", choices=["random", "smart"], help="play against the computer (O)")
    parser.add_argument("--seed", type=int, help="seed of the computer's random choices")
    parser.add_argument("--computer-columns", type=columns_list, help=argparse.SUPPRESS)
    args = parser.parse_args()  # bad usage: message on stderr, exit status 2
    if args.computer_columns and args.ai:
        parser.error("--computer-columns conflicts with --ai")
    seed = args.seed if args.seed is not None else random.randrange(2**64)
    computer = None
    if args.computer_columns:
        computer = Scripted(args.computer_columns)
    elif args.ai == "random":
        computer = RandomPlayer(seed)
    elif args.ai == "smart":
        computer = SmartPlayer(seed)
    try:
        play(args.rows, args.cols, TokenReader(sys.stdin.buffer), computer)
    except EndOfInput:
        sys.stdout.buffer.flush()
        sys.stderr.write("error: input ended before the game was over\n")
        return 1
    except BrokenPipeError:
        return 1
    sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
