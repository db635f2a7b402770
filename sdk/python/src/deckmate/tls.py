"""`TlsOptions` and the parsing of server addresses into a gRPC target and credentials."""

from __future__ import annotations

from dataclasses import dataclass

import grpc

from deckmate.errors import InvalidRequest


@dataclass(frozen=True)
class TlsOptions:
    """TLS settings for `connect`.

    `ca_pem` trusts these PEM roots instead of the system's; `server_name` overrides the name
    the server certificate must carry (default: the address's host).
    """

    ca_pem: bytes | str | None = None
    server_name: str | None = None


@dataclass(frozen=True)
class Endpoint:
    """Where and how to connect: the gRPC target, TLS credentials (None: plaintext), options."""

    target: str
    credentials: grpc.ChannelCredentials | None
    options: tuple[tuple[str, str | int], ...]


def parse_endpoint(address: str, tls: bool | TlsOptions | None) -> Endpoint:
    """Turn an address and the TLS option into an endpoint.

    The address is `host:port`, `http://host:port` or `https://host:port`; `https://` or a
    `tls` option other than None/False turns TLS on.
    """
    target = address.strip()
    secure = False
    if target.startswith("https://"):
        secure, target = True, target[len("https://") :]
    elif target.startswith("http://"):
        target = target[len("http://") :]
    target = target.rstrip("/")
    host, sep, port = target.rpartition(":")
    if not sep or not host or not port.isdigit() or "/" in target:
        raise InvalidRequest(
            grpc.StatusCode.INVALID_ARGUMENT,
            "INVALID_REQUEST",
            {},
            f"bad server address {address!r}: expected host:port, http://host:port "
            "or https://host:port",
        )
    if tls is None or tls is False:
        options = TlsOptions() if secure else None
    elif tls is True:
        options = TlsOptions()
    else:
        options = tls
    if options is None:
        return Endpoint(target, None, ())
    ca = options.ca_pem.encode() if isinstance(options.ca_pem, str) else options.ca_pem
    credentials = grpc.ssl_channel_credentials(root_certificates=ca)
    extra: tuple[tuple[str, str | int], ...] = ()
    if options.server_name:
        extra = (("grpc.ssl_target_name_override", options.server_name),)
    return Endpoint(target, credentials, extra)
