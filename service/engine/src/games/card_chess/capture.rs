//! §5 "Who may capture whom", with the Ace rule of §8.2 as a config option.

use super::config::AceCapture;
use crate::cards::Rank;

/// How a card fights: a Pawn with its number, a face card, or an Ace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    /// 2–10, with the number.
    Pawn(u8),
    /// Jack, Queen or King.
    Face,
    /// Ace.
    Ace,
}

impl Class {
    /// The class of a card's rank.
    pub(crate) fn of(rank: Rank) -> Class {
        if rank.is_number() {
            Class::Pawn(rank.value())
        } else if rank.is_face() {
            Class::Face
        } else {
            Class::Ace
        }
    }
}

/// §5: whether a piece of rank `attacker` may capture a piece of rank `target` (both not in
/// check; the caller checks that and that the target is an enemy).
///
/// * A Pawn captures only a Pawn of equal or lower number.
/// * A face card captures any face card and any Pawn.
/// * An Ace captures anything. With [`AceCapture::OnlyAces`] (default, §8.2) only an Ace
///   captures an Ace; with [`AceCapture::AsFaceCard`] the Ace is a face card for captures, so
///   face cards capture it too (and it still captures everything, being a face card that takes
///   face cards and Pawns).
pub(crate) fn may_capture(rule: AceCapture, attacker: Rank, target: Rank) -> bool {
    match (Class::of(attacker), Class::of(target)) {
        (Class::Ace, _) => true,
        (Class::Face, Class::Ace) => rule == AceCapture::AsFaceCard,
        (Class::Face, Class::Face | Class::Pawn(_)) => true,
        (Class::Pawn(mine), Class::Pawn(theirs)) => theirs <= mine,
        (Class::Pawn(_), Class::Face | Class::Ace) => false,
    }
}
