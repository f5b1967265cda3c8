def is_over(heaps):
    return sum(heaps) == 0


def apply_move(heaps, heap, count):
    # heaps[3] of three heaps raises IndexError, but heaps[-1] is the last heap
    if count < 1 or count > heaps[heap]:
        raise ValueError("illegal move")
    after = heaps[:]
    after[heap] -= count
    return after


def nim_sum(heaps):
    s = 0
    for h in heaps:
        s ^= h
    return s


def winning_move(heaps):
    s = nim_sum(heaps)
    for i, h in enumerate(heaps):
        if s and h ^ s < h:
            return i, h - (h ^ s)
    return None


def play():
    heaps = [int(w) for w in input().split()]
    print("Heaps: " + " ".join(map(str, heaps)))
    if is_over(heaps):
        print("Player 2 wins")
        return
    player = 1
    while True:
        try:
            line = input()
        except EOFError:
            print("Unfinished")
            return
        try:
            heap, count = (int(w) for w in line.split())
            heaps = apply_move(heaps, heap, count)
        except (ValueError, IndexError):
            print("Illegal move: " + line)
            continue
        print("Heaps: " + " ".join(map(str, heaps)))
        if is_over(heaps):
            print(f"Player {player} wins")
            return
        player = 3 - player
