//! Helpers shared by the API tests and the process tests: a connection to a server's endpoint,
//! a deterministic random source, and a random player that drives a game through the SDK.

use deckmate::{ActOptions, Client, Game, pb};
use tonic::transport::{Channel, Endpoint};

/// A new connection to the server at `endpoint` (such as `http://127.0.0.1:40123`).
pub(crate) async fn connect(endpoint: &str) -> Channel {
    Endpoint::from_shared(endpoint.to_string())
        .expect("a valid endpoint")
        .connect()
        .await
        .expect("connect to the test server")
}

/// An SDK client of the server at `endpoint`.
pub(crate) async fn client(endpoint: &str) -> Client {
    Client::from_channel(connect(endpoint).await)
}

/// Pigeon Chess with every default.
pub(crate) fn pigeon_chess() -> pb::GameConfig {
    pb::GameConfig {
        game: Some(pb::game_config::Game::PigeonChess(
            pb::PigeonChessConfig::default(),
        )),
    }
}

/// A small deterministic random source (SplitMix64), so that a failing test replays the same
/// game.
#[derive(Clone, Debug)]
pub(crate) struct Picker {
    state: u64,
}

impl Picker {
    /// A source seeded with `seed`.
    pub(crate) fn new(seed: u64) -> Picker {
        Picker { state: seed }
    }

    /// The next 64 random bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// An index below `len` (which must not be 0).
    pub(crate) fn index(&mut self, len: usize) -> usize {
        assert!(len > 0, "nothing to pick from");
        (self.next_u64() % len as u64) as usize
    }
}

/// One accepted action.
#[derive(Clone, Debug)]
pub(crate) struct Played {
    /// The acting seat.
    pub(crate) seat: u32,
    /// The action sent.
    pub(crate) action: pb::Action,
    /// The server's answer.
    pub(crate) response: pb::ActResponse,
}

/// The current view of every seat, in seat order.
pub(crate) async fn observe_all(game: &Game) -> Vec<pb::ObserveResponse> {
    let mut views = Vec::with_capacity(game.seats.len());
    for seat in &game.seats {
        views.push(seat.observe().await.expect("a seat can always observe"));
    }
    views
}

/// Plays one random legal game action for a random seat that may act, sent with the version it
/// observed. Returns `None` once the game has finished.
pub(crate) async fn play_random_step(game: &Game, picker: &mut Picker) -> Option<Played> {
    let views = observe_all(game).await;
    let version = views[0].version;
    assert!(
        views.iter().all(|view| view.version == version),
        "seats observed different versions of an idle game"
    );
    if views[0].status() == pb::GameStatus::Finished {
        for view in &views {
            assert!(
                view.legal_actions.is_empty(),
                "a finished game lists actions"
            );
        }
        return None;
    }
    let able: Vec<usize> = (0..views.len())
        .filter(|&seat| !views[seat].legal_actions.is_empty())
        .collect();
    assert!(
        !able.is_empty(),
        "a running game at version {version} has nobody to act"
    );
    let seat = able[picker.index(able.len())];
    let legal = &views[seat].legal_actions;
    let action = legal[picker.index(legal.len())].clone();
    let response = game.seats[seat]
        .act_with(action.clone(), ActOptions::expecting(version))
        .await
        .unwrap_or_else(|error| {
            panic!("seat {seat} playing a listed action at v{version}: {error}")
        });
    assert_eq!(
        response.version,
        version + 1,
        "an action adds exactly one version"
    );
    Some(Played {
        seat: seat as u32,
        action,
        response,
    })
}

/// Asserts that a finished game's `history` lists exactly the `played` actions, in order, each
/// with the seat that sent it and the version it produced.
pub(crate) fn assert_history_lists(history: &pb::GetHistoryResponse, played: &[Played]) {
    let listed: Vec<(u64, u32, &pb::Action)> = history
        .actions
        .iter()
        .map(|entry| {
            (
                entry.version,
                entry.seat,
                entry.action.as_ref().expect("an action"),
            )
        })
        .collect();
    let sent: Vec<(u64, u32, &pb::Action)> = played
        .iter()
        .map(|step| (step.response.version, step.seat, &step.action))
        .collect();
    assert_eq!(listed, sent, "every action, in order, as sent");
}
