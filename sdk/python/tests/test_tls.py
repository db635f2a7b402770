"""TLS: a scripted TLS server with the committed test certificate."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from conftest import QUICK_RETRY
from scripted import TLS_DIR, ScriptedServer, start, tls_credentials

from deckmate import AsyncClient, Client, TlsOptions, TransportError, pb

CA_PEM = (TLS_DIR / "ca.pem").read_bytes()
VARIANTS = pb.ListVariantsResponse(variants=[pb.Variant(id="chuno", name="CHUNO")])


@pytest.fixture(scope="module")
def tls_server() -> Iterator[ScriptedServer]:
    server = start(
        {"ListVariants": lambda request, context: VARIANTS.SerializeToString()},
        credentials=tls_credentials(),
    )
    yield server
    server.stop()


def test_https_address_trusting_the_test_ca(tls_server: ScriptedServer) -> None:
    address = f"https://localhost:{tls_server.port}"
    with Client.connect(address, tls=TlsOptions(ca_pem=CA_PEM)) as client:
        assert [v.id for v in client.list_variants()] == ["chuno"]


def test_tls_option_with_server_name_override(tls_server: ScriptedServer) -> None:
    options = TlsOptions(ca_pem=CA_PEM.decode(), server_name="localhost")
    with Client.connect(tls_server.addr, tls=options) as client:
        assert [v.id for v in client.list_variants()] == ["chuno"]


def test_without_the_ca_the_handshake_fails(tls_server: ScriptedServer) -> None:
    with Client.connect(f"https://localhost:{tls_server.port}", retry=QUICK_RETRY) as client:
        with pytest.raises(TransportError):
            client.list_variants()


def test_plaintext_client_cannot_talk_to_a_tls_server(tls_server: ScriptedServer) -> None:
    with Client.connect(tls_server.addr, retry=QUICK_RETRY) as client:
        with pytest.raises(TransportError):
            client.list_variants()


async def test_async_client_over_tls(tls_server: ScriptedServer) -> None:
    client = await AsyncClient.connect(
        f"localhost:{tls_server.port}", tls=TlsOptions(ca_pem=CA_PEM)
    )
    try:
        assert [v.id for v in await client.list_variants()] == ["chuno"]
    finally:
        await client.close()
