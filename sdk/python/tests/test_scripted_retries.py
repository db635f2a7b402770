"""Retry decisions, metadata and watch resumption, against a scripted server."""

from __future__ import annotations

import re
from collections.abc import Iterator

import grpc
import pytest
from conftest import QUICK_RETRY
from scripted import ScriptedServer, Unary, fail, start

from deckmate import (
    ActOptions,
    AsyncClient,
    BadApiKey,
    Client,
    CreateOptions,
    DeckmateError,
    IllegalAction,
    Overloaded,
    RetryPolicy,
    TransportError,
    pb,
)

UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
CONFIG = pb.GameConfig(pigeon_chess=pb.PigeonChessConfig())
ACTION = pb.Action(meta=pb.MetaAction(kind=pb.META_ACTION_KIND_RESIGN))
FINAL_VERSION = 3


def flaky(failures: int, answer: bytes, reason: str | None = None) -> Unary:
    """A unary handler failing with UNAVAILABLE `failures` times, then answering."""
    count = [0]

    def handle(request: bytes, context: grpc.ServicerContext) -> bytes:
        count[0] += 1
        if count[0] <= failures:
            fail(context, grpc.StatusCode.UNAVAILABLE, reason)
        return answer

    return handle


def created() -> bytes:
    return pb.CreateGameResponse(
        game_id="g-1",
        variant="pigeon_chess",
        seat_tokens=[pb.SeatToken(seat=0, token="tok-0"), pb.SeatToken(seat=1, token="tok-1")],
        seed_commitment=b"c" * 32,
    ).SerializeToString()


def acted() -> bytes:
    return pb.ActResponse(version=1).SerializeToString()


@pytest.fixture
def scripted_client() -> Iterator[tuple[ScriptedServer, Client]]:
    server = start(
        {
            "CreateGame": flaky(2, created()),
            "Act": flaky(2, acted()),
            "ListVariants": flaky(1, b"", "OVERLOADED"),
            "Observe": lambda request, context: fail(
                context, grpc.StatusCode.FAILED_PRECONDITION, "ILLEGAL_ACTION"
            ),
        }
    )
    with Client.connect(server.addr, api_key="key-123", retry=QUICK_RETRY) as client:
        yield server, client
    server.stop()


def test_create_game_retries_with_the_same_generated_request_id(
    scripted_client: tuple[ScriptedServer, Client],
) -> None:
    server, client = scripted_client
    game = client.create_game(CONFIG, 2)
    requests = [pb.CreateGameRequest.FromString(r) for r in server.requests("CreateGame")]
    assert len(requests) == 3
    assert len({r.request_id for r in requests}) == 1
    assert UUID4.match(requests[0].request_id)
    assert [s.seat for s in game.seats] == [0, 1]
    assert game.seat(1).token == "tok-1"
    assert all(call.metadata.get("x-api-key") == "key-123" for call in server.calls)
    assert all("authorization" not in call.metadata for call in server.calls)


def test_create_game_with_a_caller_request_id_is_sent_once(
    scripted_client: tuple[ScriptedServer, Client],
) -> None:
    server, client = scripted_client
    with pytest.raises(TransportError):
        client.create_game(CONFIG, 2, CreateOptions(request_id="mine"))
    requests = [pb.CreateGameRequest.FromString(r) for r in server.requests("CreateGame")]
    assert [r.request_id for r in requests] == ["mine"]


def test_act_retries_with_the_same_id_and_sends_the_token(
    scripted_client: tuple[ScriptedServer, Client],
) -> None:
    server, client = scripted_client
    seat = client.seat("g-1", 0, "tok-0")
    assert seat.act_with(ACTION, ActOptions.expecting(0)).version == 1
    calls = [c for c in server.calls if c.method == "Act"]
    requests = [pb.ActRequest.FromString(c.request) for c in calls]
    assert len(requests) == 3
    assert len({r.request_id for r in requests}) == 1
    assert all(r.expected_version == 0 and r.HasField("expected_version") for r in requests)
    assert all(c.metadata["authorization"] == "Bearer tok-0" for c in calls)
    # The server now answers at once: separate calls get separate ids.
    seat.act(ACTION)
    seat.act(ACTION)
    ids = [pb.ActRequest.FromString(r).request_id for r in server.requests("Act")]
    assert len(set(ids)) == 3


def test_act_with_a_caller_request_id_is_sent_once(
    scripted_client: tuple[ScriptedServer, Client],
) -> None:
    server, client = scripted_client
    with pytest.raises(TransportError):
        client.seat("g-1", 0, "tok-0").act_with(ACTION, ActOptions(request_id="r-1"))
    assert len(server.requests("Act")) == 1


def test_overloaded_reads_are_retried_and_final_errors_are_not(
    scripted_client: tuple[ScriptedServer, Client],
) -> None:
    server, client = scripted_client
    assert client.list_variants() == []
    assert len(server.requests("ListVariants")) == 2
    with pytest.raises(IllegalAction):
        client.spectate("g-1").observe()
    assert len(server.requests("Observe")) == 1


def test_retries_stop_after_max_attempts() -> None:
    server = start(
        {"ListVariants": lambda r, c: fail(c, grpc.StatusCode.UNAVAILABLE, "OVERLOADED")}
    )
    try:
        policy = RetryPolicy(max_attempts=3, initial_backoff=0.01, max_backoff=0.01)
        with Client.connect(server.addr, retry=policy) as client:
            with pytest.raises(Overloaded) as raised:
                client.list_variants()
        assert raised.value.retryable
        assert len(server.requests("ListVariants")) == 3
    finally:
        server.stop()


def observation(version: int) -> bytes:
    status = pb.GAME_STATUS_FINISHED if version == FINAL_VERSION else pb.GAME_STATUS_IN_PROGRESS
    return pb.ObserveResponse(game_id="g-1", version=version, status=status).SerializeToString()


def resetting_watch(request: bytes, context: grpc.ServicerContext) -> Iterator[bytes]:
    """Send the next version, then fail UNAVAILABLE (twice over for version 2) until the end."""
    start_after = pb.WatchRequest.FromString(request).from_version
    yield observation(start_after + 1)
    if start_after + 1 < FINAL_VERSION:
        fail(context, grpc.StatusCode.UNAVAILABLE, None, "connection reset")


@pytest.fixture
def watch_server() -> Iterator[ScriptedServer]:
    server = start({}, {"Watch": resetting_watch})
    yield server
    server.stop()


def test_watch_resumes_after_the_last_delivered_version(watch_server: ScriptedServer) -> None:
    with Client.connect(watch_server.addr, retry=QUICK_RETRY) as client:
        versions = [view.version for view in client.seat("g-1", 0, "tok").watch(0)]
    assert versions == [1, 2, 3]
    froms = [pb.WatchRequest.FromString(r).from_version for r in watch_server.requests("Watch")]
    assert froms == [0, 1, 2]


async def test_async_watch_resumes_after_the_last_delivered_version(
    watch_server: ScriptedServer,
) -> None:
    client = await AsyncClient.connect(watch_server.addr, retry=QUICK_RETRY)
    try:
        versions = [view.version async for view in client.spectate("g-1").watch(1)]
    finally:
        await client.close()
    assert versions == [2, 3]
    froms = [pb.WatchRequest.FromString(r).from_version for r in watch_server.requests("Watch")]
    assert froms == [1, 2]
    assert all("authorization" not in c.metadata for c in watch_server.calls)


def test_watch_gives_up_when_failures_exhaust_the_policy() -> None:
    def always_fails(request: bytes, context: grpc.ServicerContext) -> Iterator[bytes]:
        fail(context, grpc.StatusCode.UNAVAILABLE, "STORE_UNAVAILABLE")
        yield b""

    server = start({}, {"Watch": always_fails})
    try:
        with Client.connect(server.addr, retry=QUICK_RETRY) as client:
            with pytest.raises(DeckmateError) as raised:
                list(client.spectate("g-1").watch(0))
        assert raised.value.reason == "STORE_UNAVAILABLE"
        assert len(server.requests("Watch")) == QUICK_RETRY.max_attempts
    finally:
        server.stop()


async def test_async_act_retries_with_the_same_id() -> None:
    server = start({"Act": flaky(1, acted(), "STORE_UNAVAILABLE")})
    client = await AsyncClient.connect(server.addr, api_key="k", retry=QUICK_RETRY)
    try:
        assert (await client.seat("g-1", 1, "tok-1").act(ACTION)).version == 1
        with pytest.raises(DeckmateError) as raised:
            await client.list_variants()  # not scripted: UNIMPLEMENTED, a plain error
        assert type(raised.value) is DeckmateError
        assert raised.value.code == grpc.StatusCode.UNIMPLEMENTED
    finally:
        await client.close()
        server.stop()
    calls = [c for c in server.calls if c.method == "Act"]
    assert len(calls) == 2
    assert len({pb.ActRequest.FromString(c.request).request_id for c in calls}) == 1
    assert all(c.metadata["x-api-key"] == "k" for c in calls)
    assert all(c.metadata["authorization"] == "Bearer tok-1" for c in calls)


def draining_watch(request: bytes, context: grpc.ServicerContext) -> Iterator[bytes]:
    """Send the next version, then end as a draining server does, until the end."""
    start_after = pb.WatchRequest.FromString(request).from_version
    yield observation(start_after + 1)
    if start_after + 1 < FINAL_VERSION:
        fail(context, grpc.StatusCode.UNAVAILABLE, "SHUTTING_DOWN", "server shutting down")


def test_watch_resumes_after_a_server_shutdown() -> None:
    server = start({}, {"Watch": draining_watch})
    try:
        with Client.connect(server.addr, retry=QUICK_RETRY) as client:
            versions = [view.version for view in client.seat("g-1", 0, "tok").watch(0)]
        assert versions == [1, 2, 3]
        froms = [pb.WatchRequest.FromString(r).from_version for r in server.requests("Watch")]
        assert froms == [0, 1, 2]
    finally:
        server.stop()


async def test_async_watch_resumes_after_a_server_shutdown() -> None:
    server = start({}, {"Watch": draining_watch})
    client = await AsyncClient.connect(server.addr, retry=QUICK_RETRY)
    try:
        versions = [view.version async for view in client.spectate("g-1").watch(0)]
    finally:
        await client.close()
        server.stop()
    assert versions == [1, 2, 3]


def test_a_bad_api_key_is_typed_and_not_retried() -> None:
    server = start(
        {
            "CreateGame": lambda request, context: fail(
                context, grpc.StatusCode.UNAUTHENTICATED, "BAD_API_KEY", "bad API key"
            )
        }
    )
    try:
        with Client.connect(server.addr, api_key="revoked", retry=QUICK_RETRY) as client:
            with pytest.raises(BadApiKey) as raised:
                client.create_game(CONFIG, 2)
        assert raised.value.code == grpc.StatusCode.UNAUTHENTICATED
        assert raised.value.reason == "BAD_API_KEY"
        assert not raised.value.retryable
        assert len(server.requests("CreateGame")) == 1
    finally:
        server.stop()
