"""The reference: the student's module, as it should be written."""

from functools import reduce


def is_over(heaps: list[int]) -> bool:
    """Whether the game is over: every heap is empty, or there are none."""
    return all(h == 0 for h in heaps)


def apply_move(heaps: list[int], heap: int, count: int) -> list[int]:
    """The heaps after taking `count` counters from heap `heap`, or an error for an illegal move."""
    if not 0 <= heap < len(heaps):
        raise ValueError(f"no heap {heap}")
    if not 1 <= count <= heaps[heap]:
        raise ValueError(f"cannot take {count} from a heap of {heaps[heap]}")
    after = list(heaps)
    after[heap] -= count
    return after


def nim_sum(heaps: list[int]) -> int:
    """The xor of all the heap sizes (0 for no heaps)."""
    return reduce(lambda s, h: s ^ h, heaps, 0)


def winning_move(heaps: list[int]) -> tuple[int, int] | None:
    """A move (heap, count) after which the nim-sum is 0, or None when there is none."""
    s = nim_sum(heaps)
    if s == 0:
        return None
    for i, h in reversed(list(enumerate(heaps))):
        if h ^ s < h:
            return (i, h - (h ^ s))
    return None


def show(heaps: list[int]) -> str:
    return "Heaps: " + " ".join(str(h) for h in heaps)


def parse_move(line: str) -> tuple[int, int] | None:
    words = line.split()
    if len(words) != 2 or not all(w.isascii() and w.isdigit() for w in words):
        return None
    return int(words[0]), int(words[1])


def play() -> None:
    """Referees a game: the starting heaps on the first line, then one move a line."""
    print("Nim: type the heaps, then one move a line (heap count).")
    try:
        heaps = [int(w) for w in input().split()]
    except EOFError:
        print("Unfinished")
        return
    print(show(heaps))
    if is_over(heaps):
        print("Player 2 wins")
        return
    player = 1
    while True:
        try:
            print(f"Player {player}, your move:")
            line = input()
        except EOFError:
            print("Unfinished")
            return
        move = parse_move(line)
        try:
            if move is None:
                raise ValueError("not two whole numbers")
            heaps = apply_move(heaps, *move)
        except ValueError:
            print("Illegal move: " + line)
            continue
        print(show(heaps))
        if is_over(heaps):
            print(f"Player {player} wins")
            return
        player = 3 - player


if __name__ == "__main__":
    play()
