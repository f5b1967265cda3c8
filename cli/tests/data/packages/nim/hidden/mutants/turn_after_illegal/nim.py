def is_over(heaps):
    return all(h == 0 for h in heaps)


def apply_move(heaps, heap, count):
    if heap < 0 or heap >= len(heaps) or count < 1 or count > heaps[heap]:
        raise ValueError("illegal move")
    return heaps[:heap] + [heaps[heap] - count] + heaps[heap + 1:]


def nim_sum(heaps):
    s = 0
    for h in heaps:
        s ^= h
    return s


def winning_move(heaps):
    s = nim_sum(heaps)
    if s == 0:
        return None
    for i, h in enumerate(heaps):
        if h ^ s < h:
            return (i, h - (h ^ s))


def play():
    heaps = [int(w) for w in input().split()]
    print("Heaps:", *heaps)
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
            heap, count = map(int, line.split())
            heaps = apply_move(heaps, heap, count)
        except ValueError:
            print("Illegal move: " + line)
            player = 3 - player  # the mistake: the turn passes anyway
            continue
        print("Heaps:", *heaps)
        if is_over(heaps):
            print(f"Player {player} wins")
            return
        player = 3 - player
