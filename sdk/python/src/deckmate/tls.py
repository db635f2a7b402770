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

    The address is `host:port`, `http://host[:port]` or `https://host[:port]` (the port
    defaults to 443 for `https://` and whenever TLS is on, else to 80 for `http://`, as in
    the Rust and TypeScript SDKs); `https://` or a `tls` option other than None/False turns TLS
    on.
    """
    target = address.strip()
    secure = False
    default_port: str | None = None
    if target.startswith("https://"):
        secure, target, default_port = True, target[len("https://") :], "443"
    elif target.startswith("http://"):
        tls_on = tls is not None and tls is not False
        target, default_port = target[len("http://") :], "443" if tls_on else "80"
    target = target.rstrip("/")
    host, sep, port = target.rpartition(":")
    if default_port is not None and target and not _has_port(target):
        host, sep, port = target, ":", default_port
        target = f"{host}:{port}"
    if not sep or not host or not port.isdigit() or "/" in target:
        raise InvalidRequest(
            grpc.StatusCode.INVALID_ARGUMENT,
            "INVALID_REQUEST",
            {},
            f"bad server address {address!r}: expected host:port, http://host[:port] "
            "or https://host[:port]",
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


def _has_port(target: str) -> bool:
    """Whether `host[:port]` names a port (an IPv6 host is bracketed: `[::1]:50051`)."""
    return target.rpartition("]")[2].rfind(":") >= 0
