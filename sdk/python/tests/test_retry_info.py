"""The server's RetryInfo delay, and the request id carried by errors of act and create_game."""

from __future__ import annotations

import time
from collections.abc import Iterator

import grpc
import pytest
from conftest import QUICK_RETRY
from google.protobuf import any_pb2, duration_pb2
from google.rpc import error_details_pb2, status_pb2
from scripted import Unary, fail, start

from deckmate import (
    ActOptions,
    AsyncClient,
    Client,
    CreateOptions,
    DeckmateError,
    LimitReached,
    Overloaded,
    RetryPolicy,
    TransportError,
    pb,
)
from deckmate.errors import error_from_status
from deckmate.tls import parse_endpoint

CONFIG = pb.GameConfig(pigeon_chess=pb.PigeonChessConfig())
ACTION = pb.Action(meta=pb.MetaAction(kind=pb.META_ACTION_KIND_RESIGN))
#: The delay the scripted server asks for: longer than all the quick policy's pauses together.
DELAY = 0.3


def status_details(reason: str | None, delay: duration_pb2.Duration | None) -> bytes:
    status = status_pb2.Status(code=14, message="m")
    if reason is not None:
        status.details.add().Pack(error_details_pb2.ErrorInfo(reason=reason, domain="deckmate"))
    if delay is not None:
        status.details.add().Pack(error_details_pb2.RetryInfo(retry_delay=delay))
    return bytes(status.SerializeToString())


def test_retry_info_is_decoded_in_seconds() -> None:
    delay = duration_pb2.Duration(seconds=1, nanos=500_000_000)
    overloaded = error_from_status(
        grpc.StatusCode.UNAVAILABLE, "m", status_details("OVERLOADED", delay)
    )
    assert isinstance(overloaded, Overloaded)
    assert overloaded.retry_delay == pytest.approx(1.5)
    limited = error_from_status(
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        "m",
        status_details("LIMIT_REACHED", duration_pb2.Duration(nanos=250_000_000)),
    )
    assert isinstance(limited, LimitReached)
    assert limited.retry_delay == pytest.approx(0.25)
    without_reason = error_from_status(
        grpc.StatusCode.UNAVAILABLE, "m", status_details(None, duration_pb2.Duration(seconds=2))
    )
    assert isinstance(without_reason, TransportError)
    assert without_reason.retry_delay == 2.0
    plain = error_from_status(grpc.StatusCode.UNAVAILABLE, "m", status_details("OVERLOADED", None))
    assert plain.retry_delay is None
    assert plain.request_id == ""


def test_other_details_are_skipped_and_the_retry_info_still_found() -> None:
    status = status_pb2.Status(code=14, message="m")
    status.details.add().Pack(error_details_pb2.DebugInfo(detail="x"))
    status.details.add().Pack(
        error_details_pb2.RetryInfo(retry_delay=duration_pb2.Duration(seconds=3))
    )
    unknown = any_pb2.Any(type_url="type.example.com/Other", value=b"\x01")
    status.details.append(unknown)
    error = error_from_status(grpc.StatusCode.UNAVAILABLE, "m", status.SerializeToString())
    assert error.retry_delay == 3.0


def test_pause_is_the_longer_of_backoff_and_retry_delay() -> None:
    policy = RetryPolicy(max_attempts=4, initial_backoff=0.1, max_backoff=2.0)
    busy = Overloaded(grpc.StatusCode.UNAVAILABLE, "OVERLOADED", {}, "m", retry_delay=1.0)
    assert [policy.pause_before_retry(n, busy) for n in (1, 2, 3)] == [1.0, 1.0, 1.0]
    assert policy.pause_before_retry(4, busy) is None
    short = Overloaded(grpc.StatusCode.UNAVAILABLE, "OVERLOADED", {}, "m", retry_delay=0.15)
    assert [policy.pause_before_retry(n, short) for n in (1, 2, 3)] == [0.15, 0.2, 0.4]
    none = Overloaded(grpc.StatusCode.UNAVAILABLE, "OVERLOADED", {}, "m")
    assert [policy.pause_before_retry(n, none) for n in (1, 2, 3)] == [0.1, 0.2, 0.4]
    final = LimitReached(
        grpc.StatusCode.RESOURCE_EXHAUSTED, "LIMIT_REACHED", {}, "m", retry_delay=5
    )
    assert policy.pause_before_retry(1, final) is None


def overloaded_once(answer: bytes) -> Unary:
    """A handler refusing the first call with OVERLOADED and a RetryInfo of DELAY, then not
    before DELAY has passed since that refusal."""
    refused_at: list[float] = []

    def handle(request: bytes, context: grpc.ServicerContext) -> bytes:
        now = time.monotonic()
        if not refused_at or now - refused_at[0] < DELAY:
            if not refused_at:
                refused_at.append(now)
            fail(context, grpc.StatusCode.UNAVAILABLE, "OVERLOADED", retry_delay=DELAY)
        return answer

    return handle


def test_retries_wait_for_the_servers_retry_delay() -> None:
    server = start({"ListVariants": overloaded_once(b"")})
    try:
        with Client.connect(server.addr, retry=QUICK_RETRY) as client:
            assert client.list_variants() == []
        assert len(server.requests("ListVariants")) == 2
    finally:
        server.stop()


async def test_async_retries_wait_for_the_servers_retry_delay() -> None:
    server = start({"Observe": overloaded_once(pb.ObserveResponse(version=4).SerializeToString())})
    client = await AsyncClient.connect(server.addr, retry=QUICK_RETRY)
    try:
        assert (await client.spectate("g-1").observe()).version == 4
    finally:
        await client.close()
        server.stop()
    assert len(server.requests("Observe")) == 2


def test_a_resuming_watch_waits_for_the_servers_retry_delay() -> None:
    arrivals: list[float] = []

    def draining(request: bytes, context: grpc.ServicerContext) -> Iterator[bytes]:
        arrivals.append(time.monotonic())
        after = pb.WatchRequest.FromString(request).from_version
        final = pb.GAME_STATUS_FINISHED if after == 1 else pb.GAME_STATUS_IN_PROGRESS
        yield pb.ObserveResponse(version=after + 1, status=final).SerializeToString()
        if after == 0:
            fail(context, grpc.StatusCode.UNAVAILABLE, "SHUTTING_DOWN", retry_delay=DELAY)

    server = start({}, {"Watch": draining})
    try:
        with Client.connect(server.addr, retry=QUICK_RETRY) as client:
            versions = [view.version for view in client.spectate("g-1").watch(0)]
    finally:
        server.stop()
    assert versions == [1, 2]
    assert len(arrivals) == 2
    assert arrivals[1] - arrivals[0] >= DELAY * 0.9


def test_a_final_error_exposes_the_retry_delay() -> None:
    server = start(
        {
            "CreateGame": lambda request, context: fail(
                context, grpc.StatusCode.RESOURCE_EXHAUSTED, "LIMIT_REACHED", retry_delay=1.25
            )
        }
    )
    try:
        with Client.connect(server.addr, retry=QUICK_RETRY) as client:
            with pytest.raises(LimitReached) as raised:
                client.create_game(CONFIG, 2)
        assert raised.value.retry_delay == pytest.approx(1.25)
        assert len(server.requests("CreateGame")) == 1
    finally:
        server.stop()


def deadline_exceeded(request: bytes, context: grpc.ServicerContext) -> bytes:
    fail(context, grpc.StatusCode.DEADLINE_EXCEEDED, None, "deadline exceeded")
    return b""


def test_errors_of_act_and_create_game_carry_the_request_id_sent() -> None:
    server = start(
        {
            "Act": deadline_exceeded,
            "CreateGame": deadline_exceeded,
            "Observe": deadline_exceeded,
        }
    )
    try:
        with Client.connect(server.addr, retry=QUICK_RETRY) as client:
            seat = client.seat("g-1", 0, "tok-0")
            with pytest.raises(DeckmateError) as acted:
                seat.act(ACTION)
            with pytest.raises(DeckmateError) as chosen:
                seat.act_with(ACTION, ActOptions(request_id="mine"))
            with pytest.raises(DeckmateError) as created:
                client.create_game(CONFIG, 2)
            with pytest.raises(DeckmateError) as created_chosen:
                client.create_game(CONFIG, 2, CreateOptions(request_id="game-1"))
            with pytest.raises(DeckmateError) as observed:
                seat.observe()
        act_ids = [pb.ActRequest.FromString(r).request_id for r in server.requests("Act")]
        create_ids = [
            pb.CreateGameRequest.FromString(r).request_id for r in server.requests("CreateGame")
        ]
        assert acted.value.code == grpc.StatusCode.DEADLINE_EXCEEDED
        assert acted.value.request_id == act_ids[0] != ""
        assert chosen.value.request_id == act_ids[1] == "mine"
        assert created.value.request_id == create_ids[0] != ""
        assert created_chosen.value.request_id == create_ids[1] == "game-1"
        assert observed.value.request_id == ""
    finally:
        server.stop()


async def test_async_errors_carry_the_request_id_after_retries() -> None:
    def unavailable(request: bytes, context: grpc.ServicerContext) -> bytes:
        fail(context, grpc.StatusCode.UNAVAILABLE, "STORE_UNAVAILABLE")
        return b""

    server = start({"Act": unavailable, "CreateGame": deadline_exceeded})
    client = await AsyncClient.connect(server.addr, retry=QUICK_RETRY)
    try:
        with pytest.raises(DeckmateError) as acted:
            await client.seat("g-1", 1, "tok-1").act(ACTION)
        with pytest.raises(DeckmateError) as created:
            await client.create_game(CONFIG, 2)
    finally:
        await client.close()
        server.stop()
    act_ids = {pb.ActRequest.FromString(r).request_id for r in server.requests("Act")}
    assert len(server.requests("Act")) == QUICK_RETRY.max_attempts
    assert act_ids == {acted.value.request_id}
    (create_request,) = server.requests("CreateGame")
    assert created.value.request_id == pb.CreateGameRequest.FromString(create_request).request_id


def test_https_and_http_addresses_without_a_port() -> None:
    secure = parse_endpoint("https://games.example", None)
    assert secure.target == "games.example:443"
    assert secure.credentials is not None
    assert parse_endpoint("https://games.example/", None).target == "games.example:443"
    plain = parse_endpoint("http://games.example", None)
    assert (plain.target, plain.credentials) == ("games.example:80", None)
    assert parse_endpoint("http://[::1]", None).target == "[::1]:80"
    # With TLS on, no port means https's own, as in the other SDKs; an explicit one is kept.
    assert parse_endpoint("http://games.example", True).target == "games.example:443"
    assert parse_endpoint("http://games.example:80", True).target == "games.example:80"
    assert parse_endpoint("https://games.example:8443", None).target == "games.example:8443"
    with Client.connect("https://games.example") as client:
        assert "games.example" in repr(client)
