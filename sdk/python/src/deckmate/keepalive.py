"""HTTP/2 keepalive pings: how a client finds out that its connection died silently."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Keepalive:
    """Pings on a connection while calls are open on it.

    A connection can die without either end closing it (a NAT or load balancer forgetting it,
    a network switch): calls on it then wait forever, and a `watch` would never hear of another
    version. With calls open, the client pings every `interval` seconds and closes the
    connection when a ping is not answered within `timeout` seconds; the calls then fail with
    `TransportError` (UNAVAILABLE), and a `watch` reconnects and resumes. No pings are sent on
    an idle connection. The defaults (20 s and 10 s) notice a dead connection within half a
    minute.
    """

    interval: float = 20.0
    timeout: float = 10.0

    def __post_init__(self) -> None:
        if self.interval <= 0 or self.timeout <= 0:
            raise ValueError("keepalive interval and timeout must be positive")

    def channel_options(self) -> tuple[tuple[str, int], ...]:
        """Return the gRPC channel arguments that set these pings."""
        return (
            ("grpc.keepalive_time_ms", max(1, round(self.interval * 1000))),
            ("grpc.keepalive_timeout_ms", max(1, round(self.timeout * 1000))),
            ("grpc.keepalive_permit_without_calls", 0),
            # Pings go on while a watch waits for the next version, with no data flowing.
            ("grpc.http2.max_pings_without_data", 0),
            # Any ping left unanswered, not only a keepalive ping, closes the connection.
            ("grpc.http2.ping_timeout_ms", max(1, round(self.timeout * 1000))),
        )
