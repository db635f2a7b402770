//! Every game through the API. One generic suite runs over every hosted game: each is listed,
//! created with its default config for every seat count it allows, played from the listed
//! actions only to its end through the SDK while every seat and a spectator observe and watch,
//! and its history checked; and a client that knows only server reflection and the envelope's
//! field names plays it to the end. The per-game modules keep what only their game has.

mod card_chess_api;
mod chuno_api;
mod pigeon_chess_api;
mod pile_chess_api;
mod raindrop_chess_api;

use deckmate::{Client, CreateOptions, Game, pb};
use prost_reflect::{DynamicMessage, Value};
use sha2::{Digest, Sha256};

use crate::common::{Picker, Played, assert_history_lists, observe_all, play_random_step};
use crate::reflection::{call, enum_name, get, messages, observe_seats, reflected_pool, request};
use crate::server::{Server, run};
use crate::support::collect;

/// More actions than any game takes: every game's own cap ends it well before.
const MAX_ACTIONS: u64 = 5_000;

/// Everything the seats and a spectator were sent while a game was played at random from the
/// listed actions (see [`play_recorded`]).
pub(crate) struct Recorded {
    /// The game, as created.
    pub(crate) game: Game,
    /// The actions played, in order.
    pub(crate) played: Vec<Played>,
    /// At each version from 0 to the last, the views of every seat in seat order and then the
    /// spectator's.
    pub(crate) views: Vec<Vec<pb::ObserveResponse>>,
    /// The histories of every seat and the spectator (in that order) fetched while the game
    /// ran, every `history_every` versions.
    pub(crate) histories: Vec<Vec<pb::GetHistoryResponse>>,
    /// The finished game's history, as a spectator gets it.
    pub(crate) history: pb::GetHistoryResponse,
}

impl Recorded {
    /// The viewers of each version's views, in their order: every seat, then a spectator
    /// (`None`).
    pub(crate) fn viewers(&self) -> Vec<Option<u32>> {
        let seats = self.game.seats.len() as u32;
        (0..seats).map(Some).chain([None]).collect()
    }

    /// The views of the finished game: every seat's, then the spectator's.
    pub(crate) fn last(&self) -> &[pb::ObserveResponse] {
        self.views.last().expect("views of version 0 at least")
    }

    /// The number of actions the game took: its final version.
    pub(crate) fn version(&self) -> u64 {
        self.played.len() as u64
    }
}

/// Creates a game of `config` for `seats` with `seed`, plays it to its end with the shared
/// random player, and records what every seat and a spectator were sent. On the way it checks
/// what holds for every game: each action adds one version; every viewer observes the same
/// version, with its own seat; a spectator has no actions; a running history reveals neither
/// actions nor seed; the finished game has an outcome with a reason and nobody to act; its
/// history holds every action and the seed of the commitment; and a watcher of every viewer,
/// from version 0, sees every later version once, in order, as `Observe` showed it.
pub(crate) async fn play_recorded(
    client: &Client,
    config: pb::GameConfig,
    seats: u32,
    seed: u64,
    history_every: u64,
) -> Recorded {
    let game = client
        .create_game(config, seats, CreateOptions::default().with_seed(seed))
        .await
        .expect("CreateGame");
    assert_eq!((game.version, game.seats.len()), (0, seats as usize));
    let what = format!("{} with {seats} seats, seed {seed}", game.variant);
    let spectator = client.spectate(&game.id);
    let mut watchers: Vec<_> = game
        .seats
        .iter()
        .map(|seat| collect(seat.watch(0)))
        .collect();
    watchers.push(collect(spectator.watch(0)));

    let mut picker = Picker::new(seed);
    let mut played = Vec::new();
    let mut views = Vec::new();
    let mut histories = Vec::new();
    loop {
        let version = played.len() as u64;
        let mut now = observe_all(&game).await;
        now.push(spectator.observe().await.expect("spectators may observe"));
        for (view, viewer) in now.iter().zip((0..seats).map(Some).chain([None])) {
            assert_eq!((view.version, view.seat), (version, viewer), "{what}");
        }
        assert!(now[seats as usize].legal_actions.is_empty(), "{what}");
        let running = now[0].status() == pb::GameStatus::InProgress;
        views.push(now);
        if running && version.is_multiple_of(history_every) {
            let mut running_histories = Vec::new();
            for seat in &game.seats {
                running_histories.push(seat.history().await.expect("a seat's history"));
            }
            running_histories.push(spectator.history().await.expect("a spectator's history"));
            for history in &running_histories {
                assert_eq!(history.status(), pb::GameStatus::InProgress, "{what}");
                assert_eq!(history.version, version, "{what}");
                assert!(
                    history.actions.is_empty() && history.seed.is_empty(),
                    "{what}"
                );
            }
            histories.push(running_histories);
        }
        // play_random_step checks that the action adds exactly one version.
        match play_random_step(&game, &mut picker).await {
            Some(step) => played.push(step),
            None => break,
        }
        assert!((played.len() as u64) < MAX_ACTIONS, "{what}: no end");
    }

    let version = played.len() as u64;
    assert!(version > 0, "{what}: actions were played");
    let last = views.last().expect("views");
    for view in last {
        assert_eq!(view.status(), pb::GameStatus::Finished, "{what}");
        assert!(
            view.legal_actions.is_empty() && view.to_act.is_empty(),
            "{what}"
        );
        let outcome = view
            .outcome
            .as_ref()
            .expect("a finished game has an outcome");
        assert_ne!(outcome.reason(), pb::EndReason::Unspecified, "{what}");
    }
    let history = spectator.history().await.expect("the finished history");
    assert_eq!(history.status(), pb::GameStatus::Finished, "{what}");
    assert_eq!(history.version, version, "{what}");
    assert_history_lists(&history, &played);
    assert_eq!(history.seed_commitment, game.seed_commitment, "{what}");
    assert_eq!(
        Sha256::digest(&history.seed).as_slice(),
        game.seed_commitment.as_slice(),
        "{what}: the seed matches its commitment"
    );
    for (viewer, watcher) in watchers.into_iter().enumerate() {
        let items = watcher.await.expect("the watcher task");
        let versions: Vec<u64> = items.iter().map(|item| item.version).collect();
        assert_eq!(versions, (1..=version).collect::<Vec<_>>(), "{what}");
        for item in &items {
            let observed = &views[item.version as usize][viewer];
            assert_eq!(item, observed, "{what}: watched v{}", item.version);
        }
    }
    Recorded {
        game,
        played,
        views,
        histories,
        history,
    }
}

/// The hosted variant `id`.
pub(crate) async fn variant(client: &Client, id: &str) -> pb::Variant {
    let variants = client.list_variants().await.expect("ListVariants");
    variants
        .into_iter()
        .find(|variant| variant.id == id)
        .unwrap_or_else(|| panic!("{id} is hosted"))
}

/// Plays game `id` with its default config once for every seat count it allows.
async fn default_games_play_to_the_end(id: &str) {
    let client = Server::shared().client().await;
    let variant = variant(&client, id).await;
    assert!(variant.min_seats >= 1 && variant.min_seats <= variant.max_seats);
    let config = variant.default_config.expect("a default config");
    for seats in variant.min_seats..=variant.max_seats {
        let recorded =
            play_recorded(&client, config.clone(), seats, 10 + u64::from(seats), 20).await;
        assert_eq!(recorded.game.variant, id);
        assert!(!recorded.histories.is_empty(), "a running history was read");
    }
}

/// How a game went for the reflection-only client of [`play_by_reflection`].
pub(crate) struct ReflectedGame {
    /// The actions it took.
    pub(crate) version: u64,
    /// The versions at which more than one seat had actions listed.
    pub(crate) shared_turns: usize,
}

/// A client that knows nothing but server reflection and the envelope's field names: finds
/// variant `id` by ListVariants, creates a game of its default config for `seats` with `seed`,
/// and plays it to the end by sending back, with the version it saw, an action picked from
/// those listed. When several seats have actions listed, the one with the fewest acts (a seat
/// that may only answer out of turn, such as a CHUNO call).
pub(crate) async fn play_by_reflection(id: &str, seats: u32, seed: u64) -> ReflectedGame {
    let channel = Server::shared().channel().await;
    let pool = reflected_pool(channel.clone()).await;
    let variants = call(
        &channel,
        &pool,
        "ListVariants",
        request(&pool, "ListVariants"),
        None,
    )
    .await
    .expect("ListVariants");
    let variant = messages(&variants, "variants")
        .into_iter()
        .find(|variant| get(variant, "id").as_str() == Some(id))
        .unwrap_or_else(|| panic!("{id} is listed"));
    let mut create = request(&pool, "CreateGame");
    create.set_field_by_name("config", get(&variant, "default_config"));
    create.set_field_by_name("seats", Value::U32(seats));
    create.set_field_by_name("seed", Value::U64(seed));
    let created = call(&channel, &pool, "CreateGame", create, None)
        .await
        .expect("CreateGame");
    let game_id = get(&created, "game_id");
    let game_id = game_id.as_str().expect("a game id");
    let tokens: Vec<String> = messages(&created, "seat_tokens")
        .iter()
        .map(|token| get(token, "token").as_str().expect("a token").to_string())
        .collect();
    assert_eq!(tokens.len(), seats as usize);

    let mut picker = Picker::new(seed);
    let mut version = 0u64;
    let mut shared_turns = 0;
    loop {
        let views = observe_seats(&channel, &pool, game_id, &tokens).await;
        assert!(
            views
                .iter()
                .all(|view| get(view, "version").as_u64() == Some(version))
        );
        if enum_name(&views[0], "status") == "GAME_STATUS_FINISHED" {
            assert!(
                views
                    .iter()
                    .all(|view| messages(view, "legal_actions").is_empty())
            );
            let outcome = get(&views[0], "outcome");
            let outcome = outcome.as_message().expect("an outcome");
            assert_ne!(enum_name(outcome, "reason"), "END_REASON_UNSPECIFIED");
            assert!(version > 0, "{id}: actions were played");
            return ReflectedGame {
                version,
                shared_turns,
            };
        }
        let listed: Vec<Vec<DynamicMessage>> = views
            .iter()
            .map(|view| messages(view, "legal_actions"))
            .collect();
        let able: Vec<usize> = (0..listed.len())
            .filter(|&seat| !listed[seat].is_empty())
            .collect();
        assert!(!able.is_empty(), "{id}: a running game has a seat to act");
        let seat = if able.len() > 1 {
            shared_turns += 1;
            *able
                .iter()
                .min_by_key(|&&seat| listed[seat].len())
                .expect("several seats")
        } else {
            able[picker.index(able.len())]
        };
        let legal = &listed[seat];
        let mut act = request(&pool, "Act");
        act.set_field_by_name("game_id", Value::String(game_id.to_string()));
        act.set_field_by_name(
            "action",
            Value::Message(legal[picker.index(legal.len())].clone()),
        );
        act.set_field_by_name("expected_version", Value::U64(version));
        let response = call(&channel, &pool, "Act", act, Some(&tokens[seat]))
            .await
            .unwrap_or_else(|status| panic!("{id}: a listed action was refused: {status:?}"));
        version += 1;
        assert_eq!(get(&response, "version").as_u64(), Some(version));
        assert!(version < MAX_ACTIONS, "{id}: the game does not end");
    }
}

/// Plays game `id` with its default config by reflection only, once for every seat count it
/// allows.
async fn reflection_only_clients_play_to_the_end(id: &str) {
    let client = Server::shared().client().await;
    let variant = variant(&client, id).await;
    for seats in variant.min_seats..=variant.max_seats {
        play_by_reflection(id, seats, 20 + u64::from(seats)).await;
    }
}

/// Runs `check` for every game the server lists, all at once, so that a game added to the
/// registry is covered without naming it here; a failure names its game.
async fn for_every_hosted_game<F, Run>(check: F)
where
    F: Fn(String) -> Run,
    Run: std::future::Future<Output = ()> + Send + 'static,
{
    let client = Server::shared().client().await;
    let variants = client.list_variants().await.expect("ListVariants");
    assert!(!variants.is_empty(), "the server hosts no game");
    let runs: Vec<_> = variants
        .into_iter()
        .map(|variant| (variant.id.clone(), tokio::spawn(check(variant.id))))
        .collect();
    for (id, run) in runs {
        if let Err(failure) = run.await {
            std::panic::panic_any(format!("{id}: {failure}"));
        }
    }
}

#[test]
fn default_games_of_every_game_and_seat_count_play_to_the_end() {
    run(async {
        for_every_hosted_game(|id| async move { default_games_play_to_the_end(&id).await }).await;
    });
}

#[test]
fn a_reflection_only_client_plays_every_game_and_seat_count_to_the_end() {
    run(async {
        for_every_hosted_game(
            |id| async move { reflection_only_clients_play_to_the_end(&id).await },
        )
        .await;
    });
}
