"""`Game`: a newly created game and its seats."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar


class _Seated(Protocol):
    """A seat handle: it knows its seat index."""

    @property
    def seat(self) -> int:
        """The seat index, 0-based."""
        ...


SeatT = TypeVar("SeatT", bound=_Seated)


@dataclass(frozen=True)
class Game(Generic[SeatT]):
    """A game just created.

    It holds its id, variant, one handle per seat the caller plays (in seat order; bot seats
    have none), the SHA-256 commitment of its
    seed and its version (0). Seat handles are `SeatHandle` for `Client` and `AsyncSeatHandle`
    for `AsyncClient`.
    """

    id: str
    variant: str
    seats: list[SeatT]
    seed_commitment: bytes
    version: int

    def seat(self, index: int) -> SeatT:
        """Return the handle of seat `index` (0-based).

        Raises `IndexError` for a seat the game does not have or a bot's.
        """
        for handle in self.seats:
            if handle.seat == index:
                return handle
        raise IndexError(f"game {self.id} has no handle for seat {index}")
