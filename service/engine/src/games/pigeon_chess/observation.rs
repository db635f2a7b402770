//! What one viewer sees (docs/rules/pigeon_chess.md §6). Face-down cards of others, other hands and
//! deck order cannot be represented here.

use super::config::Config;
use super::piece::Role;
use crate::seat::Seat;

/// The stage of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Phase {
    /// §2.2: both seats choose their front rows.
    FrontRow,
    /// §2.3: both seats choose their back rows.
    BackRow,
    /// §2.4: both seats pick the card that decides the first player.
    FirstPlayer,
    /// §3: turns.
    Play,
    /// §5: the game has ended.
    Finished,
}

/// One spot as the viewer sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
pub struct SpotView {
    /// The owner of the card on the spot; `None` when empty.
    pub owner: Option<Seat>,
    /// Whether the card lies face down.
    pub face_down: bool,
    /// The piece; `None` when empty, or face down and not the viewer's own card.
    pub piece: Option<Role>,
}

/// One seat's public state.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PlayerView {
    /// Cards in hand.
    pub hand_count: u32,
    /// Cards left in the draw pile.
    pub deck_count: u32,
    /// The point pile, oldest first.
    pub point_pile: Vec<Role>,
    /// Whether the seat's King has not been attacked (§4).
    pub king_alive: bool,
    /// Score if the game ended now (§4).
    pub score: u32,
    /// During a setup step: whether the seat has made its secret choice.
    pub committed: bool,
    /// Cards the seat revealed to choose the first player (§2.4), public from then on.
    pub first_player_reveals: Vec<Role>,
}

/// Pigeon Chess as one viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Observation {
    /// The stage.
    pub phase: Phase,
    /// The 12 spots in the order of [`super::piece::Spot::all`].
    pub board: [SpotView; 12],
    /// Every seat's public state, by seat.
    pub players: Vec<PlayerView>,
    /// The viewer's own hand, highest worth first; empty for spectators.
    pub hand: Vec<Role>,
    /// The group discard, oldest first.
    pub group_discard: Vec<Role>,
    /// The first player, once chosen.
    pub first_player: Option<Seat>,
    /// Whose turn it is during play.
    pub current_player: Option<Seat>,
    /// Turns taken in play so far, passes included.
    pub turn: u32,
    /// Consecutive turns without progress (§5(e)).
    pub turns_without_progress: u32,
    /// The effective config.
    pub config: Config,
}
