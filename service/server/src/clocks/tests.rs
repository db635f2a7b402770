//! Turn clocks as a server runs them: CreateGame, Observe, Act and the scheduler over the memory
//! store, on Tokio's paused clock (the memory store's clock follows it), so time passes exactly
//! as each case says and nothing waits.

use std::sync::Arc;
use std::time::Duration;

use deckmate_proto::v1 as pb;
use pb::game_service_server::GameService;
use tonic::{Code, Request, Status};
use tonic_types::StatusExt;

use super::{ClockSettings, Scheduler};
use crate::api::act::settle_clock;
use crate::api::tests::{reason, with_token};
use crate::api::{ApiSettings, GameApi};
use crate::shutdown::Shutdown;
use crate::store::{MemoryStore, SessionStore};

struct Server {
    api: GameApi,
    store: Arc<MemoryStore>,
    scheduler: Scheduler,
}

fn server() -> Server {
    server_with(true)
}

fn server_with(records_hold_clocks: bool) -> Server {
    let store = Arc::new(MemoryStore::new(Duration::from_secs(3600), 100));
    let settings = ApiSettings {
        allow_client_seed: true,
        max_watchers: 10,
        max_message_bytes: 1 << 20,
        store_kind: pb::StoreKind::Memory,
        records_hold_clocks,
    };
    let shutdown = Shutdown::new();
    let api = GameApi::new(store.clone(), settings, shutdown.clone());
    let scheduler = Scheduler::new(
        store.clone(),
        api.bots().clone(),
        ClockSettings::default(),
        shutdown,
    );
    Server {
        api,
        store,
        scheduler,
    }
}

fn raindrop() -> pb::GameConfig {
    pb::GameConfig {
        game: Some(pb::game_config::Game::RaindropChess(Default::default())),
    }
}

fn pile_chess() -> pb::GameConfig {
    pb::GameConfig {
        game: Some(pb::game_config::Game::PileChess(Default::default())),
    }
}

fn fischer(base_ms: u32, increment_ms: u32) -> pb::Clock {
    pb::Clock {
        kind: Some(pb::clock::Kind::Fischer(pb::clock::Fischer {
            base_ms,
            increment_ms,
        })),
        on_timeout: pb::TimeoutPolicy::Forfeit.into(),
    }
}

fn per_action(limit_ms: u32, policy: pb::TimeoutPolicy) -> pb::Clock {
    pb::Clock {
        kind: Some(pb::clock::Kind::PerAction(pb::clock::PerAction {
            limit_ms,
        })),
        on_timeout: policy.into(),
    }
}

/// A started game: its id and each seat's token, by seat.
struct Game {
    id: String,
    tokens: Vec<String>,
}

impl Server {
    async fn try_create(
        &self,
        config: pb::GameConfig,
        seats: u32,
        clock: pb::Clock,
    ) -> Result<Game, Status> {
        self.try_create_seeded(config, seats, clock, 5).await
    }

    async fn try_create_seeded(
        &self,
        config: pb::GameConfig,
        seats: u32,
        clock: pb::Clock,
        seed: u64,
    ) -> Result<Game, Status> {
        let request = pb::CreateGameRequest {
            config: Some(config),
            seats,
            seed: Some(seed),
            clock: Some(clock),
            ..Default::default()
        };
        let response = self
            .api
            .create_game(Request::new(request))
            .await?
            .into_inner();
        let mut tokens = vec![String::new(); response.seat_tokens.len()];
        for seat in response.seat_tokens {
            tokens[seat.seat as usize] = seat.token;
        }
        Ok(Game {
            id: response.game_id,
            tokens,
        })
    }

    async fn create(&self, config: pb::GameConfig, seats: u32, clock: pb::Clock) -> Game {
        self.try_create(config, seats, clock).await.unwrap()
    }

    async fn observe(&self, game: &Game, seat: usize) -> pb::ObserveResponse {
        let request = pb::ObserveRequest {
            game_id: game.id.clone(),
        };
        self.api
            .observe(with_token(request, Some(&game.tokens[seat])))
            .await
            .unwrap()
            .into_inner()
    }

    async fn act(
        &self,
        game: &Game,
        seat: usize,
        action: pb::Action,
    ) -> Result<pb::ActResponse, Status> {
        let request = pb::ActRequest {
            game_id: game.id.clone(),
            action: Some(action),
            ..Default::default()
        };
        Ok(self
            .api
            .act(with_token(request, Some(&game.tokens[seat])))
            .await?
            .into_inner())
    }

    /// The view `seat` gets back for an accepted `action`.
    async fn act_view(&self, game: &Game, seat: usize, action: pb::Action) -> pb::ObserveResponse {
        self.act(game, seat, action)
            .await
            .unwrap()
            .observation
            .unwrap()
    }

    /// The first legal action of `seat`.
    async fn first_legal(&self, game: &Game, seat: usize) -> pb::Action {
        self.observe(game, seat).await.legal_actions[0].clone()
    }

    /// The game's history, as far as one page goes.
    async fn history(&self, game: &Game) -> pb::GetHistoryResponse {
        let request = pb::GetHistoryRequest {
            game_id: game.id.clone(),
            ..Default::default()
        };
        self.api
            .get_history(Request::new(request))
            .await
            .unwrap()
            .into_inner()
    }

    async fn version(&self, game: &Game) -> u64 {
        self.store.load(&game.id).await.unwrap().unwrap().version()
    }
}

/// The one seat on the clock.
fn on_turn(view: &pb::ObserveResponse) -> usize {
    let running: Vec<usize> = view
        .clocks
        .iter()
        .filter(|clock| clock.running)
        .map(|clock| clock.seat as usize)
        .collect();
    assert_eq!(running.len(), 1, "one clock runs: {:?}", view.clocks);
    running[0]
}

fn remaining(view: &pb::ObserveResponse, seat: usize) -> u32 {
    view.clocks[seat].remaining_ms
}

async fn pass(duration_ms: u64) {
    tokio::time::advance(Duration::from_millis(duration_ms)).await;
}

#[tokio::test(start_paused = true)]
async fn a_fischer_clock_runs_for_the_seat_on_turn_and_gains_its_increment() {
    let server = server();
    let game = server.create(raindrop(), 2, fischer(10_000, 2_000)).await;
    let view = server.observe(&game, 0).await;
    assert_eq!(view.clocks.len(), 2);
    let mover = on_turn(&view);
    assert_eq!(mover, 0, "White moves first");
    assert_eq!(remaining(&view, 0), 10_000);
    assert!(view.clocks[0].deadline.is_some());
    assert!(view.clocks[1].deadline.is_none());
    let deadline = view.clocks[0].deadline.unwrap();

    // White's turn is a flip and then a placement (docs/rules/raindrop_chess.md §3): charged
    // for the first action, no increment until the turn ends.
    pass(3_000).await;
    let action = server.first_legal(&game, 0).await;
    let view = server.act_view(&game, 0, action).await;
    assert_eq!(on_turn(&view), 0, "the flip leaves White on turn");
    assert_eq!(remaining(&view, 0), 7_000);
    assert_eq!(view.clocks[0].deadline, Some(deadline), "same deadline");
    let action = server.first_legal(&game, 0).await;
    let view = server.act_view(&game, 0, action).await;
    assert_eq!(on_turn(&view), 1);
    assert_eq!(
        remaining(&view, 0),
        9_000,
        "10 s - 3 s used + 2 s increment"
    );
    assert_eq!(remaining(&view, 1), 10_000);
    let black_deadline = view.clocks[1].deadline.unwrap();
    assert_eq!(
        black_deadline.seconds * 1_000 + i64::from(black_deadline.nanos / 1_000_000),
        deadline.seconds * 1_000 + i64::from(deadline.nanos / 1_000_000) + 3_000,
        "Black's 10 s start when White's move is committed"
    );
}

#[tokio::test(start_paused = true)]
async fn the_scheduler_ends_the_game_on_time_once() {
    let server = server();
    let game = server.create(raindrop(), 2, fischer(1_000, 0)).await;
    pass(999).await;
    server.scheduler.sweep().await.unwrap();
    assert_eq!(server.version(&game).await, 0, "not yet due");
    pass(1).await;
    assert_eq!(server.scheduler.sweep().await.unwrap(), 1);
    assert_eq!(server.version(&game).await, 1);
    let view = server.observe(&game, 1).await;
    assert_eq!(view.status, pb::GameStatus::Finished as i32);
    let outcome = view.outcome.clone().unwrap();
    assert_eq!(outcome.reason, pb::EndReason::Timeout as i32);
    assert_eq!(outcome.winners, vec![1]);
    assert!(view.clocks.iter().all(|clock| !clock.running));
    assert_eq!(remaining(&view, 0), 0);
    let timed_out = view.recent_events.iter().any(|event| {
        matches!(&event.kind, Some(pb::event::Kind::Meta(meta))
            if meta.kind == pb::MetaEventKind::TimedOut as i32 && meta.seat == 0)
    });
    assert!(timed_out, "{:?}", view.recent_events);
    // Nothing is pending any more: later sweeps find nothing and change nothing.
    pass(10_000).await;
    assert_eq!(server.scheduler.sweep().await.unwrap(), 0);
    assert_eq!(server.version(&game).await, 1);
    // The history shows the timeout as the server's entry, not as an action.
    let history = server.history(&game).await;
    assert_eq!(history.actions.len(), 1);
    assert!(history.actions[0].timed_out);
    assert!(history.actions[0].action.is_none());
}

#[tokio::test(start_paused = true)]
async fn a_second_firing_of_one_deadline_changes_nothing() {
    let server = server();
    let game = server.create(raindrop(), 2, fischer(1_000, 0)).await;
    pass(1_500).await;
    let record = server.store.load(&game.id).await.unwrap().unwrap();
    let now = server.store.now_ms().await.unwrap();
    let bots = server.api.bots();
    assert!(
        settle_clock(server.store.as_ref(), bots, &record, now)
            .await
            .unwrap()
    );
    // The same deadline, fired again from the same loaded version (another replica's claim):
    // its commit conflicts.
    assert!(
        settle_clock(server.store.as_ref(), bots, &record, now)
            .await
            .unwrap()
    );
    assert_eq!(server.version(&game).await, 1);
}

#[tokio::test(start_paused = true)]
async fn a_late_act_commits_the_timeout_first() {
    let server = server();
    let game = server.create(raindrop(), 2, fischer(1_000, 0)).await;
    let action = server.first_legal(&game, 0).await;
    pass(1_500).await;
    let late = server.act(&game, 0, action).await.unwrap_err();
    assert_eq!(late.code(), Code::FailedPrecondition);
    assert_eq!(reason(&late), "GAME_OVER");
    let view = server.observe(&game, 0).await;
    assert_eq!(view.version, 1);
    assert_eq!(view.outcome.unwrap().reason, pb::EndReason::Timeout as i32);
}

#[tokio::test(start_paused = true)]
async fn bot_move_plays_for_the_seat_and_the_game_goes_on() {
    let server = server();
    let game = server
        .create(raindrop(), 2, per_action(1_000, pb::TimeoutPolicy::BotMove))
        .await;
    // White's turn (a flip, then a placement) is played for it, one action per second.
    let mut version = 0;
    let view = loop {
        pass(1_000).await;
        assert_eq!(server.scheduler.sweep().await.unwrap(), 1);
        let view = server.observe(&game, 1).await;
        version += 1;
        assert_eq!(view.version, version);
        assert_eq!(view.status, pb::GameStatus::InProgress as i32);
        assert_eq!(
            remaining(&view, 0),
            1_000,
            "a full limit for its next action"
        );
        if on_turn(&view) == 1 {
            break view;
        }
        assert!(version < 3, "White's turn ends");
    };
    assert_eq!(remaining(&view, 1), 1_000);
    // Black gets its own full second, from the bot move on.
    pass(999).await;
    server.scheduler.sweep().await.unwrap();
    assert_eq!(server.version(&game).await, version);
    pass(1).await;
    server.scheduler.sweep().await.unwrap();
    assert_eq!(server.version(&game).await, version + 1);
}

/// Whether `view`'s latest version announces a timeout.
fn announces_a_timeout(view: &pb::ObserveResponse) -> bool {
    view.recent_events.iter().any(|event| {
        matches!(&event.kind, Some(pb::event::Kind::Meta(meta))
            if meta.kind == pb::MetaEventKind::TimedOut as i32)
    })
}

#[tokio::test(start_paused = true)]
async fn a_bot_move_is_a_timeout_and_a_game_nobody_plays_ends() {
    let server = server();
    let game = server
        .create(raindrop(), 2, per_action(1_000, pb::TimeoutPolicy::BotMove))
        .await;
    // Nobody acts: the server moves for White's turn, then for Black's; on White's next turn
    // no player has acted since the server last moved for White, and White forfeits.
    let mut views = Vec::new();
    let last = loop {
        pass(1_000).await;
        assert_eq!(server.scheduler.sweep().await.unwrap(), 1);
        let view = server.observe(&game, 1).await;
        assert!(announces_a_timeout(&view), "{:?}", view.recent_events);
        if view.status == pb::GameStatus::Finished as i32 {
            break view;
        }
        views.push(view);
        assert!(
            views.len() < 8,
            "the server stops playing a game nobody plays"
        );
    };
    assert!(
        views.len() >= 2,
        "each seat was moved for once: {}",
        views.len()
    );
    let outcome = last.outcome.unwrap();
    assert_eq!(outcome.reason, pb::EndReason::Timeout as i32);
    assert_eq!(outcome.winners, vec![1]);
    // The history tells the server's moves from the players': every entry is a timeout, the
    // moves made on it carry the action, the forfeit none.
    let history = server.history(&game).await;
    assert_eq!(history.actions.len(), views.len() + 1);
    let (forfeit, moves) = history.actions.split_last().unwrap();
    for made in moves {
        assert!(made.timed_out, "{made:?}");
        assert!(
            made.action
                .as_ref()
                .is_some_and(|action| action.kind.is_some())
        );
    }
    assert!(forfeit.timed_out && forfeit.action.is_none(), "{forfeit:?}");
    assert_eq!(forfeit.seat, 0);
}

#[tokio::test(start_paused = true)]
async fn a_turn_after_a_skip_is_an_earlier_turn_for_bot_moves() {
    let server = server();
    // With this seed the move the server makes for seat 0 on its first timeout skips seat 1
    // (CHUNO, docs/rules/chuno.md), so seat 0's next turn follows at once.
    let chuno = pb::GameConfig {
        game: Some(pb::game_config::Game::Chuno(Default::default())),
    };
    let clock = pb::Clock {
        on_timeout: pb::TimeoutPolicy::BotMove.into(),
        ..fischer(1_000, 0)
    };
    let game = server.try_create_seeded(chuno, 2, clock, 3).await.unwrap();
    pass(1_000).await;
    assert_eq!(server.scheduler.sweep().await.unwrap(), 1);
    let view = server.observe(&game, 0).await;
    assert!(announces_a_timeout(&view), "{:?}", view.recent_events);
    assert_eq!(on_turn(&view), 0, "the server's move skipped seat 1");
    // Seat 0's time runs out again, in a later turn, and nobody has played since the server
    // moved for it: it forfeits rather than being moved for again.
    pass(1_000).await;
    assert_eq!(server.scheduler.sweep().await.unwrap(), 1);
    let view = server.observe(&game, 0).await;
    assert_eq!(view.status, pb::GameStatus::Finished as i32);
    let outcome = view.outcome.unwrap();
    assert_eq!(outcome.reason, pb::EndReason::Timeout as i32);
    assert_eq!(outcome.winners, vec![1]);
    let history = server.history(&game).await;
    assert_eq!(history.actions.len(), 2, "{:?}", history.actions);
    let forfeit = &history.actions[1];
    assert!(forfeit.timed_out && forfeit.action.is_none(), "{forfeit:?}");
    assert_eq!(forfeit.seat, 0);
}

#[tokio::test(start_paused = true)]
async fn bot_moves_go_on_for_an_absent_seat_while_its_opponent_plays() {
    let server = server();
    let game = server
        .create(raindrop(), 2, per_action(1_000, pb::TimeoutPolicy::BotMove))
        .await;
    for _ in 0..3 {
        // White is away: the server plays its whole turn.
        let mut view = server.observe(&game, 1).await;
        while on_turn(&view) == 0 {
            pass(1_000).await;
            assert_eq!(server.scheduler.sweep().await.unwrap(), 1);
            view = server.observe(&game, 1).await;
            assert_eq!(view.status, pb::GameStatus::InProgress as i32);
        }
        // Black plays its own turn in time.
        while on_turn(&view) == 1 {
            let action = server.first_legal(&game, 1).await;
            view = server.act_view(&game, 1, action).await;
            if view.status != pb::GameStatus::InProgress as i32 {
                return;
            }
        }
    }
    let history_len = server.version(&game).await;
    assert!(history_len >= 6, "three rounds were played: {history_len}");
    assert_eq!(
        server.observe(&game, 1).await.status,
        pb::GameStatus::InProgress as i32
    );
}

#[tokio::test(start_paused = true)]
async fn draw_offers_do_not_stop_the_clock() {
    let server = server();
    let game = server.create(raindrop(), 2, fischer(10_000, 0)).await;
    pass(2_000).await;
    let offer = pb::Action {
        kind: Some(pb::action::Kind::Meta(pb::MetaAction {
            kind: pb::MetaActionKind::OfferDraw.into(),
        })),
    };
    let view = server.act_view(&game, 1, offer).await;
    assert_eq!(view.draw_offered_by, Some(1));
    assert_eq!(on_turn(&view), 0, "White's clock runs on");
    assert_eq!(remaining(&view, 0), 8_000);
    assert_eq!(remaining(&view, 1), 10_000, "Black was not on the clock");
    pass(8_000).await;
    server.scheduler.sweep().await.unwrap();
    let view = server.observe(&game, 0).await;
    assert_eq!(view.outcome.unwrap().reason, pb::EndReason::Timeout as i32);
}

#[tokio::test(start_paused = true)]
async fn pile_chess_with_three_seats_plays_on_after_a_timeout() {
    let server = server();
    let game = server.create(pile_chess(), 3, fischer(1_000, 0)).await;
    let view = server.observe(&game, 0).await;
    let running: Vec<u32> = view
        .clocks
        .iter()
        .filter(|clock| clock.running)
        .map(|clock| clock.seat)
        .collect();
    assert!(!running.is_empty());
    pass(1_000).await;
    server.scheduler.sweep().await.unwrap();
    let view = server.observe(&game, 0).await;
    assert!(view.version >= 1);
    let out: Vec<u32> = view
        .recent_events
        .iter()
        .filter_map(|event| match &event.kind {
            Some(pb::event::Kind::Meta(meta))
                if meta.kind == pb::MetaEventKind::TimedOut as i32 =>
            {
                Some(meta.seat)
            }
            _ => None,
        })
        .collect();
    assert_eq!(out.len(), 1, "one seat timed out: {:?}", view.recent_events);
    assert!(running.contains(&out[0]));
    assert_eq!(
        view.status,
        pb::GameStatus::InProgress as i32,
        "the other two play on"
    );
    assert!(!view.to_act.contains(&out[0]));
    assert!(view.clocks.iter().any(|clock| clock.running));
}

#[tokio::test(start_paused = true)]
async fn settings_out_of_range_are_field_violations() {
    let server = server();
    let refused = server
        .try_create(raindrop(), 2, fischer(999, 0))
        .await
        .err()
        .unwrap();
    assert_eq!(refused.code(), Code::InvalidArgument);
    let violations = refused.get_details_bad_request().unwrap().field_violations;
    assert_eq!(violations[0].field, "clock.fischer.base_ms");
    let no_kind = pb::Clock {
        kind: None,
        on_timeout: 0,
    };
    let refused = server
        .try_create(raindrop(), 2, no_kind)
        .await
        .err()
        .unwrap();
    assert_eq!(refused.code(), Code::InvalidArgument);
}

#[tokio::test(start_paused = true)]
async fn clocks_wait_for_a_record_format_that_holds_them() {
    let server = server_with(false);
    let refused = server
        .try_create(raindrop(), 2, fischer(60_000, 0))
        .await
        .err()
        .unwrap();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert!(refused.message().contains("--write-record-format"));
}
