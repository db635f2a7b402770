"""Every game played to the end through the synchronous client."""

from __future__ import annotations

import contextlib

import pytest
from games import SEED, VARIANTS, check_finished, config_of, play_to_end

from deckmate import Client, CreateOptions, pb


def test_list_variants_names_every_game_with_its_default_config(client: Client) -> None:
    variants = client.list_variants()
    assert sorted(v.id for v in variants) == sorted(VARIANTS)
    for variant in variants:
        assert variant.default_config.WhichOneof("game") == variant.id
        assert 1 <= variant.min_seats <= variant.max_seats


@pytest.mark.parametrize("variant", VARIANTS)
def test_plays_to_the_end(client: Client, variant: str) -> None:
    game = client.create_game(config_of(variant), 0, CreateOptions(seed=SEED))
    assert game.variant == variant
    assert game.version == 0
    assert [seat.seat for seat in game.seats] == list(range(len(game.seats)))
    assert len(game.seed_commitment) == 32

    final = play_to_end(game)
    history = game.seat(0).history()
    check_finished(final, history, game.seed_commitment)

    # A spectator watching from 0 afterwards sees every version once, in order, then the end.
    versions = [view.version for view in client.spectate(game.id).watch(0)]
    assert versions == list(range(1, final.version + 1))


def test_same_seed_replays_the_same_game(client: Client) -> None:
    first = client.create_game(config_of("chuno"), 0, CreateOptions(seed=11))
    second = client.create_game(config_of("chuno"), 0, CreateOptions(seed=11))
    assert first.id != second.id
    assert first.seed_commitment == second.seed_commitment
    assert play_to_end(first, 3).version == play_to_end(second, 3).version


def test_a_watch_closed_early_ends(client: Client) -> None:
    game = client.create_game(config_of("pigeon_chess"), 2, CreateOptions(seed=SEED))
    with contextlib.closing(client.spectate(game.id).watch(0)) as views:
        game.seat(0).act(game.seat(0).legal_actions()[0])
        assert next(views).version == 1
    # Closed while the game goes on: the generator is done, and so is its call.
    with pytest.raises(StopIteration):
        next(views)


def test_draw_offer_accepted_ends_drawn(client: Client) -> None:
    game = client.create_game(config_of("pigeon_chess"), 2, CreateOptions(seed=SEED))
    game.seat(0).offer_draw()
    assert game.seat(1).observe().draw_offered_by == 0
    response = game.seat(1).accept_draw()
    outcome = response.observation.outcome
    assert response.observation.status == pb.GAME_STATUS_FINISHED
    assert outcome.draw and outcome.reason == pb.END_REASON_DRAW_AGREED


def test_declined_draw_and_resignation(client: Client) -> None:
    game = client.create_game(config_of("card_chess"), 2, CreateOptions(seed=SEED))
    game.seat(1).offer_draw()
    declined = game.seat(0).decline_draw()
    assert not declined.observation.HasField("draw_offered_by")
    resigned = game.seat(0).resign()
    assert resigned.observation.status == pb.GAME_STATUS_FINISHED
    assert list(resigned.observation.outcome.winners) == [1]
    assert resigned.observation.outcome.reason == pb.END_REASON_RESIGNATION


def test_seat_rebuilt_from_its_token_acts_for_that_seat(client: Client) -> None:
    game = client.create_game(config_of("pigeon_chess"), 2, CreateOptions(seed=SEED))
    original = game.seat(1)
    again = client.seat(game.id, 1, original.token)
    assert again.observe().seat == 1
    assert again.legal_actions() == original.legal_actions()


def test_legal_actions_are_game_actions_only(client: Client) -> None:
    game = client.create_game(config_of("chuno"), 2, CreateOptions(seed=SEED))
    seat = game.seat(0)
    actions = seat.legal_actions()
    assert actions
    assert all(action.WhichOneof("kind") == "chuno" for action in actions)
    meta = {m.kind for m in seat.observe().meta_actions}
    assert pb.META_ACTION_KIND_RESIGN in meta
