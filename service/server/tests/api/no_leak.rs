//! Hidden information never leaves the server through the API (docs/ARCHITECTURE.md §2, §3;
//! docs/rules/conventions.md §2; docs/rules/pigeon_chess.md §6): full random games are played
//! through gRPC, and at every version
//! everything seat 1 and a spectator receive (Observe, Watch, GetHistory) is searched for seat
//! 0's secrets (and, for the spectator, seat 1's too): hand cards, face-down cards, secret setup
//! choices, the seed and the action log. Once the game has finished, the history reveals
//! everything and the seed matches its commitment.

use crate::common::{Picker, pigeon_chess, play_random_step};
use crate::server::{Server, run};
use crate::support::collect;
use crate::support::pigeon_view;
use deckmate::{Client, CreateOptions, pb};
use pb::pigeon_chess_event::Kind as PigeonEvent;
use sha2::{Digest, Sha256};

/// How many secrets the checks met; a run that met none proved nothing.
#[derive(Debug, Default)]
struct Coverage {
    hidden_spots: usize,
    hidden_draws: usize,
    hidden_rows: usize,
    hidden_placements: usize,
    hidden_picks: usize,
    running_histories: usize,
}

impl Coverage {
    fn assert_meaningful(&self) {
        assert!(
            self.hidden_spots > 0,
            "no face-down card was ever checked: {self:?}"
        );
        assert!(
            self.hidden_draws > 0,
            "no hidden draw was ever checked: {self:?}"
        );
        assert!(
            self.hidden_rows > 0,
            "no secret row was ever checked: {self:?}"
        );
        assert!(
            self.hidden_placements > 0,
            "no face-down placement was ever checked: {self:?}"
        );
        assert!(
            self.hidden_picks > 0,
            "no secret pick was ever checked: {self:?}"
        );
        assert!(
            self.running_histories > 0,
            "no running history was checked: {self:?}"
        );
    }
}

/// Whether `seat` is someone other than `viewer` (a spectator, `None`, is no seat).
fn is_other(seat: u32, viewer: Option<u32>) -> bool {
    viewer != Some(seat)
}

/// Checks one view of a running game for secrets `viewer` may not know.
fn check_view(
    view: &pb::ObserveResponse,
    viewer: Option<u32>,
    what: &str,
    coverage: &mut Coverage,
) {
    assert_eq!(view.seat, viewer, "{what}: the view is for its viewer");
    if view.status() == pb::GameStatus::Finished {
        // The game is over: the final view may show what was hidden.
        return;
    }
    let observation = pigeon_view(view);
    for spot in &observation.board {
        if spot.face_down && spot.owner.is_some_and(|owner| is_other(owner, viewer)) {
            coverage.hidden_spots += 1;
            assert!(
                spot.piece.is_none(),
                "{what}: v{} shows the face-down card on {} to {viewer:?}",
                view.version,
                spot.name
            );
        }
    }
    match viewer {
        None => {
            assert!(
                observation.hand.is_empty(),
                "{what}: a spectator sees a hand"
            );
            assert!(
                view.legal_actions.is_empty(),
                "{what}: a spectator has actions"
            );
            assert!(
                view.meta_actions.is_empty(),
                "{what}: a spectator has meta actions"
            );
        }
        Some(seat) => {
            let player = observation
                .players
                .iter()
                .find(|player| player.seat == seat)
                .expect("the viewer's public state");
            assert_eq!(
                observation.hand.len() as u32,
                player.hand_count,
                "{what}: the hand shown is the viewer's own"
            );
        }
    }
    check_events(&view.recent_events, viewer, what, coverage);
}

/// Checks events of a running game, as one response delivered them, for secrets.
fn check_events(events: &[pb::Event], viewer: Option<u32>, what: &str, coverage: &mut Coverage) {
    // A first-player pick may be shown once the comparison revealed it
    // (docs/rules/pigeon_chess.md §2.4).
    let revealed: Vec<(u32, i32)> = events
        .iter()
        .filter_map(pigeon_event)
        .filter_map(|event| match event {
            PigeonEvent::FirstPlayerChosen(chosen) => Some(chosen),
            _ => None,
        })
        .flat_map(|chosen| {
            chosen
                .reveals
                .iter()
                .flat_map(|row| row.pieces.iter().map(move |&piece| (row.seat, piece)))
        })
        .collect();
    for event in events {
        let Some(event) = pigeon_event(event) else {
            continue;
        };
        match event {
            PigeonEvent::CardsDrawn(drawn) if is_other(drawn.seat, viewer) => {
                coverage.hidden_draws += 1;
                assert!(
                    drawn.pieces.is_empty(),
                    "{what}: {viewer:?} sees the cards seat {} drew",
                    drawn.seat
                );
            }
            PigeonEvent::RowCommitted(row) if is_other(row.seat, viewer) => {
                coverage.hidden_rows += 1;
                assert!(
                    row.pieces.is_empty(),
                    "{what}: {viewer:?} sees the row seat {} chose",
                    row.seat
                );
            }
            PigeonEvent::Placed(placed) if is_other(placed.seat, viewer) => {
                coverage.hidden_placements += 1;
                assert!(
                    placed.piece.is_none(),
                    "{what}: {viewer:?} sees the card seat {} placed face down",
                    placed.seat
                );
            }
            PigeonEvent::FirstPlayerPicked(picked) if is_other(picked.seat, viewer) => {
                coverage.hidden_picks += 1;
                if let Some(piece) = picked.piece {
                    assert!(
                        revealed.contains(&(picked.seat, piece)),
                        "{what}: {viewer:?} sees seat {}'s secret pick before the reveal",
                        picked.seat
                    );
                }
            }
            _ => {}
        }
    }
}

/// The Pigeon Chess part of an event.
fn pigeon_event(event: &pb::Event) -> Option<&PigeonEvent> {
    match &event.kind {
        Some(pb::event::Kind::PigeonChess(pigeon)) => pigeon.kind.as_ref(),
        _ => None,
    }
}

/// Checks a history read while the game runs.
fn check_running_history(
    history: &pb::GetHistoryResponse,
    viewer: Option<u32>,
    what: &str,
    coverage: &mut Coverage,
) {
    if history.status() == pb::GameStatus::Finished {
        return;
    }
    coverage.running_histories += 1;
    assert!(
        history.seed.is_empty(),
        "{what}: the seed while the game runs"
    );
    assert!(
        history.actions.is_empty(),
        "{what}: the actions while the game runs"
    );
    check_events(&history.events, viewer, what, coverage);
}

/// Plays one random game with `seed`, checking everything seat 1 and a spectator receive.
async fn play_and_check(client: &Client, seed: u64, coverage: &mut Coverage) {
    let game = client
        .create_game(pigeon_chess(), 2, CreateOptions::default().with_seed(seed))
        .await
        .expect("create");
    let seat1 = &game.seats[1];
    let spectator = client.spectate(&game.id);
    let seat1_watch = collect(seat1.watch(0));
    let spectator_watch = collect(spectator.watch(0));

    let mut picker = Picker::new(seed ^ 0x5eed);
    let mut version = 0;
    loop {
        let what = format!("seed {seed} v{version}");
        let view = seat1.observe().await.expect("seat 1 view");
        check_view(&view, Some(1), &format!("{what} seat 1 Observe"), coverage);
        let view = spectator.observe().await.expect("spectator view");
        check_view(&view, None, &format!("{what} spectator Observe"), coverage);
        let history = seat1.history().await.expect("seat 1 history");
        check_running_history(
            &history,
            Some(1),
            &format!("{what} seat 1 history"),
            coverage,
        );
        let history = spectator.history().await.expect("spectator history");
        check_running_history(
            &history,
            None,
            &format!("{what} spectator history"),
            coverage,
        );
        match play_random_step(&game, &mut picker).await {
            Some(step) => version = step.response.version,
            None => break,
        }
    }

    for (items, viewer, who) in [
        (
            seat1_watch.await.expect("seat 1 watcher"),
            Some(1),
            "seat 1",
        ),
        (
            spectator_watch.await.expect("spectator watcher"),
            None,
            "spectator",
        ),
    ] {
        let versions: Vec<u64> = items.iter().map(|item| item.version).collect();
        assert_eq!(
            versions,
            (1..=version).collect::<Vec<_>>(),
            "seed {seed} {who} Watch"
        );
        for item in &items {
            let what = format!("seed {seed} v{} {who} Watch", item.version);
            check_view(item, viewer, &what, coverage);
        }
    }

    // After the end, everything is revealed and verifiable.
    for (history, who) in [
        (seat1.history().await.expect("history"), "seat 1"),
        (spectator.history().await.expect("history"), "spectator"),
    ] {
        assert_eq!(history.status(), pb::GameStatus::Finished, "{who}");
        assert_eq!(
            Sha256::digest(&history.seed).as_slice(),
            game.seed_commitment.as_slice(),
            "seed {seed} {who}: the revealed seed matches the commitment"
        );
        assert_eq!(
            history.actions.len() as u64,
            version,
            "seed {seed} {who}: every action"
        );
        let seat0_draws: Vec<&pb::PigeonChessCardsDrawn> = history
            .events
            .iter()
            .filter_map(pigeon_event)
            .filter_map(|event| match event {
                PigeonEvent::CardsDrawn(drawn) if drawn.seat == 0 && drawn.count > 0 => Some(drawn),
                _ => None,
            })
            .collect();
        assert!(!seat0_draws.is_empty(), "seed {seed} {who}: seat 0 drew");
        for drawn in seat0_draws {
            assert_eq!(
                drawn.pieces.len() as u32,
                drawn.count,
                "seed {seed} {who}: the finished log shows every draw"
            );
        }
    }
}

#[test]
fn no_secret_reaches_seat_one_or_spectators_in_the_first_games() {
    run(async {
        let server = Server::shared();
        let client = server.client().await;
        let mut coverage = Coverage::default();
        for seed in [1, 2, 3, 4] {
            play_and_check(&client, seed, &mut coverage).await;
        }
        coverage.assert_meaningful();
    });
}

#[test]
fn no_secret_reaches_seat_one_or_spectators_in_more_games() {
    run(async {
        let server = Server::shared();
        let client = server.client().await;
        let mut coverage = Coverage::default();
        for seed in [1_000, 65_537, 0xDEC_4A7E, u64::MAX] {
            play_and_check(&client, seed, &mut coverage).await;
        }
        coverage.assert_meaningful();
    });
}
