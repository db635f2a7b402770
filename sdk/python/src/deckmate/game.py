"""`Game`: a newly created game and its seats."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

SeatT = TypeVar("SeatT")


@dataclass(frozen=True)
class Game(Generic[SeatT]):
    """A game just created.

    It holds its id, variant, one handle per seat (in seat order), the SHA-256 commitment of its
    seed and its version (0). Seat handles are `SeatHandle` for `Client` and `AsyncSeatHandle`
    for `AsyncClient`.
    """

    id: str
    variant: str
    seats: list[SeatT]
    seed_commitment: bytes
    version: int

    def seat(self, index: int) -> SeatT:
        """Return the handle of seat `index` (0-based)."""
        return self.seats[index]
