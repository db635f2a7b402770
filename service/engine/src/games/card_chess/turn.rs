//! §3 turns (play in, exchange, move), §5 capture resolution and replacement, the check rule,
//! the end of turn (refill and reshuffle), and the end of the game (§6, §9).
//!
//! A turn is one play-in, exchange or move. A capture that reveals an opponent-coloured card
//! leaves the turn open in [`Phase::Replacement`] until the capturer replaces the card or keeps
//! it (§5.4); the check rule then runs on the destination and the turn ends. At the end of every
//! turn the mover refills to five, the win and the §9 limits are checked, and the next turn
//! starts; a player without any legal action at the start of its turn loses or is stalemated at
//! once (§6).
//!
//! Two rules depend on the game's edition (§10): the second edition reports the stalemate as
//! [`EndReason::Stalemate`] (§10.1) and reshuffles the discard pile as soon as the draw pile
//! becomes empty (§10.2); the first keeps its original behaviour for stored games.

use super::CardChess;
use super::action::Action;
use super::event::Event;
use super::movement::{Step, Steps, has_any_move, steps, steps_into};
use super::observation::Phase;
use super::spot::Spot;
use super::state::{
    HAND_SIZE, MAX_IN_PLAY, State, colour_of, for_each_distinct, opponent_castle, own_castle,
    owner_of, seats,
};
use crate::cards::Card;
use crate::edition::Edition;
use crate::game::{EndReason, Outcome, PlayError};
use crate::games::common;
use crate::rng::shuffle;
use crate::seat::Seat;

/// The actions `seat` may take now, in a deterministic order: in [`Phase::Play`] the play-ins
/// (cards in sorted order, then castle files 1–5), the exchange, then the moves (by origin spot,
/// then destination); in [`Phase::Replacement`] keeping the revealed card, then each distinct
/// opponent-coloured hand card.
pub(crate) fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    if !state.to_act().contains(seat) {
        return Vec::new();
    }
    match state.phase {
        Phase::Play => {
            // Enough for a typical turn: a few play-ins, the exchange and a dozen moves.
            let mut actions = Vec::with_capacity(32);
            push_play_ins(state, seat, &mut actions);
            if may_exchange(state, seat) {
                actions.push(Action::Exchange);
            }
            let mut destinations = Steps::new((Spot::FIRST, Step::Move));
            for from in Spot::all() {
                steps_into(state, seat, from, &mut destinations);
                for &(to, _) in destinations.iter() {
                    actions.push(Action::Move { from, to });
                }
            }
            actions
        }
        Phase::Replacement => {
            let mut actions = vec![Action::KeepRevealed];
            let theirs = colour_of(seat).other();
            for_each_distinct(state.hand(seat), |card| {
                // §5.4: only opponent-coloured cards replace the revealed one.
                if card.colour() == theirs {
                    actions.push(Action::Replace { card });
                }
            });
            actions
        }
        Phase::Finished => Vec::new(),
    }
}

/// §3.A: every (card, spot) `seat` may play in, as actions: own-coloured hand cards (each
/// distinct card once, in sorted order) on free castle spots (files 1–5), while fewer than five
/// of its pieces are in play.
fn push_play_ins(state: &State, seat: Seat, actions: &mut Vec<Action>) {
    if state.pieces_in_play(seat) >= MAX_IN_PLAY {
        return;
    }
    let colour = colour_of(seat);
    for_each_distinct(state.hand(seat), |card| {
        if card.colour() == colour {
            // The free spots are looked up again for each card: five checks, no buffer.
            actions.extend(
                state
                    .free_castle_spots(seat)
                    .map(|spot| Action::PlayIn { card, spot }),
            );
        }
    });
}

/// §3.A: whether `seat` could play in a card now.
fn can_play_in(state: &State, seat: Seat) -> bool {
    let colour = colour_of(seat);
    state.pieces_in_play(seat) < MAX_IN_PLAY
        && state.free_castle_spots(seat).next().is_some()
        && state.hand(seat).iter().any(|card| card.colour() == colour)
}

/// §3.B: exchanging is allowed unless the seat's previous turn was an exchange.
fn may_exchange(state: &State, seat: Seat) -> bool {
    !state.exchanged_last[seat.index()]
}

/// §6: whether `seat` has any legal A, B or C now.
pub(crate) fn has_legal_action(state: &State, seat: Seat) -> bool {
    may_exchange(state, seat) || can_play_in(state, seat) || has_any_move(state, seat)
}

/// §6, §8.9: whether `seat` could play in or move a piece if it were its turn (an exchange does
/// not count).
fn could_play_in_or_move(state: &State, seat: Seat) -> bool {
    can_play_in(state, seat) || has_any_move(state, seat)
}

/// Applies one action of `seat`; on error the state is unchanged.
pub(crate) fn apply(
    state: &mut State,
    seat: Seat,
    action: &Action,
) -> Result<Vec<Event>, PlayError> {
    common::check_may_act::<CardChess>(state, seat)?;
    match *action {
        Action::PlayIn { card, spot } => play_in(state, seat, card, spot),
        Action::Exchange => exchange(state, seat),
        Action::Move { from, to } => play_move(state, seat, from, to),
        Action::Replace { card } => replace(state, seat, card),
        Action::KeepRevealed => keep_revealed(state, seat),
    }
}

/// Checks that the game is in `phase`, with a public reason otherwise.
fn require_phase(state: &State, phase: Phase) -> Result<(), PlayError> {
    if state.phase == phase {
        return Ok(());
    }
    Err(PlayError::Illegal(match phase {
        Phase::Play => "first decide whether to replace the revealed card".into(),
        _ => "there is no revealed card to replace".into(),
    }))
}

/// §3.A: play `card` in on `spot`.
fn play_in(state: &mut State, seat: Seat, card: Card, spot: Spot) -> Result<Vec<Event>, PlayError> {
    require_phase(state, Phase::Play)?;
    if card.colour() != colour_of(seat) {
        return Err(PlayError::Illegal(format!(
            "only {} cards are played in by this seat",
            colour_of(seat)
        )));
    }
    if !state.hand(seat).contains(&card) {
        return Err(PlayError::Illegal(format!("you do not hold the {card}")));
    }
    if spot.rank() != own_castle(seat) {
        return Err(PlayError::Illegal(format!(
            "{spot} is not in your castle; cards are played in only there"
        )));
    }
    if !state.free_castle_spots(seat).any(|free| free == spot) {
        return Err(PlayError::Illegal(format!(
            "{spot} is not free: it holds a piece or is in check"
        )));
    }
    if state.pieces_in_play(seat) >= MAX_IN_PLAY {
        return Err(PlayError::Illegal(format!(
            "you already have {MAX_IN_PLAY} pieces in play"
        )));
    }
    state.take_from_hand(seat, card);
    state.board[spot.index()].piece = Some(card);
    state.exchanged_last[seat.index()] = false;
    let mut events = vec![Event::PlayedIn { seat, card, spot }];
    resolve(state, seat, spot, true, &mut events);
    Ok(events)
}

/// §3.B: show the hand, discard it and draw five.
fn exchange(state: &mut State, seat: Seat) -> Result<Vec<Event>, PlayError> {
    require_phase(state, Phase::Play)?;
    if !may_exchange(state, seat) {
        return Err(PlayError::Illegal(
            "you may not exchange twice in a row".into(),
        ));
    }
    let cards = std::mem::take(&mut state.hands[seat.index()]);
    state.discard.extend(cards.iter().copied());
    state.exchanged_last[seat.index()] = true;
    let mut events = vec![Event::Exchanged { seat, cards }];
    draw(state, seat, HAND_SIZE, &mut events);
    complete_turn(state, seat, false, &mut events);
    Ok(events)
}

/// §3.C: move the piece on `from` to `to`, capturing what stands there (§5).
fn play_move(state: &mut State, seat: Seat, from: Spot, to: Spot) -> Result<Vec<Event>, PlayError> {
    require_phase(state, Phase::Play)?;
    let here = state.spot(from);
    let piece = match here.piece {
        Some(piece) if owner_of(piece) == seat => piece,
        _ => {
            return Err(PlayError::Illegal(format!(
                "there is no piece of yours on {from}"
            )));
        }
    };
    if here.in_check {
        return Err(PlayError::Illegal(format!(
            "the {piece} on {from} is in check and can never move"
        )));
    }
    let Some(&(_, step)) = steps(state, seat, from)
        .iter()
        .find(|(spot, _)| *spot == to)
    else {
        return Err(PlayError::Illegal(format!(
            "the {piece} on {from} cannot move to {to}"
        )));
    };
    state.exchanged_last[seat.index()] = false;
    state.board[from.index()].piece = None;
    let mut events = Vec::new();
    match step {
        Step::Move | Step::Jump => {
            state.board[to.index()].piece = Some(piece);
            events.push(Event::Moved {
                seat,
                from,
                to,
                piece,
                jump: step == Step::Jump,
            });
            resolve(state, seat, to, false, &mut events);
        }
        Step::Capture => capture(state, seat, from, to, piece, &mut events),
    }
    Ok(events)
}

/// §5 steps 1–4: discard the captured piece, flip the spot, and either open the replacement
/// choice or go on to the check rule.
fn capture(
    state: &mut State,
    seat: Seat,
    from: Spot,
    to: Spot,
    piece: Card,
    events: &mut Vec<Event>,
) {
    let target = &mut state.board[to.index()];
    let captured = target
        .piece
        .take()
        .expect("a capture targets a spot with a piece");
    // Step 3: the capturing card goes face down and is known to all; the old base card turns
    // face up and becomes the piece, owned by its colour.
    let revealed = std::mem::replace(&mut target.base, piece);
    target.base_known = true;
    target.piece = Some(revealed);
    state.discard.push(captured);
    events.push(Event::Captured {
        seat,
        from,
        to,
        piece,
        captured,
        revealed,
    });
    if owner_of(revealed) == seat {
        resolve(state, seat, to, true, events);
    } else {
        // Step 4 is a choice of the capturer. It is offered whenever the revealed card is the
        // opponent's, even when the hand holds no card to replace it with, so that the flow of
        // the game never tells anyone what the capturer holds.
        state.phase = Phase::Replacement;
        state.replacement_spot = Some(to);
    }
}

/// The spot of the pending replacement choice.
fn pending_spot(state: &State) -> Result<Spot, PlayError> {
    require_phase(state, Phase::Replacement)?;
    state
        .replacement_spot
        .ok_or_else(|| PlayError::Illegal("there is no revealed card to replace".into()))
}

/// §5.4: replace the revealed card with `card` from the hand; the revealed card is discarded.
fn replace(state: &mut State, seat: Seat, card: Card) -> Result<Vec<Event>, PlayError> {
    let spot = pending_spot(state)?;
    if card.colour() == colour_of(seat) {
        return Err(PlayError::Illegal(format!(
            "the revealed card is replaced only with a {} card",
            colour_of(seat).other()
        )));
    }
    if !state.take_from_hand(seat, card) {
        return Err(PlayError::Illegal(format!("you do not hold the {card}")));
    }
    let discarded = state.board[spot.index()]
        .piece
        .replace(card)
        .expect("the revealed card stands on the spot");
    state.discard.push(discarded);
    state.phase = Phase::Play;
    state.replacement_spot = None;
    let mut events = vec![Event::Replaced {
        seat,
        spot,
        card,
        discarded,
    }];
    resolve(state, seat, spot, true, &mut events);
    Ok(events)
}

/// §5.4: leave the revealed card as it is.
fn keep_revealed(state: &mut State, seat: Seat) -> Result<Vec<Event>, PlayError> {
    let spot = pending_spot(state)?;
    state.phase = Phase::Play;
    state.replacement_spot = None;
    let mut events = vec![Event::RevealedKept { seat, spot }];
    resolve(state, seat, spot, true, &mut events);
    Ok(events)
}

/// §3 Check, once the action has fully resolved (§8.8: only the destination is looked at): a
/// piece of the mover's colour on the opponent's castle rank goes into check for good. Then the
/// turn ends. `progress` says whether the action captured or played in (§9).
fn resolve(
    state: &mut State,
    seat: Seat,
    destination: Spot,
    progress: bool,
    events: &mut Vec<Event>,
) {
    let mut progress = progress;
    let spot = &mut state.board[destination.index()];
    if let Some(piece) = spot.piece
        && owner_of(piece) == seat
        && destination.rank() == opponent_castle(seat)
        && !spot.in_check
    {
        spot.in_check = true;
        progress = true;
        events.push(Event::Checked {
            seat,
            spot: destination,
            piece,
        });
    }
    complete_turn(state, seat, progress, events);
}

/// §3 end of turn: refill the mover's hand, count the turn, decide §6 win and §9 limits, and
/// start the opponent's turn.
fn complete_turn(state: &mut State, seat: Seat, progress: bool, events: &mut Vec<Event>) {
    let missing = HAND_SIZE.saturating_sub(state.hand(seat).len());
    draw(state, seat, missing, events);
    state.turns_taken += 1;
    state.turns_without_progress = if progress {
        0
    } else {
        state.turns_without_progress + 1
    };
    if let Some(outcome) = turn_end_outcome(state, seat) {
        finish(state, outcome);
        return;
    }
    start_turn(state, seat.opponent(), events);
}

/// §6 win by five checks, then the §9 no-progress draw and hard cap.
fn turn_end_outcome(state: &State, seat: Seat) -> Option<Outcome> {
    if state.checks(seat) >= MAX_IN_PLAY {
        // The scores are each seat's checks, so the outcome reads "seat 0 wins 5 to 2".
        return Some(Outcome {
            scores: seats().map(|seat| state.checks(seat) as i32).collect(),
            ..Outcome::win(seat, EndReason::Score)
        });
    }
    let limit = state.config.no_progress_turns;
    if limit > 0 && state.turns_without_progress >= limit {
        return Some(Outcome::draw(EndReason::NoProgress));
    }
    if state.turns_taken >= state.config.max_turns {
        return Some(Outcome::draw(EndReason::TurnCap));
    }
    None
}

/// §3, §6: `seat`'s turn begins. Without any legal action it loses if the opponent could play
/// in or move, and the game is a stalemate otherwise; both hands are shown, because the result
/// depends on them.
fn start_turn(state: &mut State, seat: Seat, events: &mut Vec<Event>) {
    state.current = seat;
    state.phase = Phase::Play;
    if has_legal_action(state, seat) {
        return;
    }
    let opponent = seat.opponent();
    let opponent_could_act = could_play_in_or_move(state, opponent);
    let hands = state.hands.clone();
    state.shown_hands = Some(hands.clone());
    events.push(Event::NoLegalAction {
        seat,
        hands,
        opponent_could_act,
    });
    let outcome = if opponent_could_act {
        Outcome::win(opponent, EndReason::NoLegalAction)
    } else if state.edition.has(Edition::SECOND) {
        // §10.1: the original text calls this draw a stalemate, and so does the result.
        Outcome::draw(EndReason::Stalemate)
    } else {
        Outcome::draw(EndReason::NoLegalAction)
    };
    finish(state, outcome);
}

/// Ends the game.
fn finish(state: &mut State, outcome: Outcome) {
    state.outcome = Some(outcome);
    state.phase = Phase::Finished;
    state.replacement_spot = None;
}

/// Draws up to `count` cards for `seat`, shuffling the discard pile into a new draw pile when
/// the draw pile runs out, and drawing what there is when both are empty (§3 end of turn).
/// Reports each batch drawn and each reshuffle, in order.
///
/// When the reshuffle happens is an edition matter (§8.12, §10.2). The original text says the
/// discard pile replaces the draw pile "when the draw pile becomes empty", so from
/// [`Edition::SECOND`] on the discard pile is shuffled in as soon as the last card is drawn:
/// cards discarded later (captured pieces, an exchanged hand) go to the new discard pile, not
/// into the pile being drawn from. [`Edition::FIRST`] reshuffled only when a card had to be
/// drawn from an empty pile, so the pile could stand empty between turns. Both editions still
/// reshuffle on demand, which under the second edition is needed only if the discard pile was
/// empty when the draw pile ran out (it never is: at least 44 cards are always in the two piles,
/// §8.11).
pub(crate) fn draw(state: &mut State, seat: Seat, count: usize, events: &mut Vec<Event>) {
    let at_once = state.edition.has(Edition::SECOND);
    let mut batch = Vec::new();
    let mut drawn = 0;
    while drawn < count {
        if let Some(card) = state.draw_pile.pop() {
            batch.push(card);
            drawn += 1;
            if at_once && state.draw_pile.is_empty() && !state.discard.is_empty() {
                add_to_hand(state, seat, &mut batch, events);
                reshuffle_discard(state, events);
            }
            continue;
        }
        if state.discard.is_empty() {
            break;
        }
        add_to_hand(state, seat, &mut batch, events);
        reshuffle_discard(state, events);
    }
    add_to_hand(state, seat, &mut batch, events);
}

/// §3 end of turn: the discard pile, shuffled, becomes the draw pile.
fn reshuffle_discard(state: &mut State, events: &mut Vec<Event>) {
    state.draw_pile = std::mem::take(&mut state.discard);
    shuffle(&mut state.draw_pile, &mut state.rng);
    events.push(Event::DiscardReshuffled {
        cards: state.draw_pile.len() as u32,
    });
}

/// Puts the drawn `batch` into `seat`'s hand (kept sorted) and reports it; nothing when empty.
fn add_to_hand(state: &mut State, seat: Seat, batch: &mut Vec<Card>, events: &mut Vec<Event>) {
    if batch.is_empty() {
        return;
    }
    let cards = std::mem::take(batch);
    let hand = &mut state.hands[seat.index()];
    hand.extend(cards.iter().copied());
    hand.sort_unstable();
    events.push(Event::CardsDrawn { seat, cards });
}
