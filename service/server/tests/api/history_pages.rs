//! `GetHistory` in pages and `Watch` catching up on a long game: pages joined equal the one-page
//! history, tokens and page sizes are checked, and a watcher from version 0 of a game of more
//! than a hundred versions (more than three of the server's catch-up pages) receives every
//! version once, in order.

use deckmate::{ActOptions, CreateOptions, Game, pb};

use crate::common::{Picker, Played, assert_history_lists, pigeon_chess, play_random_step};
use crate::server::{Server, run};
use crate::support::{assert_field_violation, collect};

/// More versions than three of the server's catch-up pages of 32.
const LONG_GAME_VERSIONS: u64 = 100;

/// Sends a draw offer or the answer to one, whichever some seat may send now, so that the game
/// lasts; returns the action played, or `None` when no seat may.
async fn play_padding(game: &Game) -> Option<Played> {
    for (index, seat) in game.seats.iter().enumerate() {
        let view = seat.observe().await.expect("a seat can always observe");
        let padding = view.meta_actions.iter().find(|meta| {
            meta.kind == pb::MetaActionKind::OfferDraw as i32
                || meta.kind == pb::MetaActionKind::DeclineDraw as i32
        });
        if let Some(meta) = padding {
            let action = pb::Action {
                kind: Some(pb::action::Kind::Meta(*meta)),
            };
            let response = seat
                .act_with(action.clone(), ActOptions::expecting(view.version))
                .await
                .expect("a listed meta action");
            return Some(Played {
                seat: index as u32,
                action,
                response,
            });
        }
    }
    None
}

/// Plays a Pigeon Chess game to its end, offering and declining draws whenever a seat may so
/// that it lasts more than [`LONG_GAME_VERSIONS`] versions; returns the actions played.
async fn play_long_game(game: &Game, seed: u64) -> Vec<Played> {
    let mut picker = Picker::new(seed);
    let mut played = Vec::new();
    loop {
        if let Some(step) = play_padding(game).await {
            played.push(step);
        }
        match play_random_step(game, &mut picker).await {
            Some(step) => played.push(step),
            None => break,
        }
    }
    assert!(
        played.len() as u64 > LONG_GAME_VERSIONS,
        "the game lasted only {} versions",
        played.len()
    );
    played
}

/// One raw page of `game_id`'s history as a spectator.
async fn page(
    server: &Server,
    game_id: &str,
    from_version: u64,
    page_size: i32,
    page_token: &str,
) -> Result<pb::GetHistoryResponse, tonic::Status> {
    let mut rpc = pb::game_service_client::GameServiceClient::new(server.channel().await);
    rpc.get_history(pb::GetHistoryRequest {
        game_id: game_id.to_string(),
        from_version,
        page_size,
        page_token: page_token.to_string(),
    })
    .await
    .map(tonic::Response::into_inner)
}

/// Reads a history in pages of `page_size` from version 0 through the SDK, checking that every
/// page covers the versions it should and carries the game's fields, and joins them; returns the
/// joined history and the page count.
async fn read_in_pages(
    read: impl AsyncFn(u64, i32, String) -> pb::GetHistoryResponse,
    page_size: i32,
) -> (pb::GetHistoryResponse, usize) {
    let size = u64::try_from(page_size).expect("a positive page size");
    let mut joined: Option<pb::GetHistoryResponse> = None;
    let mut token = String::new();
    let mut start = 0;
    let mut pages = 0;
    loop {
        let mut page = read(0, page_size, token).await;
        pages += 1;
        let last = (start + size - 1).min(page.version);
        let in_page = |version: u64| (start..=last).contains(&version);
        assert!(
            page.events.iter().all(|event| in_page(event.version)),
            "page {pages}: events outside versions {start}..={last}"
        );
        assert!(
            page.actions.iter().all(|action| in_page(action.version)),
            "page {pages}: actions outside versions {start}..={last}"
        );
        if let Some(mut before) = joined.take() {
            assert_eq!(
                (page.version, page.status, &page.seed, &page.config),
                (before.version, before.status, &before.seed, &before.config),
                "every page carries the game's fields"
            );
            before.events.append(&mut page.events);
            before.actions.append(&mut page.actions);
            page.events = before.events;
            page.actions = before.actions;
        }
        token = page.next_page_token.clone();
        if token.is_empty() {
            assert_eq!(last, page.version, "the last page reaches the version");
            return (page, pages);
        }
        assert!(last < page.version, "a page before the last one");
        page.next_page_token.clear();
        joined = Some(page);
        start = last + 1;
    }
}

#[test]
fn pages_of_a_long_game_join_into_the_one_page_history_and_watchers_catch_up() {
    run(async {
        let server = Server::shared();
        let client = server.client().await;
        let game = client
            .create_game(pigeon_chess(), 2, CreateOptions::default().with_seed(21))
            .await
            .expect("create");
        let spectator = client.spectate(&game.id);
        // A watcher from the start, live while the game is played.
        let live = collect(spectator.watch(0));

        let played = play_long_game(&game, 21).await;
        let last = played.len() as u64;

        // One page: the whole game, as a request without paging fields gets it.
        let whole = page(server, &game.id, 0, 0, "").await.expect("one page");
        assert_eq!(whole.version, last);
        assert_eq!(whole.status(), pb::GameStatus::Finished);
        assert!(whole.next_page_token.is_empty(), "one page holds it all");
        assert_history_lists(&whole, &played);
        // Sizes above the most are clamped to it, not refused.
        let clamped = page(server, &game.id, 0, i32::MAX, "")
            .await
            .expect("a clamped page");
        assert_eq!(clamped, whole);
        // The SDK's history is that same page (it follows pages, and there is only one).
        assert_eq!(spectator.history().await.expect("SDK history"), whole);

        // Pages of 7, as a spectator and as a seat, join into the same history.
        let expected_pages = (last + 1).div_ceil(7) as usize;
        let (joined, pages) = read_in_pages(
            async |from, size, token| {
                spectator
                    .history_page(from, size, &token)
                    .await
                    .expect("a spectator's page")
            },
            7,
        )
        .await;
        assert_eq!(pages, expected_pages);
        assert_eq!(joined, whole, "spectator pages of 7");
        let (joined, pages) = read_in_pages(
            async |from, size, token| {
                game.seats[1]
                    .history_page(from, size, &token)
                    .await
                    .expect("a seat's page")
            },
            7,
        )
        .await;
        assert_eq!(pages, expected_pages);
        assert_eq!(joined, whole, "seat pages of 7");

        // A page from a later version: exactly its versions.
        let tail = page(server, &game.id, last - 2, 2, "")
            .await
            .expect("a tail page");
        assert!(!tail.next_page_token.is_empty(), "one version is left");
        assert!(
            tail.events
                .iter()
                .all(|e| e.version == last - 2 || e.version == last - 1),
            "{:?}",
            tail.events
        );
        let versions: Vec<u64> = tail.actions.iter().map(|a| a.version).collect();
        assert_eq!(versions, vec![last - 2, last - 1]);
        let end = page(server, &game.id, 0, 0, &tail.next_page_token)
            .await
            .expect("the last page");
        assert!(end.next_page_token.is_empty());
        let versions: Vec<u64> = end.actions.iter().map(|a| a.version).collect();
        assert_eq!(versions, vec![last]);

        // Watchers from version 0: the live one, and ones joining the finished game as a
        // spectator and as a seat. Each gets every version once, in order.
        let observed_last = spectator.observe().await.expect("the final view");
        let watched = [
            ("live spectator", live),
            ("late spectator", collect(spectator.watch(0))),
            ("late seat 0", collect(game.seats[0].watch(0))),
        ];
        for (who, watcher) in watched {
            let items = tokio::time::timeout(std::time::Duration::from_secs(300), watcher)
                .await
                .unwrap_or_else(|_| panic!("{who}: the watch did not end"))
                .expect("the watcher task");
            let versions: Vec<u64> = items.iter().map(|item| item.version).collect();
            assert_eq!(versions, (1..=last).collect::<Vec<_>>(), "{who}");
            let final_item = items.last().expect("items");
            assert_eq!(final_item.status(), pb::GameStatus::Finished, "{who}");
            if who.contains("spectator") {
                assert_eq!(final_item, &observed_last, "{who}: the final view");
            }
        }
    });
}

#[test]
fn bad_paging_fields_are_field_violations() {
    run(async {
        let server = Server::shared();
        let client = server.client().await;
        let mut games = Vec::new();
        for seed in [22, 23] {
            let game = client
                .create_game(pigeon_chess(), 2, CreateOptions::default().with_seed(seed))
                .await
                .expect("create");
            let mut picker = Picker::new(seed);
            for _ in 0..3 {
                play_random_step(&game, &mut picker)
                    .await
                    .expect("still running");
            }
            games.push(game);
        }
        let (a, b) = (&games[0].id, &games[1].id);

        let first = page(server, a, 0, 1, "").await.expect("a first page");
        assert!(
            first.events.iter().all(|e| e.version == 0),
            "only the setup"
        );
        assert!(first.actions.is_empty(), "no actions while running");
        let token = first.next_page_token;
        assert!(!token.is_empty(), "more pages follow");
        // The token reads game a's next page, not game b's.
        let second = page(server, a, 0, 1, &token).await.expect("the next page");
        assert!(second.events.iter().all(|e| e.version == 1), "version 1");
        let status = page(server, b, 0, 1, &token)
            .await
            .expect_err("another game");
        assert_field_violation(&status, "page_token");
        for malformed in ["not a token", "AAAA", "Zm9v"] {
            let status = page(server, a, 0, 1, malformed).await.expect_err(malformed);
            assert_field_violation(&status, "page_token");
        }

        for size in [-1, i32::MIN] {
            let status = page(server, a, 0, size, "")
                .await
                .expect_err("negative size");
            assert_field_violation(&status, "page_size");
        }
        let status = page(server, a, 4, 0, "")
            .await
            .expect_err("from the future");
        assert_field_violation(&status, "from_version");
        // The current version itself is a page of its own.
        let now = page(server, a, 3, 0, "")
            .await
            .expect("the current version");
        assert!(now.next_page_token.is_empty());
        assert!(
            now.events.iter().all(|e| e.version == 3),
            "{:?}",
            now.events
        );
    });
}
