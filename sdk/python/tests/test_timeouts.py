"""`timeout` bounds each call, so a server that never answers cannot hang the caller."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator

import grpc
import pytest

from deckmate import AsyncClient, Client, DeckmateError, RetryPolicy


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A TCP listener that accepts connections and never says anything."""
    listener = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []
    listener.settimeout(0.05)

    def accept_all() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            accepted.append(connection)

    threading.Thread(target=accept_all, daemon=True).start()
    yield f"127.0.0.1:{listener.getsockname()[1]}"
    listener.close()
    for connection in accepted:
        connection.close()


def test_a_call_to_a_silent_server_ends_at_its_timeout(silent_server: str) -> None:
    with Client.connect(silent_server, retry=RetryPolicy.never(), timeout=0.3) as client:
        with pytest.raises(DeckmateError) as raised:
            client.list_variants()
    assert raised.value.code == grpc.StatusCode.DEADLINE_EXCEEDED


async def test_an_async_call_to_a_silent_server_ends_at_its_timeout(silent_server: str) -> None:
    client = await AsyncClient.connect(silent_server, retry=RetryPolicy.never(), timeout=0.3)
    try:
        with pytest.raises(DeckmateError) as raised:
            # Bounded here too, so that a missing timeout fails the test instead of hanging it.
            await asyncio.wait_for(client.list_variants(), timeout=20)
    finally:
        await client.close()
    assert raised.value.code == grpc.StatusCode.DEADLINE_EXCEEDED
