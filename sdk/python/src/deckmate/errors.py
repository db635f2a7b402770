"""The exceptions of every Deckmate call, decoded from the server's `google.rpc.ErrorInfo`.

Branch on the class (or on `reason`), never on the message: the classes follow the stable
`ErrorInfo` reasons of docs/API.md ("Errors"), while messages are written for people.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import grpc
from google.protobuf.message import DecodeError
from google.rpc import error_details_pb2, status_pb2

#: The `ErrorInfo.domain` of the Deckmate server; infos of other domains are ignored.
ERROR_DOMAIN = "deckmate"
#: The trailing metadata key holding the serialized `google.rpc.Status`.
STATUS_DETAILS_KEY = "grpc-status-details-bin"
#: The `ErrorInfo.metadata` key under which `STALE_VERSION` names the game's version.
CURRENT_VERSION_KEY = "current_version"


class DeckmateError(Exception):
    """A failed Deckmate call.

    `code` is the gRPC status code, `reason` the `ErrorInfo` reason (`""` when the status had
    none), `metadata` the `ErrorInfo` metadata, `message` the server's (or transport's) message
    and `field_violations` the `google.rpc.BadRequest` violations as (field, description) pairs.
    `retry_delay` is the pause in seconds the server asked for with a `google.rpc.RetryInfo`
    (None when it sent none); the client's retries never pause less. `request_id` is the
    request id `act` / `act_with` / `create_game` sent (`""` for other calls): after a
    `DEADLINE_EXCEEDED`, send the call again with `request_id=error.request_id` and the server
    applies it at most once. A reason this client does not know yields a plain `DeckmateError`
    with that reason.
    """

    def __init__(
        self,
        code: grpc.StatusCode,
        reason: str,
        metadata: Mapping[str, str],
        message: str,
        field_violations: Sequence[tuple[str, str]] = (),
        retry_delay: float | None = None,
        request_id: str = "",
    ) -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.metadata: dict[str, str] = dict(metadata)
        self.message = message
        self.field_violations: list[tuple[str, str]] = list(field_violations)
        self.retry_delay: float | None = retry_delay
        self.request_id: str = request_id

    @property
    def retryable(self) -> bool:
        """Whether the same request may succeed when sent again: the code is UNAVAILABLE."""
        return self.code == grpc.StatusCode.UNAVAILABLE

    def __str__(self) -> str:
        label = self.reason or self.code.name
        return f"{label}: {self.message}"

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(code={self.code.name}, reason={self.reason!r}, "
            f"message={self.message!r})"
        )


class InvalidRequest(DeckmateError):
    """`INVALID_REQUEST`: a malformed request, unknown game or enum value, or bad action."""


class GameNotFound(DeckmateError):
    """`GAME_NOT_FOUND`: no game has this id, or it expired."""


class BadToken(DeckmateError):
    """`BAD_TOKEN`: the seat token is missing, malformed or wrong (or spectators are denied)."""


class NotYourTurn(DeckmateError):
    """`NOT_YOUR_TURN`: the seat may not act now."""


class IllegalAction(DeckmateError):
    """`ILLEGAL_ACTION`: the action is not one of the seat's legal actions."""


class GameOver(DeckmateError):
    """`GAME_OVER`: the game has finished."""


class StaleVersion(DeckmateError):
    """`STALE_VERSION`: `expected_version` was not the game's version; observe again.

    `current_version` is the game's version when the action was rejected, when the server
    named it.
    """

    @property
    def current_version(self) -> int | None:
        """The game's version named by the server's `current_version` metadata, if any."""
        value = self.metadata.get(CURRENT_VERSION_KEY)
        if value is None or not value.isdigit():
            return None
        return int(value)


class StoreUnavailable(DeckmateError):
    """`STORE_UNAVAILABLE`: the server cannot reach its session store; retried by the client."""


class Overloaded(DeckmateError):
    """`OVERLOADED`: the server sheds load; retried by the client after `retry_delay`."""


class LimitReached(DeckmateError):
    """`LIMIT_REACHED`: a limit (sessions, watchers, message size, create rate) was reached.

    A limit that passes with time (the create rate) comes with a `retry_delay`.
    """


class Internal(DeckmateError):
    """`INTERNAL`: a server bug; the message is deliberately generic."""


class ShuttingDown(DeckmateError):
    """`SHUTTING_DOWN`: the server is draining before it stops; retried by the client.

    A watch resumes by itself from the last version it delivered.
    """


class BadApiKey(DeckmateError):
    """`BAD_API_KEY`: the API key is missing or wrong (seat tokens raise `BadToken`)."""


class RequestIdReused(DeckmateError):
    """`REQUEST_ID_REUSED`: a request id sent again with a different request.

    The id was used before by this caller (for an action: by this seat). Send a new request id
    with a new request.
    """


class GameLost(DeckmateError):
    """`GAME_LOST`: the server's store lost the game; it cannot be recovered.

    The store restarted without its data while the game was still alive.
    """


class TransportError(DeckmateError):
    """The server could not be reached, or the connection broke before an answer arrived.

    Its `reason` is `""`; its code is usually UNAVAILABLE.
    """


#: The exception class of each `ErrorInfo` reason the server sends.
ERROR_CLASSES: dict[str, type[DeckmateError]] = {
    "INVALID_REQUEST": InvalidRequest,
    "GAME_NOT_FOUND": GameNotFound,
    "BAD_TOKEN": BadToken,
    "NOT_YOUR_TURN": NotYourTurn,
    "ILLEGAL_ACTION": IllegalAction,
    "GAME_OVER": GameOver,
    "STALE_VERSION": StaleVersion,
    "STORE_UNAVAILABLE": StoreUnavailable,
    "OVERLOADED": Overloaded,
    "LIMIT_REACHED": LimitReached,
    "INTERNAL": Internal,
    "SHUTTING_DOWN": ShuttingDown,
    "BAD_API_KEY": BadApiKey,
    "REQUEST_ID_REUSED": RequestIdReused,
    "GAME_LOST": GameLost,
}

#: Messages of gRPC statuses without details that mean the connection broke mid-call.
_TRANSPORT_HINTS = ("rst_stream", "connection reset", "socket closed", "stream removed", "goaway")


def error_from_status(
    code: grpc.StatusCode,
    message: str,
    details: bytes | None,
) -> DeckmateError:
    """Decode a status: its code, message and serialized `google.rpc.Status` details."""
    info: error_details_pb2.ErrorInfo | None = None
    violations: list[tuple[str, str]] = []
    retry_delay: float | None = None
    if details:
        status = status_pb2.Status()
        try:
            status.ParseFromString(details)
        except DecodeError:
            status = status_pb2.Status()
        for detail in status.details:
            if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                candidate = error_details_pb2.ErrorInfo()
                if detail.Unpack(candidate) and candidate.domain == ERROR_DOMAIN and info is None:
                    info = candidate
            elif detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                bad_request = error_details_pb2.BadRequest()
                if detail.Unpack(bad_request):
                    violations.extend(
                        (violation.field, violation.description)
                        for violation in bad_request.field_violations
                    )
            elif detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
                retry_info = error_details_pb2.RetryInfo()
                if detail.Unpack(retry_info) and retry_info.HasField("retry_delay"):
                    delay = retry_info.retry_delay
                    retry_delay = max(delay.seconds + delay.nanos / 1e9, 0.0)
    if info is None:
        if code == grpc.StatusCode.UNAVAILABLE or _looks_like_reset(code, message):
            return TransportError(
                grpc.StatusCode.UNAVAILABLE, "", {}, message, violations, retry_delay
            )
        return DeckmateError(code, "", {}, message, violations, retry_delay)
    cls = ERROR_CLASSES.get(info.reason, DeckmateError)
    return cls(code, info.reason, dict(info.metadata), message, violations, retry_delay)


def _looks_like_reset(code: grpc.StatusCode, message: str) -> bool:
    """Whether a status without details reports a broken connection rather than an answer."""
    if code not in (grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN):
        return False
    lowered = message.lower()
    return any(hint in lowered for hint in _TRANSPORT_HINTS)


def error_from_rpc(error: grpc.RpcError) -> DeckmateError:
    """Decode the exception a grpc (sync or asyncio) call raised."""
    code_of = getattr(error, "code", None)
    code = code_of() if callable(code_of) else None
    if not isinstance(code, grpc.StatusCode):
        return TransportError(grpc.StatusCode.UNAVAILABLE, "", {}, str(error))
    details_of = getattr(error, "details", None)
    message = details_of() if callable(details_of) else None
    trailers_of = getattr(error, "trailing_metadata", None)
    trailers = trailers_of() if callable(trailers_of) else None
    return error_from_status(code, str(message or ""), _status_details(trailers))


def _status_details(trailers: object) -> bytes | None:
    """Return the `grpc-status-details-bin` value of trailing metadata, if present."""
    if not trailers:
        return None
    try:
        items = list(trailers)  # type: ignore[call-overload]
    except TypeError:
        return None
    for item in items:
        key, value = (item.key, item.value) if hasattr(item, "key") else item
        if key == STATUS_DETAILS_KEY and isinstance(value, bytes):
            return value
    return None
