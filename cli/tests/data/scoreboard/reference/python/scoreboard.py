"""The reference: the student's module, as it should be written."""


def ranking(board: "Scoreboard") -> list[str]:
    """The players of `board`, most points first; ties in board order."""
    return sorted(board.players, key=lambda p: -board.scores_of[p])


class Scoreboard:
    """The points of a game's players, each starting at 0."""

    def __init__(self, players: list[str]) -> None:
        """A scoreboard for `players`; an error for a name given twice."""
        if len(set(players)) != len(players):
            raise ValueError("a name is given twice")
        self.players = list(players)
        self.scores_of = {p: 0 for p in players}

    def add(self, player: str, points: int) -> int:
        """Gives `points` to `player`; an error for one not on the board."""
        if player not in self.scores_of:
            raise KeyError(player)
        self.scores_of[player] += points
        return self.scores_of[player]

    def score(self, player: str) -> int | None:
        """The score of `player`, or None."""
        return self.scores_of.get(player)

    def scores(self) -> list[int]:
        """Every player's score, in the board's order."""
        return [self.scores_of[p] for p in self.players]

    def leader(self) -> str | None:
        """The player with the most points, the first on a tie."""
        best = None
        for p in self.players:
            if best is None or self.scores_of[p] > self.scores_of[best]:
                best = p
        return best

    def reset(self) -> None:
        """Every score back to 0."""
        for p in self.scores_of:
            self.scores_of[p] = 0
