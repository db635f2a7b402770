//! §3 step 2, the play step: in seat order from the round's first player, each player still in
//! plays a hand card on any pile, passes, castles or moves Pawns en passant.
//!
//! The round's play step ends after a pass once every player still in, except the last one to
//! play, has passed since that play (§3, §5, §7.4); when nobody played, once everyone passed.
//! That also means everyone has acted at least once. Castling and en passant count as plays.

use super::action::Action;
use super::event::{Event, PileSource, PublicEvent};
use super::observation::Step;
use super::piece::{Card, Role};
use super::round;
use super::state::{State, distinct_pieces};
use crate::game::PlayError;
use crate::seat::{Seat, SeatSet};

/// The play-step actions of `seat`: every hand piece on every pile (King first, piles in seat
/// order), castling, every en passant move (from pile, to pile, fewest Pawns first), then pass.
pub(crate) fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    if state.step() != Step::Play || state.current != Some(seat) {
        return Vec::new();
    }
    let mut actions = Vec::new();
    let piles: Vec<Seat> = pile_owners(state).collect();
    for piece in distinct_pieces(&state.player(seat).hand) {
        for pile in &piles {
            actions.push(Action::Play { piece, pile: *pile });
        }
    }
    if castle_refusal(state, seat).is_none() {
        actions.push(Action::Castle);
    }
    if en_passant_refusal(state, seat).is_none() {
        for from in &piles {
            let own = own_pawns(state, *from, seat);
            for to in piles.iter().filter(|to| *to != from) {
                for pawns in 1..=own {
                    actions.push(Action::EnPassant {
                        from: *from,
                        to: *to,
                        pawns,
                    });
                }
            }
        }
    }
    actions.push(Action::Pass);
    actions
}

/// The owners of this round's piles, in seat order.
fn pile_owners(state: &State) -> impl Iterator<Item = Seat> + '_ {
    state.seats().filter(|seat| state.pile(*seat).is_some())
}

/// How many Pawns of `seat` lie on the pile of `owner`.
fn own_pawns(state: &State, owner: Seat, seat: Seat) -> u8 {
    state.pile(owner).map_or(0, |pile| {
        pile.cards
            .iter()
            .filter(|card| **card == Card::new(seat, Role::Pawn))
            .count() as u8
    })
}

/// Checks that the game is in its play step (the caller has checked `to_act`).
fn require_play_step(state: &State) -> Result<(), PlayError> {
    if state.step() == Step::Play {
        Ok(())
    } else {
        Err(PlayError::Illegal(
            "cards are played, passed, castled or moved only in the play step".into(),
        ))
    }
}

/// The pile of `owner`, or an error naming it.
fn require_pile(state: &State, owner: Seat) -> Result<(), PlayError> {
    if state.pile(owner).is_some() {
        Ok(())
    } else {
        Err(PlayError::Illegal(format!(
            "seat {} has no pile this round",
            owner.0
        )))
    }
}

/// §3 step 2 Play: a hand card goes on any pile and keeps its owner.
pub(crate) fn play(
    state: &mut State,
    seat: Seat,
    piece: Role,
    pile: Seat,
) -> Result<Vec<Event>, PlayError> {
    require_play_step(state)?;
    require_pile(state, pile)?;
    if !state.player(seat).holds(piece) {
        return Err(PlayError::Illegal(format!("you hold no {piece}")));
    }
    let player = state.player_mut(seat);
    player.hand[piece.index()] -= 1;
    player.pawns_only &= piece == Role::Pawn;
    if let Some(target) = state.piles[pile.index()].as_mut() {
        target.cards.push(Card::new(seat, piece));
    }
    let events = vec![Event::Public(PublicEvent::Played { seat, piece, pile })];
    after_play(state, seat);
    Ok(events)
}

/// §3 step 2 Pass. Ends the play step when the round-ending rule holds.
pub(crate) fn pass(state: &mut State, seat: Seat) -> Result<Vec<Event>, PlayError> {
    require_play_step(state)?;
    state.acted.insert(seat);
    state.passed.insert(seat);
    let mut events = vec![Event::Public(PublicEvent::Passed { seat })];
    if round_over(state) {
        round::end_play_step(state, &mut events);
    } else {
        state.current = state.next_active_after(seat);
    }
    Ok(events)
}

/// Whether every player still in, except the last one to play, has passed since that play.
pub(crate) fn round_over(state: &State) -> bool {
    state
        .active()
        .iter()
        .all(|seat| Some(seat) == state.last_player || state.passed.contains(seat))
}

/// Why `seat` may not castle now, or `None` when it may (§3 step 2).
fn castle_refusal(state: &State, seat: Seat) -> Option<&'static str> {
    let player = state.player(seat);
    if player.castled {
        return Some("you have castled already in this game");
    }
    if state.acted.contains(seat) {
        return Some("castling must be your first action of the round");
    }
    let Some(pile) = state.pile(seat) else {
        return Some("you have no pile this round");
    };
    if pile.source != PileSource::DeckTop
        || pile.cards.first() != Some(&Card::new(seat, Role::King))
    {
        return Some("your pile was not opened with your King from the top of your deck");
    }
    if pile.cards.len() != 1 {
        return Some("a card has been played on your pile this round");
    }
    if !player.holds(Role::Rook) {
        return Some("you hold no Rook");
    }
    None
}

/// §3 step 2 Castle: the Rook from the hand takes the King's place on the own pile, and the King
/// goes to the hand. Breaks the "Pawns only" status (§7.6).
pub(crate) fn castle(state: &mut State, seat: Seat) -> Result<Vec<Event>, PlayError> {
    require_play_step(state)?;
    if let Some(reason) = castle_refusal(state, seat) {
        return Err(PlayError::Illegal(reason.into()));
    }
    let player = state.player_mut(seat);
    player.hand[Role::Rook.index()] -= 1;
    player.hand[Role::King.index()] += 1;
    player.castled = true;
    player.pawns_only = false;
    if let Some(pile) = state.piles[seat.index()].as_mut() {
        pile.cards[0] = Card::new(seat, Role::Rook);
    }
    let events = vec![Event::Public(PublicEvent::Castled { seat })];
    after_play(state, seat);
    Ok(events)
}

/// Why `seat` may not move Pawns en passant now, or `None` when it may (§3 step 2, §7.6): it
/// has played at least once this round, Pawns only, and so has some opponent, and it has moves
/// left this round.
fn en_passant_refusal(state: &State, seat: Seat) -> Option<&'static str> {
    let player = state.player(seat);
    if player.en_passant_used >= state.config.en_passant_per_round {
        return Some("you have no en passant move left this round");
    }
    if player.plays == 0 || !player.pawns_only {
        return Some("en passant needs you to have played Pawns only this round");
    }
    let opponent_ready = state.seats().any(|other| {
        state.opponents(seat, other) && {
            let rival = state.player(other);
            !rival.out && rival.plays > 0 && rival.pawns_only
        }
    });
    if !opponent_ready {
        return Some("en passant needs an opponent who has played Pawns only this round");
    }
    None
}

/// §3 step 2 En passant: `pawns` of the own Pawns move from one pile to another, in place of
/// playing a card. Counts as a Pawn play (§7.6).
pub(crate) fn en_passant(
    state: &mut State,
    seat: Seat,
    from: Seat,
    to: Seat,
    pawns: u8,
) -> Result<Vec<Event>, PlayError> {
    require_play_step(state)?;
    if let Some(reason) = en_passant_refusal(state, seat) {
        return Err(PlayError::Illegal(reason.into()));
    }
    require_pile(state, from)?;
    require_pile(state, to)?;
    if from == to {
        return Err(PlayError::Illegal(
            "en passant moves Pawns to another pile".into(),
        ));
    }
    let own = own_pawns(state, from, seat);
    if pawns == 0 || pawns > own {
        return Err(PlayError::Illegal(format!(
            "move 1 to {own} of your Pawns from the pile of seat {}",
            from.0
        )));
    }
    let pawn = Card::new(seat, Role::Pawn);
    if let Some(source) = state.piles[from.index()].as_mut() {
        // The most recent Pawns move first, so the starting piece moves last.
        for _ in 0..pawns {
            if let Some(index) = source.cards.iter().rposition(|card| *card == pawn) {
                source.cards.remove(index);
            }
        }
    }
    if let Some(target) = state.piles[to.index()].as_mut() {
        target
            .cards
            .extend(std::iter::repeat_n(pawn, usize::from(pawns)));
    }
    state.player_mut(seat).en_passant_used += 1;
    let events = vec![Event::Public(PublicEvent::EnPassant {
        seat,
        from,
        to,
        pawns,
    })];
    after_play(state, seat);
    Ok(events)
}

/// Bookkeeping of every play: the seat has acted and is the last player, nobody has passed
/// since, and the turn moves on.
fn after_play(state: &mut State, seat: Seat) {
    state.player_mut(seat).plays += 1;
    state.acted.insert(seat);
    state.passed = SeatSet::EMPTY;
    state.last_player = Some(seat);
    state.current = state.next_active_after(seat);
}
