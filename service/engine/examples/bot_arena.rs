//! Bot against bot, in process: how the levels compare in one game.
//!
//! ```text
//! cargo run --release -p deckmate-engine --example bot_arena -- <game_id> <levelA> <levelB> <games> [seats]
//! ```
//!
//! Levels are `random`, `greedy` and `search`, each with its standard budget
//! (`Budget::standard`). Game `i` is dealt from seed `i`; bot A takes seat `i % seats`, so the
//! seats alternate from game to game, and bot B plays every other seat (in a game for more than
//! two seats, A plays alone against several B bots). `seats` defaults to the game's smallest
//! count. Progress is printed every tenth of the run; the last line is the summary:
//!
//! ```text
//! a=search b=greedy games=200 win=.. draw=.. loss=.. score=0.62 ci95=[0.55,0.69] ms_a=.. ms_b=..
//! ```
//!
//! `score` is (wins + draws / 2) / games from A's side, `ci95` its Wilson 95% interval, and
//! `ms_a`, `ms_b` the mean time each side took per move.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use deckmate_engine::bots::{self, BotLevel, Budget};
use deckmate_engine::{Game, GameKind, Seat, Seed, Table, with_game};

/// The arena's parameters, from the command line.
struct Args {
    kind: GameKind,
    a: BotLevel,
    b: BotLevel,
    games: u32,
    seats: Option<usize>,
}

/// Wins, draws and losses from A's side, and the thinking time of each side.
#[derive(Default)]
struct Tally {
    win: u32,
    draw: u32,
    loss: u32,
    time: [Duration; 2],
    moves: [u32; 2],
}

fn main() -> ExitCode {
    let Some(args) = parse(std::env::args().skip(1).collect()) else {
        eprintln!(
            "usage: bot_arena <game_id> <random|greedy|search> <random|greedy|search> <games> [seats]"
        );
        return ExitCode::FAILURE;
    };
    let tally = with_game!(args.kind, G => run::<G>(&args));
    let Some(tally) = tally else {
        return ExitCode::FAILURE;
    };
    println!("{}", summary(&args, &tally));
    ExitCode::SUCCESS
}

fn parse(args: Vec<String>) -> Option<Args> {
    let [game, a, b, games, rest @ ..] = args.as_slice() else {
        return None;
    };
    Some(Args {
        kind: GameKind::from_id(game)?,
        a: BotLevel::from_name(a)?,
        b: BotLevel::from_name(b)?,
        games: games.parse().ok()?,
        seats: match rest {
            [] => None,
            [seats] => Some(seats.parse().ok()?),
            _ => return None,
        },
    })
}

fn run<G: Game>(args: &Args) -> Option<Tally> {
    let seats = args.seats.unwrap_or(*G::SEATS.start());
    if !G::SEATS.contains(&seats) {
        eprintln!("{} is for {:?} seats", G::ID, G::SEATS);
        return None;
    }
    let mut tally = Tally::default();
    let every = (args.games / 10).max(1);
    for game in 0..args.games {
        let a_seat = Seat((game as usize % seats) as u8);
        let (mut table, _) =
            Table::<G>::new(&G::Config::default(), seats, Seed::from_u64(game.into()))
                .expect("the default options deal");
        let mut ply: u64 = 0;
        while !table.is_over() {
            let seat = table
                .to_act()
                .iter()
                .next()
                .expect("a running game has a seat to act");
            let side = usize::from(seat != a_seat);
            let level = if side == 0 { args.a } else { args.b };
            let seed = Seed::from_u64(u64::from(game) << 32 | ply);
            let started = Instant::now();
            let action = bots::choose(&table, seat, level, Budget::standard(level), seed, &|| {
                false
            })
            .expect("a seat to act gets an action");
            tally.time[side] += started.elapsed();
            tally.moves[side] += 1;
            table.apply(seat, &action).expect("a bot's action is legal");
            ply += 1;
        }
        let outcome = table.outcome().expect("the game is over");
        if outcome.winners.contains(a_seat) {
            tally.win += 1;
        } else if outcome.is_draw() {
            tally.draw += 1;
        } else {
            tally.loss += 1;
        }
        if (game + 1) % every == 0 {
            eprintln!(
                "{} game {}/{}: a at {a_seat}, {:?}, {ply} actions; so far {}",
                G::ID,
                game + 1,
                args.games,
                outcome.reason,
                summary(args, &tally)
            );
        }
    }
    Some(tally)
}

fn summary(args: &Args, tally: &Tally) -> String {
    let games = tally.win + tally.draw + tally.loss;
    let score = (f64::from(tally.win) + f64::from(tally.draw) / 2.0) / f64::from(games.max(1));
    let (low, high) = wilson(score, games);
    let ms =
        |side: usize| tally.time[side].as_secs_f64() * 1000.0 / f64::from(tally.moves[side].max(1));
    format!(
        "a={} b={} games={games} win={} draw={} loss={} score={score:.2} ci95=[{low:.2},{high:.2}] \
         ms_a={:.1} ms_b={:.1}",
        args.a.name(),
        args.b.name(),
        tally.win,
        tally.draw,
        tally.loss,
        ms(0),
        ms(1)
    )
}

/// The Wilson 95% interval of a proportion `p` observed over `n` trials.
fn wilson(p: f64, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.96f64;
    let n = f64::from(n);
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denominator;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}
