"""GetServerInfo and a watch cut by shutdown, against real server processes."""

from __future__ import annotations

import signal

import pytest
from conftest import running_server
from games import SEED, config_of

from deckmate import (
    AsyncClient,
    Client,
    CreateOptions,
    InvalidRequest,
    RetryPolicy,
    ShuttingDown,
    action_clock,
    fischer_clock,
    pb,
)


def test_server_info_describes_the_server(client: Client) -> None:
    info = client.server_info()
    assert isinstance(info, pb.GetServerInfoResponse)
    assert info.server_version
    assert info.api_revision >= 2
    # The test server runs with `--allow-client-seed`, in memory, without API keys.
    assert info.features.client_seeds
    assert not info.features.api_keys
    assert info.features.store == pb.STORE_KIND_MEMORY
    assert info.features.bots and info.features.clocks
    assert info.limits.max_message_bytes > 0
    assert info.limits.max_request_id_bytes > 0
    # Started with `--create-rate off`, and the default quotas otherwise.
    assert not info.limits.HasField("create_rate")
    assert info.limits.max_games_per_client == 1000
    assert info.limits.max_watchers_per_game == 64
    assert info.limits.max_watchers_per_client == 1000


def test_a_clocked_game_shows_every_seats_clock(client: Client) -> None:
    options = CreateOptions(seed=SEED, clock=fischer_clock(60_000, 1_000))
    game = client.create_game(config_of("pigeon_chess"), 2, options)
    view = game.seat(0).observe()
    assert [clock.seat for clock in view.clocks] == [0, 1]
    # Pigeon Chess opens with both seats placing at once: both clocks run.
    assert all(clock.running and clock.HasField("deadline") for clock in view.clocks)
    assert all(0 < clock.remaining_ms <= 60_000 for clock in view.clocks)
    refused = CreateOptions(clock=action_clock(500))
    with pytest.raises(InvalidRequest):
        client.create_game(config_of("pigeon_chess"), 2, refused)


async def test_async_server_info_matches_the_sync_one(
    async_client: AsyncClient, client: Client
) -> None:
    assert await async_client.server_info() == client.server_info()


def test_a_watch_cut_by_sigterm_ends_with_shutting_down() -> None:
    with running_server() as (addr, process):
        # No retries: the stopped server cannot be resumed from, and the status that ended
        # the stream is what this test reads.
        with Client.connect(addr, retry=RetryPolicy.never()) as client:
            game = client.create_game(config_of("chuno"), 2, CreateOptions(seed=SEED))
            seat = game.seat(0)
            if not seat.legal_actions():
                seat = game.seat(1)
            seat.act(seat.legal_actions()[0])
            watch = seat.watch(0)
            # The first version proves the stream is open before the server is stopped.
            assert next(watch).version == 1
            process.send_signal(signal.SIGTERM)
            with pytest.raises(ShuttingDown) as raised:
                next(watch)
            assert raised.value.reason == "SHUTTING_DOWN"
            assert raised.value.retryable
