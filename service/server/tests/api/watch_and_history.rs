//! `Watch` and `GetHistory` through the SDK against a real server: watchers see every version
//! exactly once and in order, resume from any version, and stop after the last one; the
//! history is projected while the game runs and complete, with the seed and every action, after;
//! spectators filling a game's watch places leave its players theirs.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::common::{Picker, Played, assert_history_lists, pigeon_chess, play_random_step};
use crate::server::{Server, run};
use crate::support::collect;
use deckmate::{CreateOptions, Game, pb};
use deckmate_server::config::Config;
use deckmate_server::protection::rate::Rate;
use sha2::{Digest, Sha256};
use tokio::task::JoinHandle;

/// A bound on how long a watcher may take to end after the game did; only there so that a
/// stream that never ends fails the test instead of hanging it.
const WATCH_END_GUARD: Duration = Duration::from_secs(300);

/// Waits for a background watcher to end.
async fn finish(
    handle: JoinHandle<Vec<pb::ObserveResponse>>,
    what: &str,
) -> Vec<pb::ObserveResponse> {
    tokio::time::timeout(WATCH_END_GUARD, handle)
        .await
        .unwrap_or_else(|_| panic!("{what}: the watch did not end after the game"))
        .expect("the watcher task")
}

/// What the seat-0 and spectator `Observe` calls returned at every version.
#[derive(Default)]
struct Views {
    seat0: BTreeMap<u64, pb::ObserveResponse>,
    spectator: BTreeMap<u64, pb::ObserveResponse>,
}

impl Views {
    async fn record(&mut self, client: &deckmate::Client, game: &Game) {
        let seat0 = game.seats[0].observe().await.expect("seat 0 view");
        let spectator = client
            .spectate(&game.id)
            .observe()
            .await
            .expect("spectator view");
        assert_eq!(seat0.version, spectator.version);
        self.seat0.insert(seat0.version, seat0);
        self.spectator.insert(spectator.version, spectator);
    }
}

/// Plays random actions until the game ends, recording the views after each one.
async fn play_to_end(
    client: &deckmate::Client,
    game: &Game,
    picker: &mut Picker,
    views: &mut Views,
) -> Vec<Played> {
    let mut played = Vec::new();
    while let Some(step) = play_random_step(game, picker).await {
        played.push(step);
        views.record(client, game).await;
    }
    played
}

/// Asserts that `items` are exactly the versions `after + 1 ..= last`, in order, each equal to
/// what `Observe` returned at that version, the last one finished.
fn assert_watched(
    items: &[pb::ObserveResponse],
    after: u64,
    last: u64,
    observed: &BTreeMap<u64, pb::ObserveResponse>,
    what: &str,
) {
    let versions: Vec<u64> = items.iter().map(|item| item.version).collect();
    let expected: Vec<u64> = (after + 1..=last).collect();
    assert_eq!(versions, expected, "{what}: versions");
    for item in items {
        assert_eq!(
            Some(item),
            observed.get(&item.version),
            "{what}: the watched view of v{} differs from the observed one",
            item.version
        );
    }
    if let Some(final_item) = items.last() {
        assert_eq!(
            final_item.status(),
            pb::GameStatus::Finished,
            "{what}: ends finished"
        );
        assert!(
            final_item.outcome.is_some(),
            "{what}: the last item has the outcome"
        );
    }
}

#[test]
fn watchers_see_every_version_once_in_order_and_stop_at_the_end() {
    run(async {
        let server = Server::shared();
        let client = server.client().await;
        let game = client
            .create_game(pigeon_chess(), 2, CreateOptions::default().with_seed(11))
            .await
            .expect("create");
        let spectator = client.spectate(&game.id);
        let mut picker = Picker::new(11);
        let mut views = Views::default();
        views.record(&client, &game).await;
        for _ in 0..5 {
            play_random_step(&game, &mut picker)
                .await
                .expect("the game is still in setup");
            views.record(&client, &game).await;
        }

        // Watchers joining a running game: from the start, from a past version, from now.
        let from_start = collect(spectator.watch(0));
        let seat_from_start = collect(game.seats[0].watch(0));
        let resumed = collect(spectator.watch(3));
        let from_now = collect(game.seats[1].watch(5));

        play_to_end(&client, &game, &mut picker, &mut views).await;
        let last = *views.spectator.keys().last().expect("views");
        assert!(last > 5);

        let from_start = finish(from_start, "spectator from 0").await;
        assert_watched(&from_start, 0, last, &views.spectator, "spectator from 0");
        let seat_from_start = finish(seat_from_start, "seat 0 from 0").await;
        assert_watched(&seat_from_start, 0, last, &views.seat0, "seat 0 from 0");
        let resumed = finish(resumed, "spectator from 3").await;
        assert_watched(&resumed, 3, last, &views.spectator, "spectator from 3");
        let from_now = finish(from_now, "seat 1 from 5").await;
        let versions: Vec<u64> = from_now.iter().map(|item| item.version).collect();
        assert_eq!(versions, (6..=last).collect::<Vec<_>>(), "seat 1 from 5");
        assert!(
            from_now.iter().all(|item| item.seat == Some(1)),
            "seat 1's own view"
        );
        assert!(seat_from_start.iter().all(|item| item.seat == Some(0)));
        assert!(from_start.iter().all(|item| item.seat.is_none()));

        // Watchers joining a finished game get the rest and stop; at the end there is no rest.
        let late = finish(collect(spectator.watch(last - 2)), "late watcher").await;
        assert_watched(&late, last - 2, last, &views.spectator, "late watcher");
        let none = finish(collect(spectator.watch(last)), "watcher at the end").await;
        assert!(none.is_empty(), "nothing comes after the final version");
    });
}

/// A `Watch` request for `game_id` from version 0, with `token` as a seat token when given.
fn watch_request(game_id: &str, token: Option<&str>) -> tonic::Request<pb::WatchRequest> {
    let mut request = tonic::Request::new(pb::WatchRequest {
        game_id: game_id.to_string(),
        from_version: 0,
    });
    if let Some(token) = token {
        request.metadata_mut().insert(
            deckmate_proto::AUTHORIZATION_HEADER,
            format!("Bearer {token}")
                .parse()
                .expect("an ASCII authorization header"),
        );
    }
    request
}

/// `--max-watchers-per-game` counts spectators apart from the players: spectators who take every
/// place of a game are refused past it, while each player still opens a stream that follows
/// the game.
#[test]
fn spectators_who_fill_a_game_leave_its_players_their_streams() {
    run(async {
        let server = Server::start(Config {
            max_watchers_per_game: 1,
            allow_client_seed: true,
            create_rate: Rate::Off,
            ..Config::default()
        });
        let client = server.client().await;
        let game = client
            .create_game(pigeon_chess(), 2, CreateOptions::default().with_seed(11))
            .await
            .expect("create");
        let mut raw = client.raw();
        let _spectator = raw
            .watch(watch_request(&game.id, None))
            .await
            .expect("the first spectator watches");
        let refused = raw
            .watch(watch_request(&game.id, None))
            .await
            .expect_err("a second spectator is past the limit");
        assert_eq!(refused.code(), tonic::Code::ResourceExhausted);
        assert_eq!(
            tonic_types::StatusExt::get_details_error_info(&refused)
                .expect("error info")
                .reason,
            "LIMIT_REACHED"
        );

        let mut seats = Vec::new();
        for seat in &game.seats {
            let stream = raw
                .watch(watch_request(&game.id, Some(seat.token())))
                .await
                .unwrap_or_else(|status| panic!("seat {} is refused: {status:?}", seat.seat()))
                .into_inner();
            seats.push(stream);
        }
        let mut picker = Picker::new(11);
        play_random_step(&game, &mut picker)
            .await
            .expect("the game is still in setup");
        for (seat, stream) in seats.iter_mut().enumerate() {
            let view = stream
                .message()
                .await
                .expect("the stream carries on")
                .expect("a view of version 1");
            assert_eq!((view.version, view.seat), (1, Some(seat as u32)));
        }
    });
}

#[test]
fn history_is_projected_while_running_and_complete_after() {
    run(async {
        let server = Server::shared();
        let client = server.client().await;
        let game = client
            .create_game(pigeon_chess(), 2, CreateOptions::default().with_seed(12))
            .await
            .expect("create");
        let spectator = client.spectate(&game.id);
        let variants = client.list_variants().await.expect("variants");
        let default_config = variants
            .iter()
            .find(|variant| variant.id == "pigeon_chess")
            .and_then(|variant| variant.default_config.clone())
            .expect("the default config");

        let mut picker = Picker::new(12);
        let mut played = Vec::new();
        for _ in 0..10 {
            played.push(
                play_random_step(&game, &mut picker)
                    .await
                    .expect("still running"),
            );
        }

        // While running.
        let running = [
            (
                "seat 0",
                game.seats[0].history().await.expect("seat 0 history"),
                game.seats[0].observe().await.expect("view"),
            ),
            (
                "seat 1",
                game.seats[1].history().await.expect("seat 1 history"),
                game.seats[1].observe().await.expect("view"),
            ),
            (
                "spectator",
                spectator.history().await.expect("spectator history"),
                spectator.observe().await.expect("view"),
            ),
        ];
        for (who, history, view) in &running {
            assert_eq!(history.game_id, game.id, "{who}");
            assert_eq!(history.variant, "pigeon_chess", "{who}");
            assert_eq!(history.seats, 2, "{who}");
            assert_eq!(history.version, 10, "{who}");
            assert_eq!(history.status(), pb::GameStatus::InProgress, "{who}");
            assert_eq!(
                history.config.as_ref(),
                Some(&default_config),
                "{who}: effective config"
            );
            assert_eq!(history.seed_commitment, game.seed_commitment, "{who}");
            assert!(
                history.seed.is_empty(),
                "{who}: the seed is secret while the game runs"
            );
            assert!(
                history.actions.is_empty(),
                "{who}: actions are secret while the game runs"
            );
            assert_event_order(&history.events, 10, who);
            let current: Vec<&pb::Event> =
                history.events.iter().filter(|e| e.version == 10).collect();
            let recent: Vec<&pb::Event> = view.recent_events.iter().collect();
            assert_eq!(current, recent, "{who}: the latest events match Observe");
        }
        // Each seat sees its own draws and nobody else's.
        for (who, history, _) in &running {
            for event in &history.events {
                if let Some(drawn) = cards_drawn(event).filter(|drawn| drawn.count > 0) {
                    let own = *who == format!("seat {}", drawn.seat);
                    assert_eq!(
                        !drawn.pieces.is_empty(),
                        own,
                        "{who} and the cards drawn by seat {}",
                        drawn.seat
                    );
                }
            }
        }

        // After the end.
        while let Some(step) = play_random_step(&game, &mut picker).await {
            played.push(step);
        }
        let final_view = spectator.observe().await.expect("final view");
        let last = final_view.version;
        assert_eq!(last as usize, played.len());
        let finished = [
            game.seats[0].history().await.expect("seat 0 history"),
            game.seats[1].history().await.expect("seat 1 history"),
            spectator.history().await.expect("spectator history"),
        ];
        for history in &finished {
            assert_eq!(history.status(), pb::GameStatus::Finished);
            assert_eq!(history.version, last);
            assert_eq!(history.seed.len(), 32, "the seed is revealed");
            assert_eq!(
                Sha256::digest(&history.seed).as_slice(),
                game.seed_commitment.as_slice(),
                "the seed matches its commitment"
            );
            assert_history_lists(history, &played);
            assert_event_order(&history.events, last, "finished");
            match history.events.last().and_then(|event| event.kind.as_ref()) {
                Some(pb::event::Kind::GameEnded(ended)) => {
                    assert_eq!(
                        ended.outcome, final_view.outcome,
                        "the log ends with the outcome"
                    );
                }
                other => panic!("the log should end with the game's end, not {other:?}"),
            }
            // Complete: every draw is shown to everyone.
            for event in &history.events {
                if let Some(drawn) = cards_drawn(event) {
                    assert_eq!(drawn.pieces.len() as u32, drawn.count, "complete draws");
                }
            }
        }
        assert_eq!(
            finished[0].events, finished[2].events,
            "one complete log for everyone"
        );
        assert_eq!(
            finished[1].events, finished[2].events,
            "one complete log for everyone"
        );
    });
}

/// Asserts that event versions never decrease and never pass `version`.
fn assert_event_order(events: &[pb::Event], version: u64, who: &str) {
    assert!(!events.is_empty(), "{who}: the setup leaves events");
    assert_eq!(events[0].version, 0, "{who}: the log starts with the setup");
    for pair in events.windows(2) {
        assert!(
            pair[0].version <= pair[1].version,
            "{who}: events out of order"
        );
    }
    assert!(
        events.iter().all(|event| event.version <= version),
        "{who}: an event from the future"
    );
}

/// The Pigeon Chess draw event, if `event` is one.
fn cards_drawn(event: &pb::Event) -> Option<&pb::PigeonChessCardsDrawn> {
    match &event.kind {
        Some(pb::event::Kind::PigeonChess(pb::PigeonChessEvent {
            kind: Some(pb::pigeon_chess_event::Kind::CardsDrawn(drawn)),
        })) => Some(drawn),
        _ => None,
    }
}
