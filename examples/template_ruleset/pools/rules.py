"""The rule book's numbers as small pure functions (no state, no dice)."""

HIT_ON = 4  # a die showing this or more is a hit


def hits(faces: tuple[int, ...]) -> int:
    """How many dice of a roll hit."""
    return sum(1 for face in faces if face >= HIT_ON)


def wounds_dealt(hit_count: int, guard: int) -> int:
    """Each die the target kept back stops one hit."""
    return max(0, hit_count - guard)
