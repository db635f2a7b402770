//! Unit tests of [`Session`]: its views, stored formats and past versions, on Pigeon Chess.

use super::*;
use crate::codec::test_support::Picker;
use deckmate_engine::MetaAction;
use deckmate_engine::games::pigeon_chess::{Config, PigeonChess};
use pb::pigeon_chess_event::Kind as PcEvent;

type PcSession = Session<PigeonChess>;

const S0: Viewer = Viewer::Seat(Seat(0));
const S1: Viewer = Viewer::Seat(Seat(1));

fn new_session(seed: u64) -> PcSession {
    Session::new(Config::default(), 2, Seed::from_u64(seed)).unwrap()
}

/// One random legal game action, sent through the wire format.
fn random_step(session: &mut PcSession, picker: &mut Picker) -> Seat {
    let seats: Vec<Seat> = session.table.to_act().iter().collect();
    let seat = seats[picker.below(seats.len())];
    let legal = session.table.legal_actions(seat);
    let action = PigeonChess::encode_action(&legal[picker.below(legal.len())]);
    session.act(seat, &action).unwrap();
    seat
}

fn meta(action: MetaAction) -> pb::Action {
    pb::Action {
        kind: Some(pb::action::Kind::Meta(encode_meta_action(action))),
    }
}

fn pc_events(events: &[pb::Event]) -> impl Iterator<Item = (&pb::Event, &PcEvent)> {
    events.iter().filter_map(|event| match &event.kind {
        Some(pb::event::Kind::PigeonChess(pb::PigeonChessEvent { kind: Some(kind) })) => {
            Some((event, kind))
        }
        _ => None,
    })
}

#[test]
fn a_new_game_shows_setup_to_seats_and_spectators() {
    let session = new_session(1);
    assert_eq!(session.version(), 0);
    assert_eq!(session.kind(), GameKind::PigeonChess);
    assert!(!session.is_over());

    let view = session.view(S0);
    assert_eq!(view.variant, "pigeon_chess");
    assert!(view.game_id.is_empty());
    assert_eq!(view.version, 0);
    assert_eq!(view.status, pb::GameStatus::InProgress as i32);
    assert_eq!(view.outcome, None);
    assert_eq!(view.to_act, vec![0, 1]);
    assert_eq!(view.seat, Some(0));
    assert_eq!(view.seats, 2);
    assert_eq!(view.draw_offered_by, None);
    let legal: Vec<pb::Action> = session
        .table
        .legal_actions(Seat(0))
        .iter()
        .map(PigeonChess::encode_action)
        .collect();
    assert!(!legal.is_empty());
    assert_eq!(view.legal_actions, legal);
    assert_eq!(
        view.meta_actions,
        vec![
            encode_meta_action(MetaAction::Resign),
            encode_meta_action(MetaAction::OfferDraw)
        ]
    );
    assert!(!view.recent_events.is_empty());
    assert!(
        view.recent_events
            .iter()
            .all(|e| e.version == 0 && e.seat.is_none())
    );
    assert!(view.observation.is_some());

    let spectator = session.view(Viewer::Spectator);
    assert_eq!(spectator.seat, None);
    assert!(spectator.legal_actions.is_empty());
    assert!(spectator.meta_actions.is_empty());
    assert_eq!(spectator.to_act, vec![0, 1]);
}

#[test]
fn actions_grow_the_version_and_report_their_events() {
    let mut session = new_session(2);
    let mut picker = Picker::new(2);
    for expected in 1..=10u64 {
        let seat = random_step(&mut session, &mut picker);
        assert_eq!(session.version(), expected);
        let view = session.view(Viewer::Seat(seat));
        assert_eq!(view.version, expected);
        assert!(!view.recent_events.is_empty());
        for event in &view.recent_events {
            assert_eq!(event.version, expected);
            assert_eq!(event.seat, Some(u32::from(seat.0)));
        }
    }
}

#[test]
fn rejected_actions_change_nothing() {
    let mut session = new_session(3);
    let mut picker = Picker::new(3);
    // Play into the turn phase, where exactly one seat is to act.
    while session.table.to_act().len() != 1 {
        random_step(&mut session, &mut picker);
    }
    let before = session.encode().unwrap();
    let mover = session.table.to_act().iter().next().unwrap();
    let waiting = mover.opponent();
    let some_action = PigeonChess::encode_action(&session.table.legal_actions(mover)[0]);

    let attempts = [
        (waiting, some_action.clone(), "not your turn"),
        (mover, pb::Action { kind: None }, "no kind"),
        (
            mover,
            PigeonChess::encode_action(
                &deckmate_engine::games::pigeon_chess::Action::PlaceFrontRow(
                    [deckmate_engine::chess::Role::Pawn; 3],
                ),
            ),
            "illegal",
        ),
        (mover, meta(MetaAction::AcceptDraw), "no offer"),
        (Seat(7), some_action.clone(), "no such seat"),
    ];
    let mut errors = Vec::new();
    for (seat, action, label) in attempts {
        let error = session.act(seat, &action).expect_err(label);
        assert_eq!(
            session.encode().unwrap(),
            before,
            "{label} changed the session"
        );
        errors.push(error);
    }
    assert_eq!(errors[0], ApiError::NotYourTurn);
    assert!(matches!(&errors[1], ApiError::InvalidField { field, .. } if field == "action"));
    assert!(matches!(errors[2], ApiError::IllegalAction(_)));
    assert!(matches!(errors[3], ApiError::IllegalAction(_)));
    assert_eq!(errors[4], ApiError::NotYourTurn);

    session.act(waiting, &meta(MetaAction::Resign)).unwrap();
    assert!(session.is_over());
    let finished = session.encode().unwrap();
    assert_eq!(session.act(mover, &some_action), Err(ApiError::GameOver));
    assert_eq!(session.encode().unwrap(), finished);
    let view = session.view(Viewer::Spectator);
    assert_eq!(view.status, pb::GameStatus::Finished as i32);
    let outcome = view.outcome.expect("outcome");
    assert_eq!(outcome.winners, vec![u32::from(mover.0)]);
    assert_eq!(outcome.reason, pb::EndReason::Resignation as i32);
    assert!(view.to_act.is_empty());
    assert!(session.view(Viewer::Seat(mover)).meta_actions.is_empty());
}

#[test]
fn draw_offers_show_in_the_view_and_can_end_the_game() {
    let mut session = new_session(4);
    session.act(Seat(0), &meta(MetaAction::OfferDraw)).unwrap();
    let view = session.view(S1);
    assert_eq!(view.draw_offered_by, Some(0));
    assert_eq!(
        view.meta_actions,
        vec![
            encode_meta_action(MetaAction::Resign),
            encode_meta_action(MetaAction::AcceptDraw),
            encode_meta_action(MetaAction::DeclineDraw)
        ]
    );
    assert_eq!(
        view.recent_events[0].kind,
        Some(pb::event::Kind::Meta(pb::MetaEvent {
            kind: pb::MetaEventKind::DrawOffered as i32,
            seat: 0
        }))
    );
    session.act(Seat(1), &meta(MetaAction::AcceptDraw)).unwrap();
    let view = session.view(S0);
    assert_eq!(view.status, pb::GameStatus::Finished as i32);
    let outcome = view.outcome.unwrap();
    assert!(outcome.draw);
    assert_eq!(outcome.description, "draw by agreement");
    assert!(
        view.recent_events
            .iter()
            .any(|e| matches!(e.kind, Some(pb::event::Kind::GameEnded(_))))
    );
}

/// Plays a whole random game, recording every viewer's view right after each action.
fn played_game(seed: u64) -> (PcSession, Vec<[pb::ObserveResponse; 3]>) {
    let mut session = new_session(seed);
    let mut picker = Picker::new(seed);
    let mut recorded = vec![[
        session.view(S0),
        session.view(S1),
        session.view(Viewer::Spectator),
    ]];
    while !session.is_over() {
        random_step(&mut session, &mut picker);
        recorded.push([
            session.view(S0),
            session.view(S1),
            session.view(Viewer::Spectator),
        ]);
    }
    (session, recorded)
}

#[test]
fn past_views_replay_exactly() {
    for seed in [11, 12] {
        let (session, recorded) = played_game(seed);
        let current = session.version();
        assert_eq!(recorded.len() as u64, current + 1);
        for (index, viewer) in [S0, S1, Viewer::Spectator].into_iter().enumerate() {
            let views = session.views_between(viewer, 0, current).unwrap();
            assert_eq!(views.len() as u64, current);
            for (offset, view) in views.iter().enumerate() {
                assert_eq!(view.version, offset as u64 + 1);
                assert_eq!(view, &recorded[offset + 1][index]);
            }
            assert_eq!(views.last(), Some(&session.view(viewer)));

            let tail = session.views_between(viewer, current - 3, current).unwrap();
            assert_eq!(tail.as_slice(), &views[views.len() - 3..]);
            // Any page, including one across a snapshot boundary.
            for (after, up_to) in [(3, 7), (60, 70.min(current)), (0, 1)] {
                let page = session.views_between(viewer, after, up_to).unwrap();
                assert_eq!(page.as_slice(), &views[after as usize..up_to as usize]);
            }
            assert_eq!(
                session.views_between(viewer, current - 1, current).unwrap(),
                vec![session.view(viewer)]
            );
            assert!(
                session
                    .views_between(viewer, current, current)
                    .unwrap()
                    .is_empty()
            );

            for version in [0, 1, current / 2, current - 1, current] {
                let view = session.view_at(viewer, version).unwrap();
                assert_eq!(view, recorded[version as usize][index]);
            }
        }
        assert!(matches!(
            session.views_between(S0, current, current + 1),
            Err(ApiError::InvalidRequest(_))
        ));
        assert!(matches!(
            session.view_at(S0, current + 1),
            Err(ApiError::InvalidRequest(_))
        ));
    }
}

/// Whether any event of `seat` in `events` shows a hidden detail.
fn shows_secrets_of(events: &[pb::Event], seat: u32) -> bool {
    pc_events(events).any(|(_, kind)| match kind {
        PcEvent::CardsDrawn(drawn) => drawn.seat == seat && !drawn.pieces.is_empty(),
        PcEvent::RowCommitted(row) => row.seat == seat && !row.pieces.is_empty(),
        PcEvent::FirstPlayerPicked(pick) => pick.seat == seat && pick.piece.is_some(),
        PcEvent::Placed(placed) => placed.seat == seat && placed.piece.is_some(),
        _ => false,
    })
}

#[test]
fn history_hides_secrets_while_running_and_reveals_them_at_the_end() {
    let mut session = new_session(21);
    let mut picker = Picker::new(21);
    // Play until seat 1 has placed a card face down, with the game still running.
    let placed_by_one = |session: &PcSession| {
        let (events, _) = session.history(S1, 0..=session.version()).unwrap();
        pc_events(&events).any(|(_, kind)| matches!(kind, PcEvent::Placed(p) if p.seat == 1))
    };
    while !placed_by_one(&session) {
        assert!(!session.is_over(), "seat 1 never placed a card");
        random_step(&mut session, &mut picker);
    }
    assert!(!session.is_over());

    let (seen_by_zero, actions) = session.history(S0, 0..=session.version()).unwrap();
    assert!(actions.is_empty());
    assert!(!shows_secrets_of(&seen_by_zero, 1));
    // The counts and spots stay public.
    let hidden_draws: Vec<_> = pc_events(&seen_by_zero)
        .filter_map(|(_, kind)| match kind {
            PcEvent::CardsDrawn(drawn) if drawn.seat == 1 => Some(drawn.count),
            _ => None,
        })
        .collect();
    assert!(!hidden_draws.is_empty() && hidden_draws.iter().all(|count| *count > 0));
    let hidden_placements: Vec<_> = pc_events(&seen_by_zero)
        .filter_map(|(_, kind)| match kind {
            PcEvent::Placed(placed) if placed.seat == 1 => Some(placed),
            _ => None,
        })
        .collect();
    assert!(!hidden_placements.is_empty());
    assert!(
        hidden_placements
            .iter()
            .all(|p| p.piece.is_none() && !p.spot.is_empty())
    );
    // A seat sees its own secrets.
    assert!(shows_secrets_of(&seen_by_zero, 0));
    let (seen_by_one, _) = session.history(S1, 0..=session.version()).unwrap();
    assert!(shows_secrets_of(&seen_by_one, 1) && !shows_secrets_of(&seen_by_one, 0));
    let (public, actions) = session
        .history(Viewer::Spectator, 0..=session.version())
        .unwrap();
    assert!(actions.is_empty());
    assert!(!shows_secrets_of(&public, 0) && !shows_secrets_of(&public, 1));

    // Setup events are version 0 without a seat; later ones carry their action's seat.
    let setup: Vec<_> = public.iter().take_while(|e| e.version == 0).collect();
    assert!(!setup.is_empty() && setup.iter().all(|e| e.seat.is_none()));
    assert!(
        public
            .windows(2)
            .all(|pair| pair[0].version <= pair[1].version)
    );
    assert_eq!(public.last().unwrap().version, session.version());
    let log = session.log.entries().unwrap();
    for event in public.iter().filter(|e| e.version > 0) {
        let (seat, _) = &log[event.version as usize - 1];
        assert_eq!(event.seat, Some(u32::from(seat.0)));
    }

    while !session.is_over() {
        random_step(&mut session, &mut picker);
    }
    let (revealed, actions) = session
        .history(Viewer::Spectator, 0..=session.version())
        .unwrap();
    assert!(shows_secrets_of(&revealed, 0) && shows_secrets_of(&revealed, 1));
    assert!(pc_events(&revealed).all(|(_, kind)| match kind {
        PcEvent::CardsDrawn(drawn) => drawn.pieces.len() as u32 == drawn.count,
        PcEvent::RowCommitted(row) => row.pieces.len() == 3,
        PcEvent::FirstPlayerPicked(pick) => pick.piece.is_some(),
        PcEvent::Placed(placed) => placed.piece.is_some(),
        _ => true,
    }));
    assert_eq!(actions.len() as u64, session.version());
    let log = session.log.entries().unwrap();
    for (index, action) in actions.iter().enumerate() {
        let (seat, logged) = &log[index];
        assert_eq!(action.version, index as u64 + 1);
        assert_eq!(action.seat, u32::from(seat.0));
        let wire = action.action.as_ref().unwrap();
        assert_eq!(&decode_table_action::<PigeonChess>(wire).unwrap(), logged);
    }
    assert_eq!(
        session.history(S0, 0..=session.version()).unwrap().0,
        revealed
    );
    let last = session.view(S1);
    assert!(
        last.recent_events
            .iter()
            .any(|e| matches!(e.kind, Some(pb::event::Kind::GameEnded(_))))
    );
}

#[test]
fn bot_seats_are_stored_and_shown_to_every_viewer() {
    let mut session = new_session(41);
    session.set_bot_seats(vec![
        (Seat(1), BotLevel::Search),
        (Seat(0), BotLevel::Random),
    ]);
    let bots = [(Seat(0), BotLevel::Random), (Seat(1), BotLevel::Search)];
    assert_eq!(session.bot_seats(), &bots);
    let restored = PcSession::decode(&session.encode().unwrap()).unwrap();
    assert_eq!(restored.bot_seats(), &bots);
    let head = session.encode_head().unwrap();
    let entries = session.encode_entries(0).unwrap();
    let split = PcSession::decode_split(&head, &entries, None, 0).unwrap();
    assert_eq!(split.bot_seats(), &bots);
    for viewer in [S0, S1, Viewer::Spectator] {
        let levels: Vec<(u32, i32)> = restored
            .view(viewer)
            .seat_options
            .iter()
            .map(|option| (option.seat, option.bot))
            .collect();
        assert_eq!(
            levels,
            vec![
                (0, pb::BotLevel::Random as i32),
                (1, pb::BotLevel::Search as i32)
            ]
        );
    }
    // The formats before bot seats cannot hold them.
    assert!(session.encode_previous().is_err());
    assert!(session.encode_head_previous().is_err());
    // A stored bot seat the game does not have is corruption.
    let bad = StoredSessionWithBotsRef::<PigeonChess> {
        session: session.stored_ref(SESSION_FORMAT, &[]),
        bots: &[(Seat(5), 1)],
    };
    let bytes = postcard::to_allocvec(&bad).unwrap();
    assert!(matches!(
        PcSession::decode(&bytes),
        Err(ApiError::Internal(_))
    ));
}

#[test]
fn bots_choose_listed_actions() {
    let session = new_session(42);
    let seat = session.table.to_act().iter().next().unwrap();
    let level = BotLevel::Random;
    let pick = |seed| {
        session.bot_action(
            seat,
            level,
            Budget::standard(level),
            Seed::from_u64(seed),
            &|| false,
        )
    };
    let action = pick(1).expect("the seat may act");
    assert_eq!(pick(1), Some(action.clone()));
    assert!(
        session
            .view(Viewer::Seat(seat))
            .legal_actions
            .contains(&action)
    );
    let mut waiting = new_session(43);
    let mut picker = Picker::new(43);
    while waiting.table.to_act().len() != 1 {
        random_step(&mut waiting, &mut picker);
    }
    let idle = waiting.table.to_act().iter().next().unwrap().opponent();
    assert_eq!(
        waiting.bot_action(
            idle,
            level,
            Budget::standard(level),
            Seed::from_u64(1),
            &|| false
        ),
        None
    );
}

#[test]
fn encode_and_decode_round_trip() {
    let mut session = new_session(31);
    let mut picker = Picker::new(31);
    for _ in 0..25 {
        random_step(&mut session, &mut picker);
    }
    let bytes = session.encode().unwrap();
    assert_eq!(bytes[0], SESSION_FORMAT as u8);
    let restored = PcSession::decode(&bytes).unwrap();
    assert_eq!(restored.encode().unwrap(), bytes);
    // Kept apart (head plus one item per action), the same session comes back.
    let head = session.encode_head().unwrap();
    let entries = session.encode_entries(0).unwrap();
    assert_eq!(entries.len() as u64, session.version());
    let split = PcSession::decode_split(&head, &entries, None, 0).unwrap();
    assert_eq!(split.encode().unwrap(), bytes);
    let again = PcSession::decode_split(&head, &entries, Some(&split), 0).unwrap();
    assert_eq!(again.encode().unwrap(), bytes);
    // Only the actions after a copy's: the copy's log plus those.
    let shorter = PcSession::decode_split(&head, &entries[..3], None, 0).unwrap();
    let extended = PcSession::decode_split(&head, &entries[3..], Some(&shorter), 3).unwrap();
    assert_eq!(extended.encode().unwrap(), bytes);
    assert!(matches!(
        PcSession::decode_split(&head, &entries[3..], Some(&shorter), 4),
        Err(ApiError::Internal(_))
    ));
    assert!(matches!(
        PcSession::decode_split(&bytes, &entries, None, 0),
        Err(ApiError::Internal(_))
    ));
    assert_eq!(restored.table, session.table);
    assert_eq!(
        restored.log.entries().unwrap(),
        session.log.entries().unwrap()
    );
    assert_eq!(restored.seed, session.seed);
    for viewer in [S0, S1, Viewer::Spectator] {
        assert_eq!(restored.view(viewer), session.view(viewer));
    }
    assert_eq!(
        restored.history(S0, 0..=restored.version()),
        session.history(S0, 0..=session.version())
    );

    let mut newer = bytes.clone();
    newer[0] = 4;
    assert!(matches!(
        PcSession::decode(&newer),
        Err(ApiError::Internal(_))
    ));

    // The formats before bot seats still read, as a game without bots.
    let previous = session.encode_previous().unwrap();
    assert_eq!(previous[0], 2);
    let from_previous = PcSession::decode(&previous).unwrap();
    assert_eq!(from_previous.encode().unwrap(), bytes);
    let previous_head = session.encode_head_previous().unwrap();
    let from_head = PcSession::decode_split(&previous_head, &entries, None, 0).unwrap();
    assert_eq!(from_head.encode().unwrap(), bytes);
    assert!(matches!(
        PcSession::decode(&bytes[..bytes.len() / 2]),
        Err(ApiError::Internal(_))
    ));
    assert!(matches!(PcSession::decode(&[]), Err(ApiError::Internal(_))));

    let other_game = postcard::to_allocvec(&StoredSessionRef::<PigeonChess> {
        format: SESSION_FORMAT,
        game: "card_chess",
        config: &session.config,
        seats: 2,
        seed: &session.seed,
        log: &session.log.entries().unwrap(),
        table: &session.table,
        latest_events: &session.latest_events,
    })
    .unwrap();
    assert!(matches!(
        PcSession::decode(&other_game),
        Err(ApiError::Internal(_))
    ));
}

#[test]
fn debug_output_reveals_no_state() {
    let session = new_session(41);
    let text = format!("{session:?}");
    assert!(text.contains("pigeon_chess") && text.contains("version: 0"));
    assert!(!text.contains("Pawn") && !text.contains("seed"));
}

#[test]
fn bad_seat_counts_are_invalid_seats_fields() {
    for seats in [0, 1, 3] {
        let result = PcSession::new(Config::default(), seats, Seed::from_u64(1));
        assert!(matches!(result, Err(ApiError::InvalidField { field, .. }) if field == "seats"));
    }
}
