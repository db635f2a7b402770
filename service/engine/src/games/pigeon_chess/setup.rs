//! §2 setup: shuffles and deals, the two secret row placements, the first-player reveal and the
//! final reveal and draw.
//!
//! Setup is simultaneous: during steps 2–4 every seat that has not yet made the current step's
//! choice is to act, and the step resolves once both have chosen. A committed row lies face down
//! on the board (its owner sees it), so the observation shows the commitment without its cards.
//! The seat whose back row arrives first is recorded for the second first-player tie-break
//! (§2.4, §7.3); arrival order is the order in which actions are applied.

use std::cmp::Ordering;

use super::action::Action;
use super::config::Config;
use super::event::{Event, RowSide};
use super::observation::Phase;
use super::piece::Role;
use super::state::{Card, Hand, SEATS, State, hand_cards, row_spots, seats};
use super::turn;
use crate::game::{PlayError, SetupError};
use crate::games::common::Deal;
use crate::rng::shuffle;
use crate::seat::Seat;

/// §2.1, §2.3: the hand size drawn to at the start and before the back row.
const HAND_SIZE: usize = 5;

/// §2.1: builds and shuffles both decks and deals five cards to each seat.
pub(crate) fn new_game(deal: Deal<'_, Config>) -> Result<(State, Vec<Event>), SetupError> {
    let config = deal.config;
    config.validate()?;
    let mut state = State::empty(config.clone(), deal.edition, deal.rng);
    let mut events = Vec::new();
    for seat in seats() {
        let mut deck: Vec<Role> = Role::ALL
            .iter()
            .flat_map(|piece| std::iter::repeat_n(*piece, usize::from(config.count(*piece))))
            .collect();
        shuffle(&mut deck, &mut state.rng);
        state.decks[seat.index()] = deck;
        events.push(Event::DeckShuffled { seat });
    }
    for seat in seats() {
        draw(&mut state, seat, HAND_SIZE, &mut events);
    }
    Ok((state, events))
}

/// Moves up to `count` cards from the top of `seat`'s deck to its hand, reporting them.
pub(crate) fn draw(state: &mut State, seat: Seat, count: usize, events: &mut Vec<Event>) {
    let deck = &mut state.decks[seat.index()];
    let take = count.min(deck.len());
    if take == 0 {
        return;
    }
    let pieces: Vec<Role> = deck.drain(deck.len() - take..).rev().collect();
    for piece in &pieces {
        state.hands[seat.index()][piece.index()] += 1;
    }
    events.push(Event::CardsDrawn { seat, pieces });
}

/// The setup choices `seat` may make now (§2.2–§2.4); empty once it has chosen.
pub(crate) fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    if !state.to_act().contains(seat) {
        return Vec::new();
    }
    let hand = &state.hands[seat.index()];
    match state.phase {
        Phase::FrontRow => triples(hand)
            .into_iter()
            .map(Action::PlaceFrontRow)
            .collect(),
        Phase::BackRow => triples(hand)
            .into_iter()
            .map(Action::PlaceBackRow)
            .collect(),
        Phase::FirstPlayer => distinct(hand).map(Action::RevealForFirst).collect(),
        Phase::Play | Phase::Finished => Vec::new(),
    }
}

/// Each piece the hand holds, once, highest worth first.
fn distinct(hand: &Hand) -> impl Iterator<Item = Role> + '_ {
    Role::ALL
        .iter()
        .rev()
        .copied()
        .filter(|piece| hand[piece.index()] > 0)
}

/// Every distinct ordered triple of hand cards (identical pieces are not told apart).
fn triples(hand: &Hand) -> Vec<[Role; 3]> {
    let mut out = Vec::new();
    let mut rest = *hand;
    for a in distinct(hand) {
        rest[a.index()] -= 1;
        for b in distinct(&rest).collect::<Vec<_>>() {
            rest[b.index()] -= 1;
            for c in distinct(&rest) {
                out.push([a, b, c]);
            }
            rest[b.index()] += 1;
        }
        rest[a.index()] += 1;
    }
    out
}

/// The hand without `pieces`, or an error when the seat does not hold them all.
fn without(hand: &Hand, pieces: &[Role]) -> Result<Hand, PlayError> {
    let mut rest = *hand;
    for piece in pieces {
        let count = &mut rest[piece.index()];
        if *count == 0 {
            return Err(PlayError::Illegal(format!(
                "you do not hold enough {piece} cards for that"
            )));
        }
        *count -= 1;
    }
    Ok(rest)
}

/// §2.2 / §2.3: `seat` puts three hand cards face down on its front or back row. Once both seats
/// have done so, the step resolves.
pub(crate) fn place_row(
    state: &mut State,
    seat: Seat,
    side: RowSide,
    pieces: [Role; 3],
) -> Result<Vec<Event>, PlayError> {
    let expected = match side {
        RowSide::Front => Phase::FrontRow,
        RowSide::Back => Phase::BackRow,
    };
    if state.phase != expected {
        return Err(PlayError::Illegal(format!(
            "{} rows are chosen only in their setup step",
            side_name(side)
        )));
    }
    let rest = without(&state.hands[seat.index()], &pieces)?;
    state.hands[seat.index()] = rest;
    for (spot, piece) in row_spots(seat, side).into_iter().zip(pieces) {
        state.board[spot.index()] = Some(Card {
            owner: seat,
            piece,
            face_down: true,
        });
    }
    if side == RowSide::Back && state.back_row_first.is_none() {
        state.back_row_first = Some(seat);
    }
    let mut events = vec![Event::RowCommitted { seat, side, pieces }];
    if state.to_act().is_empty() {
        match side {
            RowSide::Front => {
                // §2.2: both rows are revealed, then §2.3: each draws back up to five.
                let rows = reveal_rows(state, RowSide::Front);
                events.push(Event::RowsRevealed {
                    side: RowSide::Front,
                    rows,
                });
                for seat in seats() {
                    let missing = HAND_SIZE.saturating_sub(state.hand_count(seat));
                    draw(state, seat, missing, &mut events);
                }
                state.phase = Phase::BackRow;
            }
            RowSide::Back => state.phase = Phase::FirstPlayer,
        }
    }
    Ok(events)
}

/// Turns both seats' rows on `side` face up and returns them, by seat.
fn reveal_rows(state: &mut State, side: RowSide) -> [[Role; 3]; SEATS] {
    let mut rows = [[Role::Pawn; 3]; SEATS];
    for seat in seats() {
        for (column, spot) in row_spots(seat, side).into_iter().enumerate() {
            if let Some(card) = state.board[spot.index()].as_mut() {
                card.face_down = false;
                rows[seat.index()][column] = card.piece;
            }
        }
    }
    rows
}

fn side_name(side: RowSide) -> &'static str {
    match side {
        RowSide::Front => "front",
        RowSide::Back => "back",
    }
}

/// §2.4: `seat` picks, in secret, the hand card that decides the first player. Once both have
/// picked, the first player is chosen and §2.5 follows at once.
pub(crate) fn reveal_for_first(
    state: &mut State,
    seat: Seat,
    piece: Role,
) -> Result<Vec<Event>, PlayError> {
    if state.phase != Phase::FirstPlayer {
        return Err(PlayError::Illegal(
            "the first-player card is picked only in setup step 4".into(),
        ));
    }
    if state.hands[seat.index()][piece.index()] == 0 {
        return Err(PlayError::Illegal(format!(
            "you do not hold a {piece} card"
        )));
    }
    state.first_picks[seat.index()] = Some(piece);
    let mut events = vec![Event::FirstPlayerPicked { seat, piece }];
    if state.to_act().is_empty() {
        choose_first_player(state, &mut events);
        finish_setup(state, &mut events);
    }
    Ok(events)
}

/// §2.4: compares the picks by worth, then the other hand cards, then the back-row arrival
/// order, with seat 0 as the fallback.
fn choose_first_player(state: &mut State, events: &mut Vec<Event>) {
    let mut reveals: [Vec<Role>; SEATS] = [Vec::new(), Vec::new()];
    let mut picks = [Role::Pawn; SEATS];
    for seat in seats() {
        let pick = state.first_picks[seat.index()]
            .take()
            .expect("both seats have picked");
        picks[seat.index()] = pick;
        reveals[seat.index()].push(pick);
    }
    let mut winner = compare(picks);
    if winner.is_none() {
        // First tie: each reveals its other hand card (the hand holds two at this step).
        let others = seats().map(|seat| {
            let hand = &state.hands[seat.index()];
            let rest = without(hand, &[picks[seat.index()]]).unwrap_or(*hand);
            hand_cards(&rest).first().copied()
        });
        let others: Vec<Option<Role>> = others.collect();
        if let [Some(first), Some(second)] = others[..] {
            reveals[0].push(first);
            reveals[1].push(second);
            winner = compare([first, second]);
        }
    }
    let decided_by_arrival = winner.is_none();
    // Second tie: the back row that arrived first; seat 0 when unknown (§7.3).
    let first_player = winner.unwrap_or(state.back_row_first.unwrap_or(Seat(0)));
    state.first_reveals = reveals.clone();
    state.first_player = Some(first_player);
    events.push(Event::FirstPlayerChosen {
        reveals,
        first_player,
        decided_by_arrival,
    });
}

/// The seat whose card is worth more, or `None` on a tie.
fn compare(cards: [Role; SEATS]) -> Option<Seat> {
    match cards[0].cmp(&cards[1]) {
        Ordering::Greater => Some(Seat(0)),
        Ordering::Less => Some(Seat(1)),
        Ordering::Equal => None,
    }
}

/// §2.5–§2.6: both back rows are revealed, every seat draws its whole deck, and the first
/// player's turn begins.
fn finish_setup(state: &mut State, events: &mut Vec<Event>) {
    let rows = reveal_rows(state, RowSide::Back);
    events.push(Event::RowsRevealed {
        side: RowSide::Back,
        rows,
    });
    for seat in seats() {
        let remaining = state.decks[seat.index()].len();
        draw(state, seat, remaining, events);
    }
    let first = state.first_player.unwrap_or(Seat(0));
    turn::begin_play(state, first, events);
}
