"""The synchronous client: `Client`, `SeatHandle` and `Spectator`."""

from __future__ import annotations

import time
from collections.abc import Generator
from typing import TypeVar

import grpc

from deckmate import pb
from deckmate._calls import (
    Credentials,
    WatchCursor,
    act_request,
    create_game_request,
    history_page_request,
    joined_history,
)
from deckmate._generated.v1.game_service_pb2_grpc import GameServiceStub
from deckmate.actions import meta_action
from deckmate.errors import DeckmateError, error_from_rpc
from deckmate.game import Game
from deckmate.keepalive import Keepalive
from deckmate.options import ActOptions, CreateOptions
from deckmate.retry import RetryPolicy
from deckmate.tls import TlsOptions, parse_endpoint

RequestT = TypeVar("RequestT")
ResponseT = TypeVar("ResponseT")


class _Rpc:
    """The connection a client shares with its handles: stub, retry policy, API key, timeout."""

    def __init__(
        self,
        channel: grpc.Channel,
        retry: RetryPolicy,
        api_key: str | None,
        timeout: float | None = None,
    ) -> None:
        self.channel = channel
        self.timeout = timeout
        self.stub = GameServiceStub(channel)
        self.retry = retry
        self.api_key = api_key

    def unary(
        self,
        method: grpc.UnaryUnaryMultiCallable[RequestT, ResponseT],
        request: RequestT,
        token: str | None,
        retryable: bool = True,
        request_id: str = "",
    ) -> ResponseT:
        """Call `method`, repeating it after temporary failures when `retryable`.

        A failure raised carries `request_id`, the id the request was sent with (if any).
        """
        metadata = Credentials(self.api_key, token).metadata()
        failures = 0
        while True:
            try:
                return method(request, metadata=metadata, timeout=self.timeout)
            except grpc.RpcError as raised:
                error = error_from_rpc(raised)
            failures += 1
            pause = self.retry.pause_before_retry(failures, error) if retryable else None
            if pause is None:
                error.request_id = request_id
                raise error from None
            time.sleep(pause)

    def watch(
        self, game_id: str, token: str | None, from_version: int
    ) -> Generator[pb.ObserveResponse, None, None]:
        """Yield every version after `from_version`, reconnecting after temporary failures."""
        metadata = Credentials(self.api_key, token).metadata()
        cursor = WatchCursor(from_version, self.retry)
        while True:
            error: DeckmateError
            call = self.stub.Watch(cursor.request(game_id), metadata=metadata)
            try:
                for observation in call:
                    if cursor.accept(observation):
                        yield observation
                return
            except grpc.RpcError as raised:
                error = error_from_rpc(raised)
            finally:
                call.cancel()
            pause = cursor.pause_after(error)
            if pause is None:
                raise error
            time.sleep(pause)


class _Viewer:
    """One game as one viewer sees it: a seat (with its token) or a spectator."""

    def __init__(self, rpc: _Rpc, game_id: str, token: str | None) -> None:
        self._rpc = rpc
        self._game_id = game_id
        self._token = token

    @property
    def game_id(self) -> str:
        """The game's id."""
        return self._game_id

    def observe(self) -> pb.ObserveResponse:
        """Return the game as this viewer sees it now."""
        request = pb.ObserveRequest(game_id=self._game_id)
        return self._rpc.unary(self._rpc.stub.Observe, request, self._token)

    def watch(self, from_version: int = 0) -> Generator[pb.ObserveResponse, None, None]:
        """Yield every version after `from_version` as this viewer sees it, in order, each once.

        The iterator ends after the game's final version. After a temporary failure it
        reconnects and resumes from the last version it delivered, within the retry policy
        (failures are counted since the last delivered item). To stop watching earlier, close
        it (`close()`, or `contextlib.closing`): leaving a loop with `break` does not end the
        call until the generator is garbage-collected.
        """
        return self._rpc.watch(self._game_id, self._token, from_version)

    def history(self) -> pb.GetHistoryResponse:
        """Return the event log as this viewer may know it (complete once the game finished).

        Reads every page of GetHistory (see `history_page`) and returns them joined: every
        event and action, with the fields of the last page (version, status, seed).
        """
        while True:
            first = self.history_page()
            if not first.next_page_token:
                return first
            pages = [first]
            while pages[-1].next_page_token:
                pages.append(self.history_page(page_token=pages[-1].next_page_token))
            joined = joined_history(pages)
            if joined is not None:
                return joined

    def history_page(
        self, from_version: int = 0, page_size: int = 0, page_token: str = ""
    ) -> pb.GetHistoryResponse:
        """Return one page of GetHistory.

        A page covers `page_size` versions (0 for the server's default of 1000, its most) from
        `from_version`, or from where `page_token` (the previous page's `next_page_token`)
        says. The last page has an empty `next_page_token`.
        """
        request = history_page_request(self._game_id, from_version, page_size, page_token)
        return self._rpc.unary(self._rpc.stub.GetHistory, request, self._token)


class Spectator(_Viewer):
    """A game seen without a seat token: observe, watch and read its history."""

    def __init__(self, rpc: _Rpc, game_id: str) -> None:
        super().__init__(rpc, game_id, None)

    def __repr__(self) -> str:
        return f"Spectator(game_id={self.game_id!r})"


class SeatHandle(_Viewer):
    """One seat of one game; every call sends its token as `authorization: Bearer <token>`.

    `repr()` never shows the token.
    """

    def __init__(self, rpc: _Rpc, game_id: str, seat: int, token: str) -> None:
        super().__init__(rpc, game_id, token)
        self._seat = seat

    @property
    def seat(self) -> int:
        """The seat index, 0-based."""
        return self._seat

    @property
    def token(self) -> str:
        """The secret seat token, to reconnect later with `Client.seat`; never log it."""
        return self._token or ""

    def legal_actions(self) -> list[pb.Action]:
        """Observe and return the game actions this seat may take now (meta actions apart)."""
        return list(self.observe().legal_actions)

    def act(self, action: pb.Action) -> pb.ActResponse:
        """Send one action with a fresh request id and no version check."""
        return self.act_with(action, ActOptions())

    def act_with(self, action: pb.Action, options: ActOptions) -> pb.ActResponse:
        """Send one action with options: an expected version and/or a chosen request id.

        An error raised carries the request id sent as `request_id`: repeat the action with
        `ActOptions(request_id=error.request_id)` after a `DEADLINE_EXCEEDED` or a final
        `TransportError` and the server applies it at most once.
        """
        request, retryable = act_request(self._game_id, action, options)
        rpc = self._rpc
        return rpc.unary(rpc.stub.Act, request, self._token, retryable, request.request_id)

    def resign(self) -> pb.ActResponse:
        """Give up; in a two-player game the opponent wins."""
        return self.act(meta_action(pb.META_ACTION_KIND_RESIGN))

    def offer_draw(self) -> pb.ActResponse:
        """Offer the opponent a draw."""
        return self.act(meta_action(pb.META_ACTION_KIND_OFFER_DRAW))

    def accept_draw(self) -> pb.ActResponse:
        """Accept the opponent's pending draw offer; the game ends drawn."""
        return self.act(meta_action(pb.META_ACTION_KIND_ACCEPT_DRAW))

    def decline_draw(self) -> pb.ActResponse:
        """Decline the opponent's pending draw offer."""
        return self.act(meta_action(pb.META_ACTION_KIND_DECLINE_DRAW))

    def __repr__(self) -> str:
        return f"SeatHandle(game_id={self.game_id!r}, seat={self._seat}, token=<redacted>)"


class Client:
    """A synchronous connection to a Deckmate server; close it (or use `with`) when done."""

    def __init__(self, address: str, rpc: _Rpc) -> None:
        """Wrap an open connection; use `Client.connect` instead."""
        self._address = address
        self._rpc = rpc

    @classmethod
    def connect(
        cls,
        address: str,
        *,
        api_key: str | None = None,
        tls: bool | TlsOptions | None = None,
        retry: RetryPolicy = RetryPolicy(),
        keepalive: Keepalive = Keepalive(),
        timeout: float | None = None,
    ) -> Client:
        """Connect to `address` (`host:port`, `http://host:port` or `https://host:port`).

        `api_key` is sent as `x-api-key` on every call; `tls` turns TLS on (True for the system
        roots, or `TlsOptions` with a CA bundle and server name), as does `https://`; `retry`
        governs retries of calls safe to repeat (default `RetryPolicy()`); `keepalive` sets the
        pings that find a connection that died silently (default `Keepalive()`); `timeout`, in
        seconds, bounds each attempt of every call but `watch` (past it the attempt fails with
        DEADLINE_EXCEEDED; unset, calls wait as long as the connection lives). The connection is
        made lazily: an unreachable server shows as `TransportError` on the first call.
        """
        endpoint = parse_endpoint(address, tls)
        options = endpoint.options + keepalive.channel_options()
        if endpoint.credentials is None:
            channel = grpc.insecure_channel(endpoint.target, options=options)
        else:
            channel = grpc.secure_channel(endpoint.target, endpoint.credentials, options=options)
        return cls(address, _Rpc(channel, retry, api_key, timeout))

    def close(self) -> None:
        """Close the connection; handles made from this client stop working."""
        self._rpc.channel.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def list_variants(self) -> list[pb.Variant]:
        """Return the hosted games: seat counts, default configs and rule summaries."""
        response = self._rpc.unary(self._rpc.stub.ListVariants, pb.ListVariantsRequest(), None)
        return list(response.variants)

    def server_info(self) -> pb.GetServerInfoResponse:
        """Return what the server says about itself: release, API revision, features, limits.

        Needs no API key or token; retried like every read. A server older than this call
        answers UNIMPLEMENTED (a plain `DeckmateError`).
        """
        return self._rpc.unary(self._rpc.stub.GetServerInfo, pb.GetServerInfoRequest(), None)

    def create_game(
        self, config: pb.GameConfig, seats: int = 0, options: CreateOptions = CreateOptions()
    ) -> Game[SeatHandle]:
        """Create a game of the kind `config` names with `seats` seats (0: the smallest count).

        Without a caller-chosen request id, temporary failures are retried with the same id,
        so at most one game is created. An error raised carries the request id sent as
        `request_id`, to repeat the call with `CreateOptions(request_id=error.request_id)`.
        """
        request, retryable = create_game_request(config, seats, options)
        rpc = self._rpc
        response = rpc.unary(rpc.stub.CreateGame, request, None, retryable, request.request_id)
        return Game(
            id=response.game_id,
            variant=response.variant,
            seats=[self.seat(response.game_id, t.seat, t.token) for t in response.seat_tokens],
            seed_commitment=response.seed_commitment,
            version=response.version,
        )

    def seat(self, game_id: str, seat: int, token: str) -> SeatHandle:
        """Return a handle for a seat whose token was kept from `create_game`."""
        return SeatHandle(self._rpc, game_id, seat, token)

    def spectate(self, game_id: str) -> Spectator:
        """Return a spectator of `game_id`: observe, watch and history without a token."""
        return Spectator(self._rpc, game_id)

    def __repr__(self) -> str:
        return f"Client(address={self._address!r})"
