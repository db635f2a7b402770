"""Forward compatibility: what a newer server may send surfaces as "unknown", never a crash."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from conftest import QUICK_RETRY
from scripted import ScriptedServer, bytes_field, fail, int_field, start

from deckmate import AsyncClient, Client, DeckmateError, TransportError, pb

UNKNOWN_STATUS = 99


def newer_observation(version: int) -> bytes:
    """An ObserveResponse from a newer server: a sixth game, a new status, a new field."""
    sixth_game_view = bytes_field(6, bytes_field(1, b"new board"))
    sixth_game_action = bytes_field(7, int_field(1, 1))
    return b"".join(
        [
            bytes_field(1, b"g-1"),
            bytes_field(2, b"sixth_game"),
            int_field(3, version),
            int_field(4, UNKNOWN_STATUS),
            int_field(6, 0),
            bytes_field(8, sixth_game_action),
            bytes_field(9, sixth_game_view),
            int_field(12, 2),
            bytes_field(77, b"a field added later"),
        ]
    )


def unknown_reason(request: bytes, context: grpc.ServicerContext) -> bytes:
    fail(context, grpc.StatusCode.FAILED_PRECONDITION, "SEAT_ASLEEP", metadata={"k": "v"})
    return b""


def unknown_unavailable(request: bytes, context: grpc.ServicerContext) -> bytes:
    fail(context, grpc.StatusCode.UNAVAILABLE, "MAINTENANCE")
    return b""


def watch(request: bytes, context: grpc.ServicerContext) -> Iterator[bytes]:
    yield newer_observation(1)
    yield newer_observation(2)


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    scripted = start(
        {
            "Observe": lambda request, context: newer_observation(5),
            "Act": unknown_reason,
            "GetHistory": unknown_unavailable,
            "ListVariants": lambda request, context: fail(
                context, grpc.StatusCode.UNAVAILABLE, "OTHER", domain="example.com"
            ),
        },
        {"Watch": watch},
    )
    yield scripted
    scripted.stop()


def check_newer_view(view: pb.ObserveResponse, version: int) -> None:
    assert view.version == version
    assert view.variant == "sixth_game"
    assert view.status == UNKNOWN_STATUS
    assert view.status not in pb.GameStatus.values()
    assert view.observation.WhichOneof("game") is None
    assert len(view.legal_actions) == 1
    assert view.legal_actions[0].WhichOneof("kind") is None
    assert view.seats == 2
    # Unknown fields are kept, so re-serializing loses nothing.
    assert b"a field added later" in view.SerializeToString()


def test_unknown_field_enum_value_and_oneof_member(server: ScriptedServer) -> None:
    with Client.connect(server.addr, api_key="fc-key", retry=QUICK_RETRY) as client:
        check_newer_view(client.spectate("g-1").observe(), 5)
        views = list(client.seat("g-1", 0, "t").watch(0))
    assert [v.version for v in views] == [1, 2]
    for view in views:
        check_newer_view(view, view.version)
    assert all(call.metadata.get("x-api-key") == "fc-key" for call in server.calls)


def test_unknown_reason_is_a_plain_error_keeping_the_reason(server: ScriptedServer) -> None:
    with Client.connect(server.addr, retry=QUICK_RETRY) as client:
        seat = client.seat("g-1", 0, "t")
        with pytest.raises(DeckmateError) as raised:
            seat.act(seat.observe().legal_actions[0])
        assert type(raised.value) is DeckmateError
        assert raised.value.reason == "SEAT_ASLEEP"
        assert raised.value.metadata == {"k": "v"}
        assert raised.value.code == grpc.StatusCode.FAILED_PRECONDITION
        assert len(server.requests("Act")) == 1  # not retryable

        # UNAVAILABLE with an unknown reason is retried, then surfaces as a plain error.
        with pytest.raises(DeckmateError) as unavailable:
            seat.history()
        assert type(unavailable.value) is DeckmateError
        assert unavailable.value.reason == "MAINTENANCE"
        assert len(server.requests("GetHistory")) == QUICK_RETRY.max_attempts

        # An ErrorInfo of another domain is ignored: UNAVAILABLE alone is a transport error.
        with pytest.raises(TransportError):
            client.list_variants()


async def test_async_client_accepts_newer_messages(server: ScriptedServer) -> None:
    client = await AsyncClient.connect(server.addr, retry=QUICK_RETRY)
    try:
        check_newer_view(await client.spectate("g-1").observe(), 5)
        views = [view async for view in client.spectate("g-1").watch(0)]
        assert [v.version for v in views] == [1, 2]
        with pytest.raises(DeckmateError) as raised:
            await client.seat("g-1", 0, "t").act(pb.Action())
        assert raised.value.reason == "SEAT_ASLEEP"
    finally:
        await client.close()
