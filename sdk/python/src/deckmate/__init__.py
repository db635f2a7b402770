"""Python client for the Deckmate game server, synchronous (`Client`) and asyncio (`AsyncClient`).

Connect a client, create a game and hand each seat handle to its player; anyone can follow a
game as a spectator. Every failure raises a `DeckmateError` whose subclass names the server's
stable error reason.

>>> from deckmate import ActOptions, Client, pb
>>> with Client.connect("127.0.0.1:50051") as client:  # doctest: +SKIP
...     game = client.create_game(pb.GameConfig(pigeon_chess=pb.PigeonChessConfig()), 2)
...     seat = game.seat(0)
...     view = seat.observe()
...     if view.legal_actions:
...         seat.act_with(view.legal_actions[0], ActOptions.expecting(view.version))
"""

from deckmate import pb
from deckmate.actions import meta_action
from deckmate.aio import AsyncClient, AsyncSeatHandle, AsyncSpectator
from deckmate.client import Client, SeatHandle, Spectator
from deckmate.errors import (
    BadApiKey,
    BadToken,
    DeckmateError,
    GameLost,
    GameNotFound,
    GameOver,
    IllegalAction,
    Internal,
    InvalidRequest,
    LimitReached,
    NotYourTurn,
    Overloaded,
    RequestIdReused,
    ShuttingDown,
    StaleVersion,
    StoreUnavailable,
    TransportError,
)
from deckmate.game import Game
from deckmate.keepalive import Keepalive
from deckmate.options import ActOptions, CreateOptions, action_clock, fischer_clock
from deckmate.request_id import new_request_id
from deckmate.retry import RetryPolicy
from deckmate.tls import TlsOptions

__all__ = [
    "ActOptions",
    "AsyncClient",
    "AsyncSeatHandle",
    "AsyncSpectator",
    "BadApiKey",
    "BadToken",
    "Client",
    "CreateOptions",
    "DeckmateError",
    "Game",
    "GameLost",
    "GameNotFound",
    "GameOver",
    "IllegalAction",
    "Internal",
    "InvalidRequest",
    "Keepalive",
    "LimitReached",
    "NotYourTurn",
    "Overloaded",
    "RequestIdReused",
    "RetryPolicy",
    "SeatHandle",
    "ShuttingDown",
    "Spectator",
    "StaleVersion",
    "StoreUnavailable",
    "TlsOptions",
    "TransportError",
    "action_clock",
    "fischer_clock",
    "meta_action",
    "new_request_id",
    "pb",
]
