"""Every typed error, provoked for real against the live server."""

from __future__ import annotations

import grpc
import pytest
from conftest import QUICK_RETRY, free_port
from games import SEED, config_of

from deckmate import (
    ActOptions,
    AsyncClient,
    BadToken,
    Client,
    CreateOptions,
    DeckmateError,
    GameNotFound,
    GameOver,
    IllegalAction,
    InvalidRequest,
    NotYourTurn,
    StaleVersion,
    TransportError,
    pb,
)


def test_bad_token(client: Client) -> None:
    game = client.create_game(config_of("chuno"), 2, CreateOptions(seed=SEED))
    action = game.seat(0).legal_actions()[0]
    with pytest.raises(BadToken) as raised:
        client.seat(game.id, 0, "not-a-token").act(action)
    assert raised.value.code == grpc.StatusCode.UNAUTHENTICATED
    assert raised.value.reason == "BAD_TOKEN"
    # A real token of another game names the wrong seat: still BAD_TOKEN.
    other = client.create_game(config_of("chuno"), 2, CreateOptions(seed=SEED))
    with pytest.raises(BadToken):
        client.seat(game.id, 0, other.seat(0).token).act(action)


def test_stale_version_names_the_current_version(client: Client) -> None:
    game = client.create_game(config_of("chuno"), 2, CreateOptions(seed=SEED))
    seat = game.seat(0)
    view = seat.observe()
    with pytest.raises(StaleVersion) as raised:
        seat.act_with(view.legal_actions[0], ActOptions.expecting(view.version + 3))
    assert raised.value.code == grpc.StatusCode.ABORTED
    assert raised.value.current_version == view.version
    assert seat.observe().version == view.version  # nothing was applied


def test_illegal_action(client: Client) -> None:
    game = client.create_game(config_of("pigeon_chess"), 2, CreateOptions(seed=SEED))
    end_game = pb.Action(pigeon_chess=pb.PigeonChessAction(end_game=pb.PigeonChessEndGame()))
    with pytest.raises(IllegalAction) as raised:
        game.seat(0).act(end_game)  # ending the game is not allowed during setup
    assert raised.value.code == grpc.StatusCode.FAILED_PRECONDITION


def test_game_not_found(client: Client) -> None:
    with pytest.raises(GameNotFound) as raised:
        client.spectate("0" * 32).observe()
    assert raised.value.code == grpc.StatusCode.NOT_FOUND


def test_not_your_turn(client: Client) -> None:
    game = client.create_game(config_of("chuno"), 2, CreateOptions(seed=SEED))
    view = game.seat(0).observe()
    assert list(view.to_act) == [0]
    with pytest.raises(NotYourTurn):
        game.seat(1).act(view.legal_actions[0])


def test_game_over(client: Client) -> None:
    game = client.create_game(config_of("chuno"), 2, CreateOptions(seed=SEED))
    action = game.seat(0).legal_actions()[0]
    game.seat(1).resign()
    with pytest.raises(GameOver):
        game.seat(0).act(action)


def test_invalid_request_for_seats_out_of_range(client: Client) -> None:
    with pytest.raises(InvalidRequest) as raised:
        client.create_game(config_of("pigeon_chess"), 99)
    assert raised.value.code == grpc.StatusCode.INVALID_ARGUMENT


def test_invalid_config_names_the_field(client: Client) -> None:
    config = pb.GameConfig(pile_chess=pb.PileChessConfig(pawn_value=5000))
    with pytest.raises(InvalidRequest) as raised:
        client.create_game(config)
    fields = [field for field, _ in raised.value.field_violations]
    assert fields == ["config.pile_chess.pawn_value"]


def test_wrong_game_kind_of_action_is_an_invalid_request(client: Client) -> None:
    game = client.create_game(config_of("pigeon_chess"), 2, CreateOptions(seed=SEED))
    with pytest.raises(InvalidRequest):
        game.seat(0).act(pb.Action(chuno=pb.ChunoAction()))


def test_unreachable_server_is_a_transport_error() -> None:
    with Client.connect(f"127.0.0.1:{free_port()}", retry=QUICK_RETRY) as client:
        with pytest.raises(TransportError) as raised:
            client.list_variants()
    assert raised.value.code == grpc.StatusCode.UNAVAILABLE
    assert raised.value.reason == ""
    assert raised.value.retryable


def test_malformed_address_is_an_invalid_request() -> None:
    with pytest.raises(InvalidRequest):
        Client.connect("no port here")


async def test_async_errors_are_typed(async_client: AsyncClient) -> None:
    game = await async_client.create_game(config_of("chuno"), 2, CreateOptions(seed=SEED))
    view = await game.seat(0).observe()
    with pytest.raises(StaleVersion) as stale:
        await game.seat(0).act_with(view.legal_actions[0], ActOptions.expecting(9))
    assert stale.value.current_version == 0
    with pytest.raises(NotYourTurn):
        await game.seat(1).act(view.legal_actions[0])
    with pytest.raises(BadToken):
        await async_client.seat(game.id, 0, "x").act(view.legal_actions[0])
    with pytest.raises(GameNotFound):
        await async_client.spectate("f" * 32).history()
    with pytest.raises(DeckmateError):
        await async_client.create_game(config_of("chuno"), 50)
