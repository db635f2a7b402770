"""Helpers shared by the live-server tests: configs and random play to the end."""

from __future__ import annotations

import contextlib
import hashlib
import random

from deckmate import (
    ActOptions,
    AsyncSeatHandle,
    Game,
    NotYourTurn,
    SeatHandle,
    StaleVersion,
    pb,
)

#: Every hosted game.
VARIANTS = ["pile_chess", "card_chess", "chuno", "pigeon_chess", "raindrop_chess"]
#: The seed of every test game and of the random choices.
SEED = 7


def config_of(variant: str) -> pb.GameConfig:
    """Return the all-defaults config of `variant`."""
    config = pb.GameConfig()
    getattr(config, variant).SetInParent()
    return config


def play_to_end(game: Game[SeatHandle], seed: int = SEED) -> pb.ObserveResponse:
    """Play every seat randomly from its legal actions until the game ends; return the end."""
    rng = random.Random(seed)
    while True:
        for seat in game.seats:
            view = seat.observe()
            if view.status == pb.GAME_STATUS_FINISHED:
                return view
            if view.legal_actions:
                action = rng.choice(list(view.legal_actions))
                with contextlib.suppress(StaleVersion, NotYourTurn):
                    seat.act_with(action, ActOptions.expecting(view.version))


async def play_to_end_async(game: Game[AsyncSeatHandle], seed: int = SEED) -> pb.ObserveResponse:
    """Play as `play_to_end` does, through the asyncio client."""
    rng = random.Random(seed)
    while True:
        for seat in game.seats:
            view = await seat.observe()
            if view.status == pb.GAME_STATUS_FINISHED:
                return view
            actions = await seat.legal_actions()
            if actions:
                with contextlib.suppress(StaleVersion, NotYourTurn):
                    await seat.act_with(rng.choice(actions), ActOptions.expecting(view.version))


def check_finished(
    final: pb.ObserveResponse, history: pb.GetHistoryResponse, commitment: bytes
) -> None:
    """Assert a finished game's final view and complete history agree and verify the seed."""
    assert final.status == pb.GAME_STATUS_FINISHED
    assert final.HasField("outcome")
    assert final.outcome.reason != pb.END_REASON_UNSPECIFIED
    assert final.outcome.draw == (len(final.outcome.winners) == 0)
    assert not final.legal_actions
    assert history.status == pb.GAME_STATUS_FINISHED
    assert history.version == final.version
    assert len(history.actions) == final.version
    assert [a.version for a in history.actions] == list(range(1, final.version + 1))
    assert len(history.seed) == 32
    assert hashlib.sha256(history.seed).digest() == commitment
    assert history.seed_commitment == commitment
