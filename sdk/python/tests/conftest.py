"""Fixtures: one live Deckmate server per test session, and clients connected to it."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from deckmate import AsyncClient, Client, DeckmateError, RetryPolicy

REPO_ROOT = Path(__file__).resolve().parents[3]
#: Quick retries for tests that provoke failures on purpose.
QUICK_RETRY = RetryPolicy(max_attempts=4, initial_backoff=0.01, max_backoff=0.05)


def server_binary() -> Path:
    """Return the server binary: DECKMATE_SERVER_BIN, else the repo's release build."""
    named = os.environ.get("DECKMATE_SERVER_BIN")
    if named:
        return Path(named)
    built = REPO_ROOT / "target" / "release" / "deckmate-server"
    if built.exists():
        return built
    pytest.fail(
        "no server binary: set DECKMATE_SERVER_BIN or build it with "
        "`cargo build --release -p deckmate-server`"
    )


def free_port() -> int:
    """Return a TCP port that was free a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def running_server() -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Start a server process on a free port, wait until it answers, and kill it on exit."""
    addr = f"127.0.0.1:{free_port()}"
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            # The suite creates games faster than the default per-caller create rate
            # allows; the rate limit has tests of its own in the server.
            [
                str(server_binary()),
                "--listen",
                addr,
                "--allow-client-seed",
                "--create-rate",
                "off",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_until_ready(addr, process)
            yield addr, process
        finally:
            process.kill()
            process.wait()


@pytest.fixture(scope="session")
def server_addr() -> Iterator[str]:
    """One server for the whole test session."""
    with running_server() as (addr, _):
        yield addr


def wait_until_ready(addr: str, process: subprocess.Popen[bytes]) -> None:
    """Poll ListVariants until the server answers (at most 30 s)."""
    deadline = time.monotonic() + 30
    with Client.connect(addr, retry=RetryPolicy.never()) as client:
        while True:
            try:
                client.list_variants()
                return
            except DeckmateError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)


@pytest.fixture(scope="session")
def client(server_addr: str) -> Iterator[Client]:
    """A synchronous client of the live server."""
    with Client.connect(server_addr) as connected:
        yield connected


@pytest.fixture(scope="session")
async def async_client(server_addr: str) -> AsyncIterator[AsyncClient]:
    """An asyncio client of the live server."""
    connected = await AsyncClient.connect(server_addr)
    yield connected
    await connected.close()
