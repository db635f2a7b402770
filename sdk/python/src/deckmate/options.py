"""Per-call options of `create_game` and `act_with`."""

from __future__ import annotations

from dataclasses import dataclass

from deckmate import pb


@dataclass(frozen=True)
class CreateOptions:
    """Options of `create_game`.

    `seed` fixes the game's random seed (only servers started to allow client seeds accept it);
    `spectator_policy` says whether callers without a seat token may observe (unspecified means
    the server default, allowed); `request_id` is the idempotency key: unset, the client makes a
    fresh one and may retry the call, while a caller-chosen id is sent exactly once. `bots`
    lists the seats the server plays itself as `(seat, level)`, such as
    `((1, pb.BOT_LEVEL_GREEDY),)`; a bot seat gets no token, so the game has no handle for it.
    """

    seed: int | None = None
    spectator_policy: pb.SpectatorPolicy.ValueType = pb.SPECTATOR_POLICY_UNSPECIFIED
    request_id: str | None = None
    bots: tuple[tuple[int, pb.BotLevel.ValueType], ...] = ()


@dataclass(frozen=True)
class ActOptions:
    """Options of `act_with`.

    `expected_version` applies the action only if the game is still at that version (otherwise
    `StaleVersion` is raised and nothing changes); `request_id` is the idempotency key: unset,
    the client makes a fresh one and may retry the call, while a caller-chosen id is sent
    exactly once (repeating it returns the first response and applies nothing).
    """

    expected_version: int | None = None
    request_id: str | None = None

    @staticmethod
    def expecting(version: int) -> ActOptions:
        """Return options that apply the action only at `version`."""
        return ActOptions(expected_version=version)
