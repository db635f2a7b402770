"""Every game played to the end through the asyncio client."""

from __future__ import annotations

import pytest
from games import SEED, VARIANTS, check_finished, config_of, play_to_end_async

from deckmate import AsyncClient, CreateOptions, GameOver, pb


@pytest.mark.parametrize("variant", VARIANTS)
async def test_plays_to_the_end(async_client: AsyncClient, variant: str) -> None:
    game = await async_client.create_game(config_of(variant), 0, CreateOptions(seed=SEED))
    assert game.variant == variant
    final = await play_to_end_async(game)
    history = await game.seat(0).history()
    check_finished(final, history, game.seed_commitment)

    spectator = async_client.spectate(game.id)
    assert (await spectator.observe()).status == pb.GAME_STATUS_FINISHED
    versions = [view.version async for view in spectator.watch(0)]
    assert versions == list(range(1, final.version + 1))


async def test_an_async_watch_closed_early_ends(async_client: AsyncClient) -> None:
    game = await async_client.create_game(config_of("pigeon_chess"), 2, CreateOptions(seed=SEED))
    views = async_client.spectate(game.id).watch(0)
    seat = game.seat(0)
    await seat.act((await seat.legal_actions())[0])
    assert (await anext(views)).version == 1
    await views.aclose()
    # Closed while the game goes on: the generator is done, and so is its call.
    with pytest.raises(StopAsyncIteration):
        await anext(views)


async def test_async_meta_actions_and_errors(async_client: AsyncClient) -> None:
    game = await async_client.create_game(config_of("pigeon_chess"), 2, CreateOptions(seed=SEED))
    await game.seat(0).offer_draw()
    await game.seat(1).decline_draw()
    await game.seat(1).offer_draw()
    accepted = await game.seat(0).accept_draw()
    assert accepted.observation.outcome.reason == pb.END_REASON_DRAW_AGREED
    with pytest.raises(GameOver):
        await game.seat(1).resign()
