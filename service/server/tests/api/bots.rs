//! Bot seats through the API (CreateGame `seat_options`): every game played to its end against
//! a bot, bots moving by themselves, the bot seat's missing token, the validation of the seat
//! options, games of bots only, the limits on bot games, and the stored record formats around
//! bot seats.

use std::time::Duration;

use deckmate::{ActOptions, Client, CreateOptions, Error, Game, pb};
use deckmate_engine::bots::BotLevel;
use deckmate_engine::{Seat, Seed, Viewer};
use deckmate_server::auth::TokenHash;
use deckmate_server::catalog;
use deckmate_server::config::{Config, StoreUrl};
use deckmate_server::protection::rate::Rate;
use deckmate_server::store::GameRecord;
use deckmate_server::store::redis::{decode_stored_record, encode_stored_record};
use tonic::Code;
use tonic_types::StatusExt;

use crate::common::{Picker, pigeon_chess};
use crate::server::{Server, run};
use crate::support::{assert_field_violation, collect};

/// How long a test waits for bots to move before it fails.
const BOT_WAIT: Duration = Duration::from_secs(60);

/// The reason in the ErrorInfo of `status`.
fn reason(status: &tonic::Status) -> String {
    status
        .get_details_error_info()
        .map(|info| info.reason)
        .unwrap_or_default()
}

/// Waits until `seat`'s view of the game is past `version` and returns it.
async fn next_version(seat: &deckmate::SeatHandle, version: u64) -> pb::ObserveResponse {
    let waited = tokio::time::timeout(BOT_WAIT, async {
        loop {
            let view = seat.observe().await.expect("a seat can always observe");
            if view.version > version {
                return view;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await;
    waited.unwrap_or_else(|_| panic!("no bot moved after version {version}"))
}

/// Plays the test's seats of `game` at random until the game ends, waiting whenever only the
/// bots may act. Returns how many versions the test made and the last view of its first seat.
async fn play_against_bots(game: &Game, picker: &mut Picker) -> (u64, pb::ObserveResponse) {
    let mut made = 0;
    loop {
        let mut views = Vec::with_capacity(game.seats.len());
        for seat in &game.seats {
            views.push(seat.observe().await.expect("a seat can always observe"));
        }
        if views[0].status() == pb::GameStatus::Finished {
            return (made, views.swap_remove(0));
        }
        let able: Vec<usize> = (0..views.len())
            .filter(|&index| !views[index].legal_actions.is_empty())
            .collect();
        if able.is_empty() {
            let version = views.iter().map(|view| view.version).max().unwrap_or(0);
            next_version(&game.seats[0], version).await;
            continue;
        }
        let index = able[picker.index(able.len())];
        let view = &views[index];
        let action = view.legal_actions[picker.index(view.legal_actions.len())].clone();
        match game.seats[index]
            .act_with(action, ActOptions::expecting(view.version))
            .await
        {
            Ok(response) => {
                assert_eq!(response.version, view.version + 1);
                made += 1;
            }
            // A bot moved first: look again.
            Err(Error::StaleVersion { .. }) => {}
            Err(error) => panic!("seat {index} playing a listed action: {error}"),
        }
    }
}

#[test]
fn every_game_plays_to_its_end_against_a_bot() {
    run(async {
        let client = Server::shared().client().await;
        let variants = client.list_variants().await.expect("the variants");
        for (number, variant) in variants.into_iter().enumerate() {
            let config = variant.default_config.expect("a default config");
            let seats = variant.min_seats;
            // The bot takes seat 0, which moves first in most games: it must move unasked.
            let options = CreateOptions::default()
                .with_seed(900 + number as u64)
                .with_bot(0, pb::BotLevel::Random);
            let game = client
                .create_game(config, seats, options)
                .await
                .expect("a game with a bot seat");
            let id = &variant.id;
            assert_eq!(
                game.seats.len(),
                seats as usize - 1,
                "{id}: a bot seat has a token"
            );
            assert!(game.seat(0).is_none(), "{id}");
            let spectator = client.spectate(&game.id);
            let watched = collect(spectator.watch(0));

            let mut picker = Picker::new(number as u64);
            let (made, last) = play_against_bots(&game, &mut picker).await;
            let bot_bound = pb::SeatOptions {
                seat: 0,
                bot: pb::BotLevel::Random.into(),
            };
            assert_eq!(last.seat_options, vec![bot_bound], "{id}");
            assert!(
                last.version > made,
                "{id}: the bot never moved ({made} of {} versions were the test's)",
                last.version
            );

            // Watchers saw every version, the bot's included, in order.
            let watched = tokio::time::timeout(BOT_WAIT, watched)
                .await
                .expect("the watch ends with the game")
                .expect("the watch task");
            let versions: Vec<u64> = watched.iter().map(|view| view.version).collect();
            assert_eq!(versions, (1..=last.version).collect::<Vec<_>>(), "{id}");
            assert!(watched.iter().all(|view| view.seat_options.len() == 1));

            // The history names the bot seat as the author of every version the test did not make.
            let history = spectator.history().await.expect("the history");
            let by_bot = history.actions.iter().filter(|a| a.seat == 0).count() as u64;
            assert_eq!(by_bot, last.version - made, "{id}");
        }
    });
}

#[test]
fn a_bot_seat_has_no_token_and_nobody_acts_for_it() {
    run(async {
        let client = Server::shared().client().await;
        let options = CreateOptions::default().with_bot(1, pb::BotLevel::Greedy);
        let game = client
            .create_game(pigeon_chess(), 2, options)
            .await
            .expect("a game with a bot seat");
        assert_eq!(game.seats.len(), 1);
        assert_eq!(game.seats[0].seat(), 0);
        assert!(game.seat(1).is_none());

        let view = game.seats[0].observe().await.expect("observe");
        let expected = vec![pb::SeatOptions {
            seat: 1,
            bot: pb::BotLevel::Greedy.into(),
        }];
        assert_eq!(view.seat_options, expected);
        let spectated = client.spectate(&game.id).observe().await.expect("spectate");
        assert_eq!(spectated.seat_options, expected);

        // No token names the bot seat: a made-up one is refused like any wrong token.
        let impostor = client
            .seat(&game.id, 1, "not-a-token-of-this-game")
            .expect("a handle");
        let error = impostor
            .act(view.legal_actions[0].clone())
            .await
            .expect_err("acting for a bot seat");
        assert_eq!(error.reason(), Some("BAD_TOKEN"), "{error:?}");
    });
}

/// A CreateGame of two-seat Pigeon Chess with `seat_options`, past the SDK.
async fn create_with(
    client: &Client,
    seat_options: Vec<pb::SeatOptions>,
) -> Result<pb::CreateGameResponse, tonic::Status> {
    client
        .raw()
        .create_game(pb::CreateGameRequest {
            config: Some(pigeon_chess()),
            seats: 2,
            request_id: deckmate::new_request_id(),
            seat_options,
            ..Default::default()
        })
        .await
        .map(tonic::Response::into_inner)
}

fn option(seat: u32, bot: pb::BotLevel) -> pb::SeatOptions {
    pb::SeatOptions {
        seat,
        bot: bot.into(),
    }
}

#[test]
fn seat_options_are_checked_field_by_field() {
    run(async {
        let client = Server::shared().client().await;
        let random = pb::BotLevel::Random;
        let cases = [
            (
                vec![option(0, random), option(2, random)],
                "seat_options[1].seat",
            ),
            (
                vec![option(1, random), option(1, random)],
                "seat_options[1].seat",
            ),
            (
                vec![option(0, pb::BotLevel::Unspecified)],
                "seat_options[0].bot",
            ),
        ];
        for (options, field) in cases {
            let status = create_with(&client, options).await.expect_err(field);
            assert_field_violation(&status, field);
        }
    });
}

#[test]
fn bot_only_games_need_the_flag_and_then_play_by_themselves() {
    run(async {
        let both = || {
            vec![
                option(0, pb::BotLevel::Random),
                option(1, pb::BotLevel::Greedy),
            ]
        };
        let refusing = Server::shared().client().await;
        let status = create_with(&refusing, both())
            .await
            .expect_err("a bot-only game without the flag");
        assert_eq!(status.code(), Code::PermissionDenied, "{status:?}");
        assert_eq!(reason(&status), "INVALID_REQUEST");
        assert!(status.message().contains("--allow-bot-only-games"));

        let client = Server::bot_only_allowed().client().await;
        let mut histories = Vec::new();
        for _ in 0..2 {
            let options = CreateOptions::default()
                .with_seed(77)
                .with_bot(0, pb::BotLevel::Random)
                .with_bot(1, pb::BotLevel::Greedy);
            let game = client
                .create_game(pigeon_chess(), 2, options)
                .await
                .expect("a bot-only game with the flag");
            assert!(game.seats.is_empty());
            let spectator = client.spectate(&game.id);
            let finished = tokio::time::timeout(BOT_WAIT, async {
                loop {
                    let view = spectator.observe().await.expect("spectate");
                    if view.status() == pb::GameStatus::Finished {
                        return view;
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            })
            .await
            .expect("a game of bots ends by itself");
            assert!(finished.version > 0);
            histories.push(spectator.history().await.expect("the history").actions);
        }
        // The same client seed replays the same bot moves.
        assert_eq!(histories[0], histories[1]);
    });
}

#[test]
fn bot_games_per_replica_and_bot_seats_in_the_quota_are_limited() {
    run(async {
        let server = Server::start(Config {
            create_rate: Rate::Off,
            store: StoreUrl::Memory,
            max_bot_games: 1,
            max_games_per_client: 3,
            ..Config::default()
        });
        let client = server.client().await;
        // One bot seat: the game counts twice towards the caller's quota.
        create_with(&client, vec![option(1, pb::BotLevel::Random)])
            .await
            .expect("the replica's one bot game");
        let status = create_with(&client, vec![option(1, pb::BotLevel::Random)])
            .await
            .expect_err("a second running bot game");
        assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
        assert_eq!(reason(&status), "LIMIT_REACHED");
        assert!(status.message().contains("bot"), "{status:?}");
        create_with(&client, Vec::new())
            .await
            .expect("a game without bots: the third game of the quota");
        let status = create_with(&client, Vec::new())
            .await
            .expect_err("past the quota of three");
        assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
        assert!(status.message().contains("live games"), "{status:?}");
    });
}

#[test]
fn a_bot_game_a_player_finishes_gives_back_its_place_at_once() {
    run(async {
        let server = Server::start(Config {
            create_rate: Rate::Off,
            store: StoreUrl::Memory,
            max_bot_games: 1,
            ..Config::default()
        });
        let client = server.client().await;
        let options = CreateOptions::default().with_bot(1, pb::BotLevel::Random);
        let game = client
            .create_game(pigeon_chess(), 2, options.clone())
            .await
            .expect("the replica's one bot game");
        let status = create_with(&client, vec![option(1, pb::BotLevel::Random)])
            .await
            .expect_err("a second running bot game");
        assert_eq!(reason(&status), "LIMIT_REACHED", "{status:?}");
        // The player ends the game: no bot turn follows, and its place is free at once.
        let answer = game.seats[0].resign().await.expect("resign");
        let view = answer.observation.expect("the resigning seat's view");
        assert_eq!(view.status(), pb::GameStatus::Finished);
        client
            .create_game(pigeon_chess(), 2, options)
            .await
            .expect("a new bot game in the finished one's place");
    });
}

#[test]
fn an_older_record_format_refuses_bot_seats() {
    run(async {
        let server = Server::writing_record_format(2);
        let client = server.client().await;
        let status = create_with(&client, vec![option(1, pb::BotLevel::Random)])
            .await
            .expect_err("bot seats under record format 2");
        assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");
        assert!(status.message().contains("--write-record-format"));
        // Games without bots are written as before.
        create_with(&client, Vec::new())
            .await
            .expect("a game without bots under record format 2");
    });
}

/// A stored-record fixture: a Pigeon Chess game after one action.
fn record(bots: Vec<(Seat, BotLevel)>) -> GameRecord {
    let mut game = catalog::new_game(&pigeon_chess(), 2, Seed::from_u64(31)).expect("a game");
    game.set_bot_seats(bots);
    let action = game.view(Viewer::Seat(Seat(0))).legal_actions[0].clone();
    game.act(Seat(0), &action).expect("a listed action");
    GameRecord {
        id: "0123456789abcdef0123456789abcdef".to_string(),
        game,
        token_hashes: vec![TokenHash([1; 32]), TokenHash([2; 32])],
        spectators_allowed: true,
        seed_commitment: [3; 32],
        created_at: 1,
        updated_at: 2,
    }
}

#[test]
fn format_two_records_load_and_format_three_keeps_bot_seats() {
    let plain = record(Vec::new());
    let (bytes, log) = encode_stored_record(&plain, 2).expect("format 2");
    let loaded = decode_stored_record(&plain.id, 2, 1, &bytes, &log).expect("format 2 loads");
    assert!(loaded.game.bot_seats().is_empty());
    assert_eq!(
        loaded.game.view(Viewer::Spectator),
        plain.game.view(Viewer::Spectator)
    );

    let bots = vec![(Seat(1), BotLevel::Search)];
    let with_bots = record(bots.clone());
    let (bytes, log) = encode_stored_record(&with_bots, 3).expect("format 3");
    let loaded = decode_stored_record(&with_bots.id, 3, 1, &bytes, &log).expect("format 3 loads");
    assert_eq!(loaded.game.bot_seats(), bots.as_slice());
    assert_eq!(
        loaded.game.view(Viewer::Spectator).seat_options,
        vec![option(1, pb::BotLevel::Search)]
    );
    // The formats of the releases before bots cannot hold them.
    for format in [1, 2] {
        assert!(encode_stored_record(&with_bots, format).is_err());
    }
}
