"""Unit tests of the pieces that need no server: errors, retries, options, addresses."""

from __future__ import annotations

import re

import grpc
import pytest
from google.protobuf import any_pb2
from google.protobuf.message import Message
from google.rpc import error_details_pb2, status_pb2

from deckmate import (
    ActOptions,
    BadApiKey,
    Client,
    CreateOptions,
    DeckmateError,
    GameLost,
    Internal,
    InvalidRequest,
    Overloaded,
    RequestIdReused,
    RetryPolicy,
    ShuttingDown,
    StaleVersion,
    TransportError,
    meta_action,
    new_request_id,
    pb,
)
from deckmate.errors import ERROR_CLASSES, error_from_status
from deckmate.tls import TlsOptions, parse_endpoint


def details(*messages: Message) -> bytes:
    status = status_pb2.Status(code=9, message="m")
    for message in messages:
        packed = any_pb2.Any()
        packed.Pack(message)
        status.details.append(packed)
    return bytes(status.SerializeToString())


def info(reason: str, domain: str = "deckmate", **metadata: str) -> Message:
    message: Message = error_details_pb2.ErrorInfo(reason=reason, domain=domain, metadata=metadata)
    return message


@pytest.mark.parametrize("reason", sorted(ERROR_CLASSES))
def test_every_reason_has_its_class(reason: str) -> None:
    error = error_from_status(grpc.StatusCode.FAILED_PRECONDITION, "m", details(info(reason)))
    assert type(error) is ERROR_CLASSES[reason]
    assert type(error).__name__.upper() == reason.replace("_", "")
    assert error.reason == reason and error.message == "m"


def test_every_error_reason_of_the_proto_is_covered() -> None:
    names = {name.removeprefix("ERROR_REASON_") for name in pb.ErrorReason.keys()}  # noqa: SIM118
    assert names - {"UNSPECIFIED"} <= set(ERROR_CLASSES)


def test_stale_version_parses_current_version() -> None:
    error = error_from_status(
        grpc.StatusCode.ABORTED, "m", details(info("STALE_VERSION", current_version="17"))
    )
    assert isinstance(error, StaleVersion)
    assert error.current_version == 17
    bad = error_from_status(
        grpc.StatusCode.ABORTED, "m", details(info("STALE_VERSION", current_version="x"))
    )
    assert isinstance(bad, StaleVersion) and bad.current_version is None


def test_statuses_without_deckmate_info() -> None:
    unavailable = error_from_status(grpc.StatusCode.UNAVAILABLE, "down", None)
    assert type(unavailable) is TransportError and unavailable.reason == ""
    foreign = error_from_status(grpc.StatusCode.UNAVAILABLE, "x", details(info("X", "other")))
    assert type(foreign) is TransportError
    reset = error_from_status(grpc.StatusCode.INTERNAL, "Received RST_STREAM with code 2", None)
    assert type(reset) is TransportError and reset.retryable
    other = error_from_status(grpc.StatusCode.INTERNAL, "boom", None)
    assert type(other) is DeckmateError and not other.retryable
    garbage = error_from_status(grpc.StatusCode.NOT_FOUND, "m", b"\xff\xff\xff")
    assert type(garbage) is DeckmateError and garbage.code == grpc.StatusCode.NOT_FOUND


def test_unknown_reason_and_field_violations() -> None:
    violation = error_details_pb2.BadRequest.FieldViolation(field="seats", description="too many")
    error = error_from_status(
        grpc.StatusCode.INVALID_ARGUMENT,
        "m",
        details(info("BRAND_NEW"), error_details_pb2.BadRequest(field_violations=[violation])),
    )
    assert type(error) is DeckmateError
    assert error.reason == "BRAND_NEW"
    assert error.field_violations == [("seats", "too many")]
    assert "BRAND_NEW" in str(error) and "BRAND_NEW" in repr(error)


def test_retryable_means_unavailable() -> None:
    overloaded = error_from_status(grpc.StatusCode.UNAVAILABLE, "m", details(info("OVERLOADED")))
    assert isinstance(overloaded, Overloaded) and overloaded.retryable
    internal = error_from_status(grpc.StatusCode.INTERNAL, "m", details(info("INTERNAL")))
    assert isinstance(internal, Internal) and not internal.retryable
    draining = error_from_status(grpc.StatusCode.UNAVAILABLE, "m", details(info("SHUTTING_DOWN")))
    assert isinstance(draining, ShuttingDown) and draining.retryable
    key = error_from_status(grpc.StatusCode.UNAUTHENTICATED, "m", details(info("BAD_API_KEY")))
    assert isinstance(key, BadApiKey) and not key.retryable
    reused = error_from_status(
        grpc.StatusCode.INVALID_ARGUMENT, "m", details(info("REQUEST_ID_REUSED"))
    )
    assert isinstance(reused, RequestIdReused) and not reused.retryable
    lost = error_from_status(grpc.StatusCode.DATA_LOSS, "m", details(info("GAME_LOST")))
    assert isinstance(lost, GameLost) and not lost.retryable


def test_retry_policy_backoff_and_decisions() -> None:
    default = RetryPolicy()
    assert (default.max_attempts, default.initial_backoff, default.max_backoff) == (4, 0.1, 2.0)
    assert [default.backoff(n) for n in (1, 2, 3, 4, 5, 6, 40)] == [
        0.1,
        0.2,
        0.4,
        0.8,
        1.6,
        2.0,
        2.0,
    ]
    transport = TransportError(grpc.StatusCode.UNAVAILABLE, "", {}, "m")
    final = InvalidRequest(grpc.StatusCode.INVALID_ARGUMENT, "INVALID_REQUEST", {}, "m")
    assert default.pause_before_retry(1, transport) == 0.1
    assert default.pause_before_retry(3, transport) == 0.4
    assert default.pause_before_retry(4, transport) is None
    assert default.pause_before_retry(1, final) is None
    assert RetryPolicy.never().pause_before_retry(1, transport) is None


def test_options_and_helpers() -> None:
    assert ActOptions.expecting(4) == ActOptions(expected_version=4, request_id=None)
    assert CreateOptions().seed is None
    assert CreateOptions().spectator_policy == pb.SPECTATOR_POLICY_UNSPECIFIED
    ids = {new_request_id() for _ in range(50)}
    assert len(ids) == 50
    assert all(
        re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", i)
        for i in ids
    )
    action = meta_action(pb.META_ACTION_KIND_OFFER_DRAW)
    assert action.WhichOneof("kind") == "meta"
    assert action.meta.kind == pb.META_ACTION_KIND_OFFER_DRAW


def test_addresses() -> None:
    plain = parse_endpoint("http://127.0.0.1:5/", None)
    assert (plain.target, plain.credentials) == ("127.0.0.1:5", None)
    assert parse_endpoint("localhost:5", False).credentials is None
    assert parse_endpoint("https://example.test:443", None).credentials is not None
    named = parse_endpoint("10.0.0.1:5", TlsOptions(server_name="srv"))
    assert named.credentials is not None
    assert named.options == (("grpc.ssl_target_name_override", "srv"),)
    for bad in ("localhost", "http://host:port", ":5", "host:5/path"):
        with pytest.raises(InvalidRequest):
            parse_endpoint(bad, None)


def test_reprs_hide_tokens_and_keys() -> None:
    with Client.connect("127.0.0.1:9", api_key="secret-key") as client:
        seat = client.seat("g-1", 1, "secret-token")
        shown = repr(client) + repr(seat) + repr(client.spectate("g-1"))
        assert "secret" not in shown
        assert "g-1" in shown and "seat=1" in shown
        assert seat.token == "secret-token"
