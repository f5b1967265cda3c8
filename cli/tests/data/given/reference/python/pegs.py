"""The reference: the student's module, as it should be written."""

from given import Code


def blacks(secret: Code, guess: Code) -> int:
    """How many places hold the same colour in both codes."""
    return sum(1 for a, b in zip(secret.colors, guess.colors) if a == b)


def shifted(codes: list[Code]) -> list[Code]:
    """Each code, every colour one more, 5 becoming 0."""
    return [Code([(p + 1) % 6 for p in code.colors]) for code in codes]


def parse(text: str) -> Code | None:
    """Four letters from A to F, and nothing else."""
    if len(text) != 4 or any(c not in "ABCDEF" for c in text):
        return None
    return Code([ord(c) - ord("A") for c in text])
