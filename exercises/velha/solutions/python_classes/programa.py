"""Tic-tac-toe (jogo da velha) for two people sharing one keyboard."""

import re
import sys

MAX_LINE_BYTES = 4096
MOVE_PATTERN = re.compile(r" *([ABCabc]) *([123]) *")
ROWS = ("A", "B", "C")
COLS = ("1", "2", "3")


class Board:
    """A 3x3 board kept as a dictionary from "A1".."C3" to a mark."""

    def __init__(self):
        self.cells = {row + col: " " for row in ROWS for col in COLS}

    def is_free(self, key):
        return self.cells[key] == " "

    def place(self, key, mark):
        self.cells[key] = mark

    def lines(self):
        for row in ROWS:
            yield [row + col for col in COLS]
        for col in COLS:
            yield [row + col for row in ROWS]
        yield ["A1", "B2", "C3"]
        yield ["A3", "B2", "C1"]

    def outcome(self):
        """Return 'X' or 'O' for a winner, 'E' for a draw, None otherwise."""
        for keys in self.lines():
            marks = {self.cells[k] for k in keys}
            if len(marks) == 1 and " " not in marks:
                return marks.pop()
        if all(mark != " " for mark in self.cells.values()):
            return "E"
        return None

    def render(self):
        out = ["  1   2   3"]
        for n, row in enumerate(ROWS):
            marks = [self.cells[row + col] for col in COLS]
            out.append("    |   |   ")
            out.append("%s %s | %s | %s " % (row, marks[0], marks[1], marks[2]))
            out.append(" ___|___|___" if n < len(ROWS) - 1 else "    |   |   ")
        return out


class LineSource:
    """Reads raw lines from a binary stream with a bounded buffer."""

    def __init__(self, stream):
        self.stream = stream

    def _skip_to_newline(self):
        while True:
            chunk = self.stream.readline(1 << 16)
            if not chunk or chunk[-1:] == b"\n":
                break

    def next_line(self):
        """Return (ended, text). text is None for a line that is not usable."""
        raw = self.stream.readline(MAX_LINE_BYTES + 2)
        if not raw:
            return True, None
        if raw[-1:] != b"\n":
            if len(raw) > MAX_LINE_BYTES + 1:
                self._skip_to_newline()
                return False, None
        else:
            raw = raw[:-1]
        if raw[-1:] == b"\r":
            raw = raw[:-1]
        if len(raw) > MAX_LINE_BYTES:
            return False, None
        try:
            return False, raw.decode("utf-8", errors="strict")
        except UnicodeError:
            return False, None


class Game:
    def __init__(self, source, sink):
        self.board = Board()
        self.source = source
        self.sink = sink
        self.turn = "X"

    def say(self, *lines):
        for line in lines:
            self.sink.write((line + "\n").encode("utf-8"))
        self.sink.flush()

    @staticmethod
    def parse(text):
        if text is None:
            return None
        found = MOVE_PATTERN.fullmatch(text)
        if found is None:
            return None
        return found.group(1).upper() + found.group(2)

    def ask_move(self):
        """Keep asking the current player until a usable cell is given."""
        while True:
            self.say("-- jogador %s, escolha uma casa --" % self.turn)
            ended, text = self.source.next_line()
            if ended:
                return None
            key = self.parse(text)
            if key is None:
                self.say("Posição inválida")
            elif not self.board.is_free(key):
                self.say("Posição ocupada")
            else:
                return key

    def run(self):
        self.say("Jogo da Velha", *self.board.render())
        while True:
            key = self.ask_move()
            if key is None:
                return False
            self.board.place(key, self.turn)
            self.say(*self.board.render())
            result = self.board.outcome()
            if result == "E":
                self.say("Empate")
                return True
            if result is not None:
                self.say("Vencedor: " + result)
                return True
            self.turn = "O" if self.turn == "X" else "X"


def main(argv):
    if argv:
        sys.stderr.write("opção desconhecida: %s\n" % argv[0])
        return 2
    game = Game(LineSource(sys.stdin.buffer), sys.stdout.buffer)
    if not game.run():
        sys.stderr.write("entrada encerrada antes do fim da partida\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
