"""What the sync and asyncio clients share: request building, call metadata, retry rules."""

from __future__ import annotations

from dataclasses import dataclass

from deckmate import pb
from deckmate.errors import DeckmateError
from deckmate.options import ActOptions, CreateOptions
from deckmate.request_id import new_request_id
from deckmate.retry import RetryPolicy

#: Call metadata as grpc takes it.
Metadata = tuple[tuple[str, str], ...]


def call_metadata(api_key: str | None, token: str | None) -> Metadata:
    """Return the metadata of one call: the API key and, for a seat, its bearer token."""
    items: list[tuple[str, str]] = []
    if api_key is not None:
        items.append(("x-api-key", api_key))
    if token is not None:
        items.append(("authorization", f"Bearer {token}"))
    return tuple(items)


def create_game_request(
    config: pb.GameConfig, seats: int, options: CreateOptions
) -> tuple[pb.CreateGameRequest, bool]:
    """Return the CreateGame request and whether it may be retried (the id is the client's)."""
    request = pb.CreateGameRequest(
        config=config,
        seats=seats,
        request_id=options.request_id or new_request_id(),
        spectator_policy=options.spectator_policy,
        seat_options=[pb.SeatOptions(seat=seat, bot=level) for seat, level in options.bots],
    )
    if options.seed is not None:
        request.seed = options.seed
    if options.clock is not None:
        request.clock.CopyFrom(options.clock)
    return request, not options.request_id


def act_request(game_id: str, action: pb.Action, options: ActOptions) -> tuple[pb.ActRequest, bool]:
    """Return the Act request and whether it may be retried (the id is the client's)."""
    request = pb.ActRequest(
        game_id=game_id,
        action=action,
        request_id=options.request_id or new_request_id(),
    )
    if options.expected_version is not None:
        request.expected_version = options.expected_version
    return request, not options.request_id


def history_page_request(
    game_id: str, from_version: int, page_size: int, page_token: str
) -> pb.GetHistoryRequest:
    """Return the GetHistory request of one page (see the clients' `history_page`)."""
    return pb.GetHistoryRequest(
        game_id=game_id,
        from_version=from_version,
        page_size=page_size,
        page_token=page_token,
    )


def joined_history(pages: list[pb.GetHistoryResponse]) -> pb.GetHistoryResponse | None:
    """Return the pages of one history as one response, with the last page's other fields.

    None when the game finished while its pages were read: the first pages were then projected
    for a running game and have no actions. Finished is final, so reading again is consistent.
    """
    if pages[0].status != pb.GAME_STATUS_FINISHED == pages[-1].status:
        return None
    joined = pb.GetHistoryResponse()
    joined.CopyFrom(pages[-1])
    joined.ClearField("events")
    joined.ClearField("actions")
    for page in pages:
        joined.events.extend(page.events)
        joined.actions.extend(page.actions)
    return joined


class WatchCursor:
    """Where a resuming watch stands: the last delivered version and failures since then."""

    def __init__(self, from_version: int, policy: RetryPolicy) -> None:
        self.last_version = from_version
        self.failures = 0
        self._policy = policy

    def request(self, game_id: str) -> pb.WatchRequest:
        """Return the Watch request that resumes after the last delivered version."""
        return pb.WatchRequest(game_id=game_id, from_version=self.last_version)

    def accept(self, observation: pb.ObserveResponse) -> bool:
        """Record an arrived observation; False when it was already delivered (skip it)."""
        if observation.version <= self.last_version:
            return False
        self.last_version = observation.version
        self.failures = 0
        return True

    def pause_after(self, error: DeckmateError) -> float | None:
        """Count a failure; return the pause before reconnecting, or None to give up."""
        self.failures += 1
        return self._policy.pause_before_retry(self.failures, error)


@dataclass(frozen=True)
class Credentials:
    """What identifies the caller on every call: the client's API key and the seat token."""

    api_key: str | None
    token: str | None

    def metadata(self) -> Metadata:
        """Return the call metadata for these credentials."""
        return call_metadata(self.api_key, self.token)
