//! The bots (`deckmate_engine::bots`), over every registered game and seat count: bots finish
//! whole games with listed actions, answer deterministically, never peek at hidden information
//! (their answer does not change when the hidden state is redrawn), and stop when told; every
//! game's resample is canonical; every evaluation stays in `[0, 1]`.

use deckmate_engine::bots::{self, BotLevel, Budget};
use deckmate_engine::{Game, GameKind, GameRng, Seat, Seed, Table, TableAction, Viewer, with_game};
use rand::{Rng, SeedableRng};

/// A search small enough for debug builds: the tests check behaviour, not strength.
const SMALL: Budget = Budget {
    determinizations: 2,
    playouts: 6,
};

/// Never stop early.
fn never() -> bool {
    false
}

/// Every seat count the game supports.
fn seat_counts<G: Game>() -> impl Iterator<Item = usize> {
    G::SEATS
}

/// A new table of `seats` seats with the default options.
fn deal<G: Game>(seats: usize, seed: u64) -> Table<G> {
    Table::<G>::new(&G::Config::default(), seats, Seed::from_u64(seed))
        .unwrap_or_else(|error| panic!("{}: deal {seats} seats: {error}", G::ID))
        .0
}

/// The tables along one random game (every seat picking uniformly among its legal actions),
/// one every `every` actions, up to `limit` of them.
fn random_walk<G: Game>(seats: usize, seed: u64, every: usize, limit: usize) -> Vec<Table<G>> {
    let mut table = deal::<G>(seats, seed);
    let mut rng = GameRng::seed_from_u64(seed ^ 0x5eed);
    let mut tables = Vec::new();
    let mut ply = 0;
    while !table.is_over() && tables.len() < limit {
        if ply % every == 0 {
            tables.push(table.clone());
        }
        let actors: Vec<Seat> = table.to_act().iter().collect();
        let seat = actors[rng.random_range(0..actors.len())];
        let actions = table.legal_actions(seat);
        let action = actions[rng.random_range(0..actions.len())].clone();
        table
            .apply(seat, &TableAction::Game(action))
            .expect("a listed action applies");
        ply += 1;
    }
    tables
}

/// The bot's choice with a budget fit for `level` in tests.
fn pick<G: Game>(table: &Table<G>, seat: Seat, level: BotLevel, seed: u64) -> Option<G::Action> {
    let budget = match level {
        BotLevel::Search => SMALL,
        _ => Budget::standard(level),
    };
    match bots::choose(table, seat, level, budget, Seed::from_u64(seed), &never)? {
        TableAction::Game(action) => Some(action),
        TableAction::Meta(meta) => panic!("{}: a bot chose the meta action {meta:?}", G::ID),
        TableAction::TimeOut | TableAction::MovedOnTimeout(_) => {
            panic!("{}: a bot chose a timeout", G::ID)
        }
    }
}

fn for_every_game(check: impl Fn(GameKind)) {
    for kind in GameKind::ALL {
        check(*kind);
    }
}

/// Bots of every level, mixed at one table, play whole games to their end for every seat count,
/// always choosing a listed action of a seat that is to act.
#[test]
fn bots_finish_whole_games() {
    for_every_game(|kind| with_game!(kind, G => finish_games::<G>()));
}

fn finish_games<G: Game>() {
    for seats in seat_counts::<G>() {
        for seed in 0..BotLevel::ALL.len() as u64 {
            let mut table = deal::<G>(seats, seed);
            let mut plies = 0u64;
            while !table.is_over() {
                let seat = table
                    .to_act()
                    .iter()
                    .next()
                    .expect("a running game has a seat to act");
                let level = BotLevel::ALL[(seat.index() + seed as usize) % BotLevel::ALL.len()];
                let action = pick(&table, seat, level, seed * 7919 + plies)
                    .unwrap_or_else(|| panic!("{}: {level:?} gave no action for {seat}", G::ID));
                assert!(
                    table.legal_actions(seat).contains(&action),
                    "{}: {level:?} chose {action}, which is not listed",
                    G::ID
                );
                table
                    .apply(seat, &TableAction::Game(action))
                    .expect("a listed action applies");
                plies += 1;
            }
            assert!(
                table.outcome().is_some(),
                "{}: ended without an outcome",
                G::ID
            );
        }
    }
}

/// The same table, seat, level, budget and seed give the same action; the bot answers `None`
/// for a seat that may not act.
#[test]
fn same_seed_same_action() {
    for_every_game(|kind| with_game!(kind, G => same_seed::<G>()));
}

fn same_seed<G: Game>() {
    for seats in seat_counts::<G>() {
        for table in random_walk::<G>(seats, 11, 7, 6) {
            for seat in (0..seats as u8).map(Seat) {
                for level in BotLevel::ALL {
                    let first = pick(&table, seat, level, 99);
                    assert_eq!(first, pick(&table, seat, level, 99), "{}: {level:?}", G::ID);
                    assert_eq!(
                        first.is_some(),
                        table.to_act().contains(seat),
                        "{}: {level:?} answered for {seat} exactly when it may act",
                        G::ID
                    );
                }
            }
        }
    }
}

/// The no-peek test: a bot's answer does not change when everything its seat cannot see is
/// redrawn. Along random games, for every seat to act and every level, the answer at the true
/// table equals the answer at the table whose state is a resample for that seat.
#[test]
fn bots_never_peek() {
    for_every_game(|kind| with_game!(kind, G => never_peek::<G>()));
}

fn never_peek<G: Game>() {
    for seats in seat_counts::<G>() {
        for seed in 0..3 {
            for table in random_walk::<G>(seats, 100 + seed, 5, 12) {
                for seat in table.to_act().iter() {
                    let mut rng = GameRng::seed_from_u64(seed * 31 + seat.index() as u64);
                    let redrawn = G::resample(table.state(), Viewer::Seat(seat), &mut rng);
                    let other = table.with_state(redrawn);
                    for level in BotLevel::ALL {
                        assert_eq!(
                            pick(&table, seat, level, seed),
                            pick(&other, seat, level, seed),
                            "{}: {level:?} for {seat} depends on hidden information",
                            G::ID
                        );
                    }
                }
            }
        }
    }
}

/// Every game's resample depends only on what the viewer sees and on the generator: resampling a
/// resample gives what resampling the original gives, for the same generator, for every viewer.
#[test]
fn resample_is_canonical() {
    for_every_game(|kind| with_game!(kind, G => canonical_resample::<G>()));
}

fn canonical_resample<G: Game>() {
    for seats in seat_counts::<G>() {
        for seed in 0..12 {
            for table in random_walk::<G>(seats, 200 + seed, 3, 40) {
                let viewers = (0..seats as u8)
                    .map(|seat| Viewer::Seat(Seat(seat)))
                    .chain([Viewer::Spectator]);
                for viewer in viewers {
                    let r1 = seed * 1000 + 1;
                    let r2 = seed * 1000 + 2;
                    let once = G::resample(table.state(), viewer, &mut GameRng::seed_from_u64(r1));
                    let twice_from_once =
                        G::resample(&once, viewer, &mut GameRng::seed_from_u64(r2));
                    let direct =
                        G::resample(table.state(), viewer, &mut GameRng::seed_from_u64(r2));
                    assert!(
                        twice_from_once == direct,
                        "{}: resample for {viewer:?} depends on the hidden arrangement\n\
                         via a resample: {twice_from_once:?}\ndirect: {direct:?}",
                        G::ID
                    );
                }
            }
        }
    }
}

/// A search told to stop at once still answers with a listed action.
#[test]
fn stopped_search_still_answers() {
    for_every_game(|kind| with_game!(kind, G => stopped_search::<G>()));
}

fn stopped_search<G: Game>() {
    let huge = Budget {
        determinizations: 1_000_000,
        playouts: 1_000_000,
    };
    for seats in seat_counts::<G>() {
        for table in random_walk::<G>(seats, 300, 9, 5) {
            for seat in table.to_act().iter() {
                let answer = bots::choose(
                    &table,
                    seat,
                    BotLevel::Search,
                    huge,
                    Seed::from_u64(5),
                    &|| true,
                );
                let Some(TableAction::Game(action)) = answer else {
                    panic!("{}: a stopped search gave {answer:?}", G::ID);
                };
                assert!(table.legal_actions(seat).contains(&action), "{}", G::ID);
            }
        }
    }
}

/// Every game's evaluation stays in `[0, 1]` for every seat, and a finished game evaluates to
/// its outcome: 1 for a winner, 0 for a loser, 1/2 for a draw.
#[test]
fn evaluations_stay_in_range() {
    for_every_game(|kind| with_game!(kind, G => evaluation_range::<G>()));
}

fn evaluation_range<G: Game>() {
    for seats in seat_counts::<G>() {
        for seed in 0..4 {
            let walk = random_walk::<G>(seats, 400 + seed, 1, usize::MAX);
            let last = walk.last().expect("a game has at least its first table");
            for table in walk.iter().step_by(4).chain([last]) {
                for seat in (0..seats as u8).map(Seat) {
                    let value = G::evaluate(table.state(), seat);
                    assert!(
                        (0.0..=1.0).contains(&value),
                        "{}: {value} for {seat}",
                        G::ID
                    );
                }
            }
            let mut end = last.clone();
            while !end.is_over() {
                let seat = end.to_act().iter().next().expect("a seat to act");
                let action = end.legal_actions(seat)[0].clone();
                end.apply(seat, &TableAction::Game(action)).expect("listed");
            }
            if let Some(outcome) = G::outcome(end.state()) {
                for seat in (0..seats as u8).map(Seat) {
                    assert_eq!(
                        G::evaluate(end.state(), seat),
                        bots::outcome_score(&outcome, seat),
                        "{}: a finished game evaluates to its outcome",
                        G::ID
                    );
                }
            }
        }
    }
}

/// The standard budgets: Random and Greedy do not search, Search does.
#[test]
fn standard_budgets_and_level_names() {
    assert_eq!(Budget::standard(BotLevel::Random).playouts, 0);
    let search = Budget::standard(BotLevel::Search);
    assert!(search.determinizations > 1 && search.playouts > 0);
    for level in BotLevel::ALL {
        assert_eq!(BotLevel::from_name(level.name()), Some(level));
    }
}
