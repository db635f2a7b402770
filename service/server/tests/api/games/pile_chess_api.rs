//! Pile Chess through the API (docs/rules/pile_chess.md): full random games with 2, 3 and 4
//! players free for all and in teams (2 against 2, 1 against 2, 1 against 1 against 2), played
//! through gRPC by choosing only among the listed legal actions; the hidden information (hands,
//! drawn cards, deck order, the seed) never reaches another seat or a spectator; a bad team list
//! is refused with a field violation naming the list or the team at fault (§7.12); and a client
//! that knows nothing but server reflection and the envelope's field names plays 2-, 3- and
//! 4-player games to the end by sending back listed actions verbatim.

use std::collections::BTreeSet;

use super::{Recorded, play_recorded};
use crate::server::{Server, run};
use crate::support::create_raw;
use deckmate::{Client, CreateOptions, pb};
use pb::pile_chess_event::Kind as PileEvent;

/// Pile Chess with every default and `teams` (none: free for all).
fn pile_chess(teams: &[&[u32]]) -> pb::GameConfig {
    pb::GameConfig {
        game: Some(pb::game_config::Game::PileChess(pb::PileChessConfig {
            teams: teams
                .iter()
                .map(|seats| pb::PileChessTeam {
                    seats: seats.to_vec(),
                })
                .collect(),
            ..Default::default()
        })),
    }
}

/// Free for all.
const FREE_FOR_ALL: &[&[u32]] = &[];
/// Seats 0 and 2 against seats 1 and 3.
const TWO_AGAINST_TWO: &[&[u32]] = &[&[0, 2], &[1, 3]];

/// Every setup: (seats, teams).
const SETUPS: [(u32, &[&[u32]]); 6] = [
    (2, FREE_FOR_ALL),
    (3, FREE_FOR_ALL),
    (4, FREE_FOR_ALL),
    (4, TWO_AGAINST_TWO),
    (3, &[&[0], &[1, 2]]),
    (4, &[&[0], &[1], &[2, 3]]),
];

/// The Pile Chess part of an observation.
fn pile_view(view: &pb::ObserveResponse) -> &pb::PileChessObservation {
    match view.observation.as_ref().and_then(|o| o.game.as_ref()) {
        Some(pb::observation::Game::PileChess(observation)) => observation,
        other => panic!("not a Pile Chess observation: {other:?}"),
    }
}

/// The Pile Chess events among `events`.
fn pile_events(events: &[pb::Event]) -> impl Iterator<Item = (&pb::Event, &PileEvent)> {
    events.iter().filter_map(|event| match &event.kind {
        Some(pb::event::Kind::PileChess(pile)) => pile.kind.as_ref().map(|kind| (event, kind)),
        _ => None,
    })
}

/// What the secrecy checks met; a run that met nothing proved nothing.
#[derive(Debug, Default)]
struct Coverage {
    hidden_draws: usize,
    own_draws: usize,
    hands_checked: usize,
    running_histories: usize,
}

/// `events` as `viewer` (a seat, or `None` for a spectator) received them: no other seat's
/// drawn cards.
fn check_events(events: &[pb::Event], viewer: Option<u32>, coverage: &mut Coverage) {
    for (_, kind) in pile_events(events) {
        if let PileEvent::CardsDrawn(drawn) = kind {
            assert!(drawn.count > 0, "an empty draw was reported");
            if viewer == Some(drawn.seat) {
                assert_eq!(
                    drawn.pieces.len(),
                    drawn.count as usize,
                    "own draws are shown"
                );
                coverage.own_draws += 1;
            } else {
                assert!(
                    drawn.pieces.is_empty(),
                    "{viewer:?} saw the cards seat {} drew",
                    drawn.seat
                );
                coverage.hidden_draws += 1;
            }
        }
    }
}

/// Checks every viewer's view of the current version: a seat sees its own hand only, a
/// spectator no hand, and apart from the hand every viewer sees the very same observation.
/// While the game runs, nobody sees another seat's drawn cards (once it is over, the events of
/// the last version are shown in full, like the history).
fn check_views(
    views: &[pb::ObserveResponse],
    spectator: &pb::ObserveResponse,
    coverage: &mut Coverage,
) {
    let running = spectator.status() == pb::GameStatus::InProgress;
    let mut public = pile_view(spectator).clone();
    assert!(public.hand.is_empty(), "a spectator sees a hand");
    if running {
        check_events(&spectator.recent_events, None, coverage);
    }
    for (seat, view) in views.iter().enumerate() {
        let mut observation = pile_view(view).clone();
        let hand_count = observation.players[seat].hand_count as usize;
        assert_eq!(
            observation.hand.len(),
            hand_count,
            "seat {seat} sees its whole hand"
        );
        observation.hand.clear();
        public.hand.clear();
        assert_eq!(
            observation, public,
            "seat {seat} sees more than the public view"
        );
        if running {
            check_events(&view.recent_events, Some(seat as u32), coverage);
        }
        coverage.hands_checked += 1;
    }
}

/// Plays one random game of `seats` seats to its end through gRPC (see
/// [`play_recorded`]), then checks that nothing secret reached any viewer at any version.
async fn play_checked(
    client: &Client,
    seats: u32,
    teams: &[&[u32]],
    seed: u64,
    coverage: &mut Coverage,
) -> Recorded {
    let recorded = play_recorded(client, pile_chess(teams), seats, seed, 17).await;
    assert_eq!(recorded.game.variant, "pile_chess");
    for views in &recorded.views {
        let (spectator, seats) = views.split_last().expect("a spectator's view");
        check_views(seats, spectator, coverage);
    }
    for histories in &recorded.histories {
        for (history, viewer) in histories.iter().zip(recorded.viewers()) {
            check_events(&history.events, viewer, coverage);
            coverage.running_histories += 1;
        }
    }
    recorded
}

#[test]
fn random_games_of_every_setup_play_to_the_end_through_grpc() {
    run(async {
        let server = Server::shared();
        let client = server.client().await;
        let variant = super::variant(&client, "pile_chess").await;
        assert_eq!((variant.min_seats, variant.max_seats), (2, 4));
        let mut coverage = Coverage::default();
        for (seats, teams) in SETUPS {
            for seed in 0..3 {
                let recorded = play_checked(&client, seats, teams, seed, &mut coverage).await;
                let views = recorded.last();
                let outcome = views[0]
                    .outcome
                    .clone()
                    .expect("a finished game has an outcome");
                assert_eq!(outcome.draw, outcome.winners.is_empty());
                if !outcome.draw {
                    // A side wins together (less any player of it who resigned, none here).
                    let side = teams
                        .iter()
                        .find(|team| team.contains(&outcome.winners[0]))
                        .map_or_else(|| vec![outcome.winners[0]], |team| team.to_vec());
                    let mut side = side;
                    side.sort_unstable();
                    assert_eq!(outcome.winners, side, "{outcome:?}");
                }
                let observation = pile_view(&views[0]);
                assert_eq!(observation.step(), pb::PileChessStep::Finished);
            }
        }
        assert!(coverage.hands_checked > 0 && coverage.hidden_draws > 0);
    });
}

#[test]
fn no_hand_or_drawn_card_reaches_another_seat_or_a_spectator() {
    run(async {
        let server = Server::shared();
        let client = server.client().await;
        let mut coverage = Coverage::default();
        for (seats, teams) in SETUPS {
            let recorded =
                play_checked(&client, seats, teams, 100 + u64::from(seats), &mut coverage).await;
            // Once over, the history reveals every draw and the seed (play_recorded checks it
            // against its commitment).
            let history = &recorded.history;
            assert_eq!(history.seed.len(), 32);
            let mut draws = 0;
            for (_, kind) in pile_events(&history.events) {
                if let PileEvent::CardsDrawn(drawn) = kind {
                    assert_eq!(drawn.pieces.len(), drawn.count as usize);
                    draws += 1;
                }
            }
            assert!(draws >= seats as usize, "every seat drew at the start");
        }
        assert!(coverage.hidden_draws > 0, "{coverage:?}");
        assert!(coverage.own_draws > 0, "{coverage:?}");
        assert!(coverage.running_histories > 0, "{coverage:?}");
    });
}

#[test]
fn config_errors_and_foreign_actions_are_invalid_requests() {
    run(async {
        let server = Server::shared();
        let client = server.client().await;
        // Teams must split exactly the game's seats: these name seat 3 of a three-seat game.
        let error = client
            .create_game(pile_chess(TWO_AGAINST_TWO), 3, CreateOptions::default())
            .await
            .expect_err("four seats' teams with three seats");
        assert_eq!(error.reason(), Some("INVALID_REQUEST"), "{error:?}");
        assert!(error.to_string().contains("teams[1]: seat 3"), "{error}");
        let error = client
            .create_game(pile_chess(FREE_FOR_ALL), 5, CreateOptions::default())
            .await
            .expect_err("five seats");
        assert_eq!(error.reason(), Some("INVALID_REQUEST"), "{error:?}");
        // A Pigeon Chess action sent to a Pile Chess game.
        let game = client
            .create_game(
                pile_chess(FREE_FOR_ALL),
                2,
                CreateOptions::default().with_seed(1),
            )
            .await
            .expect("CreateGame");
        let foreign = pb::Action {
            kind: Some(pb::action::Kind::PigeonChess(
                pb::PigeonChessAction::default(),
            )),
        };
        let error = game.seats[0]
            .act(foreign)
            .await
            .expect_err("a foreign action");
        assert_eq!(error.reason(), Some("INVALID_REQUEST"), "{error:?}");
        // An unlisted but well-formed action is illegal, and names no hidden card.
        let view = game.seats[0].observe().await.expect("observe");
        let held: BTreeSet<i32> = pile_view(&view).hand.iter().copied().collect();
        let missing = (1..=6)
            .find(|piece| !held.contains(piece))
            .expect("a piece not held");
        let play = pb::Action {
            kind: Some(pb::action::Kind::PileChess(pb::PileChessAction {
                kind: Some(pb::pile_chess_action::Kind::Play(pb::PileChessPlay {
                    piece: missing,
                    pile: 1,
                })),
            })),
        };
        let error = game.seats[0].act(play).await.expect_err("a card not held");
        assert_eq!(error.reason(), Some("ILLEGAL_ACTION"), "{error:?}");
        assert_eq!(game.seats[0].observe().await.expect("observe").version, 0);
    });
}

#[test]
fn bad_team_lists_are_refused_with_a_field_violation_on_the_list_or_the_team() {
    run(async {
        let server = Server::shared();
        let client = server.client().await;
        let cases: [(u32, &[&[u32]], &str, &str); 9] = [
            (
                4,
                &[&[0, 1, 2, 3]],
                "config.pile_chess.teams",
                "at least two teams",
            ),
            (
                3,
                &[&[0], &[]],
                "config.pile_chess.teams[1]",
                "at least one seat",
            ),
            (
                4,
                &[&[0, 9], &[1, 2, 3]],
                "config.pile_chess.teams[0]",
                "seat 9",
            ),
            (
                4,
                &[&[0, 1], &[1, 2, 3]],
                "config.pile_chess.teams[1]",
                "listed twice",
            ),
            (
                3,
                &[&[0, 2], &[2, 1]],
                "config.pile_chess.teams[1]",
                "listed twice",
            ),
            (
                3,
                &[&[0], &[2]],
                "config.pile_chess.teams",
                "seat 1 is in no team",
            ),
            (
                4,
                &[&[1], &[2], &[3]],
                "config.pile_chess.teams",
                "seat 0 is in no team",
            ),
            // Lists that are splits of other seat counts than the game's.
            (
                3,
                &[&[0, 2], &[1, 3]],
                "config.pile_chess.teams[1]",
                "seat 3 is not a seat of this game",
            ),
            (
                4,
                &[&[0], &[1, 2]],
                "config.pile_chess.teams",
                "seat 3 is in no team",
            ),
        ];
        for (seats, teams, field, needle) in cases {
            let status = create_raw(&client, pile_chess(teams), seats)
                .await
                .expect_err("a bad team list");
            let violation = crate::support::field_violation(&status);
            assert_eq!(
                violation.field, field,
                "{teams:?}: {}",
                violation.description
            );
            assert!(
                violation.description.contains(needle),
                "{teams:?}: {:?} should say {needle:?}",
                violation.description
            );
        }
        // Every split of the seats into two or more teams is a game, teams of one included.
        for (seats, teams) in [
            (2, &[&[1u32][..], &[0]][..]),
            (3, &[&[0], &[1, 2]]),
            (3, &[&[0], &[1], &[2]]),
            (4, &[&[3], &[0, 1, 2]]),
            (4, &[&[0], &[1], &[2, 3]]),
        ] {
            let created = create_raw(&client, pile_chess(teams), seats)
                .await
                .unwrap_or_else(|status| panic!("{teams:?}: {status:?}"));
            assert_eq!(created.seat_tokens.len(), seats as usize);
        }
    });
}
