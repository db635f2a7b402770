//! What the drills that disturb a server under load play and check afterwards: seeded games to
//! play, and that every action the server acknowledged is in its game's history, with its
//! version and seat, as another replica reads it.

use deckmate::{Client, CreateOptions, Game, meta_action, pb};

use crate::redis_replicas::through;

/// An action the server acknowledged: the version it made, the seat and the action.
pub(crate) type Acknowledged = (u64, u32, pb::Action);

/// `count` two-seat Pigeon Chess games created through `client`, seeded `first_seed`,
/// `first_seed + 1`, and so on, so that a failing drill replays the same games.
pub(crate) async fn seeded_games(client: &Client, count: usize, first_seed: u64) -> Vec<Game> {
    let mut games = Vec::with_capacity(count);
    for seed in first_seed..first_seed + count as u64 {
        let game = client
            .create_game(
                crate::common::pigeon_chess(),
                2,
                CreateOptions::default().with_seed(seed),
            )
            .await
            .expect("create");
        games.push(game);
    }
    games
}

/// Asserts that each game of `games`, read through `client` (another replica), lists every
/// action of the matching entry of `acknowledged` at its version. Games still running are
/// resigned first: histories list actions once a game is over.
pub(crate) async fn assert_in_histories(
    client: &Client,
    games: &[Game],
    acknowledged: &[Vec<Acknowledged>],
) {
    for (game, played) in games.iter().zip(acknowledged) {
        let game = through(client, game);
        let view = game.seats[0].observe().await.expect("the game is there");
        if view.status() != pb::GameStatus::Finished {
            game.seats[0]
                .act(meta_action(pb::MetaActionKind::Resign))
                .await
                .expect("resign");
        }
        let history = game.seats[0].history().await.expect("history");
        for (version, seat, action) in played {
            let listed = history
                .actions
                .iter()
                .find(|entry| entry.version == *version)
                .unwrap_or_else(|| {
                    panic!(
                        "game {}: acknowledged version {version} is missing",
                        game.id
                    )
                });
            assert_eq!(listed.seat, *seat, "game {} version {version}", game.id);
            assert_eq!(
                listed.action.as_ref(),
                Some(action),
                "game {} version {version}",
                game.id
            );
        }
    }
}
