//! Check 9: meta actions through the table. Resignation ends the game for the other seat; an
//! offered draw is accepted (a draw by agreement) or declined; nothing is accepted after the end.
//! Under the latest edition (docs/rules/conventions.md §4) each seat offers at most once per
//! turn, a declined offer may be renewed on a later turn, and only a game action of the
//! offered-to seat that answers offers ([`Game::answers_draw_offer`]) declines it; under the
//! first edition the offerer may not offer again until it has taken a game action, and any game
//! action of the offered-to seat declines the offer. Always: `meta_actions` lists exactly what `apply` accepts; the
//! game's reaction to a meta action (`Game::before_meta_action`) is its only effect on the game
//! state besides resigning. Also the bookkeeping every applied action must show
//! ([`check_transition`]).

use deckmate_engine::{
    Edition, EndReason, Game, MetaAction, MetaEvent, Outcome, Seat, SeatSet, Table, TableAction,
    TableEvent,
};
use rand::Rng;
use rand::seq::IndexedRandom;

use super::budget::Budget;
use super::context::Ctx;
use super::legality::{Expected, expect_rejected};
use super::stats::Stats;
use super::turn::seats;

/// Every meta action.
pub(crate) const ALL_META: [MetaAction; 4] = [
    MetaAction::Resign,
    MetaAction::OfferDraw,
    MetaAction::AcceptDraw,
    MetaAction::DeclineDraw,
];

/// What every accepted action must show, whoever took it: the end is announced exactly once, as
/// the last event, with the table's outcome; a game action of the offered-to seat declines a
/// standing offer and blocks the offerer; a seat that took a game action may offer again.
pub(crate) fn check_transition<G: Game>(
    ctx: &Ctx,
    before: &Table<G>,
    seat: Seat,
    action: &TableAction<G::Action>,
    after: &Table<G>,
    events: &[TableEvent<G::Event>],
) {
    let ended: Vec<&Outcome> = events
        .iter()
        .filter_map(|event| match event {
            TableEvent::Ended(outcome) => Some(outcome),
            _ => None,
        })
        .collect();
    if after.is_over() {
        let outcome = after.outcome();
        assert!(
            ended.len() == 1 && matches!(events.last(), Some(TableEvent::Ended(_))),
            "{ctx}: {action:?} of {seat} ended the game but its events {events:?} do not end \
             with exactly one Ended"
        );
        assert_eq!(
            Some(ended[0]),
            outcome.as_ref(),
            "{ctx}: the Ended event is not the outcome"
        );
        assert_eq!(
            after.draw_offer(),
            None,
            "{ctx}: a draw offer outlived the end"
        );
    } else {
        assert!(
            ended.is_empty(),
            "{ctx}: {action:?} of {seat} announced an end {ended:?} but the game goes on"
        );
    }

    let declined_by = |who: Seat| {
        events
            .iter()
            .any(|event| *event == TableEvent::Meta(MetaEvent::DrawDeclined(who)))
    };
    if let TableAction::Game(game_action) = action {
        let meta_events: Vec<&TableEvent<G::Event>> = events
            .iter()
            .filter(|event| matches!(event, TableEvent::Meta(_)))
            .collect();
        let latest = before.edition().has(Edition::SECOND);
        let answers = !latest || G::answers_draw_offer(game_action);
        let (turn_before, turn_after) = (
            G::turn_number(before.state()),
            G::turn_number(after.state()),
        );
        if latest {
            assert!(
                turn_after >= turn_before,
                "{ctx}: {action:?} of {seat} took the turn number back from {turn_before} to \
                 {turn_after}"
            );
        }
        match before.draw_offer() {
            Some(offerer) if offerer != seat && answers => {
                assert_eq!(
                    after.draw_offer(),
                    None,
                    "{ctx}: {seat} played on but the offer of {offerer} still stands"
                );
                assert!(
                    declined_by(seat) && meta_events.len() == 1,
                    "{ctx}: {seat} played on against an offer but the events are {events:?}"
                );
                if !after.is_over() && !latest {
                    assert!(
                        !after.meta_actions(offerer).contains(&MetaAction::OfferDraw),
                        "{ctx}: {offerer} may offer again right after its offer was declined"
                    );
                }
            }
            offer => {
                assert!(
                    meta_events.is_empty(),
                    "{ctx}: a game action of {seat} gave meta events {meta_events:?}"
                );
                if !after.is_over() {
                    assert_eq!(
                        after.draw_offer(),
                        offer,
                        "{ctx}: a game action of {seat} changed the draw offer"
                    );
                }
            }
        }
        if !after.is_over() && after.seat_count() == 2 && after.draw_offer().is_none() {
            if !latest {
                assert!(
                    after.meta_actions(seat).contains(&MetaAction::OfferDraw),
                    "{ctx}: {seat} took a game action but may not offer a draw"
                );
            } else if turn_after != turn_before {
                for anyone in seats(2) {
                    assert!(
                        after.meta_actions(anyone).contains(&MetaAction::OfferDraw),
                        "{ctx}: a new turn began but {anyone} may not offer a draw"
                    );
                }
            }
        }
    }
}

/// `meta_actions` lists exactly what `apply` accepts, for every seat and meta action, and each
/// accepted one has its effect. Runs on clones at every ply.
pub(crate) fn check_listing<G: Game>(ctx: &Ctx, table: &Table<G>, bytes: &[u8], stats: &mut Stats) {
    let over = table.is_over();
    let n = table.seat_count();
    for seat in seats(n) {
        let listed = table.meta_actions(seat);
        let distinct: Vec<MetaAction> = ALL_META
            .into_iter()
            .filter(|meta| listed.contains(meta))
            .collect();
        assert_eq!(
            distinct.len(),
            listed.len(),
            "{ctx}: meta actions {listed:?} of {seat} repeat"
        );
        if !over {
            assert!(
                listed.contains(&MetaAction::Resign),
                "{ctx}: {seat} may not resign in a running game"
            );
            if n != 2 {
                assert_eq!(
                    listed,
                    vec![MetaAction::Resign],
                    "{ctx}: draw offers are for two-seat games only"
                );
            }
        }
        for meta in ALL_META {
            let action = TableAction::Meta(meta);
            if listed.contains(&meta) {
                let mut after = table.clone();
                let events = after.apply(seat, &action).unwrap_or_else(|error| {
                    panic!("{ctx}: listed meta action {meta:?} of {seat} was rejected: {error}")
                });
                check_transition(ctx, table, seat, &action, &after, &events);
                check_effect(ctx, table, seat, meta, &after, &events);
                stats.meta(meta_name(meta));
            } else {
                let expected = if over {
                    Expected::GameOver
                } else {
                    Expected::Illegal
                };
                expect_rejected(ctx, table, bytes, seat, &action, expected);
            }
        }
    }
    let outsider = Seat(n as u8);
    let expected = if over {
        Expected::GameOver
    } else {
        Expected::NotYourTurn
    };
    for meta in ALL_META {
        expect_rejected(
            ctx,
            table,
            bytes,
            outsider,
            &TableAction::Meta(meta),
            expected,
        );
    }
}

/// The statistics name of an accepted meta action.
fn meta_name(meta: MetaAction) -> &'static str {
    match meta {
        MetaAction::Resign => "resign",
        MetaAction::OfferDraw => "offer",
        MetaAction::AcceptDraw => "accept",
        MetaAction::DeclineDraw => "decline",
    }
}

/// The effect of one accepted meta action of `seat`, from `before` to `after`.
fn check_effect<G: Game>(
    ctx: &Ctx,
    before: &Table<G>,
    seat: Seat,
    meta: MetaAction,
    after: &Table<G>,
    events: &[TableEvent<G::Event>],
) {
    let n = before.seat_count();
    // The game's reaction (`Game::before_meta_action`) comes first: its events lead, and it is
    // the only change a meta action other than resigning may make to the game state.
    let mut reacted = before.state().clone();
    let reaction: Vec<TableEvent<G::Event>> = G::before_meta_action(&mut reacted, seat, meta)
        .into_iter()
        .map(TableEvent::Game)
        .collect();
    assert!(
        events.starts_with(&reaction),
        "{ctx}: the events {events:?} of {meta:?} of {seat} do not start with the game's \
         reaction {reaction:?}"
    );
    let events = &events[reaction.len()..];
    if meta != MetaAction::Resign {
        assert!(
            *after.state() == reacted,
            "{ctx}: {meta:?} of {seat} changed the game state beyond the game's reaction"
        );
        assert_eq!(
            G::turn_number(after.state()),
            G::turn_number(before.state()),
            "{ctx}: {meta:?} of {seat} began a new turn"
        );
    }
    match meta {
        MetaAction::Resign => {
            assert_eq!(
                events.first(),
                Some(&TableEvent::Meta(MetaEvent::Resigned(seat))),
                "{ctx}: the resignation of {seat} is not announced first"
            );
            if n == 2 {
                let outcome = after.outcome();
                assert!(
                    outcome.as_ref().is_some_and(|outcome| {
                        outcome.winners == SeatSet::only(seat.opponent())
                            && outcome.reason == EndReason::Resignation
                    }),
                    "{ctx}: {seat} resigned but the outcome is {outcome:?}"
                );
            } else if let Some(outcome) = after.outcome() {
                assert!(
                    !outcome.winners.contains(seat),
                    "{ctx}: {seat} resigned and won: {outcome:?}"
                );
            } else {
                assert!(
                    !after.to_act().contains(seat) && after.legal_actions(seat).is_empty(),
                    "{ctx}: {seat} resigned but may still act"
                );
            }
        }
        MetaAction::OfferDraw => {
            let other = seat.opponent();
            assert_eq!(
                events,
                [TableEvent::Meta(MetaEvent::DrawOffered(seat))],
                "{ctx}: offer events of {seat}"
            );
            assert_eq!(after.draw_offer(), Some(seat), "{ctx}: the offer of {seat}");
            assert!(!after.is_over(), "{ctx}: an offer ended the game");
            assert_eq!(
                after.meta_actions(seat),
                vec![MetaAction::Resign],
                "{ctx}: {seat} has an offer standing and may only resign"
            );
            assert_eq!(
                after.meta_actions(other),
                vec![
                    MetaAction::Resign,
                    MetaAction::AcceptDraw,
                    MetaAction::DeclineDraw
                ],
                "{ctx}: {other} must be able to answer the offer of {seat}"
            );
            assert_eq!(
                after.to_act(),
                G::to_act(&reacted),
                "{ctx}: an offer moved the turn"
            );
        }
        MetaAction::AcceptDraw => {
            let offerer = before.draw_offer();
            assert!(
                offerer.is_some_and(|offerer| offerer != seat),
                "{ctx}: {seat} accepted the offer of {offerer:?}"
            );
            let outcome = Outcome::draw(EndReason::DrawAgreed);
            assert_eq!(after.outcome(), Some(outcome.clone()), "{ctx}: agreed draw");
            assert_eq!(
                events,
                [
                    TableEvent::Meta(MetaEvent::DrawAccepted(seat)),
                    TableEvent::Ended(outcome)
                ],
                "{ctx}: accept events of {seat}"
            );
        }
        MetaAction::DeclineDraw => {
            let offerer = before
                .draw_offer()
                .filter(|offerer| *offerer != seat)
                .unwrap_or_else(|| panic!("{ctx}: {seat} declined without an offer to it"));
            assert_eq!(
                events,
                [TableEvent::Meta(MetaEvent::DrawDeclined(seat))],
                "{ctx}: decline events of {seat}"
            );
            assert_eq!(after.draw_offer(), None, "{ctx}: a declined offer stands");
            // Latest edition: an offer made in an earlier turn may be renewed now; the
            // same-turn case is checked by `check_offers_per_turn`.
            if !before.edition().has(Edition::SECOND) {
                assert!(
                    !after.meta_actions(offerer).contains(&MetaAction::OfferDraw),
                    "{ctx}: {offerer} may offer again right after a decline"
                );
                let bytes = super::serialization::table_bytes(ctx, after);
                let again = TableAction::Meta(MetaAction::OfferDraw);
                expect_rejected(ctx, after, &bytes, offerer, &again, Expected::Illegal);
            }
        }
    }
}

/// The draw-offer sequences of a two-seat game, on clones of `table`: decline, then play on
/// while the offerer is blocked (latest edition: for the rest of the turn, free on a later one;
/// first edition: until its own next game action), two offers in one turn leaving neither seat
/// another (latest edition), a game action of the offered-to seat (an implicit decline), and a
/// game action of the offerer (the offer stands).
pub(crate) fn check_offer_sequences<G: Game>(
    ctx: &Ctx,
    table: &Table<G>,
    budget: &Budget,
    rng: &mut impl Rng,
    stats: &mut Stats,
) {
    for offerer in seats(2) {
        if !table.meta_actions(offerer).contains(&MetaAction::OfferDraw) {
            continue;
        }
        let other = offerer.opponent();
        let mut offered = table.clone();
        offered
            .apply(offerer, &TableAction::Meta(MetaAction::OfferDraw))
            .unwrap_or_else(|error| panic!("{ctx}: listed offer of {offerer} failed: {error}"));

        let mut declined = offered.clone();
        declined
            .apply(other, &TableAction::Meta(MetaAction::DeclineDraw))
            .unwrap_or_else(|error| panic!("{ctx}: {other} could not decline: {error}"));
        if table.edition().has(Edition::SECOND) {
            check_offers_per_turn(ctx, &declined, offerer, budget, rng, stats);
        } else {
            check_offers_until_own_action(ctx, declined, offerer, budget, rng, stats);
        }

        if offered.to_act().contains(other) {
            let mut played_on = offered.clone();
            play_seat(ctx, &mut played_on, other, rng);
            stats.meta("implicit decline");
        }
        if offered.to_act().contains(offerer) {
            let mut played_on = offered.clone();
            play_seat(ctx, &mut played_on, offerer, rng);
            stats.meta("offer stands while the offerer plays");
        }
    }
}

/// Latest edition, after `offerer`'s offer was declined: the other seat may still make its one
/// offer of the turn, after which neither may offer; the offerer stays blocked while the turn
/// lasts and may offer again once a new turn begins.
fn check_offers_per_turn<G: Game>(
    ctx: &Ctx,
    declined: &Table<G>,
    offerer: Seat,
    budget: &Budget,
    rng: &mut impl Rng,
    stats: &mut Stats,
) {
    let other = offerer.opponent();
    let offer = TableAction::Meta(MetaAction::OfferDraw);
    if declined
        .meta_actions(other)
        .contains(&MetaAction::OfferDraw)
    {
        let mut both = declined.clone();
        both.apply(other, &offer)
            .unwrap_or_else(|error| panic!("{ctx}: {other} could not offer: {error}"));
        both.apply(offerer, &TableAction::Meta(MetaAction::DeclineDraw))
            .unwrap_or_else(|error| panic!("{ctx}: {offerer} could not decline: {error}"));
        for seat in [offerer, other] {
            assert!(
                !both.meta_actions(seat).contains(&MetaAction::OfferDraw),
                "{ctx}: {seat} may offer a second draw in one turn"
            );
            let bytes = super::serialization::table_bytes(ctx, &both);
            expect_rejected(ctx, &both, &bytes, seat, &offer, Expected::Illegal);
        }
        stats.meta("one offer per seat per turn");
    }
    let turn = G::turn_number(declined.state());
    let mut played = declined.clone();
    for _ in 0..budget.offer_sequence_plies {
        if played.is_over() {
            break;
        }
        if G::turn_number(played.state()) == turn {
            assert!(
                !played
                    .meta_actions(offerer)
                    .contains(&MetaAction::OfferDraw),
                "{ctx}: {offerer} may offer again in the turn its offer was declined"
            );
            stats.meta("blocked for the rest of the turn");
        } else {
            if played.draw_offer().is_none() {
                assert!(
                    played
                        .meta_actions(offerer)
                        .contains(&MetaAction::OfferDraw),
                    "{ctx}: {offerer} may not renew its offer on a later turn"
                );
                stats.meta("re-offer on a later turn");
            }
            break;
        }
        play_random(ctx, &mut played, rng);
    }
}

/// First edition, after `offerer`'s offer was declined: the offerer is blocked until it takes a
/// game action of its own.
fn check_offers_until_own_action<G: Game>(
    ctx: &Ctx,
    mut declined: Table<G>,
    offerer: Seat,
    budget: &Budget,
    rng: &mut impl Rng,
    stats: &mut Stats,
) {
    {
        for _ in 0..budget.offer_sequence_plies {
            if declined.is_over() {
                break;
            }
            assert!(
                !declined
                    .meta_actions(offerer)
                    .contains(&MetaAction::OfferDraw),
                "{ctx}: {offerer} may offer again before taking a game action"
            );
            let (seat, _) = play_random(ctx, &mut declined, rng);
            if seat == offerer {
                if !declined.is_over() {
                    stats.meta("re-offer after own game action");
                }
                break;
            }
            stats.meta("blocked while the opponent plays");
        }
    }
}

/// One random game action of a random seat that may act, checked by [`check_transition`].
fn play_random<G: Game>(
    ctx: &Ctx,
    table: &mut Table<G>,
    rng: &mut impl Rng,
) -> (Seat, Vec<TableEvent<G::Event>>) {
    let to_act: Vec<Seat> = table.to_act().iter().collect();
    let seat = *to_act
        .choose(rng)
        .unwrap_or_else(|| panic!("{ctx}: a running game with nobody to act"));
    let events = play_seat(ctx, table, seat, rng);
    (seat, events)
}

/// One random game action of `seat`, checked by [`check_transition`].
fn play_seat<G: Game>(
    ctx: &Ctx,
    table: &mut Table<G>,
    seat: Seat,
    rng: &mut impl Rng,
) -> Vec<TableEvent<G::Event>> {
    let legal = table.legal_actions(seat);
    let action = TableAction::Game(
        legal
            .choose(rng)
            .unwrap_or_else(|| panic!("{ctx}: {seat} is to act without legal actions"))
            .clone(),
    );
    let before = table.clone();
    let events = table
        .apply(seat, &action)
        .unwrap_or_else(|error| panic!("{ctx}: listed {action:?} of {seat} failed: {error}"));
    check_transition(ctx, &before, seat, &action, table, &events);
    events
}
