"""Watches through a TCP proxy that resets the connection mid-stream, or freezes it, resume
without gaps."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Iterator

import pytest
from games import SEED, config_of, play_to_end
from reset_proxy import ResetProxy

from deckmate import AsyncClient, Client, CreateOptions, Keepalive, RetryPolicy, pb

RETRY = RetryPolicy(max_attempts=4, initial_backoff=0.02, max_backoff=0.1)
RESETS = 3


@pytest.fixture(scope="module")
def finished_game(client: Client) -> tuple[str, int]:
    """A long finished game (id, final version) to watch from its start."""
    game = client.create_game(config_of("card_chess"), 2, CreateOptions(seed=SEED))
    return game.id, play_to_end(game).version


@pytest.fixture
def proxy(server_addr: str) -> Iterator[ResetProxy]:
    host, port = server_addr.rsplit(":", 1)
    resetting = ResetProxy((host, int(port)), reset_after=20_000, resets=RESETS)
    yield resetting
    resetting.close()


def test_sync_watch_resumes_after_resets(proxy: ResetProxy, finished_game: tuple[str, int]) -> None:
    game_id, final = finished_game
    assert final > 30
    with Client.connect(proxy.addr, retry=RETRY) as client:
        versions = [view.version for view in client.spectate(game_id).watch(0)]
    assert versions == list(range(1, final + 1))
    assert proxy.resets_done == RESETS
    assert proxy.connections == RESETS + 1


async def test_async_watch_resumes_after_resets(
    proxy: ResetProxy, finished_game: tuple[str, int]
) -> None:
    game_id, final = finished_game
    client = await AsyncClient.connect(proxy.addr, retry=RETRY)
    try:
        versions = [view.version async for view in client.spectate(game_id).watch(0)]
    finally:
        await client.close()
    assert versions == list(range(1, final + 1))
    assert proxy.resets_done == RESETS
    assert proxy.connections == RESETS + 1


def test_live_watch_follows_a_game_through_resets(client: Client, proxy: ResetProxy) -> None:
    game = client.create_game(config_of("card_chess"), 2, CreateOptions(seed=SEED + 1))
    watched: list[int] = []

    def watch() -> None:
        with Client.connect(proxy.addr, retry=RETRY) as watcher:
            watched.extend(view.version for view in watcher.spectate(game.id).watch(0))

    watching = threading.Thread(target=watch)
    watching.start()
    final = play_to_end(game, SEED + 1).version
    watching.join(timeout=30)
    assert not watching.is_alive()
    assert watched == list(range(1, final + 1))
    assert proxy.resets_done == RESETS


@pytest.fixture
def freezing_proxy(server_addr: str) -> Iterator[ResetProxy]:
    host, port = server_addr.rsplit(":", 1)
    freezing = ResetProxy((host, int(port)), reset_after=20_000, resets=1, freeze=True)
    yield freezing
    freezing.close()


# Short pings, so that the frozen connection is found out in about a second.
QUICK_PINGS = Keepalive(interval=0.5, timeout=0.5)


def test_sync_watch_resumes_after_a_connection_dies_silently(
    freezing_proxy: ResetProxy, finished_game: tuple[str, int]
) -> None:
    game_id, final = finished_game
    versions: list[int] = []

    def watch() -> None:
        with Client.connect(freezing_proxy.addr, retry=RETRY, keepalive=QUICK_PINGS) as client:
            versions.extend(view.version for view in client.spectate(game_id).watch(0))

    # Without pings the watch would wait forever: bounded here, so that the test fails instead.
    watching = threading.Thread(target=watch, daemon=True)
    watching.start()
    watching.join(timeout=30)
    assert not watching.is_alive(), "the watch never noticed the frozen connection"
    assert versions == list(range(1, final + 1))
    assert freezing_proxy.resets_done == 1
    assert freezing_proxy.connections == 2


async def test_async_watch_resumes_after_a_connection_dies_silently(
    freezing_proxy: ResetProxy, finished_game: tuple[str, int]
) -> None:
    game_id, final = finished_game
    client = await AsyncClient.connect(freezing_proxy.addr, retry=RETRY, keepalive=QUICK_PINGS)
    try:
        watch = client.spectate(game_id).watch(0)
        versions = await asyncio.wait_for(_versions(watch), timeout=30)
    finally:
        await client.close()
    assert versions == list(range(1, final + 1))
    assert freezing_proxy.resets_done == 1
    assert freezing_proxy.connections == 2


async def _versions(watch: AsyncIterator[pb.ObserveResponse]) -> list[int]:
    return [view.version async for view in watch]


def test_keepalive_settings_must_be_positive() -> None:
    with pytest.raises(ValueError):
        Keepalive(interval=0)
    assert ("grpc.keepalive_time_ms", 500) in QUICK_PINGS.channel_options()
