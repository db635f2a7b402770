"""GetHistory in pages: `history()` joins every page, `history_page()` reads one."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import grpc
import pytest
from conftest import QUICK_RETRY
from games import SEED, config_of, play_to_end
from scripted import ScriptedServer, start

from deckmate import AsyncClient, Client, CreateOptions, pb

FINISHED = pb.GAME_STATUS_FINISHED
RUNNING = pb.GAME_STATUS_IN_PROGRESS


def scripted_page(
    version: int, status: int, versions: range, next_token: str
) -> pb.GetHistoryResponse:
    """A page of a game at `version`: one event per version in `versions`, and the actions
    once finished."""
    finished = status == FINISHED
    return pb.GetHistoryResponse(
        game_id="g-1",
        variant="pigeon_chess",
        seats=2,
        version=version,
        status=status,  # type: ignore[arg-type]
        events=[pb.Event(version=v) for v in versions],
        actions=[pb.HistoryAction(version=v, seat=v % 2) for v in versions if v > 0 and finished],
        seed=b"s" * 32 if finished else b"",
        seed_commitment=b"c" * 32,
        next_page_token=next_token,
    )


def paged_history(pages: Callable[[int], dict[str, pb.GetHistoryResponse]]) -> ScriptedServer:
    """A server answering GetHistory with the page its token names ('' for the first); the
    pages may depend on how many calls came before."""
    count = [0]

    def handle(request: bytes, context: grpc.ServicerContext) -> bytes:
        token = pb.GetHistoryRequest.FromString(request).page_token
        answer = pages(count[0])[token]
        count[0] += 1
        return answer.SerializeToString()

    return start({"GetHistory": handle})


def finished_in_three_pages(_calls: int) -> dict[str, pb.GetHistoryResponse]:
    return {
        "": scripted_page(5, FINISHED, range(0, 2), "t2"),
        "t2": scripted_page(5, FINISHED, range(2, 4), "t3"),
        "t3": scripted_page(5, FINISHED, range(4, 6), ""),
    }


@pytest.fixture
def three_pages() -> Iterator[ScriptedServer]:
    server = paged_history(finished_in_three_pages)
    yield server
    server.stop()


def check_joined(history: pb.GetHistoryResponse) -> None:
    assert [event.version for event in history.events] == [0, 1, 2, 3, 4, 5]
    assert [action.version for action in history.actions] == [1, 2, 3, 4, 5]
    assert history.version == 5
    assert history.status == FINISHED
    assert history.seed == b"s" * 32
    assert history.next_page_token == ""


def page_tokens(server: ScriptedServer) -> list[str]:
    return [pb.GetHistoryRequest.FromString(r).page_token for r in server.requests("GetHistory")]


def test_history_follows_every_page(three_pages: ScriptedServer) -> None:
    with Client.connect(three_pages.addr, retry=QUICK_RETRY) as client:
        check_joined(client.spectate("g-1").history())
    assert page_tokens(three_pages) == ["", "t2", "t3"]


async def test_async_history_follows_every_page(three_pages: ScriptedServer) -> None:
    client = await AsyncClient.connect(three_pages.addr, retry=QUICK_RETRY)
    try:
        check_joined(await client.spectate("g-1").history())
    finally:
        await client.close()
    assert page_tokens(three_pages) == ["", "t2", "t3"]


def test_history_page_sends_the_paging_fields(three_pages: ScriptedServer) -> None:
    with Client.connect(three_pages.addr, retry=QUICK_RETRY) as client:
        page = client.spectate("g-1").history_page(from_version=3, page_size=2, page_token="t2")
    assert [event.version for event in page.events] == [2, 3]
    assert page.next_page_token == "t3"
    [request] = three_pages.requests("GetHistory")
    sent = pb.GetHistoryRequest.FromString(request)
    assert (sent.game_id, sent.from_version, sent.page_size, sent.page_token) == (
        "g-1",
        3,
        2,
        "t2",
    )


def finishing_after_the_first_page(calls: int) -> dict[str, pb.GetHistoryResponse]:
    """The first page of a running game, then a finished game's three pages."""
    if calls == 0:
        return {"": scripted_page(4, RUNNING, range(0, 2), "t2")}
    return finished_in_three_pages(calls)


def test_a_game_finishing_between_pages_is_read_again() -> None:
    server = paged_history(finishing_after_the_first_page)
    try:
        with Client.connect(server.addr, retry=QUICK_RETRY) as client:
            check_joined(client.spectate("g-1").history())
    finally:
        server.stop()
    assert page_tokens(server) == ["", "t2", "t3", "", "t2", "t3"]


async def test_async_a_game_finishing_between_pages_is_read_again() -> None:
    server = paged_history(finishing_after_the_first_page)
    try:
        client = await AsyncClient.connect(server.addr, retry=QUICK_RETRY)
        try:
            check_joined(await client.spectate("g-1").history())
        finally:
            await client.close()
    finally:
        server.stop()
    assert page_tokens(server) == ["", "t2", "t3", "", "t2", "t3"]


def test_a_finished_game_in_pages_of_seven_is_its_history(client: Client) -> None:
    game = client.create_game(config_of("chuno"), 0, CreateOptions(seed=SEED))
    final = play_to_end(game)
    whole = game.seat(0).history()
    assert whole.version == final.version
    assert whole.next_page_token == ""
    spectator = client.spectate(game.id)
    events: list[pb.Event] = []
    actions: list[pb.HistoryAction] = []
    page = spectator.history_page(page_size=7)
    pages = 1
    while True:
        events.extend(page.events)
        actions.extend(page.actions)
        assert page.version == whole.version and page.seed == whole.seed
        if not page.next_page_token:
            break
        page = spectator.history_page(page_size=7, page_token=page.next_page_token)
        pages += 1
    assert pages == (final.version + 1 + 6) // 7
    assert events == list(whole.events)
    assert actions == list(whole.actions)
