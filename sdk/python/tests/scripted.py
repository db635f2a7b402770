"""A scripted gRPC server for client tests: each method answers with hand-written bytes.

Handlers receive the raw request bytes and the servicer context; they return raw response
bytes (or, for Watch, yield them), or fail with `fail(...)`. Every call is logged with its
method, request bytes and invocation metadata.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent import futures
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2

SERVICE = "deckmate.v1.GameService"
TLS_DIR = Path(__file__).resolve().parents[2] / "testdata" / "tls"

Unary = Callable[[bytes, grpc.ServicerContext], bytes]
Streaming = Callable[[bytes, grpc.ServicerContext], Iterator[bytes]]


@dataclass
class Call:
    """One call the server received."""

    method: str
    request: bytes
    metadata: dict[str, str]


@dataclass
class ScriptedServer:
    """A running scripted server and its call log."""

    port: int
    server: grpc.Server
    calls: list[Call] = field(default_factory=list)

    @property
    def addr(self) -> str:
        return f"127.0.0.1:{self.port}"

    def requests(self, method: str) -> list[bytes]:
        return [call.request for call in self.calls if call.method == method]

    def stop(self) -> None:
        self.server.stop(grace=None)


def start(
    unary: dict[str, Unary],
    streaming: dict[str, Streaming] | None = None,
    credentials: grpc.ServerCredentials | None = None,
) -> ScriptedServer:
    """Start a server on a free port answering the given methods (others: UNIMPLEMENTED)."""
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    scripted = ScriptedServer(0, server)

    def logged(name: str, handler: Callable[[bytes, grpc.ServicerContext], Any]) -> Any:
        def run(request: bytes, context: grpc.ServicerContext) -> Any:
            metadata = {key: str(value) for key, value in context.invocation_metadata()}
            scripted.calls.append(Call(name, request, metadata))
            return handler(request, context)

        return run

    handlers: dict[str, grpc.RpcMethodHandler[Any, Any]] = {
        name: grpc.unary_unary_rpc_method_handler(logged(name, fn)) for name, fn in unary.items()
    }
    for name, fn in (streaming or {}).items():
        handlers[name] = grpc.unary_stream_rpc_method_handler(logged(name, fn))
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE, handlers),))
    if credentials is None:
        scripted.port = server.add_insecure_port("127.0.0.1:0")
    else:
        scripted.port = server.add_secure_port("127.0.0.1:0", credentials)
    server.start()
    return scripted


def tls_credentials() -> grpc.ServerCredentials:
    """Return server credentials from the committed test certificate."""
    key = (TLS_DIR / "server.key").read_bytes()
    cert = (TLS_DIR / "server.pem").read_bytes()
    return grpc.ssl_server_credentials([(key, cert)])


def fail(
    context: grpc.ServicerContext,
    code: grpc.StatusCode,
    reason: str | None,
    message: str = "scripted failure",
    metadata: dict[str, str] | None = None,
    domain: str = "deckmate",
    retry_delay: float | None = None,
) -> Any:
    """Abort the call with `code`, carrying an ErrorInfo with `reason` unless it is None.

    With `retry_delay` (seconds) the status also carries a RetryInfo with that delay.
    """
    details: list[any_pb2.Any] = []
    if reason is not None:
        info = error_details_pb2.ErrorInfo(reason=reason, domain=domain, metadata=metadata or {})
        detail = any_pb2.Any()
        detail.Pack(info)
        details.append(detail)
    if retry_delay is not None:
        retry = error_details_pb2.RetryInfo()
        retry.retry_delay.FromNanoseconds(round(retry_delay * 1e9))
        detail = any_pb2.Any()
        detail.Pack(retry)
        details.append(detail)
    if details:
        status = status_pb2.Status(code=code.value[0], message=message, details=details)
        context.set_trailing_metadata((("grpc-status-details-bin", status.SerializeToString()),))
    context.abort(code, message)


# Hand-made protobuf encoding, to send what the generated classes cannot express.


def varint(value: int) -> bytes:
    """Encode a non-negative int as a protobuf varint."""
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def int_field(number: int, value: int) -> bytes:
    """Encode a varint field."""
    return varint(number << 3) + varint(value)


def bytes_field(number: int, value: bytes) -> bytes:
    """Encode a length-delimited field."""
    return varint((number << 3) | 2) + varint(len(value)) + value
