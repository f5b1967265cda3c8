#!/usr/bin/env python3
"""Mastermind: find the secret code.

Usage: python3 programa.py [--secret CODE | --seed N] [--pegs P] [--colors C] [--turns T]

Each line of standard input is one guess: letters A, B, ... in either case,
whitespace anywhere ignored. No prompt is printed: after each valid guess,
one line `<GUESS>  <B> black, <W> white`; an invalid guess prints one line
saying what is wrong and uses no turn. At the end, `Secret: <CODE>`, then
`You win` or `You lose!`.
"""

import argparse
import random
import sys
import unicodedata

MAX_LINE_BYTES = 4096
MAX_PEGS = 10
MAX_COLORS = 26


class EndOfInput(Exception):
    """Input ended before the game was over."""


class LineReader:
    """Reads byte lines in bounded memory.

    read_line() returns (text, None) for a usable line (without '\\n' and one
    trailing '\\r') or (None, reason) for a line longer than MAX_LINE_BYTES,
    not UTF-8, or holding a control character other than a tab. Raises
    EndOfInput once input is over.
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


def letters(colors):
    return "".join(chr(ord("A") + i) for i in range(colors))


def parse_code(text, pegs, colors):
    """(code as a list of colour indices, None) or (None, what is wrong).

    An unknown colour is reported before a wrong length."""
    code = []
    for c in text:
        if c.isspace():
            continue
        index = ord(c.upper()) - ord("A") if c.isascii() and c.isalpha() else -1
        if not 0 <= index < colors:
            shown = repr(c) if not c.isprintable() else f"'{c}'"
            return None, f"{shown} is not a colour: use the letters A to {letters(colors)[-1]}"
        code.append(index)
    if len(code) != pegs:
        return None, f"expected {pegs} colours, got {len(code)}"
    return code, None


def score(secret, guess):
    black = sum(1 for s, g in zip(secret, guess) if s == g)
    common = sum(min(secret.count(c), guess.count(c)) for c in set(guess))
    return black, common - black


def as_letters(code):
    return "".join(chr(ord("A") + i) for i in code)


def write(text):
    sys.stdout.buffer.write(text.encode("utf-8"))


def play(secret, pegs, colors, turns, lines):
    won = False
    turn = 0
    while turn < turns and not won:
        text, error = lines.read_line()
        guess = None
        if error is None:
            guess, error = parse_code(text, pegs, colors)
        if guess is None:
            write(f"Invalid guess: {error}. This does not use a turn.\n")
            continue
        turn += 1
        black, white = score(secret, guess)
        write(f"{as_letters(guess)}  {black} black, {white} white\n")
        won = black == pegs
    write(f"Secret: {as_letters(secret)}\n")
    write("You win\n" if won else "You lose!\n")


def bounded(name, low, high):
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number")
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{name} must be {low} to {high}, not {value}")
        return value

    return parse


def main():
    parser = argparse.ArgumentParser(description="Mastermind: find the secret code.")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--secret", help="the secret code (letters, either case)")
    source.add_argument("--seed", type=int, help="seed for drawing the secret")
    parser.add_argument("--pegs", type=bounded("pegs", 1, MAX_PEGS), default=4,
                        help="pegs in a code (1 to 10)")
    parser.add_argument("--colors", type=bounded("colours", 2, MAX_COLORS), default=6,
                        help="number of colours, letters from A (2 to 26)")
    parser.add_argument("--turns", type=bounded("turns", 1, 100), default=10,
                        help="guesses allowed (1 to 100)")
    args = parser.parse_args()  # bad usage: message on stderr, exit status 2
    if args.secret is not None:
        secret, error = parse_code(args.secret, args.pegs, args.colors)
        if secret is None:
            parser.error(f"invalid --secret {args.secret!r}: {error}")
    else:
        rng = random.Random(args.seed)  # no seed: a random secret each game
        secret = [rng.randrange(args.colors) for _ in range(args.pegs)]
    try:
        play(secret, args.pegs, args.colors, args.turns, LineReader(sys.stdin.buffer))
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
