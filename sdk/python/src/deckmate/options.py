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
    `clock` gives every seat a turn clock, such as `fischer_clock(300_000, 2_000)` or
    `action_clock(30_000)` (docs/CLOCKS.md); unset, the game has none.
    """

    seed: int | None = None
    spectator_policy: pb.SpectatorPolicy.ValueType = pb.SPECTATOR_POLICY_UNSPECIFIED
    request_id: str | None = None
    bots: tuple[tuple[int, pb.BotLevel.ValueType], ...] = ()
    clock: pb.Clock | None = None


def fischer_clock(
    base_ms: int,
    increment_ms: int = 0,
    on_timeout: pb.TimeoutPolicy.ValueType = pb.TIMEOUT_POLICY_FORFEIT,
) -> pb.Clock:
    """Return a Fischer clock for `CreateOptions.clock`.

    Every seat starts with `base_ms` (1 s to 24 h) and gains `increment_ms` (0 to 60 s) each
    time its turn ends; `on_timeout` says what a timeout does.
    """
    return pb.Clock(
        fischer=pb.Clock.Fischer(base_ms=base_ms, increment_ms=increment_ms),
        on_timeout=on_timeout,
    )


def action_clock(
    limit_ms: int, on_timeout: pb.TimeoutPolicy.ValueType = pb.TIMEOUT_POLICY_FORFEIT
) -> pb.Clock:
    """Return a clock of `limit_ms` (1 s to 24 h) for every action, not carried over."""
    return pb.Clock(per_action=pb.Clock.PerAction(limit_ms=limit_ms), on_timeout=on_timeout)


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
