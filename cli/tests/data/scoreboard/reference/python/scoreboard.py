"""The reference: the student's module, as it should be written."""


class Scoreboard:
    """The points of a game's players, each starting at 0."""

    def __init__(self, players: list[str]) -> None:
        """A scoreboard for `players`; an error for a name given twice."""
        if len(set(players)) != len(players):
            raise ValueError("a name is given twice")
        self.players = list(players)
        self.scores = {p: 0 for p in players}

    def add(self, player: str, points: int) -> int:
        """Gives `points` to `player`; an error for one not on the board."""
        if player not in self.scores:
            raise KeyError(player)
        self.scores[player] += points
        return self.scores[player]

    def score(self, player: str) -> int | None:
        """The score of `player`, or None."""
        return self.scores.get(player)

    def leader(self) -> str | None:
        """The player with the most points, the first on a tie."""
        best = None
        for p in self.players:
            if best is None or self.scores[p] > self.scores[best]:
                best = p
        return best

    def reset(self) -> None:
        """Every score back to 0."""
        for p in self.scores:
            self.scores[p] = 0
