//! Plays one game of Pigeon Chess between two random agents on a running Deckmate server.
//!
//! ```text
//! cargo run -p deckmate-server &
//! DECKMATE_ADDR=http://127.0.0.1:50051 cargo run -p deckmate --example random_pigeon_chess
//! ```
//!
//! Each round observes every seat; a seat with legal actions picks one at random and sends it
//! with the version it observed, so a game that moved on in between rejects it instead of
//! applying it blindly.

use deckmate::{ActOptions, Client, CreateOptions, Error, pb};
use rand::seq::IndexedRandom;

/// The server address when `DECKMATE_ADDR` is not set.
const DEFAULT_ADDR: &str = "http://127.0.0.1:50051";

/// Rounds in which nobody could act before the example gives up: a finished game says so, and a
/// running game always has a seat to act.
const MAX_IDLE_ROUNDS: u32 = 3;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let addr = std::env::var("DECKMATE_ADDR").unwrap_or_else(|_| DEFAULT_ADDR.to_string());
    let client = Client::connect(addr.clone()).await?;
    let config = pb::GameConfig {
        game: Some(pb::game_config::Game::PigeonChess(
            pb::PigeonChessConfig::default(),
        )),
    };
    let game = client
        .create_game(config, 2, CreateOptions::default())
        .await?;
    println!("game {} ({}) on {addr}", game.id, game.variant);

    let mut rng = rand::rng();
    let mut idle_rounds = 0;
    let outcome = loop {
        let mut acted = false;
        let mut finished = None;
        for seat in &game.seats {
            let view = seat.observe().await?;
            if view.status() == pb::GameStatus::Finished {
                finished = Some(view.outcome.unwrap_or_default());
                break;
            }
            let Some(action) = view.legal_actions.choose(&mut rng) else {
                continue;
            };
            match seat
                .act_with(action.clone(), ActOptions::expecting(view.version))
                .await
            {
                Ok(response) => {
                    acted = true;
                    println!(
                        "v{:>3}  seat {}: {}",
                        response.version,
                        seat.seat(),
                        describe(action)
                    );
                }
                // Another client moved the game on; observe again next round.
                Err(Error::StaleVersion { .. }) => {}
                Err(error) => return Err(error.into()),
            }
        }
        if let Some(outcome) = finished {
            break outcome;
        }
        idle_rounds = if acted { 0 } else { idle_rounds + 1 };
        if idle_rounds >= MAX_IDLE_ROUNDS {
            return Err("the game is running but no seat has a legal action".into());
        }
    };

    println!(
        "game over: {} (reason {:?}, scores {:?})",
        outcome.description,
        outcome.reason(),
        outcome.scores
    );
    Ok(())
}

/// A short human description of a Pigeon Chess action.
fn describe(action: &pb::Action) -> String {
    use pb::pigeon_chess_action::Kind;
    match &action.kind {
        Some(pb::action::Kind::Meta(meta)) => format!("{:?}", meta.kind()),
        Some(pb::action::Kind::PigeonChess(pigeon)) => match &pigeon.kind {
            Some(Kind::PlaceFrontRow(row)) => format!("front row {}", pieces(&row.pieces)),
            Some(Kind::PlaceBackRow(row)) => format!("back row {}", pieces(&row.pieces)),
            Some(Kind::RevealForFirst(reveal)) => {
                format!("reveals {} for first player", piece(reveal.piece))
            }
            Some(Kind::Move(step)) => format!("{} -> {}", step.from, step.to),
            Some(Kind::Place(place)) => format!("places {} on {}", piece(place.piece), place.spot),
            Some(Kind::EndGame(_)) => "ends the game".to_string(),
            Some(Kind::Pass(_)) => "passes".to_string(),
            None => "empty action".to_string(),
        },
        Some(other) => format!("{other:?}"),
        None => "empty action".to_string(),
    }
}

/// Pieces as letters, such as "P N B".
fn pieces(pieces: &[i32]) -> String {
    pieces
        .iter()
        .map(|&value| piece(value))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One piece as its chess letter.
fn piece(value: i32) -> &'static str {
    match pb::PigeonChessPiece::try_from(value) {
        Ok(pb::PigeonChessPiece::Pawn) => "P",
        Ok(pb::PigeonChessPiece::Knight) => "N",
        Ok(pb::PigeonChessPiece::Bishop) => "B",
        Ok(pb::PigeonChessPiece::Rook) => "R",
        Ok(pb::PigeonChessPiece::Queen) => "Q",
        Ok(pb::PigeonChessPiece::King) => "K",
        Ok(pb::PigeonChessPiece::Unspecified) | Err(_) => "?",
    }
}
